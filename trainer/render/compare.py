"""`cutcard compare` on a terminal: one line per game, sorted, every figure with its SE, and which to play.

Fits 80 columns: a long game name folds onto a second line of its own column.
"""

from __future__ import annotations

import math

from rich import box
from rich.console import Console
from rich.table import Table

from trainer.compare.report import SORT_WORDS, CompareReport, GameResult
from trainer.render.plan import money, pct


def _se(x: float) -> str:
    """A standard error in money with two significant digits below $10: $0.42, $3.1, $12."""
    if x >= 10:
        return money(x)
    return f"${x:.1f}" if x >= 1 else f"${x:.2f}"


def _win(r: GameResult) -> str:
    f = r.figures
    win = money(f.ev_per_hour, cents=abs(f.ev_per_hour) < 10)
    if r.game.plan is None:
        return win
    return f"{win} ± {_se(f.ev_per_hour_se)}"


def _score(r: GameResult) -> str:
    f = r.figures
    if r.game.plan is None:
        return "-"
    return f"{f.score:.1f} ± {f.score_se:.1f}"


def _n0(r: GameResult) -> str:
    h = r.figures.n0_hours
    if math.isnan(h):
        return "?"
    return f"{h:,.0f}" if math.isfinite(h) else "never"


def _name(name: str) -> str:
    """A game's name as it wraps: at its commas (`casino:decks=2,` then `penetration=0.8`), as the
    learner wrote it otherwise."""
    base, colon, settings = name.partition(":")
    return f"{base}:{settings.replace(',', ', ')}" if colon and "=" in settings else name


def _risk(ror: float) -> str:
    return "?" if math.isnan(ror) else pct(ror)


def print_comparison(console: Console, report: CompareReport) -> None:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), show_edge=False)
    table.add_column("game", overflow="fold", ratio=1, min_width=16)
    table.add_column("edge", justify="right", no_wrap=True)
    table.add_column("min", justify="right", no_wrap=True)
    table.add_column("win/hour", justify="right", no_wrap=True)
    table.add_column("SCORE", justify="right", no_wrap=True)
    table.add_column("N0 h", justify="right", no_wrap=True)
    table.add_column("risk", justify="right", no_wrap=True)
    over = False
    for i, r in enumerate(report.results):
        risky = r.report is not None and r.report.plan.status == "unreachable"
        over = over or risky
        table.add_row(_name(r.name), f"{r.game.house_edge_pct:.2f}%", money(r.game.limits.min_bet), _win(r),
                      _score(r), _n0(r), _risk(r.figures.ror) + ("*" if risky else ""),
                      style="title" if i == 0 else "")
    console.print(table)
    notes = ["edge: the flat-bet house edge (exact). Win, SCORE, N0, risk: each game's",
             "optimal ramp for your bankroll and risk, ± one SE."]
    if any(r.game.plan is None for r in report.results):
        notes.append("'-': counting cannot help there; flat bets at the minimum.")
    if any(math.isnan(r.figures.ror) for r in report.results):
        notes.append("?: a flat bettor's edge: N0 and risk need the variance, not simulated here.")
    if over:
        notes.append("*: over your target risk even at the table minimum (too small a bankroll).")
    side = next((r for r in report.results if r.report is not None and r.report.bet_count), None)
    if side is not None and side.report is not None:  # one count system for every game
        notes.append(f"{side.game.system}: {side.report.bet_count}.")
    for line in notes:
        console.print(f"  {line}", style="dim")
    best = report.best
    if best is None:
        return
    by = SORT_WORDS[report.sort]
    if best.game.plan is None:
        console.print(f"Counting helps in none of these games: the least bad is {best.name}, "
                      f"{money(best.figures.ev_per_hour)} an hour at flat minimum bets.")
    else:
        f = best.figures
        plan = best.report.plan if best.report is not None else None
        top = max(s.bet for s in plan.ramp) if plan is not None else f.average_bet
        console.print(f"Play [title]{best.name}[/] (best by {by}): {money(f.ev_per_hour)} an hour, "
                      f"bets {money(best.game.limits.min_bet)} to {money(top)}, SCORE {f.score:.1f}, "
                      f"risk of ruin {pct(f.ror)}.")
        if report.close:
            more = len(report.close) - 3
            names = ", ".join(report.close[:3]) + (f" and {more} more" if more > 0 else "")
            console.print(f"Too close to call on {by}: {names} within two SE of it; more rounds "
                          "(--rounds) would separate them.")
    counted = sum(1 for r in report.results if r.statistics is not None)
    stored = sum(1 for r in report.results if r.statistics is not None and not r.statistics.built)
    ran = (f"{report.simulated:,} rounds simulated on {report.where}" if report.simulated
           else "nothing simulated")
    lost = report.lost_workers
    rerun = (f"; {'a worker' if lost == 1 else f'{lost} workers'} lost, {'its' if lost == 1 else 'their'} "
             "unfinished chunks run again" if lost else "")
    games = f"{counted} game{'s' if counted != 1 else ''} counted"
    console.print(f"{games} ({stored} from the store): {ran}{rerun}.", style="dim")
