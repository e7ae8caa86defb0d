"""Whose pace an answer's time is, kept with every attempt: the learner's (at a terminal, turning the
cards and answering when ready), the program's (a `--speed` flash the clock runs through) or a
script's (piped or `--jsonl`). Bests, `ready`'s timed criteria and `stats`' counting pace count only
the learner's own times, like against like."""

from __future__ import annotations

import io
import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from drills.base import DrillOptions, Flash
from drills.counting.countdown import CountdownDrill
from trainer.cli import cli
from trainer.core.rulesfile import find_ruleset
from trainer.practice import launch
from trainer.practice.batch import RunSummary, repeat
from trainer.practice.launch import paced
from trainer.practice.session import Clock, DrillRun
from trainer.progress.drill_focus import prepare_bests
from trainer.render import make_console
from trainer.render.flash import FlashTiming
from trainer.screens import drill as drill_ui
from trainer.storage import Store

CASINO = find_ruleset("casino")


def expected_answers(seed: int, count: int, **options: Any) -> list[str]:
    """The right answers to the first `count` countdowns `--seed seed` deals."""
    drill, rng = CountdownDrill(DrillOptions(**options)), random.Random(seed)
    return [drill.ask(rng, CASINO).expected for _ in range(count)]


def piped(db: Path, *args: str, answers: list[str]) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db), "drill", *args], input="".join(f"{a}\n" for a in answers))
    assert result.exit_code == 0, result.output
    return result.output


class Terminal:
    """The countdown at a terminal: each flash plays (turned by keys, or at `--speed`) taking
    `flash_s`, and the learner answers right `answer_s` after it."""

    def __init__(self, flash_s: float, answer_s: float) -> None:
        self.now, self.flash_s, self.answer_s = 1000.0, flash_s, answer_s

    def play_flash(self, flash: Flash) -> FlashTiming:
        timing = FlashTiming(deadlines=[self.now], shown_at=[self.now])
        self.now += self.flash_s
        return timing

    def run(self, store: Store, count: int, *, seed: int, **options: Any) -> DrillRun:
        drill = CountdownDrill(DrillOptions(**options))
        prepare_bests(drill, store)
        session = DrillRun(drill=drill, ruleset=CASINO, rng=random.Random(seed), recorder=store,
                           clock=Clock(monotonic=lambda: self.now))
        right = iter(expected_answers(seed, count, **options))

        def answer(_prompt: str) -> str:
            self.now += self.answer_s
            return next(right)

        # as `run_plan` drives a terminal: the plan paced as the learner's
        drill_ui.run_interactive(paced(repeat(session, count), "learner"),
                                 make_console(io.StringIO(), color=False, width=80), ask=answer)
        return session


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[Terminal]:
    screen = Terminal(flash_s=0.0, answer_s=0.0)
    monkeypatch.setattr("trainer.render.flash.play_flash", screen.play_flash)
    yield screen


def paces(db: Path) -> list[tuple[str, str]]:
    with Store.open(db) as store:
        return [(s.attempt.drill, s.attempt.pace) for s in store.attempts()]


