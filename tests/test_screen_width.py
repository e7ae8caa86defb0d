"""Nothing the program prints is cut by an 80-column terminal: every screen of the README's tour, run
in-process at `COLUMNS=80` over a small filled database, has no line wider than 80 columns.

The drills and the review are checked as a terminal shows them (the interactive driver drawing to an
80-column console); their plain-line mode for scripts (stdin from a pipe) prints whole lines, as a
script that reads them wants."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from progress_data import fill

from trainer.__main__ import main

WIDTH = 80

TOUR = [
    "rules list", "rules show european", "rules european", "rules europian", "chart",
    "chart --ruleset chat-host", "ev 10,6 vs 10", "ev 16 vs 10", "ev --sidebet 21+3", "drill",
    "drill stratgy", "drill running-coun", "drill zzz", "drill running-count --help", "drill strategy --help",
    "review --dry-run", "stats", "stats drills", "stats review", "stats strategy", "ready",
    "sim --hands 2000 --seed 1 --jobs 1", "sim --ruleset europian", "db check", "db backups",
    "chart --ruleset europian", "drill true-count --system hilo-x",
    "indices --plays 12v4,insurance --samples 40 --shoes 6 --seats 3 --jobs 1 --seed 1",
    "play --seed 1 --rounds 2|10\ns\ns\ns\n0\n10\ns\ns\ns\n0\n", "play --bet-count --seed 1 --rounds 1|10\ns\ns\ns\n0\n",
    "export --format csv --output {home}/out.csv", "db backup", "drill table --help",
]


@pytest.fixture
def filled(cutcard_home: Path) -> Path:
    return fill(cutcard_home / "progress.db", time.time(), answers=300)


def _wide(text: str) -> list[str]:
    """Lines wider than the screen, but for a line that is one word alone (a path in the test's deep
    temporary folder): no layout can break it but the terminal's, and a wrap keeps it whole."""
    return [line for line in text.splitlines() if len(line) > WIDTH and " " in line.strip()]


@pytest.mark.parametrize("line", TOUR)
def test_no_tour_line_is_wider_than_80(line: str, filled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lines the CLI lays out itself are laid out as on a terminal (rich reads COLUMNS alone)."""
    monkeypatch.setattr("trainer.cli.common.is_terminal", lambda _stream: True)
    runner = CliRunner()
    words, _, typed = line.partition("|")
    with runner.isolation(input=typed, env={"COLUMNS": str(WIDTH)}) as streams:
        status = main(words.replace("{home}", str(filled.parent)).split())
        out = streams[0].getvalue().decode() + streams[1].getvalue().decode()
    assert status in (0, 2), out
    assert out.strip()
    assert _wide(out) == []


DRILL_ANSWERS = {"strategy": "h", "true-count": "1", "table": "0", "quiz": "a", "settle": "take",
                 "payout": "1 green", "deviations": "s", "catch": "ok", "cut": "1 stack green", "bet": "2",
                 "color-up": "1 green", "deck-estimation": "3", "attack": "pass"}


@pytest.mark.parametrize("name", sorted(DRILL_ANSWERS))
def test_no_drill_screen_line_is_wider_than_80(name: str) -> None:
    """Three questions of each drill at an 80-column terminal, with a malformed answer to each and then a
    (often wrong) answer: the intro, the questions, the errors and the feedback all fit."""
    import random

    from drills import make_drill
    from trainer.core.rulesfile import load_ruleset
    from trainer.practice.batch import repeat
    from trainer.practice.session import DrillRun, ListRecorder
    from trainer.render import make_console
    from trainer.screens.drill import run_interactive

    ruleset = load_ruleset("chat-host" if name == "attack" else "casino")
    session = DrillRun(drill=make_drill(name), ruleset=ruleset, rng=random.Random(3), recorder=ListRecorder())
    answers = iter(["@@ nonsense @@", DRILL_ANSWERS[name]] * 3)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        answer = next(answers, None)
        if answer is None:  # the drill refused every answer given: it stops as at Ctrl-D
            raise EOFError
        return answer

    buffer = io.StringIO()
    run_interactive(repeat(session, 3), make_console(buffer, width=WIDTH, color=False), ask)
    assert _wide(buffer.getvalue()) == [] and all(len(p) < WIDTH for p in prompts)
