"""`play --wong`: sit, stay, watch or leave before each round, graded against the learner's entry and exit
counts on stacked shoes; watched rounds are dealt to the other seats and counted."""

from __future__ import annotations

import random

import pytest

from trainer.core import Shoe, load_ruleset
from trainer.core.errors import IllegalActionError, InvalidInputError
from trainer.core.wonging import Seat, Wonging, WongMove
from trainer.strategy import chart_for
from trainer.table.session import TableSession
from trainer.table.wong_checks import wong_count

CASINO = load_ruleset("casino")
NEUTRAL = " ".join(["7", "8", "9"] * 17)
"""Hi-Lo 0 cards: the count stays where the stacked rounds leave it."""
WATCHED = "8 7 6 9 9 5 2 3 4"
"""Two other seats: 8 9 (17, stands) and 7 9 (16 against a 6, stands); the dealer 6 5, draws 2 3 4 to
20. Hi-Lo: +5."""
SHORT = " ".join(["7", "8", "9"] * 9)
"""A shorter tail: 44 cards (about a deck) after the first round, 27 (half a deck) after the third."""
TENS = "T T T T T T T T"
"""Three seats and the dealer on 20 each: all push. Hi-Lo: -8."""


@pytest.fixture(scope="module")
def chart():
    return chart_for(CASINO)


def table(chart, wonging: Wonging, cards: str, **kw: object) -> TableSession:
    session = TableSession(CASINO, chart, seats=3, rng=random.Random(1), wonging=wonging, **kw)
    session.shoe = Shoe.stacked(CASINO, cards)
    return session


def watch_first_round(session: TableSession) -> None:
    decision = session.decision()
    assert decision.kind == "wong" and decision.question.choices == ("sit", "watch")
    assert decision.question.expected == "watch"  # a fresh shoe at 0, below any entry count above 0
    grade = session.answer(decision, "watch")
    assert grade is not None and grade.correct
    assert session.watching and session.round is not None and session.round.seat_count == 2
    assert not session.learner_in_turn  # the other seats played the round out
    assert session.end_round() == 0


def test_a_watched_round_moves_the_count_and_the_count_is_checked(chart) -> None:
    session = table(chart, Wonging(entry=5), f"{WATCHED} {NEUTRAL}")
    watch_first_round(session)
    assert session.tally.watched == 1 and session.tally.rounds == 1 and not session.tally.bets
    assert session.bankroll == CASINO.table.bankroll
    assert session.grade_count("running count", "5").correct
    assert not session.grade_count("running count", "4").correct


@pytest.mark.parametrize(("entry", "expected"), [(5, "sit"), (6, "watch")])
def test_a_round_at_the_entry_count_is_graded_sit_and_below_it_watch(
        chart, entry: int, expected: str) -> None:
    session = table(chart, Wonging(entry=entry), f"{WATCHED} {NEUTRAL}")
    watch_first_round(session)
    assert wong_count(session.view()).count == 5  # running +5 over about a deck left
    decision = session.decision()
    assert decision.question.expected == expected
    assert decision.question.item == f"wong:hi-lo:watching:{5 - entry:+d}"
    wrong = "watch" if expected == "sit" else "sit"
    grade = session.answer(decision, wrong)
    assert grade is not None and not grade.correct and grade.expected == expected
    assert f"entry count +{entry}" in grade.explanation


