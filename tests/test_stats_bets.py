"""`stats bets`: the bets at play against the true count, the correlation and slope a surveillance room
computes, raises and jumps after wins and losses, and a scatter within 80 columns."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from trainer.progress.stats_bets import BetPoint, bet_picture, bet_points, picture_to_json
from trainer.render.bet_scatter import bet_lines, reading


def _row(session: str, running: int, decks_left: float, bet: int, bankroll: int,
         rounding: str = "floor") -> tuple[str, str, str, str]:
    data = {"running_count": running, "decks_left": decks_left, "rounding": rounding, "unit": "10",
            "bankroll": str(bankroll)}
    return session, json.dumps(data), str(bet), "1"


def test_bet_points_take_the_learners_true_count_and_units() -> None:
    rows = [_row("a", 7, 2.5, 20, 500), _row("a", -7, 2.5, 10, 520, "round"),
            ("a", json.dumps({"running_count": 3, "unit": "10", "bankroll": "500"}), "10", ""),  # ungraded
            ("a", "not json", "10", "1")]
    points = bet_points(rows)
    assert [(p.true_count, p.units) for p in points] == [(2, 2), (-3, 1)]


def test_a_counter_spread_correlates_and_a_flat_bettor_does_not() -> None:
    counts = [-2, -1, 0, 1, 2, 3, 4, 5, 0, 1]
    spread = [BetPoint(session="s", true_count=t, bet=Decimal(10 * max(1, 2 * t)),
                       units=Fraction(max(1, 2 * t)), bankroll=Decimal(500)) for t in counts]
    picture = bet_picture(spread)
    xs, ys = counts, [max(1, 2 * t) for t in counts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    assert picture.correlation == pytest.approx(sxy / math.sqrt(sxx * syy))
    assert picture.slope == pytest.approx(sxy / sxx)
    assert picture.correlation > 0.9 and "counter's spread" in reading(picture)
    flat = bet_picture([BetPoint(session="s", true_count=t, bet=Decimal(10), units=Fraction(1),
                                 bankroll=Decimal(500)) for t in counts])
    assert flat.correlation is None and flat.slope == 0  # bets all alike: nothing to correlate
    assert "no correlation" in reading(flat)


def test_raises_and_jumps_after_wins_and_losses_within_a_session() -> None:
    def point(session: str, bet: int, bankroll: int) -> BetPoint:
        return BetPoint(session=session, true_count=0, bet=Decimal(bet), units=Fraction(bet, 10),
                        bankroll=Decimal(bankroll))

    points = [point("a", 10, 500), point("a", 20, 510),  # won, then doubled: a jump after a win
              point("a", 30, 490),  # lost, then raised by half: a raise, no jump
              point("a", 60, 460),  # lost, then doubled: a jump after a loss
              point("a", 60, 460),  # a push: neither
              point("b", 200, 1000)]  # another session: not compared with the last
    picture = bet_picture(points)
    assert (picture.raises_after_win, picture.raises_after_loss) == (1, 2)
    assert (picture.jumps_after_win, picture.jumps_after_loss) == (1, 1)
    assert picture_to_json(picture)["bets"] == 6


def test_the_screen_fits_80_columns_with_many_bet_sizes() -> None:
    points = [BetPoint(session="s", true_count=t, bet=Decimal(5 * u), units=Fraction(u, 2),
                       bankroll=Decimal(500)) for t in range(-8, 14) for u in range(1, 40, 3)]
    lines = bet_lines(bet_picture(points))
    assert max(len(line) for line in lines) <= 80
    rows = [line for line in lines if "│" in line]
    assert 1 < len(rows) <= 12  # bet sizes banded by doublings
    assert sum(int(cell) for line in rows for cell in line.split("│")[1].split() if cell.isdigit()) \
        == len(points)


def test_the_command_without_bets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from trainer.cli import main

    assert main(["stats", "bets", "--db", str(tmp_path / "none.db")]) == 0
    assert "No bets with a true count yet" in capsys.readouterr().out
    assert main(["stats", "bets", "--json", "--db", str(tmp_path / "none.db")]) == 0
    assert json.loads(capsys.readouterr().out)["bets"] == 0
