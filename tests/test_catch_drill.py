"""`drill catch`: the dealer's realistic mistakes at the stated rate; catches, misses and false calls."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from drills.base import DrillOptions
from drills.dealing.catch import ERRORS, CatchDrill
from trainer.core import load_ruleset
from trainer.core.errors import InvalidInputError
from trainer.practice.session import DrillRun, ListRecorder

CASINO = load_ruleset("casino")


@pytest.mark.parametrize("error", ERRORS)
def test_each_error_kind_is_dealt_where_it_belongs_and_caught_only_there(error: str) -> None:
    drill = CatchDrill(DrillOptions(seats=5))
    question = drill.ask(random.Random(3), CASINO, f"catch:{error}")
    assert question.item == f"catch:{error}" and question.expected.startswith("f ")
    where = question.expected.removeprefix("f ")
    calls = {c["where"]: c["says"] for c in question.data["calls"]}
    assert where in calls
    caught = drill.grade(question, drill.parse(question, question.expected))
    assert caught.correct and caught.verdict == "caught"
    missed = drill.grade(question, drill.parse(question, "ok"))
    assert not missed.correct and missed.verdict == "missed"
    other = next(p for p in calls if p != where)
    wrong = drill.grade(question, drill.parse(question, f"f {other}"))
    assert not wrong.correct and wrong.verdict.startswith("wrong place")


def test_dealer_errors_forge_the_dealer_call() -> None:
    drill = CatchDrill(DrillOptions(seats=3))
    soft = drill.ask(random.Random(1), CASINO, "catch:soft-counted-hard")
    says = soft.data["calls"][0]["says"]
    assert says.endswith("bust") and "A" in says.split(":")[0]
    many = drill.ask(random.Random(1), CASINO, "catch:many-card-16-as-17")
    says = many.data["calls"][0]["says"]
    assert says.endswith("17, stands") and len(says.split(":")[0].split()) >= 4


def test_a_clean_table_called_foul_is_a_false_call_and_the_rate_holds() -> None:
    drill = CatchDrill(DrillOptions(seats=3, extra={"rate": "0.3"}))
    rng = random.Random(9)
    kinds: Counter[str] = Counter()
    for _ in range(300):
        question = drill.ask(rng, CASINO)
        kinds["clean" if question.item == "catch:clean" else "error"] += 1
        if question.item == "catch:clean":
            false_call = drill.grade(question, drill.parse(question, "f 1"))
            assert not false_call.correct and false_call.verdict == "false call"
            assert drill.grade(question, drill.parse(question, "ok")).correct
    share = kinds["error"] / 300
    assert abs(share - 0.3) < 3 * (0.3 * 0.7 / 300) ** 0.5


def test_catches_and_false_calls_are_recorded_like_any_answer() -> None:
    recorder = ListRecorder()
    session = DrillRun(drill=CatchDrill(DrillOptions(extra={"rate": "0.5"})), ruleset=CASINO,
                      rng=random.Random(4), recorder=recorder)
    for _ in range(6):
        _, question = session.ask()
        session.answer(question, "f 1")
    assert len(recorder.attempts) == 6 and all(a.item.startswith("catch:") for a in recorder.attempts)
    summary = session.summary()
    assert any("caught" in line and "false calls" in line for line in summary)


def test_bad_calls_and_settings_are_refused() -> None:
    drill = CatchDrill()
    question = drill.ask(random.Random(2), CASINO)
    for bad in ("", "banana", "f 9", "f " + "1" * 60):
        with pytest.raises(InvalidInputError):
            drill.parse(question, bad)
    with pytest.raises(InvalidInputError, match="rate"):
        CatchDrill(DrillOptions(extra={"rate": "2"}))
    assert drill.cannot_ask("catch:insurance-short", load_ruleset("european")) is not None
    assert drill.cannot_ask("catch:nonsense", CASINO) is not None
