"""Counting through distraction (`--distract`): the interruptions replay from the seed, never change the
count's grade, are recorded with the attempt (migration 0009), and `stats` sets the interrupted counts
beside the calm ones."""

from __future__ import annotations

import io
import json
import random
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_drill_screen import Terminal, terminal  # noqa: F401  (the 80x24 terminal fixture)
from test_play_jsonl import ANSWERS, EXPECTED, TWO_ROUNDS, attempts, stack

from drills.counting.true_count import TrueCountDrill
from drills.distraction import Distractor, Interruption, check, rule_answer
from trainer.cli import cli
from trainer.core.rulesfile import find_ruleset
from trainer.practice.batch import repeat, run_jsonl, run_plain
from trainer.practice.session import Attempt, Clock, DrillRun, ListRecorder
from trainer.progress.stats import build_report, report_to_json
from trainer.render import make_console
from trainer.render.stats import print_stats
from trainer.repl.prefs import Prefs, change
from trainer.storage import Store
from trainer.storage.reader import open_read_only

CASINO = find_ruleset("casino")
NOW = 1_796_176_417.5


def _drawn(seed: int, n: int = 30) -> list[Interruption | None]:
    distractor = Distractor(random.Random(seed), CASINO, decks=6)
    return [distractor.next() for _ in range(n)]


def test_a_seed_replays_its_interruptions_and_draws_nothing_from_the_drills_generator() -> None:
    assert _drawn(11) == _drawn(11)
    assert _drawn(11) != _drawn(12)
    drawn = [i for i in _drawn(11, 300) if i is not None]
    assert 60 < len(drawn) < 140  # about one moment in three
    assert {i.kind for i in drawn} == {"sum", "rule", "drink", "chatter"}
    rng = random.Random(5)
    Distractor(rng, CASINO).next()
    assert rng.random() == random.Random(5).random()  # the drill's questions stay the seed's


def test_each_kind_of_answer_is_checked_as_a_player_would_say_it() -> None:
    total = Interruption(kind="sum", says="?", expected="125")
    assert check(total, "$125").correct and check(total, "125.00").correct and not check(total, "120").correct
    pays = Interruption(kind="rule", says="?", expected="3:2", asks="blackjack")
    assert check(pays, "3 to 2").correct and check(pays, "3/2").correct and not check(pays, "6:5").correct
    soft = Interruption(kind="rule", says="?", expected="no", asks="soft17")
    assert check(soft, "No").correct and not check(soft, "yes").correct
    drink = Interruption(kind="drink", says="?", expected="Jack and ginger")
    assert check(drink, "a jack & ginger").correct and not check(drink, "jack and coke").correct
    assert check(Interruption(kind="chatter", says="...", expected=""), "").correct
    wrong = check(total, "")
    assert wrong.words() == "the answer was 125; you said nothing (the count is graded as usual)"
    assert rule_answer(CASINO, "min_bet", None) == "10" and rule_answer(CASINO, "decks", None) is None


def _true_counts(distract: bool, answer_with: str) -> tuple[list[str], list[Attempt]]:
    """Ten seeded true-count questions by machine mode, each answered right; with `distract` every one
    interrupted and the interruption answered `answer_with`."""
    recorder = ListRecorder()
    rng = random.Random(3)
    distractor = Distractor(rng, CASINO, share=Fraction(1)) if distract else None
    session = DrillRun(drill=TrueCountDrill(), ruleset=CASINO, rng=rng, recorder=recorder,
                       clock=Clock(now=lambda: NOW), distractor=distractor)
    lines: list[str] = []

    class Answers(io.StringIO):
        """Reads the last line written and answers it: the interruption as told, the count right."""

        def readline(self, size: int | None = -1) -> str:
            last = json.loads(lines[-1])
            if last.get("kind") == "interruption":
                return (last["expected"] if answer_with == "right" else "seventeen") + "\n"
            return _expected(last) + "\n"

    class Out(io.StringIO):
        def write(self, text: str) -> int:
            lines.extend(line for line in text.splitlines() if line)
            return len(text)

    run_jsonl(repeat(session, 10), Answers(), Out())
    return lines, recorder.attempts


