"""The table drill: a real shoe, computer seats, what is counted (burn and hole cards), and the drift."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from drills.base import DrillOptions, Lines, Question
from drills.counting.table import AFTER_DEAL, END_OF_SHOE, TableDrill
from trainer.core.cards import Card, parse_card
from trainer.core.counting import find_system, format_count, parse_count
from trainer.core.errors import InvalidInputError
from trainer.core.events import DEALER, Dealt
from trainer.core.round import Round
from trainer.core.rulesfile import find_ruleset
from trainer.practice.session import DrillRun, ListRecorder


def _hole_card(round_: Round) -> Card:
    """The dealer's face-down card, as the deal recorded it."""
    return next(e.card for e in round_.events if isinstance(e, Dealt) and e.seat == DEALER and not e.face_up)


def _count(question: Question) -> Fraction:
    """The expected count, from the question's data alone."""
    system = find_system(question.data["system"])
    cards = [parse_card(c) for c in question.data["cards"]]
    return Fraction(question.data["initial_running_count"]) + sum(
        (Fraction(system.tag(c)) for c in cards), Fraction(0))


def _drill(rules: str = "casino", seed: int = 1, **options: object) -> tuple[TableDrill, DrillRun]:
    drill = TableDrill(DrillOptions(**options))
    return drill, DrillRun(drill=drill, ruleset=find_ruleset(rules), rng=random.Random(seed),
                          recorder=ListRecorder())


@pytest.mark.parametrize("rules, decks, seats", [
    ("casino", None, 4), ("casino", 1, 7), ("bicycle", None, 3), ("european", None, 5),
    ("eight-deck", None, 2), ("casino-h17", 2, 7),
])
def test_the_count_is_minus_everything_still_unseen(rules: str, decks: int | None, seats: int) -> None:
    """A balanced count at any checkpoint is minus the tags of every card not yet seen: the cards left
    in the shoe, the burn card, and a hole card still face down. It holds through mid-round run-outs."""
    drill, session = _drill(rules, seed=seats, seats=seats, decks=decks)
    hi_lo = find_system("hi-lo")
    kinds, ran_out = set(), False
    for _ in range(60):
        _, question = session.ask()
        shoe = drill.shoe
        assert shoe is not None
        assert Fraction(question.expected) == _count(question)
        unseen = list(shoe.remaining_cards()) + list(shoe.burned)
        if question.data["checkpoint"] == AFTER_DEAL:
            assert drill.paused_round is not None
            unseen.append(_hole_card(drill.paused_round))
        assert _count(question) == -sum(hi_lo.tag(c) for c in unseen)
        kinds.add(question.data["checkpoint"])
        lines = next(s for s in question.show if isinstance(s, Lines)).lines
        ran_out = ran_out or any("The shoe has run out" in line for line in lines)
        session.after(question, session.answer(question, question.expected))
    every_round = find_ruleset(rules).shoe.reshuffle.value == "every-round"
    assert kinds == ({AFTER_DEAL, END_OF_SHOE} if every_round else {"hidden", AFTER_DEAL, END_OF_SHOE})
    if (rules, decks, seats) == ("casino", 1, 7):
        assert ran_out  # seven seats outrun one deck's cut card


def test_the_end_of_the_shoe_is_asked_and_the_count_starts_again() -> None:
    drill, session = _drill(decks=1, seats=7, seed=3)
    for _ in range(30):
        _, question = session.ask()
        note = session.after(question, session.answer(question, question.expected))
        if question.data["checkpoint"] == END_OF_SHOE:
            assert note is not None and note.startswith("End of the shoe:")
            assert drill.shoe is not None and drill.shoe.needs_shuffle
            break
    else:
        pytest.fail("no end of the shoe in 30 questions of a one-deck game")
    _, after_shuffle = session.ask()
    lines = next(s for s in after_shuffle.show if isinstance(s, Lines)).lines
    assert any("shuffles a new shoe: 1 burn card face down" in line for line in lines)
    assert len(after_shuffle.data["cards"]) < len(question.data["cards"])


def test_every_round_is_the_end_of_the_shoe_when_the_dealer_reshuffles_each_round() -> None:
    _, session = _drill("eight-deck", seats=2)
    for _ in range(5):
        _, question = session.ask()
        assert question.data["checkpoint"] in (END_OF_SHOE, AFTER_DEAL)
        if question.data["checkpoint"] == END_OF_SHOE:
            assert question.data["rounds"][0] == question.data["rounds"][1]
        session.after(question, session.answer(question, question.expected))


