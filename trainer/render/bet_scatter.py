"""`stats bets`: the learner's bets against the true count as a terminal scatter, what a surveillance
room would compute from them, and what the learner's ramp earns beside a cover ramp; plain lines, no
wider than 80 columns."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from trainer.core.money import format_money
from trainer.planning.cover import RampPrice
from trainer.progress.stats_bets import JUMP, BetGame, BetPicture

LOW, HIGH = -4, 8
"""True counts shown: from -4 (and below) to +8 (and above)."""
MOST_ROWS = 12
CELL = 5


def _units(value: Fraction) -> str:
    return f"{float(value):g}"


def _rows(picture: BetPicture) -> list[tuple[str, Fraction, Fraction]]:
    """(label, low, high) bands of bet size, largest first: each bet size its own row where they fit,
    else doublings (1, 2-3, 4-7, ...)."""
    sizes = sorted({p.units for p in picture.points})
    if len(sizes) <= MOST_ROWS:
        return [(_units(s), s, s) for s in reversed(sizes)]
    bands: list[tuple[str, Fraction, Fraction]] = []
    low = Fraction(1) if sizes[0] >= 1 else sizes[0]
    if low < 1:
        bands.append(("<1", Fraction(0), Fraction(1) - Fraction(1, 10**9)))
        low = Fraction(1)
    while low <= sizes[-1]:
        high = 2 * low - Fraction(1, 10**9)
        bands.append((f"{_units(low)}-{_units(2 * low)}", low, high))
        low *= 2
    return list(reversed(bands))


def scatter_lines(picture: BetPicture) -> list[str]:
    """The scatter: a row per bet size, a column per true count, the number of bets in each cell."""
    rows = _rows(picture)
    width = max(len(label) for label, _, _ in rows)
    grid: dict[tuple[int, int], int] = {}
    for p in picture.points:
        column = min(max(p.true_count, LOW), HIGH) - LOW
        row = next(i for i, (_, lo, hi) in enumerate(rows) if lo <= p.units <= hi)
        grid[row, column] = grid.get((row, column), 0) + 1
    lines = [f"{'units':>{width}}"]
    for i, (label, _, _) in enumerate(rows):
        cells = "".join(f"{grid[i, c]:>{CELL}}" if (i, c) in grid else " " * (CELL - 1) + "·"
                        for c in range(HIGH - LOW + 1))
        lines.append(f"{label:>{width}} │{cells}".rstrip())
    lines.append(" " * width + " └" + "─" * (CELL * (HIGH - LOW + 1)))
    heads = []
    for count in range(LOW, HIGH + 1):
        text = f"{count:+d}" if count else "0"
        heads.append(f"{text:>{CELL}}")
    lines.append(" " * width + "  " + "".join(heads))
    lines.append(" " * width + f"  true count ({LOW:+d}: {LOW:+d} and below; {HIGH:+d}: {HIGH:+d} and above)")
    return lines


def reading(picture: BetPicture) -> str:
    """What the correlation says, as a room would read it (our reading of the bands)."""
    r = picture.correlation
    if r is None:
        return "too few bets, or bets all alike: no correlation to read"
    if r >= 0.6:
        return "a counter's spread: a room would watch you closely"
    if r >= 0.3:
        return "a loose tie of bet to count: a room may take a second look"
    return "little tie of bet to count: it looks like an ordinary player's betting"


def bet_lines(picture: BetPicture) -> list[str]:
    """The whole `stats bets` screen."""
    sessions = len({p.session for p in picture.points})
    lines = [f"Your bets at play against your true count ({len(picture.points)} bets, {sessions} "
             f"session{'' if sessions == 1 else 's'})", "", *scatter_lines(picture), ""]
    if picture.correlation is not None:
        lines.append(f"Correlation of bet with true count: r = {picture.correlation:.2f}")
    if picture.slope is not None:
        lines.append(f"Slope: {picture.slope:+.2f} units per true-count point")
    lines.append(f"Reading: {reading(picture)}.")
    lines.append(f"Raises after a win: {picture.raises_after_win}, after a loss: "
                 f"{picture.raises_after_loss}; jumps ({JUMP}x or more):")
    lines.append(f"  {picture.jumps_after_win} after a win, {picture.jumps_after_loss} after a loss. "
                 "A gambler presses after wins;")
    lines.append("  a counter raises with the count, after losses as often as after wins.")
    return lines


def _dollars(value: float) -> str:
    """Money an hour to the cent, signed where it is a loss: '$12.34', '-$3.10'."""
    text = f"${abs(value):,.2f}"
    return f"-{text}" if value < -0.005 else text


def ramp_lines(game: BetGame, pricing: tuple[RampPrice, Sequence[RampPrice], str] | str) -> list[str]:
    """What the learner's ramp earns and what each cover costs an hour, or the line that says how to
    get the statistics they are priced from."""
    if isinstance(pricing, str):
        return _wrapped(pricing)
    own, covers, source = pricing
    hour = own.figures.rounds_per_hour
    lines = [f"What your ramp earns, and what a cover ramp costs ({game.ruleset}, {game.system}, one unit",
             f"${format_money(game.unit)}, {hour:g} rounds an hour; {source}):",
             f"  {'ramp':<8}{'bets by true count':<24}{'win/hour':>10}{'SD/hour':>10}{'r':>6}"
             f"{'cost/hour':>18}"]

    def row(p: RampPrice, name: str) -> str:
        f = p.figures
        r = "-" if p.correlation is None else f"{p.correlation:.2f}"
        cost = "" if p is own else f"{_dollars(p.cost_per_hour)} ± {p.cost_per_hour_se:,.2f}"
        ramp = p.ramp.text if len(p.ramp.text) <= 23 else p.ramp.text[:22] + "…"
        return (f"  {name:<8}{ramp:<24}{_dollars(f.ev_per_hour):>10}{_dollars(f.sd_per_hour):>10}{r:>6}"
                f"{cost:>18}").rstrip()

    lines.append(row(own, "yours"))
    lines.extend(row(p, p.name if len(p.name) <= 7 else "cover") for p in covers)
    lines.append(f"  Your win's SE: {own.figures.ev_per_hour_se:,.2f}. r: bet with true count over all the "
                 "game's rounds,")
    lines.append("  the figure a room reads from bets. Cost: your win less the cover's, ± its SE.")
    named = [p for p in covers if p.name != p.ramp.text]
    if named:
        lines.append("  " + "; ".join(f"{p.name}: {p.words}" for p in named) + ".")
    return [line for chunk in lines for line in (_wrapped(chunk) if len(chunk) > 80 else [chunk])]


def _wrapped(text: str, width: int = 80) -> list[str]:
    """A long line broken at spaces, the rest indented as the first."""
    indent = " " * (len(text) - len(text.lstrip()))
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else f"{indent}{word}"
        if len(candidate) > width and current:
            lines.append(current)
            current = f"{indent}{word}"
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines
