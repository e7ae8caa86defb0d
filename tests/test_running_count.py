"""The running-count drill: seeded questions, grading, the stream of cards, and the pace that adapts."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from drills.base import DrillOptions, Flash, Grade, Lines
from drills.counting.running_count import SPEEDS, RunningCountDrill, faster, slower
from trainer.core.cards import parse_cards
from trainer.core.counting import find_system, format_count
from trainer.core.errors import InvalidInputError
from trainer.core.rulesfile import find_ruleset
from trainer.practice.session import DrillRun, ListRecorder

CASINO = find_ruleset("casino")


def _session(seed: int = 7, **options: object) -> DrillRun:
    return DrillRun(drill=RunningCountDrill(DrillOptions(**options)), ruleset=CASINO,
                   rng=random.Random(seed), recorder=ListRecorder())


def _expected_from_data(data: dict[str, object]) -> Fraction:
    """What a program would compute from the question's data alone."""
    system = find_system(str(data["system"]))
    cards = parse_cards([str(c) for c in data["cards"]])
    start = int(data["shoe_start"])
    return Fraction(data["initial_running_count"]) + sum(
        (Fraction(system.tag(c)) for c in cards[start:]), Fraction(0))


@pytest.mark.parametrize("system", ["hi-lo", "ko", "wong-halves", "red-7", "omega-ii"])
def test_every_question_carries_every_card_shown_and_its_count(system: str) -> None:
    session = _session(system=system, decks=1)
    seen: list[str] = []
    for _ in range(12):  # more than a deck: the count starts again at the shuffle
        _, question = session.ask()
        data = dict(question.data)
        flash = next(s for s in question.show if isinstance(s, Flash))
        assert data["cards"][:len(seen)] == seen
        assert list(data["cards"])[len(seen):] == list(flash.cards)
        seen = list(data["cards"])
        assert Fraction(question.expected) == _expected_from_data(data)
        assert 1 <= int(data["flashed"]) <= 52
        session.answer(question, question.expected)
    assert len(seen) > 52
    assert int(question.data["shoe_start"]) > 0


def test_a_new_shoe_is_announced_with_its_initial_count() -> None:
    session = _session(system="ko", decks=2)
    _, question = session.ask()
    lines = next(s for s in question.show if isinstance(s, Lines))
    assert "count starts at -4" in lines.lines[0]
    assert question.data["initial_running_count"] == -4


def test_grading_right_and_wrong_with_how_far_off() -> None:
    session = _session(seed=3)
    _, question = session.ask()
    right = session.answer(question, question.expected)
    assert right.correct and right.verdict == "" and right.explanation == ""
    _, question = session.ask()
    wrong = session.answer(question, str(int(question.expected) + 2))
    assert not wrong.correct and wrong.verdict == "2 too high"
    assert wrong.expected == question.expected
    assert wrong.explanation.startswith(f"The count was {format_count(int(question.expected))}; you said ")
    assert "they add" in wrong.explanation and "Card by card: " in wrong.explanation


@pytest.mark.parametrize("text", ["abc", "+-3", "", "2.5"])
def test_malformed_answers_raise_with_a_hint_and_record_nothing(text: str) -> None:
    session = _session()
    _, question = session.ask()
    with pytest.raises(InvalidInputError, match=r"type (a number|e\.g\.)"):
        session.answer(question, text)
    assert session.recorder.attempts == []


def test_wong_halves_takes_half_points() -> None:
    session = _session(system="wong-halves", seed=11)
    for _ in range(6):
        _, question = session.ask()
        assert session.answer(question, question.expected).correct


def test_three_exact_counts_speed_up_and_a_miss_slows_down() -> None:
    drill = RunningCountDrill(DrillOptions(speed=0.5))
    session = DrillRun(drill=drill, ruleset=CASINO, rng=random.Random(1), recorder=ListRecorder())
    notes = []
    for _ in range(3):
        _, question = session.ask()
        assert question.data["seconds_per_card"] == 0.5
        notes.append(session.after(question, session.answer(question, question.expected)))
    assert notes[:2] == [None, None]
    assert notes[2] == "3 exact counts in a row: faster now, 0.4 s a card."
    _, question = session.ask()
    assert question.data["seconds_per_card"] == 0.4 and question.item == "running-count:hi-lo:0.40s"
    grade = session.answer(question, str(int(question.expected) + 1))
    assert session.after(question, grade) == "A miss: slower now, 0.5 s a card."


def test_the_ladder_stops_at_both_ends() -> None:
    assert faster(0.1) == 0.1 and slower(1.0) == 1.0
    assert faster(0.3) == 0.25 and slower(0.3) == 0.33
    assert list(SPEEDS) == sorted(SPEEDS, reverse=True)
    drill = RunningCountDrill(DrillOptions(speed=0.1))
    grade = Grade(correct=True, expected="0", given="0")
    question = drill.ask(random.Random(1), CASINO)
    assert [drill.after(question, grade) for _ in range(4)] == [None] * 4


