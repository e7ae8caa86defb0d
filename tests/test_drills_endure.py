"""Every drill runs any number of questions on every built-in rule set and every `--set` value its help
lists: 200 questions without a setting and 100 with each (the long run crosses the reshuffles; each
setting's run, its own questions), in machine mode's terms (asked, answered with the expected answer,
graded, recorded, `after`), in this process.

A setting a rule set cannot have (insurance to pay at european, which offers none) may be refused, but
only before the first question, with an error that names the rule set; once a drill has asked, it asks
on. Side bets are an open list (`sidebets=NAME`): each built-in one is driven too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

import pytest

from drills import DRILLS, find_drill, make_drill
from drills.base import DrillOptions
from trainer.core.errors import InvalidInputError
from trainer.core.rulesfile import builtin_rulesets
from trainer.core.sidebets import SideBetKind, builtin_sidebets
from trainer.practice.session import DrillRun, ListRecorder

QUESTIONS = 200
SET_QUESTIONS = 100
RULESETS = builtin_rulesets()


def settings_of(name: str, ruleset: str) -> Iterator[Mapping[str, str]]:
    """No setting, then each listed value of each `--set` key, then (at casino: a side bet reads the
    cards, not the rule set) each built-in side bet where the drill takes side bets."""
    yield {}
    keys = find_drill(name).set_keys
    for setting in keys:
        for value in setting.values:
            yield {setting.key: str(value)}
    if ruleset == "casino" and any(s.key == "sidebets" for s in keys):
        for side in builtin_sidebets().values():
            if name == "settle" and side.kind is SideBetKind.DEALER_BLACKJACK:
                continue  # settle refuses it: the table's own insurance (tests/test_sidebet_cards_shown.py)
            extra = {"sidebets": side.name}
            yield {**extra, "situation": "sidebet"} if name == "payout" else extra


def drive(name: str, ruleset: str, extra: Mapping[str, str], seed: int, questions: int = QUESTIONS) -> int:
    """Questions answered (0: refused before the first, for a reason naming the rule set)."""
    drill = make_drill(name, DrillOptions(extra=dict(extra)))
    run = DrillRun(drill=drill, ruleset=RULESETS[ruleset], rng=random.Random(seed), recorder=ListRecorder())
    for asked in range(questions):
        try:
            _qid, question = run.ask()
        except InvalidInputError as e:
            assert asked == 0, f"{name} {ruleset} {dict(extra)} died after {asked} questions: {e}"
            assert ruleset in str(e), f"{name} {ruleset} {dict(extra)} refused without saying why: {e}"
            return 0
        grade = run.answer(question, question.expected, latency_ms=1500)
        run.after(question, grade)
        assert grade.correct or name == "attack", (name, ruleset, dict(extra), question.item, grade)
    assert len(run.grades) == questions
    return questions


NO_DEALER = {("procedure", "chat-host"), ("protect", "chat-host")}
"""A dealer's procedure and game protection at a chat game dealt by a bot: no casino dealer to drill, so
the drill refuses the rule set in one line that names it (`drive` checks the line)."""
CASES = [(name, ruleset) for name in DRILLS for ruleset in RULESETS]


@pytest.mark.parametrize(("name", "ruleset"), CASES, ids=[f"{n}-{r}" for n, r in CASES])
def test_each_drill_runs_200_questions_at_each_rule_set_with_each_listed_setting(name: str,
                                                                                 ruleset: str) -> None:
    answered = [drive(name, ruleset, extra, seed, QUESTIONS if not extra else SET_QUESTIONS)
                for seed, extra in enumerate(settings_of(name, ruleset), 1)]
    assert answered[0] == (0 if (name, ruleset) in NO_DEALER else QUESTIONS), \
        f"{name} refused {ruleset} without any setting"


@pytest.mark.parametrize("seed", range(1, 11))
def test_lucky_ladies_payouts_run_on_where_seeds_1_to_10_died(seed: int) -> None:
    assert drive("payout", "casino", {"situation": "sidebet", "sidebets": "lucky-ladies"}, seed) == QUESTIONS


@pytest.mark.parametrize("ruleset", ["european", "chat-host"])
def test_catch_never_asks_for_an_insurance_mistake_where_there_is_no_insurance(ruleset: str) -> None:
    drill = make_drill("catch")
    run = DrillRun(drill=drill, ruleset=RULESETS[ruleset], rng=random.Random(3), recorder=ListRecorder())
    asked = [run.ask()[1].item for _ in range(60)]
    assert "catch:insurance-short" not in asked and len(set(asked)) >= 4
