"""Long output goes through $PAGER on a terminal when it is taller than the terminal, never to a pipe."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from rich.console import Console

from trainer.render import THEME
from trainer.render.pager import paged, pager_command


def _terminal(height: int = 10) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=True, width=80, height=height, theme=THEME, color_system=None), out


def _pager_to(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pager that keeps what it is given, and the LESS it was started with, in `path`."""
    script = f"import os, sys; open({str(path)!r}, 'w').write(os.environ.get('LESS', '-') + '|' + sys.stdin.read())"
    monkeypatch.setenv("PAGER", f"{sys.executable} -c \"{script}\"")
    monkeypatch.delenv("LESS", raising=False)


def test_taller_than_the_terminal_goes_through_the_pager(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = tmp_path / "paged"
    _pager_to(kept, monkeypatch)
    console, out = _terminal(height=10)
    with paged(console, terminal=True) as shown:
        for n in range(30):
            shown.print(f"line {n}")
    less, _, text = kept.read_text().partition("|")
    assert less == "FRX" and "line 0\n" in text and "line 29\n" in text
    assert out.getvalue() == ""


def test_what_fits_is_printed_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = tmp_path / "paged"
    _pager_to(kept, monkeypatch)
    console, out = _terminal(height=10)
    with paged(console, terminal=True) as shown:
        shown.print("one line")
    assert out.getvalue() == "one line\n" and not kept.exists()


@pytest.mark.parametrize("why", ["pipe", "no-pager", "cat"])
def test_no_pager_for_a_pipe_no_pager_or_pager_cat(why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = tmp_path / "paged"
    _pager_to(kept, monkeypatch)
    if why == "cat":
        monkeypatch.setenv("PAGER", "cat")
    console, out = _terminal(height=5)
    if why == "pipe":
        console = Console(file=out, width=80, height=5)
    with paged(console, allowed=why != "no-pager", terminal=why != "pipe") as shown:
        for n in range(30):
            shown.print(f"line {n}")
    assert out.getvalue().count("\n") == 30 and not kept.exists()


def test_the_pager_is_less_unless_pager_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAGER", raising=False)
    assert pager_command() == ["less"]
    monkeypatch.setenv("PAGER", "more -d")
    assert pager_command() == ["more", "-d"]
    monkeypatch.setenv("PAGER", "")
    assert pager_command() is None


def test_a_pager_that_cannot_start_prints_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAGER", "/nonexistent/pager")
    console, out = _terminal(height=5)
    with paged(console, terminal=True) as shown:
        for n in range(30):
            shown.print(f"line {n}")
    assert out.getvalue().count("\n") == 30


@pytest.mark.parametrize("args", [["--no-pager", "rules", "list"], ["rules", "show", "casino", "--no-pager"],
                                  ["chart", "--no-pager"], ["stats", "--no-pager"]])
def test_no_pager_is_taken_before_or_after_the_command(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from trainer.__main__ import main

    assert main(args) == 0
    assert capsys.readouterr().out.strip()
