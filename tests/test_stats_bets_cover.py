"""`stats bets`: what the learner's ramp earns and what a cover ramp costs an hour, from the game's
per-count statistics (a `--stats` document or the ones `plan` stored), checked against the sums by hand;
one line saying how to get the statistics where none are stored; 80 columns; `--json` carries it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from trainer.core.betting import BetRamp
from trainer.core.errors import InvalidInputError
from trainer.planning.cover import SHOWN, cover_costs, cover_ramp, ramp_correlation
from trainer.planning.ramp import TableLimits
from trainer.sim.results import CountStats

MINE = BetRamp.parse("1:1,2:2,3:4,4:8,5:12")
ROWS = tuple(CountStats(true_count=t, rounds=n, mean=m, second_moment=1.3)
             for t, n, m in ((-2, 2000, -0.02), (-1, 3000, -0.01), (0, 3500, -0.005), (1, 2000, 0.0),
                             (2, 1000, 0.006), (3, 600, 0.012), (4, 300, 0.02), (5, 150, 0.025),
                             (6, 50, 0.03)))
LIMITS = TableLimits(bankroll=100_000, ror=0.05, min_bet=10, max_bet=10_000, rounds_per_hour=100)


def _by_hand(ramp: BetRamp) -> tuple[float, float]:
    """(win an hour, SD an hour) of a ramp at ROWS, one unit $10, 100 rounds an hour."""
    total = sum(r.rounds for r in ROWS)
    mu = sum(r.rounds / total * 10 * ramp.units_at(r.true_count) * r.mean for r in ROWS)
    second = sum(r.rounds / total * (10 * ramp.units_at(r.true_count)) ** 2 * r.second_moment for r in ROWS)
    return 100 * mu, math.sqrt(second - mu * mu) * 10


@pytest.mark.parametrize("spec, ramp", [("1-8", "1:1,2:2,3:4,4:8"), ("2-6", "1:2,3:4,4:6"),
                                        ("half", "1:1,2:2,3:3,4:5,5:7"), ("late", "2:1,3:2,4:4,5:8,6:12"),
                                        ("flat", "0:1"), ("0:1,3:4", "0:1,3:4")])
def test_each_cover_is_made_from_your_ramp(spec: str, ramp: str) -> None:
    assert cover_ramp(spec, MINE).ramp.text == ramp


@pytest.mark.parametrize("spec", ["1-x", "8-1", "0-4", "milder", "2:4,3:1"])
def test_a_cover_no_ramp_can_make_is_refused(spec: str) -> None:
    with pytest.raises(InvalidInputError):
        cover_ramp(spec, MINE)


def test_the_figures_and_the_cost_are_the_per_count_sums() -> None:
    covers = [cover_ramp(spec, MINE) for spec in SHOWN]
    own, priced = cover_costs(ROWS, MINE, covers, LIMITS)
    win, sd = _by_hand(MINE)
    assert own.figures.ev_per_hour == pytest.approx(win) and own.figures.sd_per_hour == pytest.approx(sd)
    total = sum(r.rounds for r in ROWS)
    for p, cover in zip(priced, covers, strict=True):
        cover_win, cover_sd = _by_hand(cover.ramp)
        assert p.figures.ev_per_hour == pytest.approx(cover_win)
        assert p.figures.sd_per_hour == pytest.approx(cover_sd)
        assert p.cost_per_hour == pytest.approx(win - cover_win)
        se = math.sqrt(sum(r.rounds * (10 * (MINE.units_at(r.true_count) - cover.ramp.units_at(r.true_count)))
                           ** 2 * (r.second_moment - r.mean ** 2) for r in ROWS)) / total * 100
        assert p.cost_per_hour_se == pytest.approx(se)
    flat = priced[SHOWN.index("flat")]
    assert flat.correlation is None and flat.figures.ev_per_hour == pytest.approx(
        100 * 10 * sum(r.rounds * r.mean for r in ROWS) / total)  # one unit: the game's flat edge
    assert all(p.cost_per_hour > 0 for p in priced)  # every milder ramp costs this counter money
    assert own.correlation == pytest.approx(ramp_correlation(ROWS, MINE))


def test_capping_a_ramp_keeps_its_correlation_high() -> None:
    """A room reads the shape, not the size: a ramp capped at 8 units correlates with the count at least as
    well as the learner's 1-12 (the capped top makes the bets straighter), while waiting a count (late)
    reads less."""
    capped, late = (cover_ramp(s, MINE).ramp for s in ("1-8", "late"))
    mine = ramp_correlation(ROWS, MINE)
    assert mine is not None
    assert (ramp_correlation(ROWS, capped) or 0) >= mine > (ramp_correlation(ROWS, late) or 0)


# --- the command ------------------------------------------------------------------------------------


def _bets(db: Path) -> None:
    """Three graded bets at play, as the table records them."""
    from trainer.practice.session import Attempt
    from trainer.storage import Store

    data = {"kind": "bet", "ruleset": "casino", "system": "hi-lo", "ramp": MINE.text, "unit": "10",
            "estimation": "half", "rounding": "floor", "last_deck": None}
    with Store.open(db) as store:
        for n, (running, decks, bet, bankroll) in enumerate(((0, 6.0, "10", "500"), (9, 4.5, "20", "510"),
                                                             (20, 4.0, "120", "490"))):
            store.record(Attempt(session_id="s1", drill="bet", item="bet:hi-lo:tc+0", ruleset="casino",
                                 prompt="Your bet?", data={**data, "running_count": running,
                                                           "decks_left": decks, "bankroll": bankroll},
                                 expected=bet, given=bet, correct=True, latency_ms=1000, ts=1e9 + n,
                                 source="play", pace="script"))


def _per_count(path: Path) -> Path:
    rows = [{"true_count": r.true_count, "rounds": r.rounds, "mean": r.mean, "second_moment": r.second_moment}
            for r in ROWS]
    path.write_text(json.dumps({"ruleset": "casino", "counting": {"system": "hi-lo"}, "per_count": rows}))
    return path


def test_the_screen_prices_your_ramp_beside_the_covers_within_80_columns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from trainer.cli import main

    db = tmp_path / "p.db"
    _bets(db)
    stats = _per_count(tmp_path / "game.json")
    assert main(["stats", "bets", "--db", str(db), "--stats", str(stats)]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    own, priced = cover_costs(ROWS, MINE, [cover_ramp(s, MINE) for s in SHOWN],
                              TableLimits(bankroll=100_000, ror=0.05, min_bet=10, max_bet=10_000,
                                          rounds_per_hour=105))
    assert f"yours   {MINE.text}" in out and f"${own.figures.ev_per_hour:,.2f}" in out
    for p in priced:
        assert f"${p.cost_per_hour:,.2f} ± {p.cost_per_hour_se:,.2f}" in out
    assert "105 rounds an hour; 12,600 rounds from game.json" in " ".join(out.split())
    other = tmp_path / "ko.json"
    other.write_text(stats.read_text().replace('"hi-lo"', '"ko"'))
    assert main(["stats", "bets", "--db", str(db), "--stats", str(other)]) == 0
    assert "rounds from ko.json, a game of casino with ko)" in " ".join(capsys.readouterr().out.split())
    assert main(["stats", "bets", "--db", str(db), "--stats", str(stats), "--cover", "2:1,4:4", "--json"]) == 0
    ramps = json.loads(capsys.readouterr().out)["ramps"]
    assert ramps["priced"] and ramps["yours"]["ramp"] == MINE.text
    assert [c["ramp"] for c in ramps["covers"]] == ["2:1,4:4"]
    assert ramps["covers"][0]["cost_per_hour"] == pytest.approx(
        ramps["yours"]["ev_per_hour"] - ramps["covers"][0]["ev_per_hour"])


def test_without_stored_statistics_one_line_says_how_to_get_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from trainer.cli import main

    db = tmp_path / "p.db"
    _bets(db)
    assert main(["stats", "bets", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "To price ramps: `cutcard plan --ruleset casino --system hi-lo` (once, minutes)"
    assert main(["stats", "bets", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ramps"]["priced"] is False


def test_the_statistics_plan_stored_are_read_never_simulated(tmp_path: Path, cutcard_home: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from trainer.cli import main
    from trainer.cli.common import use_chart_cache
    from trainer.cli.sim import make_counter
    from trainer.core import load_ruleset
    from trainer.sim.runner import Plan, letters_of
    from trainer.statstore import Statistics, StatsStore, game_key
    from trainer.strategy import chart_for

    use_chart_cache()
    rules = load_ruleset("casino")
    counter, _ = make_counter(rules, "hi-lo", "1-1", None, None, "half", "floor", quiet=True)
    key = game_key(Plan(ruleset=rules, chart=letters_of(chart_for(rules).lookup), counter=counter))
    scale = 2  # results in half units: sums of whole numbers
    sums = {r.true_count: [r.rounds, round(r.mean * r.rounds * scale), round(r.second_moment * r.rounds * 4)]
            for r in ROWS}
    StatsStore(cutcard_home / "stats").write(Statistics(key=key, rows=(), rounds=12_600, blocks=1,
                                                        scale=scale, sums=sums))
    db = tmp_path / "p.db"
    _bets(db)
    assert main(["stats", "bets", "--db", str(db), "--cover", "1-8"]) == 0
    out = capsys.readouterr().out
    assert "12,600 rounds stored by" in " ".join(out.split()) and "1-8     1:1,2:2,3:4,4:8" in out
