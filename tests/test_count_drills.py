"""The true-count, deck-estimation and countdown drills on seeded questions, and every count drill's intro."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from fractions import Fraction

import pytest

from drills import make_drill
from drills.base import Answer, DrillOptions, Lines, Question, Tray
from drills.counting.countdown import CountdownDrill
from drills.counting.deck_estimation import DeckEstimationDrill
from drills.counting.true_count import TrueCountDrill
from trainer.core.cards import parse_cards
from trainer.core.counting import find_system, round_decks, true_count
from trainer.core.errors import InvalidInputError
from trainer.core.rulesfile import find_ruleset

CASINO = find_ruleset("casino")
COMBINATIONS = [(e, r) for e in ("full", "half", "quarter", "exact") for r in ("floor", "truncate", "round")]


def _answer(drill: object, question: Question, text: str, latency_ms: int | None = None) -> Answer:
    """The answer as a session fills it in at a terminal: its time, the learner's own pace."""
    parsed = drill.parse(question, text)
    return replace(parsed, latency_ms=latency_ms, pace="learner")


# --- true count ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("estimation, rounding", COMBINATIONS)
def test_true_count_questions_are_checkable_from_their_data(estimation: str, rounding: str) -> None:
    drill = TrueCountDrill(DrillOptions(estimation=estimation, rounding=rounding))
    rng = random.Random(f"{estimation}-{rounding}")
    for _ in range(25):
        question = drill.ask(rng, CASINO)
        data = question.data
        want = true_count(data["running_count"], round_decks(data["decks_left"], data["estimation"]),
                          data["rounding"])
        assert question.expected == str(want)
        assert question.expected == str(true_count(data["running_count"], data["decks_left"], data["rounding"]))
        assert data["exact_decks_left"] == data["cards_left"] / 52
        assert data["decks_left"] == float(round_decks(data["exact_decks_left"], data["estimation"]))
        tray = next(s for s in question.show if isinstance(s, Tray))
        assert tray.discarded + data["cards_left"] == tray.shoe_cards == 6 * 52
        assert abs(data["running_count"]) <= min(data["cards_left"], tray.discarded)
        assert drill.grade(question, _answer(drill, question, question.expected)).correct


def test_true_count_grades_slow_and_wrong_answers() -> None:
    drill = TrueCountDrill()
    question = drill.ask(random.Random(2), CASINO, item="true-count:hi-lo:half:floor:+3")
    assert question.expected == "3" and question.target_ms == 2000
    assert question.item == "true-count:hi-lo:half:floor:+3"
    fast = drill.grade(question, _answer(drill, question, "+3", 1500))
    slow = drill.grade(question, _answer(drill, question, "3", 3100))
    wrong = drill.grade(question, _answer(drill, question, "1", 900))
    assert fast.correct and fast.verdict == ""
    assert slow.correct and slow.verdict == "slow: the target is 2 s"
    assert not wrong.correct and wrong.verdict == "2 too low"
    assert "floor +3" in wrong.explanation


@pytest.mark.parametrize("text", ["abc", "+-3", "2.5"])
def test_true_count_rejects_malformed_answers(text: str) -> None:
    drill = TrueCountDrill()
    question = drill.ask(random.Random(2), CASINO)
    with pytest.raises(InvalidInputError, match="type"):
        drill.parse(question, text)


@pytest.mark.parametrize("band", ["-3", "+2", "+6"])
def test_a_review_item_deals_shoes_until_one_reaches_its_band(band: str) -> None:
    drill = TrueCountDrill()
    item = f"true-count:hi-lo:half:floor:{band}"
    question = drill.ask(random.Random(band), CASINO, item=item)
    answer = int(question.expected)
    assert question.item == item and "closest" not in question.explanation
    assert answer <= -3 if band == "-3" else (answer >= 6 if band == "+6" else answer == 2)


def test_a_band_no_shoe_reaches_is_asked_at_the_closest_and_says_so() -> None:
    question = TrueCountDrill().ask(random.Random(3), find_ruleset("eight-deck"),
                                    item="true-count:hi-lo:half:floor:+6")
    assert question.item == "true-count:hi-lo:half:floor:+6"
    assert question.explanation.startswith("No shoe of 1000 dealt here reached a true count of +6 or more")
    assert int(question.expected) < 6


def test_exact_estimation_states_the_cards_left() -> None:
    question = TrueCountDrill(DrillOptions(estimation="exact")).ask(random.Random(4), CASINO)
    shown = [line for s in question.show if isinstance(s, Lines) for line in s.lines]
    assert f"{question.data['cards_left']} cards left" in shown


def test_an_unbalanced_count_has_no_true_count_drill() -> None:
    with pytest.raises(InvalidInputError, match=r"Knock-Out \(KO\) is unbalanced"):
        TrueCountDrill(DrillOptions(system="ko"))


# --- deck estimation -------------------------------------------------------------------------------


@pytest.mark.parametrize("estimation, unit", [("half", Fraction(1, 2)), ("full", Fraction(1)),
                                              ("quarter", Fraction(1, 4)), ("exact", Fraction(1, 4))])