def test_a_wrong_count_shows_the_first_round_it_can_have_gone_wrong_in() -> None:
    _, session = _drill(seed=9, seats=3)
    _, first = session.ask()
    session.after(first, session.answer(first, first.expected))
    _, second = session.ask()
    start = first.data["rounds"][1] + (0 if first.data["checkpoint"] == AFTER_DEAL else 1)
    wrong = session.answer(second, str(int(second.expected) - 1))
    session.after(second, wrong)
    assert not wrong.correct and wrong.verdict == "1 too low"
    assert wrong.explanation.startswith(f"The count was {format_count(parse_count(second.expected))}; you said ")
    assert f"The count first went wrong in round {start} or after" in wrong.explanation
    _, third = session.ask()
    still = session.answer(third, str(int(third.expected) - 1))
    assert f"in round {start} or after" in still.explanation  # the drift began where it began
    assert still.explanation.count("round ") >= 3


def test_the_hole_card_counts_only_once_turned() -> None:
    drill, session = _drill(seed=2, seats=1)
    for _ in range(40):
        _, question = session.ask()
        if question.data["checkpoint"] == AFTER_DEAL:
            break
        session.answer(question, question.expected)
    else:
        pytest.fail("no checkpoint after a deal in 40 questions")
    table = drill.paused_round
    assert table is not None
    hole = _hole_card(table)
    down = len(question.data["cards"])
    _, played = session.ask()
    turned = [str(c) for c in played.data["cards"][down:]]
    assert str(hole) in turned  # counted in the next question, once the dealer turned it
    lines = next(s for s in question.show if isinstance(s, Lines)).lines
    assert any("Dealer:" in line and "▒▒" in line for line in lines)


def test_seats_beyond_the_table_and_red_seven_on_the_infinite_deck_are_refused() -> None:
    _, session = _drill(seats=8)
    with pytest.raises(InvalidInputError, match="seats 1 to 7"):
        session.ask()
    _, session = _drill("chat-host", system="red-7")
    with pytest.raises(InvalidInputError, match="without suits"):
        session.ask()


def test_the_infinite_deck_never_shuffles_the_count_away() -> None:
    _, session = _drill("chat-host", seats=3)
    sizes = []
    for _ in range(6):
        _, question = session.ask()
        sizes.append(len(question.data["cards"]))
        assert question.data["checkpoint"] == "hidden"
        lines = next(s for s in question.show if isinstance(s, Lines)).lines
        assert not any("shuffles" in line for line in lines)
        session.answer(question, question.expected)
    assert sizes == sorted(sizes)


def test_summary_counts_rounds_and_runs() -> None:
    drill, session = _drill(seed=4)
    for right in (True, True, False, True):
        _, question = session.ask()
        text = question.expected if right else "99"
        session.after(question, session.answer(question, text))
    lines = session.summary()
    assert lines[0] == "3 of 4 right (75%)"
    assert lines[1] == f"{drill.rounds_dealt} rounds dealt; longest run of right counts: 2"


def test_grading_reads_the_answer_as_a_count() -> None:
    """The expected count typed with a sign (+3, +0, -2) is right; one off either way is wrong."""
    drill, session = _drill()
    for _ in range(6):
        _, question = session.ask()
        count = int(_count(question))
        assert question.expected == str(count)
        right = drill.grade(question, drill.parse(question, f"{count:+d}"))
        assert right.correct and right.given == str(count)
        for off in (count - 1, count + 1):
            assert not drill.grade(question, drill.parse(question, f"{off:+d}")).correct
        session.answer(question, question.expected)


def test_a_review_item_naming_another_system_and_seats_deals_a_fresh_table_for_them() -> None:
    drill, session = _drill(seats=3)
    for _ in range(3):
        _, question = session.ask()
        session.after(question, session.answer(question, question.expected))
    _, question = session.ask("table:ko:5s")
    assert question.item == "table:ko:5s"
    assert question.data["system"] == "ko" and question.data["seats"] == 5
    lines = next(s for s in question.show if isinstance(s, Lines)).lines
    assert lines[0].startswith("A new table: 5 seats at casino") and "Knock-Out" in lines[0]
    shoe = drill.shoe
    assert shoe is not None
    unseen = len(shoe.remaining_cards()) + len(shoe.burned) + (question.data["checkpoint"] == AFTER_DEAL)
    assert len(question.data["cards"]) + unseen == 52 * 6  # every card since the new shuffle, no other
    assert Fraction(question.expected) == _count(question)
    assert question.data["initial_running_count"] == find_system("ko").initial_running_count(6)
    _, again = session.ask("table:ko:5s")  # the same table deals on
    assert not any("new table" in line for line in next(s for s in again.show if isinstance(s, Lines)).lines)
    assert again.data["cards"][:len(question.data["cards"])] == question.data["cards"]