def test_a_review_item_sets_the_pace() -> None:
    drill = RunningCountDrill()
    question = drill.ask(random.Random(2), CASINO, item="running-count:hi-lo:0.25s")
    assert question.data["seconds_per_card"] == 0.25
    with pytest.raises(InvalidInputError, match="not a running-count item"):
        drill.ask(random.Random(2), CASINO, item="running-count:hi-lo:fast")


def test_per_flash_and_speed_reach_the_display() -> None:
    question = RunningCountDrill(DrillOptions(speed=0.2, per_flash=3)).ask(random.Random(4), CASINO)
    flash = next(s for s in question.show if isinstance(s, Flash))
    assert flash.per_flash == 3 and flash.seconds_per_card == 0.2


def test_faster_than_a_tenth_of_a_second_is_refused() -> None:
    with pytest.raises(InvalidInputError, match=r"the fastest is 0\.1 s a card"):
        RunningCountDrill(DrillOptions(speed=0.05))


def test_summary_reports_accuracy_fastest_pace_and_cards() -> None:
    session = _session(seed=5)
    for answer_right in (True, False, True):
        _, question = session.ask()
        session.after(question, session.answer(question, question.expected if answer_right else "99"))
    lines = session.summary()
    assert lines[0].startswith("2 of 3 counts exact (67%) over ")
    assert lines[1].startswith("fastest exact count: ")
    assert lines[2].startswith("next pace: ")


def test_a_review_item_in_another_system_starts_a_fresh_shoe_and_says_so() -> None:
    """Mixed review items: a Hi-Lo count right after a KO one cannot build on the KO count."""
    session = _session(decks=2)
    _, ko = session.ask("running-count:ko:0.50s")
    session.answer(ko, ko.expected)
    _, hi_lo = session.ask("running-count:hi-lo:0.50s")
    assert int(hi_lo.data["shoe_start"]) == len(ko.data["cards"])
    flash = next(s for s in hi_lo.show if isinstance(s, Flash))
    assert list(hi_lo.data["cards"])[int(hi_lo.data["shoe_start"]):] == list(flash.cards)
    assert Fraction(hi_lo.expected) == _expected_from_data(dict(hi_lo.data))
    lines = next(s for s in hi_lo.show if isinstance(s, Lines)).lines
    assert lines[0] == "Now counting in Hi-Lo: a new 2-deck shoe, so the count starts over."
    assert "the count starts at 0" in lines[1]
    _, same = session.ask("running-count:hi-lo:0.40s")  # the same system: the shoe deals on
    assert same.data["shoe_start"] == hi_lo.data["shoe_start"]
    assert not any(isinstance(s, Lines) for s in same.show)


def test_a_miss_shows_each_card_since_the_checkpoint_with_its_tag_and_the_count_after_it() -> None:
    drill = RunningCountDrill()
    question = drill.ask(random.Random(7), CASINO)
    wrong = drill.grade(question, drill.parse(question, str(int(question.expected) + 1)))
    trail = wrong.detail["trail"]
    stretch = question.data["cards"][-question.data["flashed"]:]
    assert [step["card"] for step in trail] == stretch
    system = find_system("hi-lo")
    count = wrong.detail["start"]
    for step in trail:
        count += system.tag(parse_cards([step["card"]])[0])
        assert step["count"] == count and step["tag"] == system.tag(parse_cards([step["card"]])[0])
    assert count == int(question.expected) and "wrong_at" not in wrong.detail


def test_counts_kept_along_the_way_mark_where_the_count_went_wrong() -> None:
    drill = RunningCountDrill()
    question = drill.ask(random.Random(7), CASINO)
    trail = drill.grade(question, drill.parse(question, "99")).detail["trail"]
    third = trail[2]["count"]
    typed = f"{third} {trail[-1]['count'] + 3}"  # right after three cards, then off
    grade = drill.grade(question, drill.parse(question, typed))
    assert not grade.correct and grade.given == format_count(trail[-1]["count"] + 3, signed=False)
    first_at = next(i for i, step in enumerate(trail) if step["count"] == third) + 1
    assert grade.detail["wrong_at"] == first_at <= 3
    assert f"right at least up to card {first_at}" in grade.explanation
    off_at_once = drill.grade(question, drill.parse(question, f"{trail[0]['count'] + 9} 40"))
    assert off_at_once.detail["wrong_at"] == 0 and "already off" in off_at_once.explanation
    assert drill.parse(question, "- 2").value == "-2" and drill.parse(question, "1, 2, -3").value == "-3"
    with pytest.raises(InvalidInputError):
        drill.parse(question, "1 x 3")


def test_review_items_keep_their_pace_and_say_nothing_about_pace() -> None:
    drill = RunningCountDrill()
    question = drill.ask(random.Random(2), CASINO, item="running-count:hi-lo:0.25s")
    wrong = drill.grade(question, drill.parse(question, "99"))
    assert drill.after(question, wrong) is None and drill.speed == 0.25
    assert not any(line.startswith("next pace") for line in drill.summary([wrong]))