def _expected(question: dict[str, object]) -> str:
    from trainer.core.counting import true_count

    data = question["data"]
    assert isinstance(data, dict)
    return str(true_count(Fraction(str(data["running_count"])), Fraction(str(data["decks_left"])),
                          str(data["rounding"])))


@pytest.mark.parametrize("answer_with", ["right", "wrong"])
def test_the_count_is_graded_the_same_with_and_without_interruptions(answer_with: str) -> None:
    calm_lines, calm = _true_counts(False, "")
    lines, distracted = _true_counts(True, answer_with)
    interruptions = [json.loads(line) for line in lines if json.loads(line).get("kind") == "interruption"]
    assert len(interruptions) == 10 and all("expected" in i and i["id"].endswith("-i") for i in interruptions)
    assert [(a.item, a.expected, a.given, a.correct) for a in distracted] == \
           [(a.item, a.expected, a.given, a.correct) for a in calm]
    assert all(a.correct for a in calm)
    assert all(a.distracted for a in distracted) and not any(a.distracted for a in calm)
    assert all("distraction" in a.data for a in distracted) and not any("distraction" in a.data for a in calm)
    results = [json.loads(line) for line in lines if "interruption" in json.loads(line)
               and "kind" not in json.loads(line)]
    assert all(r["correct"] is (answer_with == "right") or r["interruption"] == "chatter" for r in results)
    asked = [json.loads(line)["data"] for line in lines if "drill" in json.loads(line)]
    assert asked == [json.loads(line)["data"] for line in calm_lines if "drill" in json.loads(line)]


def test_plain_lines_show_the_interruption_between_the_cards_and_the_count() -> None:
    rng = random.Random(3)
    session = DrillRun(drill=TrueCountDrill(), ruleset=CASINO, rng=rng, recorder=ListRecorder(),
                       distractor=Distractor(rng, CASINO, share=Fraction(1)))
    out = io.StringIO()
    run_plain(repeat(session, 1), io.StringIO("nonsense\n+1\n"), out)
    lines = out.getvalue().splitlines()
    said = next(i for i, line in enumerate(lines) if line.startswith("! "))
    assert lines[said - 1].startswith("discard tray: ") and lines[said - 2].startswith("Running count ")
    assert lines[said + 1].startswith("! ") and lines[said + 2].startswith("True count?")
    assert session.grades[0].correct is (session.grades[0].expected == "1")  # graded as the drill grades
    right = int(session.grades[0].correct)
    assert f"through an interruption: {right} of 1 counts right; without: 0 of 0" in lines


def test_play_records_its_count_checks_after_an_interruption_as_distracted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stack(monkeypatch, TWO_ROUNDS)
    monkeypatch.setattr("drills.distraction.SHARE", Fraction(1))  # every round interrupted
    answers = [*ANSWERS[:2], "x", *ANSWERS[2:6], "x", *ANSWERS[6:]]
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "p.db"), "play", "--jsonl", "--ruleset", "casino",
                                      "--seats", "1", "--seed", "1", "--distract"], input="".join(f"{a}\n" for a in answers))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert sum(line.get("kind") == "interruption" for line in lines) == 2
    assert attempts(tmp_path / "p.db") == EXPECTED  # the same grades as undistracted
    with Store.open(tmp_path / "p.db") as store:
        flags = [(s.attempt.drill, s.attempt.distracted) for s in store.attempts()]
    assert [d for drill, d in flags if drill in ("running-count", "true-count")] == [True, True]
    assert not any(d for drill, d in flags if drill not in ("running-count", "true-count"))


def test_a_schema_8_database_gains_the_column_with_its_answers_undistracted(tmp_path: Path) -> None:
    from test_storage import attempt

    db = tmp_path / "p.db"
    with Store.open(db) as store:
        store.record(attempt())
    conn = sqlite3.connect(db)
    conn.execute("DROP INDEX attempts_distracted")
    conn.execute("ALTER TABLE attempts DROP COLUMN distracted")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0009_attempt_distracted'")
    conn.execute("PRAGMA user_version = 8")
    conn.commit()
    conn.close()
    with Store.open(db) as store:
        store.record(attempt(session_id="s2", distracted=True))
        assert [s.attempt.distracted for s in store.attempts()] == [False, True]
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == 9
        with pytest.raises(sqlite3.IntegrityError):
            store.conn.execute("UPDATE attempts SET distracted = 2")


