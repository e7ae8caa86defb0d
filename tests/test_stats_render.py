"""Every stats screen at 80 and 140 columns: no line wider than the console, no number cut short, every
chart titled with its axes labelled; NO_COLOR respected."""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from progress_data import fill
from rich.cells import cell_len
from rich.console import Console

from trainer.progress.readiness import assess
from trainer.progress.since import Since
from trainer.progress.stats import build_report
from trainer.progress.stats_strategy import build_heatmap
from trainer.render import THEME, make_console
from trainer.render.heatmap import print_heatmap
from trainer.render.ready import print_readiness
from trainer.render.review_stats import print_review_picture
from trainer.render.stats import print_drill_charts, print_stats
from trainer.storage.reader import ReadOnly, open_read_only

NOW = time.time()


@pytest.fixture(scope="module")
def view(tmp_path_factory: pytest.TempPathFactory) -> ReadOnly:
    path = fill(tmp_path_factory.mktemp("render") / "progress.db", NOW)
    opened = open_read_only(path)
    assert opened is not None
    return opened


def screens(view: ReadOnly) -> dict[str, Callable[[Console], None]]:
    report = build_report(view, now=NOW)
    heatmap = build_heatmap(view, now=NOW, since=Since(label="all", days=None), ruleset="casino")
    readiness = assess(view, ruleset="casino")
    return {
        "overview": lambda c: print_stats(c, report),
        "drills": lambda c: print_drill_charts(c, report),
        "review": lambda c: print_review_picture(c, report.review, report.today),
        "strategy": lambda c: print_heatmap(c, heatmap),
        "strategy counts": lambda c: print_heatmap(c, heatmap, counts=True),
        "ready": lambda c: print_readiness(c, readiness),
    }


def render(draw: Callable[[Console], None], width: int) -> list[str]:
    out = io.StringIO()
    draw(make_console(out, width=width, color=False))
    return out.getvalue().splitlines()


def check_charts(lines: list[str]) -> int:
    """Each chart: a title above its plot, y labels on the axis, an x axis with words under it."""
    charts = 0
    for i, line in enumerate(lines):
        if "└" not in line:
            continue
        charts += 1
        assert lines[i + 1].strip(), f"no x-axis labels under {line!r}"
        top = i - 1
        while top > 0 and ("┤" in lines[top] or "│" in lines[top]):
            top -= 1
        plot = lines[top + 1:i]
        assert lines[top].strip() and "┤" not in lines[top], f"no title above the chart at line {i}"
        ticks = [row for row in plot if "┤" in row]
        assert len(ticks) >= 2, f"the y axis of the chart at line {i} is not labelled at both ends"
        for row in ticks:
            for label in re.findall(r"(\S*)\s*┤", row):
                assert label, f"an unlabelled tick: {row!r}"
    return charts


@pytest.mark.parametrize("width", [80, 140])
@pytest.mark.parametrize("screen", ["overview", "drills", "review", "strategy", "strategy counts", "ready"])
def test_screens_fit_and_label_their_charts(view: ReadOnly, screen: str, width: int) -> None:
    lines = render(screens(view)[screen], width)
    assert lines
    for line in lines:
        assert cell_len(line) <= width, f"{screen} at {width}: {line!r} is {cell_len(line)} wide"
        assert not re.search(r"\d…|…\d|\d\.…", line), f"a number cut short: {line!r}"
    charts = check_charts(lines)
    if screen in ("overview", "drills", "review"):
        assert charts >= 1


def test_wider_consoles_get_more(view: ReadOnly) -> None:
    narrow = "\n".join(render(screens(view)["drills"], 80))
    wide = "\n".join(render(screens(view)["drills"], 140))
    assert len(wide) > len(narrow)  # each week's figure under its bar
    assert "%/" in "\n".join(render(screens(view)["strategy"], 140))  # % right and answers per cell


def test_no_color_is_respected(view: ReadOnly, monkeypatch: pytest.MonkeyPatch) -> None:
    draw = screens(view)["overview"]
    coloured = io.StringIO()
    draw(Console(file=coloured, width=100, theme=THEME, force_terminal=True, color_system="truecolor"))
    assert re.search("\x1b\\[[0-9;]*3[0-9]", coloured.getvalue())  # colours without NO_COLOR
    monkeypatch.setenv("NO_COLOR", "1")
    plain = io.StringIO()
    draw(Console(file=plain, width=100, theme=THEME, force_terminal=True, color_system="truecolor"))
    assert not re.search("\x1b\\[[0-9;]*(3[0-9]|4[0-9]|9[0-7])m", plain.getvalue())


def test_stats_views_and_json_through_the_cli(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from trainer.cli import cli

    db = fill(tmp_path / "progress.db", NOW, answers=120)
    runner = CliRunner()
    for args in (["stats"], ["stats", "drills"], ["stats", "review"], ["stats", "strategy"],
                 ["stats", "strategy", "--counts"], ["stats", "strategy", "--cell", "hard 16 vs 10"]):
        result = runner.invoke(cli, ["--db", str(db), *args], env={"COLUMNS": "80"})
        assert result.exit_code == 0, (args, result.output)
    cell = runner.invoke(cli, ["--db", str(db), "stats", "strategy", "--cell", "hard 16 vs 10"])
    assert cell.output.startswith("hard 16 vs 10 (casino):")
    bad = runner.invoke(cli, ["--db", str(db), "stats", "strategy", "--cell", "hard 40 vs 1"])
    assert bad.exit_code != 0
    heat = json.loads(runner.invoke(cli, ["--db", str(db), "stats", "strategy", "--json"]).stdout)
    assert heat["cells_total"] == 360 and heat["ruleset"] == "casino"
    review = json.loads(runner.invoke(cli, ["--db", str(db), "stats", "review", "--json"]).stdout)
    assert len(review["forecast"]) == 31 and len(review["history"]) == 30