@pytest.mark.parametrize("rules", ["casino", "eight-deck", "bicycle"])
def test_deck_estimation_reads_the_tray_to_the_unit(estimation: str, unit: Fraction, rules: str) -> None:
    ruleset = find_ruleset(rules)
    drill = DeckEstimationDrill(DrillOptions(estimation=estimation))
    rng = random.Random(rules + estimation)
    for _ in range(20):
        question = drill.ask(rng, ruleset)
        data = question.data
        exact = Fraction(data["cards_left"], 52)
        answer = Fraction(question.expected)
        assert (answer / unit).denominator == 1
        assert abs(answer - exact) < unit / 2  # never a tie: one answer is right
        assert answer == round_decks(exact, data["estimation"])
        assert data["shoe_cards"] == ruleset.shoe.decks * 52 == data["discarded"] + data["cards_left"]
        assert drill.grade(question, _answer(drill, question, question.expected)).correct


def test_deck_estimation_grades_too_many_and_too_few() -> None:
    drill = DeckEstimationDrill()
    question = drill.ask(random.Random(1), CASINO, item="deck-estimation:6d:half:3.5")
    assert question.expected == "3.5"
    assert drill.grade(question, _answer(drill, question, "4")).verdict == "0.5 deck too many"
    assert drill.grade(question, _answer(drill, question, "2½")).verdict == "1 deck too few"
    assert drill.grade(question, _answer(drill, question, "3 1/2", 2500)).verdict == "slow: the target is 2 s"
    with pytest.raises(InvalidInputError, match="to the half deck"):
        drill.parse(question, "3.25")


# --- countdown --------------------------------------------------------------------------------------


def _count_of(question: Question) -> Fraction:
    system = find_system(question.data["system"])
    cards = parse_cards(question.data["cards"])
    return Fraction(question.data["initial_running_count"]) + sum(
        (Fraction(system.tag(c)) for c in cards), Fraction(0))


@pytest.mark.parametrize("system, decks", [("hi-lo", 1), ("omega-ii", 2), ("wong-halves", 1), ("ko", 6)])
def test_countdown_questions_hold_every_card_but_the_missing_one(system: str, decks: int) -> None:
    drill = CountdownDrill(DrillOptions(system=system, decks=decks))
    question = drill.ask(random.Random(system), CASINO)
    assert len(question.data["cards"]) == 52 * decks - 1
    count = _count_of(question)
    assert Fraction(question.expected.split(", ")[0]) == count
    if find_system(system).balanced:
        assert question.data["checkout"]
        name = question.expected.split(", ")[1]
        missing_tag = -count
        ranks = {"low": "23456", "neutral": "789", "high": "TA"}.get(name, name.replace(" ", ""))
        assert all(Fraction(find_system(system).tags["A23456789T".index(r)]) == missing_tag for r in ranks)
    assert drill.grade(question, _answer(drill, question, question.expected.replace(",", " "))).correct


def test_the_checkout_grades_the_count_and_the_missing_card_apart() -> None:
    drill = CountdownDrill()
    question = drill.ask(random.Random(3), CASINO)
    assert question.expected == "1, high"  # an ace is missing with this seed
    assert question.data["cards"].count("Ad") == 0
    both = drill.grade(question, _answer(drill, question, "+1, high", 22_000))
    rank = drill.grade(question, _answer(drill, question, "1 K", 30_000))
    bad_card = drill.grade(question, _answer(drill, question, "+1, low"))
    bad_count = drill.grade(question, _answer(drill, question, "-1, high", 15_000))
    assert both.correct and both.verdict == "professional pace"
    assert both.detail["seconds_per_deck"] == round(22 / (51 / 52), 1)
    assert rank.correct and "slower than professional pace" in rank.explanation
    assert not bad_card.correct and bad_card.verdict == "count right, missing card wrong"
    assert not bad_count.correct and bad_count.verdict == "count wrong" and bad_count.given == "-1, high"
    assert "pace counts only with no error" in bad_count.explanation


@pytest.mark.parametrize("text, hint", [("+1", "name the missing card too"), ("abc", "not a count"),
                                        ("+1, purple", "names no card")])
def test_checkout_answers_need_both_parts(text: str, hint: str) -> None:
    drill = CountdownDrill()
    question = drill.ask(random.Random(3), CASINO)
    with pytest.raises(InvalidInputError, match=hint):
        drill.parse(question, text)


def test_several_missing_cards_ask_the_count_only() -> None:
    drill = CountdownDrill(DrillOptions(extra={"missing": "3"}))
    question = drill.ask(random.Random(5), CASINO)
    assert len(question.data["cards"]) == 49 and not question.data["checkout"]
    assert question.prompt == "Final running count?"
    with pytest.raises(InvalidInputError, match="only the final count"):
        drill.parse(question, "+2, high")
    with pytest.raises(InvalidInputError, match="1 to 5"):
        CountdownDrill(DrillOptions(extra={"missing": "9"}))


