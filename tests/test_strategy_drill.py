"""The strategy drill against the exact engine: every cell of every shipped rule set, EV costs, weights."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from drills.base import DrillOptions
from drills.strategy.basic import StrategyDrill, parse_cell_key
from trainer.core import Action, Ruleset, builtin_rulesets, find_ruleset, parse_card
from trainer.core.errors import InvalidInputError
from trainer.strategy import chart_for, hand_evs, legal_actions

RULESETS = list(builtin_rulesets().values())


def _from_letter(letter: str, legal: set[str]) -> str:
    """How a player reads a chart letter for a hand that may take `legal` (independent of the drill)."""
    first, fallback = {
        "H": ("hit", "hit"), "S": ("stand", "stand"), "Dh": ("double", "hit"), "Ds": ("double", "stand"),
        "P": ("split", "split"), "Rh": ("surrender", "hit"), "Rs": ("surrender", "stand"),
        "Rp": ("surrender", "split"),
    }[letter]
    return first if first in legal else fallback


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("hands", ["two-card", "multi-card"])
def test_expected_answers_are_the_engines_chart_for_every_cell(ruleset: Ruleset, hands: str) -> None:
    drill = StrategyDrill(DrillOptions(extra={"cards": hands}))
    chart = chart_for(ruleset)
    rng = random.Random(1)
    for cell, entry in chart.cells.items():
        question = drill.ask(rng, ruleset, f"strategy:{cell}")
        assert question.data["cell"] == cell and question.data["ruleset"] == ruleset.name
        cards = tuple(parse_card(c) for c in question.data["cards"])
        legal = {a.value for a in legal_actions(ruleset, cards)}
        assert set(question.data["options"]) == legal
        assert parse_card(str(question.data["up"])).value == parse_cell_key(cell)[2]
        assert question.expected == _from_letter(entry.action, legal), (cell, question.data["cards"])
        if len(cards) == 2:  # a two-card hand plays its cell's letter as printed, never a fallback
            assert question.expected == _from_letter(entry.action, {"hit", "stand", "double", "split",
                                                                    "surrender"})


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_asked_hands_are_never_exceptions_so_the_chart_play_is_the_best(ruleset: Ruleset) -> None:
    drill = StrategyDrill()
    rng = random.Random(7)
    for _ in range(12):
        question = drill.ask(rng, ruleset)
        cards = tuple(parse_card(c) for c in question.data["cards"])
        evs = hand_evs(ruleset, cards, parse_card(str(question.data["up"])))
        assert evs.cost(Action(question.expected)) <= 1e-12, question.data  # the chart's play is the best


def test_a_wrong_answer_shows_the_right_play_and_its_ev_cost() -> None:
    drill = StrategyDrill(DrillOptions(extra={"cards": "two-card"}))
    casino = find_ruleset("casino")
    question = drill.ask(random.Random(2), casino, "strategy:hard 16 vs 10")
    assert question.expected == "hit"
    wrong = drill.grade(question, drill.parse(question, "s"))
    assert not wrong.correct and wrong.expected == "hit"
    assert 0 < float(wrong.detail["ev_cost"]) < 0.05 and "Stand costs" in wrong.explanation
    right = drill.grade(question, drill.parse(question, "hit"))
    assert right.correct and right.detail["ev_cost"] == 0
    assert drill.summary([wrong, right])[-1].startswith("mistakes cost")


def test_pairs_are_split_by_the_chart_and_tens_dealt_by_rank_where_splits_need_it() -> None:
    drill = StrategyDrill()
    bicycle = find_ruleset("bicycle")
    for seed in range(20):
        question = drill.ask(random.Random(seed), bicycle, "strategy:pair 10-10 vs 6")
        first, second = question.data["cards"]
        assert first == second and "split" in question.data["options"]


def test_weights_favour_the_cells_a_learner_gets_wrong() -> None:
    drill = StrategyDrill(weights={"strategy:soft 18 vs 9": 500.0})
    casino = find_ruleset("casino")
    rng = random.Random(3)
    asked = Counter(drill.ask(rng, casino).data["cell"] for _ in range(200))
    assert asked.most_common(1)[0][0] == "soft 18 vs 9" and asked["soft 18 vs 9"] > 50
    drill.set_weights({})
    spread = Counter(drill.ask(rng, casino).data["cell"] for _ in range(200))
    assert spread["soft 18 vs 9"] < 10


@pytest.mark.parametrize("text", ["abc", "surrender", "r", "", "split please"])
def test_malformed_or_illegal_answers_are_refused_with_a_hint(text: str) -> None:
    drill = StrategyDrill(DrillOptions(extra={"cards": "two-card"}))
    question = drill.ask(random.Random(2), find_ruleset("casino"), "strategy:hard 16 vs 10")
    with pytest.raises(InvalidInputError, match="one of hit, stand, double"):
        drill.parse(question, text)


def test_settings_are_checked() -> None:
    for extra in ({"cards": "three"}, {"speed": "1"}, {"hands": "two-card"}):
        with pytest.raises(InvalidInputError):
            StrategyDrill(DrillOptions(extra=extra))


def test_cutcard_drill_strategy_jsonl() -> None:
    from trainer.cli import cli

    runner = CliRunner()
    args = ["drill", "strategy", "--seed", "4", "--count", "1", "--jsonl", "-r", "casino-h17"]
    question = json.loads(runner.invoke(cli, args).output.splitlines()[0])
    assert {"ruleset", "cards", "up"} <= set(question["data"])
    lines = [json.loads(line) for line in runner.invoke(cli, args, input="nope\nstand\n").output.splitlines()]
    assert "error" in lines[1] and lines[2]["given"] == "stand" and "ev_cost" in lines[2]["detail"]


def test_every_chart_cell_is_a_review_item_that_asks_itself() -> None:
    drill = StrategyDrill()
    h17 = find_ruleset("casino-h17")
    items = drill.items(h17)
    assert len(items) == len(chart_for(h17).cells) == 360
    assert all(drill.ask(random.Random(n), h17, item).item == item for n, item in enumerate(items))


def test_cutcard_drill_strategy_asks_the_cells_missed_in_the_store_more_often(tmp_path: Path) -> None:
    """End to end: cells missed in the progress database come up measurably more often in a seeded
    `cutcard drill strategy` than in the same run on an empty database, and the intro says why."""
    from trainer.cli import cli
    from trainer.practice.session import Attempt
    from trainer.storage import Store

    missed = ["hard 12 vs 3", "soft 18 vs 9", "pair 9-9 vs 7"]
    known = ["hard 16 vs 10", "hard 11 vs 6"]
    db = tmp_path / "progress.db"
    with Store.open(db) as store:
        for cell, right in [(c, False) for c in missed for _ in range(3)] + [(c, True) for c in known * 9]:
            store.record(Attempt(session_id="s", drill="strategy", item=f"strategy:{cell}", ruleset="casino",
                                 prompt="?", data={}, expected="stand", given="stand" if right else "hit",
                                 correct=right, latency_ms=900, ts=1_700_000_000.0))
        store.record(Attempt(session_id="s", drill="strategy", item="strategy:hard 15 vs 10",
                             ruleset="european", prompt="?", data={}, expected="hit", given="stand",
                             correct=False, latency_ms=900, ts=1_700_000_000.0))  # another rule set's miss

    def cells(database: Path) -> Counter[str]:
        args = ["--db", str(database), "drill", "strategy", "--seed", "8", "--count", "240", "--jsonl"]
        result = CliRunner().invoke(cli, args, input="hit\n" * 240)
        assert result.exit_code == 0, result.output
        lines = [json.loads(line) for line in result.stdout.splitlines()]
        return Counter(line["data"]["cell"] for line in lines if "prompt" in line)

    focused, plain = cells(db), cells(tmp_path / "empty.db")
    assert sum(focused.values()) == sum(plain.values()) == 240
    in_focus, by_chance = sum(focused[c] for c in missed), sum(plain[c] for c in missed)
    assert in_focus >= 8 and in_focus >= 4 * max(1, by_chance)  # ~5% of the hands rather than ~1%
    assert sum(focused[c] for c in known) <= sum(plain[c] for c in known)
    assert focused["hard 15 vs 10"] <= plain["hard 15 vs 10"] + 3  # european's miss does not weigh on casino


def test_the_intro_says_when_missed_hands_come_up_more_often() -> None:
    drill = StrategyDrill()
    casino = find_ruleset("casino")
    assert len(drill.intro(casino)) == 2 and "rarely" in drill.intro(casino)[1]
    drill.set_weights({"strategy:hard 12 vs 3": 4.0, "strategy:hard 16 vs 10": 0.25})
    assert drill.intro(casino)[2] == "The hand you have missed comes up more often."


@pytest.mark.parametrize("ruleset", ["casino", "bicycle", "chat-host"])
def test_parse_cell_reads_back_every_chart_cell_key(ruleset: str) -> None:
    from trainer.strategy import cell_key

    for cell in chart_for(find_ruleset(ruleset)).cells:
        assert cell_key(*parse_cell_key(cell)) == cell
    for bad in ("hard sixteen vs 10", "pair 8-9 vs 2", "soft 18 vs 11", "hard 16", "pear 8-8 vs 2"):
        with pytest.raises(InvalidInputError, match="is not a chart cell"):
            parse_cell_key(bad)


# --- which hands come up: frequency x cost, trivial hands rarely, --hands and --all -----------------

def _trivial_share(drill: StrategyDrill, ruleset: Ruleset, questions: int = 1500) -> float:
    from drills.strategy.cells import trivial_rows

    trivial = trivial_rows(chart_for(ruleset))
    rng = random.Random(11)
    asked = [parse_cell_key(drill.ask(rng, ruleset).data["cell"]) for _ in range(questions)]
    return sum((kind, number) in trivial for kind, number, _ in asked) / questions


def test_trivial_hands_are_rare_by_default_and_not_with_all() -> None:
    from drills.strategy.cells import trivial_rows

    casino = find_ruleset("casino")
    trivial = trivial_rows(chart_for(casino))
    assert {("hard", 5), ("hard", 19), ("soft", 21), ("pair", 10)} <= trivial  # played alike vs every up card
    assert ("hard", 16) not in trivial and ("soft", 18) not in trivial
    assert _trivial_share(StrategyDrill(), casino) < 0.08  # 5% by design, give or take sampling
    assert _trivial_share(StrategyDrill(DrillOptions(every_hand=True)), casino) > 0.4  # they are dealt a lot


def test_weights_follow_how_often_a_hand_is_dealt_and_what_a_mistake_costs() -> None:
    from drills.strategy.cells import cell_weights, gap

    casino = find_ruleset("casino")
    chart = chart_for(casino)
    weights = cell_weights(casino, chart)
    assert sum(weights.values()) == pytest.approx(1.0) and len(weights) == len(chart.cells)
    assert min(weights.values()) > 0  # every cell still comes up over time
    # 12 vs 10 (dealt as T-2, 9-3, 8-4, 7-5, and often reached by a hit) against 12 vs 2's rarer up card
    assert weights["hard 12 vs 10"] > 2 * weights["hard 12 vs 2"]
    # the same frequency, a dearer mistake: 11 vs 6 (double) over 11 vs A, a closer call
    assert gap(chart.cells["hard 11 vs 6"]) > gap(chart.cells["hard 11 vs A"])
    assert weights["hard 11 vs 6"] > weights["hard 11 vs A"]


@pytest.mark.parametrize(("hands", "belongs"), [
    ("hard", lambda cell, chart: cell.startswith("hard ")),
    ("soft", lambda cell, chart: cell.startswith("soft ")),
    ("pairs", lambda cell, chart: cell.startswith("pair ")),
    ("close", lambda cell, chart: __import__("drills.strategy.cells").strategy.cells.gap(chart.cells[cell]) < 0.02),
])
def test_the_hands_filter_asks_only_its_cells(hands: str, belongs: Any) -> None:
    casino = find_ruleset("casino")
    chart = chart_for(casino)
    drill = StrategyDrill(DrillOptions(hands=hands))
    rng = random.Random(5)
    asked = {drill.ask(rng, casino).data["cell"] for _ in range(150)}
    assert all(belongs(cell, chart) for cell in asked) and len(asked) > 5
    assert drill.intro(casino)[1].split()[0] in ("Hard", "Soft", "Pairs", "Close")


def test_missed_asks_only_the_missed_cells_and_says_when_there_are_none() -> None:
    casino = find_ruleset("casino")
    drill = StrategyDrill(DrillOptions(hands="missed"))
    with pytest.raises(InvalidInputError, match="no hand of the casino chart is missed"):
        drill.ask(random.Random(1), casino)
    drill.set_weights({"strategy:hard 12 vs 3": 4.0, "strategy:soft 18 vs 9": 2.5, "strategy:hard 16 vs 10": 0.25})
    rng = random.Random(2)
    asked = Counter(drill.ask(rng, casino).data["cell"] for _ in range(60))
    assert set(asked) == {"hard 12 vs 3", "soft 18 vs 9"}


def test_cutcard_drill_strategy_hands_and_all_options() -> None:
    from trainer.cli import cli

    args = ["drill", "strategy", "--seed", "3", "--count", "6", "--jsonl", "--hands", "pairs"]
    lines = [json.loads(line) for line in CliRunner().invoke(cli, args, input="split\n" * 6).output.splitlines()]
    assert all(line["data"]["cell"].startswith("pair ") for line in lines if "prompt" in line)
    bad = CliRunner().invoke(cli, ["drill", "strategy", "--hands", "big"])
    assert bad.exit_code == 2 and "big" in bad.output
    assert CliRunner().invoke(cli, ["drill", "strategy", "--all", "-n", "1", "--jsonl"], input="hit\n").exit_code == 0