def test_a_round_below_the_exit_count_is_graded_leave_and_the_leaver_watches_until_the_shuffle(
        chart) -> None:
    session = table(chart, Wonging(entry=4, exit=0), f"{WATCHED} {TENS} {WATCHED} {SHORT}")
    watch_first_round(session)
    assert wong_count(session.view()).count == 5
    assert session.answer(session.decision(), "sit").correct
    bet = session.decision()
    assert bet.kind == "bet"
    session.answer(bet, "120")  # +5: the ramp's 12 units
    assert session.tally.bets[-1].correct
    session.answer(session.decision(), "stand")  # 20 against a 10
    assert session.end_round() == 0 and wong_count(session.view()).count == -6  # -3 over half a deck
    decision = session.decision()
    assert decision.question.choices == ("stay", "leave") and decision.question.expected == "leave"
    assert decision.question.item == "wong:hi-lo:playing:-2"
    grade = session.answer(decision, "l")
    assert grade is not None and grade.correct
    assert session.watching and session.wong_seat == Seat(gone=True)
    session.end_round()  # the third round: +5 again, back at the entry count
    assert wong_count(session.view()).count == 4
    again = session.decision()
    assert again.question.expected == "watch" and again.question.item == "wong:hi-lo:gone"


def test_an_entry_only_player_who_falls_below_leaves_and_may_sit_again(chart) -> None:
    policy = Wonging(entry=1)
    assert policy.move(Seat(playing=True), 0) is WongMove.LEAVE
    assert policy.move(policy.after(Seat(playing=True), WongMove.LEAVE), 1) is WongMove.SIT


def test_a_bet_is_refused_before_the_learner_sits_and_answers_must_be_open_moves(chart) -> None:
    session = table(chart, Wonging(entry=1), f"{WATCHED} {NEUTRAL}")
    with pytest.raises(IllegalActionError, match="sit before you bet"):
        session.start_round(10)
    decision = session.decision()
    with pytest.raises(InvalidInputError, match="you are watching: answer sit or watch"):
        session.parse(decision, "leave")
    assert session.tally.wongs == [] and session.round is None


def test_the_learner_watches_again_after_a_shuffle(chart) -> None:
    session = TableSession(CASINO, chart, seats=3, rng=random.Random(4), wonging=Wonging(entry=-10))
    session.answer(session.decision(), "sit")
    while not session.shoe.needs_shuffle:
        if session.decision().kind == "wong":
            session.answer(session.decision(), "stay")
        session.answer(session.decision(), "10")
        while session.learner_in_turn:
            session.answer(session.decision(), sorted(session.legal_actions())[0].value)
        session.end_round()
    decision = session.decision()
    assert decision.question.data["fresh_shoe"] is True and decision.question.choices == ("sit", "watch")


def test_ko_enters_and_leaves_by_its_running_count(chart) -> None:
    session = table(chart, Wonging(entry=-15), f"{WATCHED} {NEUTRAL}", system="ko")  # KO's IRC: -20
    count = wong_count(session.view())
    assert count.decks_left is None and count.count == -20
    assert session.decision().question.expected == "watch"


@pytest.mark.parametrize(("kw", "words"), [
    ({"seats": 1}, "--seats 2 or more"),
    ({"dealer_errors": 0.2}, "one at a time"),
])
def test_back_counting_refuses_what_it_cannot_do(chart, kw: dict[str, object], words: str) -> None:
    args: dict[str, object] = {"seats": 3, **kw}
    with pytest.raises(InvalidInputError, match=words):
        TableSession(CASINO, chart, rng=random.Random(1), wonging=Wonging(entry=1), **args)


def test_play_wong_takes_the_entry_and_exit_counts_of_the_plan_in_force(tmp_path) -> None:
    import json

    from trainer.table.launch import PlayOptions, wonging_for

    options = PlayOptions(ruleset="casino", wong=True)
    with pytest.raises(InvalidInputError, match="--wong needs your entry count"):
        wonging_for(options, tmp_path)
    (tmp_path / "plan.json").write_text(json.dumps({"units": {"1": 1}, "wong_in": 2, "wong_out": 0}))
    assert wonging_for(options, tmp_path) == Wonging(entry=2, exit=0)
    assert wonging_for(PlayOptions(ruleset="casino", wong=True, wong_in=3), tmp_path) == Wonging(entry=3)
    with pytest.raises(InvalidInputError, match="go with --wong"):
        wonging_for(PlayOptions(ruleset="casino", wong_in=3), tmp_path)