def test_countdown_summary_reports_seconds_per_deck() -> None:
    drill = CountdownDrill()
    grades = []
    for seed, latency in ((3, 20_000), (4, 40_000)):
        question = drill.ask(random.Random(seed), CASINO)
        grades.append(drill.grade(question, _answer(drill, question, question.expected, latency)))
    lines = drill.summary(grades)
    assert lines[0] == "2 of 2 right (100%)"
    assert lines[1].startswith("this session: best 20.4 s a deck, mean 30.6 s over 2 exact countdowns at your own "
                               "pace; 1 at professional")


# --- every count drill on tables where counting cannot win ----------------------------------------------

COUNT_DRILLS = ["running-count", "countdown", "true-count", "deck-estimation", "table"]


@pytest.mark.parametrize("name", COUNT_DRILLS)
@pytest.mark.parametrize("rules, why", [("eight-deck", "reshuffled after every round"),
                                        ("chat-host", "independent draw from an infinite deck")])
def test_count_drills_say_plainly_when_counting_gives_no_edge(name: str, rules: str, why: str) -> None:
    ruleset = find_ruleset(rules)
    drill = make_drill(name)
    note = [line for line in drill.intro(ruleset) if "no edge" in line]
    assert note and why in note[0] and rules in note[0]
    question = drill.ask(random.Random(1), ruleset)  # the drill still runs
    assert question.expected
    assert not any("no edge" in line for line in drill.intro(CASINO))


def test_the_intro_teaches_the_tags_and_an_unbalanced_start() -> None:
    hi_lo = make_drill("running-count").intro(CASINO)
    assert hi_lo == ["Hi-Lo (balanced): +1: 2 3 4 5 6 · 0: 7 8 9 · -1: T A"]
    red_7 = make_drill("running-count", DrillOptions(system="red-7")).intro(CASINO)
    assert red_7[0] == "Red Seven (unbalanced): +1: 2 3 4 5 6 red 7 · 0: black 7 8 9 · -1: T A"
    assert red_7[1] == "Start the count at: 1 deck -2, 2 decks -4, 6 decks -12, 8 decks -16; a full shoe ends at 0."
    ko = make_drill("running-count", DrillOptions(system="ko")).intro(CASINO)
    assert ko[2] == "Key count (the edge is yours from there): 1 deck +2, 2 decks +1, 6 decks -4, 8 decks -6."


# --- review items ask what they name ------------------------------------------------------------------


@pytest.mark.parametrize("name, item", [
    ("running-count", "running-count:ko:0.33s"),
    ("running-count", "running-count:wong-halves:0.25s"),
    ("true-count", "true-count:omega-ii:exact:round:-2"),
    ("true-count", "true-count:hi-lo:full:truncate:+6"),
    ("deck-estimation", "deck-estimation:8d:quarter:2.75"),
    ("deck-estimation", "deck-estimation:2d:half:1.5"),
])
def test_a_review_item_is_asked_as_it_was_recorded(name: str, item: str) -> None:
    drill = make_drill(name)  # a review builds drills with the default settings
    question = drill.ask(random.Random(item), CASINO, item=item)
    assert question.item == item
    assert drill.grade(question, _answer(drill, question, question.expected)).correct


@pytest.mark.parametrize("name, item", [
    ("running-count", "running-count:hi-lo"), ("true-count", "true-count:hi-lo:half:ceiling:+1"),
    ("deck-estimation", "deck-estimation:9d:half:2"), ("deck-estimation", "deck-estimation:6d:half:lots"),
])
def test_a_malformed_review_item_is_named(name: str, item: str) -> None:
    with pytest.raises(InvalidInputError, match=f"is not a {name} item"):
        make_drill(name).ask(random.Random(1), CASINO, item=item)
    assert f"is not a {name} item" in str(make_drill(name).cannot_ask(item, CASINO))


@pytest.mark.parametrize("name, item, why", [
    ("running-count", "running-count:nope:0.5s", "the count system 'nope' is not built in"),
    ("true-count", "true-count:nope:half:floor:+1", "the count system 'nope' is not built in"),
    ("true-count", "true-count:ko:half:floor:+1", "Knock-Out (KO) is unbalanced: it has no true count"),
])
def test_a_well_formed_item_the_drill_cannot_ask_says_why(name: str, item: str, why: str) -> None:
    with pytest.raises(InvalidInputError, match=re.escape(why)):
        make_drill(name).ask(random.Random(1), CASINO, item=item)
    assert str(make_drill(name).cannot_ask(item, CASINO)).startswith(why)


@pytest.mark.parametrize("item, cards, checkout", [("countdown:ko:2d", 103, False),
                                                   ("countdown:hi-lo:1d:checkout", 51, True),
                                                   ("countdown:zen:1d", 50, False)])
def test_a_countdown_review_item_deals_its_own_system_and_decks(item: str, cards: int, checkout: bool) -> None:
    drill = CountdownDrill()  # the review's drill: Hi-Lo, one deck, one card missing
    question = drill.ask(random.Random(item), CASINO, item)
    assert question.item == item and len(question.data["cards"]) == cards
    assert question.data["system"] == item.split(":")[1] and question.data["checkout"] == checkout
    assert Fraction(question.expected.split(", ")[0]) == _count_of(question)
    assert drill.grade(question, _answer(drill, question, question.expected)).correct
