"""What surveillance sees: the learner's bets at `play` against the true count.

A casino's game-protection analyst reads a counter from two figures over the bets: the correlation of
bet with count (a flat bettor's is near 0, a counter's spreading by the count near 1) and the slope of
bet on count (the money added per true-count point). They also watch the bet jumps: a gambler presses
after a win, a counter raises when the count rises whatever the last round did, so raises that follow
losses as often as wins are a counter's mark. This module computes all three from the recorded bets.

The true count of a bet is the learner's own: the running count over the decks left as the session
estimated them, rounded as it said (recorded in the bet's `data`); a bet taken ungraded (counting
cannot help, or an unbalanced count) has none and is left out. A round's result is read from the
bankroll: the bankroll at the next bet of the same session above the one at this bet (less nothing:
the bankroll is recorded before the bet is placed) means the round was won. A jump is a bet at least
twice the one before it in the same session (our reading of "a bet jump": a doubling, as the
surveillance literature describes spreading).

The game the bets were made at (`BetGame`: rule set, count, conversion, ramp and unit) is the latest
bet's: what the learner's ramp earns there, and what a cover ramp costs, is priced from that game's
per-count statistics (`trainer.planning.cover`).
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from trainer.core.counting import true_count
from trainer.core.errors import TrainerError
from trainer.core.money import Money, parse_money

JUMP = 2
"""A bet at least this many times the one before it is a jump."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BetPoint:
    """One bet at the table, with the learner's true count when it was placed."""

    session: str
    true_count: int
    bet: Money
    units: Fraction
    """The bet in table units (the table minimum)."""
    bankroll: Money
    """The bankroll before the bet."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BetGame:
    """The game a bet was made at: what prices the learner's ramp."""

    ruleset: str
    system: str
    estimation: str
    rounding: str
    last_deck: str | None
    ramp: str
    """The learner's ramp at play, `TC:UNITS,...`."""
    unit: Money
    """One unit: the table minimum."""

    def plan_command(self) -> str:
        """The `cutcard plan` line that stores this game's statistics."""
        words = [f"cutcard plan --ruleset {self.ruleset} --system {self.system}"]
        if self.estimation != "half":
            words.append(f"--estimation {self.estimation}")
        if self.last_deck and self.last_deck != self.estimation:
            words.append(f"--last-deck {self.last_deck}")
        if self.rounding != "floor":
            words.append(f"--rounding {self.rounding}")
        return " ".join(words)


def latest_game(rows: Sequence[tuple[str, str, str, str]]) -> BetGame | None:
    """The game of the latest bet with a true count (None: no such bet, or none names its game).

    >>> row = ("s", json.dumps({"ruleset": "casino", "system": "hi-lo", "estimation": "half",
    ...        "rounding": "floor", "ramp": "1:1,2:2", "unit": "10", "decks_left": 6}), "10", "1")
    >>> latest_game([row]).plan_command()
    'cutcard plan --ruleset casino --system hi-lo'
    """
    for _, data_text, _, _ in reversed(rows):
        try:
            data = json.loads(data_text)
            if "decks_left" not in data:  # ungraded: no true count
                continue
            last = data.get("last_deck")
            return BetGame(ruleset=str(data["ruleset"]), system=str(data["system"]),
                           estimation=str(data.get("estimation", "half")),
                           rounding=str(data.get("rounding", "floor")),
                           last_deck=str(last) if last else None, ramp=str(data["ramp"]),
                           unit=parse_money(str(data["unit"])))
        except (ValueError, KeyError, TypeError, TrainerError):
            continue
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class BetPicture:
    """The figures a surveillance room would compute over the learner's bets."""

    points: tuple[BetPoint, ...]
    correlation: float | None
    """Pearson's r of bet (units) with true count; None with fewer than 3 bets or no spread."""
    slope: float | None
    """Least-squares units added per true-count point; None as for `correlation`."""
    jumps_after_win: int
    jumps_after_loss: int
    raises_after_win: int
    raises_after_loss: int
    """Any raise (a bet above the one before) after a round won or lost (a push is neither)."""


def bet_points(rows: Iterable[tuple[str, str, str, str]]) -> list[BetPoint]:
    """The bets with a true count, from `ReadOnly.table_bets` rows (unreadable rows left out)."""
    points = []
    for session, data_text, given, _ in rows:
        try:
            data = json.loads(data_text)
            decks_left = data["decks_left"]
            running = data.get("betting_running_count", data["running_count"])  # a side count's adjusted
            count = true_count(running, decks_left, str(data.get("rounding", "floor")))
            bet = parse_money(given.lstrip("$"))
            unit = parse_money(str(data["unit"]))
            bankroll = parse_money(str(data["bankroll"]))
        except (ValueError, KeyError, TypeError, TrainerError):
            continue
        if unit <= 0:
            continue
        points.append(BetPoint(session=session, true_count=count, bet=bet, units=Fraction(bet / unit),
                               bankroll=bankroll))
    return points


def _fit(xs: Sequence[float], ys: Sequence[float]) -> tuple[float | None, float | None]:
    """Pearson's r and the least-squares slope of y on x."""
    n = len(xs)
    if n < 3:
        return None, None
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    slope = sxy / sxx if sxx else None
    r = sxy / math.sqrt(sxx * syy) if sxx and syy else None
    return r, slope


def bet_picture(points: Sequence[BetPoint]) -> BetPicture:
    """Correlation, slope and the raises and jumps after wins and losses.

    >>> from decimal import Decimal as D
    >>> ps = [BetPoint(session="s", true_count=t, bet=D(10 * u), units=Fraction(u), bankroll=D(b))
    ...       for t, u, b in ((0, 1, 500), (2, 2, 510), (4, 4, 490), (1, 1, 530))]
    >>> p = bet_picture(ps)
    >>> round(p.correlation, 3), round(p.slope, 3), p.raises_after_win, p.raises_after_loss
    (0.966, 0.8, 1, 1)
    """
    r, slope = _fit([p.true_count for p in points], [float(p.units) for p in points])
    counts = {"jw": 0, "jl": 0, "rw": 0, "rl": 0}
    for before, after in itertools.pairwise(points):
        if before.session != after.session or after.bet <= before.bet:
            continue
        won = after.bankroll > before.bankroll
        lost = after.bankroll < before.bankroll
        if not (won or lost):
            continue
        side = "w" if won else "l"
        counts["r" + side] += 1
        if after.bet >= JUMP * before.bet:
            counts["j" + side] += 1
    return BetPicture(points=tuple(points), correlation=r, slope=slope, jumps_after_win=counts["jw"],
                      jumps_after_loss=counts["jl"], raises_after_win=counts["rw"],
                      raises_after_loss=counts["rl"])


def picture_to_json(picture: BetPicture) -> dict[str, object]:
    """The picture as a JSON document (`stats bets --json`)."""
    return {
        "bets": len(picture.points), "correlation": picture.correlation, "slope_units_per_true_count":
        picture.slope, "raises_after_win": picture.raises_after_win,
        "raises_after_loss": picture.raises_after_loss, "jumps_after_win": picture.jumps_after_win,
        "jumps_after_loss": picture.jumps_after_loss, "jump": f"a bet at least {JUMP}x the one before",
        "points": [{"true_count": p.true_count, "units": float(p.units), "bet": str(p.bet)}
                   for p in picture.points],
    }
