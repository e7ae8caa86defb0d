"""What `cutcard stats` prints is pinned: every view, at 80 and 140 columns, coloured and as JSON, on one
database at one moment, byte for byte, however the lines are printed.

The files in tests/data/stats_screens are the screens as a learner sees them: a change to how stats reads
or prints its figures changes no character of them. A change meant to alter a screen rewrites the files deliberately: print the view at NOW under TZ=UTC with COLUMNS set (for
`.color`: COLUMNS=100 FORCE_COLOR=1 TERM=xterm-256color), look at it, and commit it with the change.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from progress_data import fill
from rich.console import Console

from trainer.__main__ import main
from trainer.progress.stats import build_report
from trainer.render import THEME, Page, make_console
from trainer.render.stats import print_drill_charts, print_stats
from trainer.storage.reader import open_read_only

SCREENS = Path(__file__).parent / "data" / "stats_screens"
NOW = 1796176417.5
"""2026-12-02 01:53:37 UTC: the moment the pinned screens show."""
VIEWS: dict[str, list[str]] = {
    "overview": [], "overview_json": ["--json"], "overview_since_7d": ["--since", "7d"],
    "overview_since_30d": ["--since", "30d"], "overview_since_30d_json": ["--since", "30d", "--json"],
    "overview_since_200d": ["--since", "200d"], "overview_since_1y": ["--since", "1y"],
    "drills": ["drills"], "review": ["review"], "review_json": ["review", "--json"],
    "strategy": ["strategy"], "strategy_counts": ["strategy", "--counts"], "strategy_json": ["strategy", "--json"],
}
CASES = [(name, width) for name, args in VIEWS.items() for width in (("80",) if "--json" in args else ("80", "140"))]
CASES += [(name, "color") for name in ("overview", "drills", "review", "strategy")]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fill(tmp_path_factory.mktemp("pinned") / "current.db", NOW)


@pytest.fixture(autouse=True)
def at_now_in_utc(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(time, "time", lambda: NOW)
    monkeypatch.setenv("TZ", "UTC")
    monkeypatch.setenv("CUTCARD_HOME", str(tmp_path))
    monkeypatch.delenv("NO_COLOR", raising=False)
    time.tzset()


@pytest.fixture(autouse=True, scope="module")
def restore_the_time_zone() -> object:
    yield None
    time.tzset()  # the environment is restored by then: the zone the other tests expect


@pytest.mark.parametrize(("view", "width"), CASES, ids=[f"{v}.{w}" for v, w in CASES])
def test_stats_prints_the_pinned_screen(database: Path, view: str, width: str,
                                        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    if width == "color":
        monkeypatch.setenv("COLUMNS", "100")
        monkeypatch.setenv("FORCE_COLOR", "1")
        monkeypatch.setenv("TERM", "xterm-256color")
    else:
        monkeypatch.setenv("COLUMNS", width)
        monkeypatch.delenv("FORCE_COLOR", raising=False)
    before = database.read_bytes()
    assert main(["--db", str(database), "stats", *VIEWS[view]]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out == (SCREENS / f"{view}.{width}.txt").read_text()
    assert database.read_bytes() == before


def _line_by_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make a Page print each line with its own `Console.print`: rich's own rendering, the reference."""

    def flush(page: Page) -> None:
        for line in page.lines:
            page.console.print(line, no_wrap=line.no_wrap, overflow=line.overflow)
        page.lines = []

    monkeypatch.setattr(Page, "flush", flush)


@pytest.mark.parametrize("color", [False, True], ids=["plain", "coloured"])
@pytest.mark.parametrize("width", [40, 80, 140])
@pytest.mark.parametrize("draw", [print_stats, print_drill_charts], ids=["overview", "drills"])
def test_a_page_prints_its_lines_as_rich_prints_each(database: Path, width: int, color: bool,
                                                    draw: Callable[..., None],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A page printed at once is the same bytes as its lines each printed alone, also where lines are
    too wide and wrap (40)."""
    view = open_read_only(database)
    assert view is not None
    with view:
        report = build_report(view, now=NOW)

    def printed() -> str:
        out = io.StringIO()
        console = (Console(file=out, width=width, theme=THEME, highlight=False, force_terminal=True,
                           color_system="256") if color else make_console(out, width=width, color=False))
        draw(console, report)
        return out.getvalue()

    fast = printed()
    _line_by_line(monkeypatch)
    assert fast == printed()
