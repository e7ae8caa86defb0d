"""`cutcard chart` and `cutcard ev` as a user runs them, bad input included."""

from __future__ import annotations

import json

import pytest

from trainer.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_chart_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chart", "--ruleset", "casino", "--json")
    document = json.loads(out)
    assert code == 0 and set(document) == {"ruleset", "ev", "house_edge_pct", "cells", "exceptions"}
    assert document["cells"]["hard 16 vs 10"]["action"] == "H"
    assert document["cells"]["pair A-A vs A"]["ev"]["split"] > document["cells"]["pair A-A vs A"]["ev"]["hit"]


def test_chart_card_is_printed_and_cached(capsys: pytest.CaptureFixture[str], cutcard_home: object,
                                          charts_put_back: object) -> None:
    from pathlib import Path

    from trainer.strategy import forget_charts

    forget_charts()
    code, out, _ = run(capsys, "chart", "-r", "european")
    assert code == 0 and "Hard totals" in out and "Pairs" in out and "House edge" in out
    assert list((Path(str(cutcard_home)) / "charts").glob("chart-*.json"))


def test_ev_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ev", "10,6", "vs", "10")
    assert code == 0 and "hit" in out and "stand" in out
    code, out, _ = run(capsys, "ev", "8", "8", "vs", "A", "--json", "-r", "european")
    document = json.loads(out)
    assert code == 0 and document["best"] == "hit" and document["conditioned_on_no_dealer_blackjack"] is False
    assert set(document["ev"]) == {"stand", "hit", "double", "split"}


@pytest.mark.parametrize(("argv", "problem"), [
    (["10,6,K,9", "vs", "10"], "bust"),
    (["10,6,Z", "vs", "10"], "'Z' is not a card"),
    (["10,6", "vs", "11"], "bad up card"),
    (["10,6", "vs", "10", "9"], "one up card"),
    (["10,6", "10"], "no 'vs'"),
    (["vs", "10"], "no cards"),
    (["A", "vs", "10"], "two cards"),
])
def test_ev_bad_input_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str], argv: list[str],
                                             problem: str) -> None:
    code, out, err = run(capsys, "ev", *argv)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("cutcard: ") and problem in err


@pytest.fixture
def no_chart_cache():
    """No chart cache installed before the command runs (and none left behind for other tests)."""
    from trainer.strategy import install_cache

    install_cache(None)
    yield
    install_cache(None)


@pytest.mark.parametrize(("argv", "typed"), [
    (["chart", "--json"], ""),
    (["ev", "10,6", "vs", "10", "--json"], ""),
    (["drill", "strategy", "--count", "1", "--seed", "1"], "stand\n"),
    (["review", "--limit", "1", "--seed", "1"], "stand\n"),
    (["play", "--seed", "1"], "q\n"),
    (["sim", "--hands", "1000", "--jobs", "1", "--json"], ""),
], ids=lambda v: v[0] if isinstance(v, list) else "")
def test_every_command_that_may_need_a_chart_keeps_it_in_cutcard_home(
        argv: list[str], typed: str, cutcard_home: object, no_chart_cache: None) -> None:
    from pathlib import Path

    from click.testing import CliRunner

    from trainer.chartcache import FileCache
    from trainer.cli import cli
    from trainer.strategy.cache import installed_cache

    result = CliRunner().invoke(cli, argv, input=typed)
    assert result.exit_code == 0, result.output
    cache = installed_cache()
    assert isinstance(cache, FileCache) and cache.directory == Path(str(cutcard_home)) / "charts"