def test_a_pipe_and_jsonl_are_a_script_and_a_terminal_the_learner(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "p.db"
    piped(db, "countdown", "--seed", "1", "-n", "1", answers=expected_answers(1, 1))
    piped(db, "countdown", "--seed", "1", "-n", "1", "--jsonl", answers=expected_answers(1, 1))
    assert paces(db) == [("countdown", "script"), ("countdown", "script")]
    seen: list[str] = []

    def at_a_terminal(plan: Any, console: object, **_: object) -> RunSummary:
        seen.extend(session.pace for session, _item in plan)
        return RunSummary()

    monkeypatch.setattr(drill_ui, "run_interactive", at_a_terminal)
    session = DrillRun(drill=CountdownDrill(), ruleset=CASINO, rng=random.Random(1), recorder=Store.open(db))
    try:
        launch.run_plan(repeat(session, 1), jsonl=False, interactive=True)
    finally:
        session.recorder.close()
    assert seen == ["learner"]


def test_only_learner_paced_countdowns_count_for_ready_and_for_bests(tmp_path: Path, terminal: Terminal) -> None:
    """Piped countdowns (0.0 s), countdowns flashed at 0.3 s a card (15.7 s a deck, the program's pace)
    and countdowns turned by the learner (30 s a deck): `ready` and the best see only the last."""
    db = tmp_path / "p.db"
    out = piped(db, "countdown", "--seed", "1", "-n", "5", answers=expected_answers(1, 5))
    assert "your best ever" not in out and "answered by a script" in out
    with Store.open(db) as store:
        terminal.flash_s, terminal.answer_s = 0.3 * 51, 0.4  # the flash's 15.3 s, then the answer
        flashed = terminal.run(store, 5, seed=2, speed=0.3)
        terminal.flash_s, terminal.answer_s = 28.0, 1.4  # the learner's keys, then the answer: 30 s a deck
        turned = terminal.run(store, 5, seed=3)
    assert paces(db) == [("countdown", "script")] * 5 + [("countdown", "program")] * 5 + \
        [("countdown", "learner")] * 5
    assert all("the flash's pace (0.3 s a card)" in g.explanation and "best" not in g.verdict
               for g in flashed.grades)
    assert [g.detail.get("best_seconds_per_deck") for g in turned.grades] == [None, 30.0, 30.0, 30.0, 30.0]
    assert "your first timed exact deck" in turned.grades[0].explanation

    result = CliRunner().invoke(cli, ["--db", str(db), "ready", "--json"])
    assert result.exit_code == 0, result.output
    countdown = next(c for c in json.loads(result.stdout)["criteria"] if c["key"] == "countdown")
    assert countdown["measured"]["best"] == pytest.approx(30.0, abs=0.05) and countdown["measured"]["countdowns"] == 5
    assert not countdown["pass"]  # 30 s a deck: the flashes' 15.7 s would have passed
    assert countdown["measured"]["not_counted"] == {"program": 5, "script": 5}
    assert countdown["timing"] == ("your own pace, a deck turned a card at a time; not counted: 5 at a "
                                   "flash's pace, 5 by a script")
    shown = CliRunner().invoke(cli, ["--db", str(db), "ready"])
    assert ("      timed: your own pace, a deck turned a card at a time\n"
            "      not counted: 5 at a flash's pace, 5 by a script\n") in shown.output

    with Store.open(db) as store:  # the next session beats the learner's own best, not 0.0 s or 15.7 s
        terminal.flash_s, terminal.answer_s = 22.0, 1.0
        faster = terminal.run(store, 1, seed=4)
    assert faster.grades[0].verdict == "professional pace, a new best"
    assert "a new best (was 30.0 s)" in faster.grades[0].explanation
    stats = json.loads(CliRunner().invoke(cli, ["--db", str(db), "stats", "--json"]).stdout)
    assert [(p["countdowns"], round(p["best_seconds"], 1)) for p in stats["counting_pace"]] == [(6, 23.5)]


def test_a_best_is_of_the_same_item_and_cards_per_flash(tmp_path: Path, terminal: Terminal) -> None:
    db = tmp_path / "p.db"
    with Store.open(db) as store:
        terminal.flash_s, terminal.answer_s = 9.0, 1.0  # three cards a flash: 10 s
        terminal.run(store, 1, seed=1, per_flash=3)
        terminal.flash_s = 29.0  # one card a flash: 30 s, the first of its kind
        one = terminal.run(store, 1, seed=1)
        terminal.flash_s = 19.0  # two decks, one card a flash
        two = terminal.run(store, 1, seed=1, decks=2)
    assert "your first timed exact deck" in one.grades[0].explanation
    assert "your first timed exact deck" in two.grades[0].explanation
    assert one.summary()[-1] == "your best ever: 30.6 s a deck (hi-lo, 1 deck, a card at a time)"


def test_speed_count_piped_sets_no_best(tmp_path: Path) -> None:
    out = piped(tmp_path / "p.db", "speed-count", "-n", "3", answers=["0", "0", "0"])
    assert "best" not in out.replace("(the flash sets the pace: no time here is a best)", "")
    assert "answered by a script: not your time" in out


def test_old_answers_get_the_pace_their_rows_prove_else_unknown(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    Store.open(db).close()
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0008_learner_answer_times'")
    conn.execute("ALTER TABLE attempts DROP COLUMN pace")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0007_attempt_pace'")
    conn.execute("PRAGMA user_version = 6")
    conn.execute("INSERT INTO sessions VALUES ('s', 'x', 'casino', 1.0)")
    rows = [("countdown", 40, {"cards": ["2h"] * 51, "seconds_per_card": None}),  # 0.04 s: a script's
            ("countdown", 16_000, {"cards": ["2h"] * 51, "seconds_per_card": 0.3}),  # ran through its flash
            ("countdown", 9_000, {"cards": ["2h"] * 51, "seconds_per_card": 0.3}),  # shorter than its flash
            ("speed-count", 20_000, {"cards": ["2h"] * 40, "seconds_per_card": 0.3}),
            ("countdown", 30_000, {"cards": ["2h"] * 51, "seconds_per_card": None}),  # keys or a slow pipe
            ("true-count", 1_500, {})]
    for drill, ms, data in rows:
        conn.execute("INSERT INTO attempts (session_id, drill, item, ruleset, prompt, data, expected, given, "
                     "correct, latency_ms, verdict, ts) VALUES ('s', ?, ?, 'casino', '?', ?, 'x', 'x', 1, ?, '', 1)",
                     (drill, f"{drill}:x", json.dumps(data), ms))
    conn.commit()
    conn.close()
    assert [p for _, p in paces(db)] == ["script", "program", "unknown", "program", "unknown", "unknown"]
    exported = CliRunner().invoke(cli, ["--db", str(db), "export", "--format", "json"])
    assert [r["pace"] for r in json.loads(exported.stdout)][:2] == ["script", "program"]
