"""`cutcard play --jsonl` on stacked shoes: every decision graded, recorded with the drills' item keys and
source "play", brought back by review when missed, and counted by stats."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer.cli import cli
from trainer.core import Shoe
from trainer.core.rules import Ruleset
from trainer.progress.review import ReviewQueue
from trainer.storage import Store

PAD = "9 " * 300
"""Neutral (Hi-Lo 0) cards behind the stacked ones: about six decks left, and the count unchanged."""


def stack(monkeypatch: pytest.MonkeyPatch, cards: str, *, check_every: tuple[int, int] = (2, 2)) -> None:
    """Every table shoe is this stack; a count check every `check_every` rounds."""
    def shuffled(cls: type[Shoe], ruleset: Ruleset, rng: random.Random | None = None) -> Shoe:
        return Shoe.stacked(ruleset, cards + " " + PAD)

    monkeypatch.setattr(Shoe, "shuffled", classmethod(shuffled))
    monkeypatch.setattr("trainer.table.count_checks.CHECK_EVERY", check_every)


def play_jsonl(db: Path, args: list[str], answers: list[str]) -> list[dict[str, object]]:
    result = CliRunner().invoke(cli, ["--db", str(db), "play", "--jsonl", *args],
                                input="".join(f"{a}\n" for a in answers))
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


def attempts(db: Path) -> list[tuple[str, str, str, str, bool, str]]:
    with Store.open(db) as store:
        return [(a.attempt.drill, a.attempt.item, a.attempt.expected, a.attempt.given, a.attempt.correct,
                 a.attempt.source) for a in store.attempts()]


# Round 1: you T 6 against a ten (hole 7); round 2: you 5 6 against a 6 (hole T), a 9 on the hit, the
# dealer busts with a ten. Hi-Lo: after round 1 the running count is -1, after round 2 it is 0.
TWO_ROUNDS = "T T 6 7  5 6 6 T 9 T"
ANSWERS = [
    "10",      # bet at true count 0: one unit, right
    "stand",   # 16 vs 10 at true count -1: the index says hit
    "40",      # bet at true count -1: one unit ($10), not $40
    "lots",    # malformed: an error line, read again, nothing recorded
    "hit",     # 11 vs 6: the chart doubles
    "stand",   # 20 vs 6: right
    "3",       # running count: 0
    "0",       # true count: 0
]
EXPECTED = [
    ("bet", "bet:hi-lo:tc+0", "10", "10", True, "play"),
    ("deviations", "deviations:s17:16 vs 10", "hit", "stand", False, "play"),
    ("bet", "bet:hi-lo:tc-1", "10", "40", False, "play"),
    ("strategy", "strategy:hard 11 vs 6", "double", "hit", False, "play"),
    ("strategy", "strategy:hard 20 vs 6", "stand", "stand", True, "play"),
    ("running-count", "running-count:hi-lo:0.50s", "0", "3", False, "play"),
    ("true-count", "true-count:hi-lo:half:floor:+0", "0", "0", True, "play"),
]


def test_scripted_rounds_are_graded_line_by_line_and_recorded_with_the_drills_item_keys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stack(monkeypatch, TWO_ROUNDS)
    db = tmp_path / "progress.db"
    lines = play_jsonl(db, ["--ruleset", "casino", "--seats", "1", "--seed", "1"], ANSWERS)
    kinds = [line.get("kind") for line in lines if "kind" in line]
    assert kinds == ["bet", "action", "bet", "action", "action", "count", "true-count", "bet"]
    first = lines[0]
    assert set(first) == {"id", "kind", "prompt", "data"}
    assert first["data"]["ramp"] == "1:1,2:2,3:4,4:8,5:12" and first["data"]["running_count"] == 0
    play = lines[2]
    assert play["kind"] == "action" and play["choices"] == ["hit", "stand", "double"]
    assert [c[0] for c in play["data"]["cards"]] == ["T", "6"]
    assert play["data"]["running_count"] == -1 and play["data"]["up"][0] == "T"
    grade = lines[3]
    assert set(grade) >= {"id", "correct", "expected", "given", "explanation", "latency_ms"}
    assert grade["id"] == play["id"] and grade["correct"] is False and grade["expected"] == "hit"
    assert "16 vs 10 at true count -1: hit" in str(grade["explanation"])
    bet = next(line for line in lines if line.get("given") == "40")
    assert "true count -1 (running -1, 6 decks left; half decks, floor): your ramp bets 1 unit ($10)" in str(bet["explanation"])
    errors = [line for line in lines if "error" in line]
    assert len(errors) == 1 and set(errors[0]) == {"id", "error"}
    rounds = [line for line in lines if "round" in line]
    assert [r["round"] for r in rounds] == [1, 2] and [r["net"] for r in rounds] == ["-10", "40"]
    assert rounds[1]["hands"] == [{"cards": rounds[1]["hands"][0]["cards"], "total": 20, "bet": "40"}]
    assert attempts(db) == EXPECTED


def test_the_missed_table_decisions_come_back_in_review_and_stats_counts_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stack(monkeypatch, TWO_ROUNDS)
    db = tmp_path / "progress.db"
    play_jsonl(db, ["--ruleset", "casino", "--seats", "1", "--seed", "1"], ANSWERS)
    missed = {(drill, item) for drill, item, _, _, correct, _ in EXPECTED if not correct}
    with Store.open(db) as store:
        queue = ReviewQueue(store, rng=random.Random(3), new_per_day=0)
        asked = set()
        for session, item in queue.plan():
            assert item is not None
            _, question = session.ask(item)  # the drill itself asks the table's item
            assert question.item == item
            asked.add((question.drill, item))
    assert asked == missed and ("bet", "bet:hi-lo:tc-1") in asked  # the bet drill asks the table's bet
    first = CliRunner().invoke(cli, ["--db", str(db), "review", "--jsonl", "--new", "0"], input="")
    assert json.loads(first.output.splitlines()[0])["item"] in {item for _, item in missed}
    stats = json.loads(CliRunner().invoke(cli, ["--db", str(db), "stats", "--json"]).output)
    counted = {d["drill"]: d["windows"][-1]["attempts"] for d in stats["drills"]}
    for drill in ("strategy", "deviations", "running-count", "true-count"):
        assert counted[drill] == sum(1 for e in EXPECTED if e[0] == drill)


def test_end_of_input_ends_the_session_cleanly_with_every_answer_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stack(monkeypatch, TWO_ROUNDS)
    db = tmp_path / "progress.db"
    lines = play_jsonl(db, ["--ruleset", "casino", "--seats", "1"], ANSWERS[:3])
    assert lines[-1]["kind"] == "action"  # asked, never answered
    assert attempts(db) == EXPECTED[:3]


def test_rounds_stops_after_n_rounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stack(monkeypatch, TWO_ROUNDS, check_every=(9, 9))
    lines = play_jsonl(tmp_path / "p.db", ["--ruleset", "casino", "--seats", "1", "--rounds", "1"],
                       ["10", "stand", "10"])
    assert lines[-1]["round"] == 1 and len(attempts(tmp_path / "p.db")) == 2


def test_where_counting_cannot_help_bets_are_not_graded_and_the_first_line_says_why(tmp_path: Path) -> None:
    lines = play_jsonl(tmp_path / "p.db", ["--ruleset", "eight-deck", "--seats", "1", "--seed", "4",
                                           "--rounds", "1"], ["10", *["stand"] * 8])
    assert "cannot help" in str(lines[0]["notice"])
    assert lines[1]["kind"] == "bet" and lines[1]["data"]["counting_helps"] is False
    assert lines[2] == {"id": lines[1]["id"], "graded": False, "given": "10",
                        "explanation": lines[2]["explanation"]}
    assert all(drill != "bet" for drill, *_ in attempts(tmp_path / "p.db"))


def test_play_reads_plain_answer_lines_from_a_pipe(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "CUTCARD_HOME": str(tmp_path), "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-m", "trainer", "play", "--seed", "3", "--rounds", "1"],
                          input="?\n15\n" + "hit\n" + "s\n" * 6, capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Bet ramp 1:1,2:2,3:4,4:8,5:12" in out and "your ramp bets 1 unit ($10)" in " ".join(out.split())
    assert "Session summary" in out and "Traceback" not in out + done.stderr
    with Store.open(tmp_path / "progress.db") as store:
        rows = [s.attempt for s in store.attempts()]
    assert rows[0].drill == "bet" and rows[0].given == "15" and not rows[0].correct
    assert all(a.source == "play" for a in rows) and len(rows) >= 2