def _answers(db: Path, distracted: bool, right: list[bool], ms: int) -> None:
    with Store.open(db) as store:
        for i, correct in enumerate(right):
            store.record(Attempt(session_id=f"s{int(distracted)}", drill="true-count",
                                 item="true-count:hi-lo:half:floor:+1", ruleset="casino", prompt="?", data={},
                                 expected="1", given="1" if correct else "0", correct=correct,
                                 latency_ms=ms + i, ts=NOW - 3600 + i, pace="learner",
                                 distracted=distracted))


def _report(db: Path) -> tuple[dict[str, object], str]:
    view = open_read_only(db)
    assert view is not None
    with view:
        report = build_report(view, now=NOW)
    out = io.StringIO()
    print_stats(make_console(out, width=80, color=False), report)
    return report_to_json(report), out.getvalue()


def test_stats_sets_the_interrupted_counts_beside_the_calm_ones(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    _answers(db, False, [True] * 4, 2000)
    document, screen = _report(db)
    assert document["distraction"] == [] and "distraction" not in screen
    _answers(db, True, [True, False, True, False], 3000)
    document, screen = _report(db)
    assert document["distraction"] == [{
        "drill": "true-count", "title": "true count",
        "undistracted": {"attempts": 4, "accuracy": 1.0, "median_ms": 2001.5},
        "distracted": {"attempts": 4, "accuracy": 0.5, "median_ms": 3001.5}}]
    shown = screen.splitlines()
    row = next(line for line in shown[shown.index("Counting through distraction (--distract): calm and "
                                                   "interrupted"):] if line.startswith("true count "))
    assert row.split() == ["true", "count", "4", "100%", "2.0s", "4", "50%", "3.0s", "-50", "pts", "+1.0s"]
    assert max(len(line) for line in screen.splitlines()) <= 80


def test_set_distract_remembers_it_for_the_drills_and_play() -> None:
    on = change(Prefs(), "distract", "on")
    assert on.distract is True and on.shown("distract") == "on"
    assert on.default_map()["drill"]["distract"] is True and on.default_map()["play"]["distract"] is True
    assert change(on, "distract", "off").distract is None
    with pytest.raises(Exception, match="distract 'maybe' is not one of on, off"):
        change(Prefs(), "distract", "maybe")


def test_only_the_count_drills_take_distract(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "p.db"), "drill", "strategy", "--distract"])
    assert result.exit_code == 2 and "takes no --distract" in result.output
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "p.db"), "drill", "running-count", "--seed", "2",
                                      "--jsonl", "--no-distract", "-n", "1"], input="0\n")
    assert result.exit_code == 0 and "interruption" not in result.output
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "p.db"), "play", "--ruleset", "chat-host",
                                      "--distract", "--jsonl"], input="")
    assert result.exit_code == 1 and "keeps no count" in str(result.exception)



def test_at_a_terminal_the_tray_goes_away_and_the_interruption_comes_before_the_count(
        terminal: Terminal) -> None:  # noqa: F811  (the fixture imported above)
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input

    from trainer.screens.drill import run_interactive

    rng = random.Random(7)
    recorder = ListRecorder()
    session = DrillRun(drill=TrueCountDrill(), ruleset=CASINO, rng=rng, recorder=recorder,
                       distractor=Distractor(rng, CASINO, share=Fraction(1)))
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=terminal.output):
        pipe.send_text("\rnot sure\r+1\r\r\x04")  # Enter: the tray read; the interruption; the count
        run_interactive(repeat(session, 1), terminal.console, live=True, known=frozenset({"true-count"}))
    asked = [" ".join(frame) for frame in terminal.frames if any("True count?" in line for line in frame)]
    assert asked and "The casino interrupts" in asked[0] and "Running count" not in asked[0]
    assert "not shown again" in asked[0] and "█" not in asked[0]  # no tray picture either
    assert [a.distracted for a in recorder.attempts] == [True]
    assert recorder.attempts[0].data["distraction"]["given"] == "not sure"
