"""No input ends a session (issue 15): every drill's `parse` answers anything with `InvalidInputError` or
an answer, and the shared parsers bound length, digits, magnitude and chip counts."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import cache

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from drills import DRILLS, make_drill
from drills.base import DrillOptions, Question
from trainer.core import find_ruleset
from trainer.core.chips import parse_stack
from trainer.core.counting import parse_count, parse_decks
from trainer.core.errors import InvalidInputError
from trainer.core.money import parse_money
from trainer.practice.session import DrillRun, ListRecorder

OPTIONS = {"payout": [DrillOptions(), DrillOptions(chips=True)]}


@cache
def questions(name: str) -> list[tuple[DrillRun, Question]]:
    """A few questions of drill `name` (in each answer mode it has), with the session that asked them."""
    out = []
    for options in OPTIONS.get(name, [DrillOptions()]):
        session = DrillRun(drill=make_drill(name, options), ruleset=find_ruleset("casino"),
                          rng=random.Random(1), recorder=ListRecorder())
        for _ in range(2):
            out.append((session, session.ask()[1]))
    return out


NUMBERISH = st.one_of(
    st.tuples(st.sampled_from(["", "-", "+", "$"]), st.integers(min_value=1, max_value=400),
              st.sampled_from(["", ".5", ".25", " red", "x white"])).map(lambda t: f"{t[0]}{'9' * t[1]}{t[2]}"),
    st.text(alphabet="0123456789.,+-−½$ ", max_size=400),
    st.just("1" * 4301),
)
ANY_TEXT = st.one_of(st.text(max_size=300), NUMBERISH,
                     st.lists(st.sampled_from(["1", "red", "x", "2x", "$25", "0", "sNaN", "1e999"]),
                              max_size=150).map(" ".join),
                     st.text(alphabet=st.characters(codec="utf-8", categories=["Cc", "Cs", "Zs", "Nd", "No"]),
                             max_size=200))


@pytest.mark.parametrize("name", list(DRILLS))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(text=ANY_TEXT)
@example(text="+" + "9" * 200)  # found by this test (colour-up): a bare huge number quoted in full
@example(text="1" * 4301)  # found by this test (attack): a rival number too long to convert
@example(text="¹")  # found by this test (attack): a digit to str.isdigit that int() cannot read
@example(text="0" * 14 + "\x1f" * 4 + "\U00011af9\U0001342f\U00018d09" * 3)  # found by this test (quiz):
# 40 characters quoted in the error were 300 of escapes, and with the choices listed the line passed 600
def test_parse_raises_nothing_but_invalid_input(name: str, text: str) -> None:
    for session, question in questions(name):
        try:
            session.drill.parse(question, text)
        except InvalidInputError:
            pass
        except Exception as e:  # pragma: no cover - the failure the test is for
            pytest.fail(f"{name}: {type(e).__name__}: {e!s:.200}")
        try:
            session.parse(question, text)  # as every driver reads an answer: one short line
        except InvalidInputError as e:
            assert "\n" not in str(e).strip() and len(str(e)) < 600


@pytest.mark.parametrize("parse", [parse_count, parse_decks, parse_money, parse_stack])
@pytest.mark.parametrize("text", ["1" * 4301, "1" * 4300, "9" * 29, "99999999999999999999999999999.99",
                                  "1 " * 500_000, "red " * 6000, "sNaN", "$sNaN", "1e999999", "\x00\x1b[2J"],
                         ids=["4301", "4300", "29", "29.99", "1MB", "reds", "snan", "$snan", "1e999999", "ctrl"])
def test_the_shared_parsers_refuse_what_no_answer_is(parse: object, text: str) -> None:
    with pytest.raises(InvalidInputError):
        parse(text)


def test_bare_numbers_are_not_chips() -> None:
    with pytest.raises(InvalidInputError, match="ambiguous"):
        parse_stack("1 1 1")
    with pytest.raises(InvalidInputError, match="ambiguous"):
        parse_stack("25")
    assert parse_stack("$25 2.50 3 red").as_dict() == {"green": 1, "red": 3, "pink": 1}
    with pytest.raises(InvalidInputError, match="more than 5,000 chips"):
        parse_stack("5001 white")


def test_counts_and_amounts_keep_their_ordinary_range() -> None:
    assert parse_count("-9999") == -9999 and parse_count("+2.5") == 2.5
    assert str(parse_money("999999999.99")) == "999999999.99"
    with pytest.raises(InvalidInputError, match="too large"):
        parse_count("10000")


def _jsonl(drill: str, line: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trainer", "drill", drill, "--jsonl", "--seed", "1", *args],
                          input=line + "\n", capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("drill", "line"), [
    ("running-count", "1" * 4301),  # failure 4
    ("true-count", "1" * 4300),
    ("payout", "99999999999999999999999999999"),  # failure 5
    ("color-up", " ".join(["1"] * 500_000)),
], ids=["running-count-4301-digits", "true-count-4300-digits", "payout-29-digits", "color-up-1MB-of-ones"])
def test_huge_answers_re_prompt_and_record_nothing(drill: str, line: str) -> None:
    """Failures 4 and 5: a malformed answer is one `{"id", "error"}` line; the session goes on to its end."""
    done = _jsonl(drill, line)
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    errors = [x for x in lines if "error" in x]
    assert len(errors) == 1 and "\n" not in errors[0]["error"] and len(errors[0]["error"]) < 300
    assert not any("correct" in x for x in lines)  # nothing graded, nothing recorded
