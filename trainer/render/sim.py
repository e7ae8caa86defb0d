"""`cutcard sim` on a terminal: the progress bar of a long run, and the figures as a short table."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from trainer.sim.count import bet_count_words
from trainer.sim.report import SimReport
from trainer.sim.results import Summary


@contextmanager
def sim_progress(console: Console, label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar over hands played; yields the runner's `progress(done, total)` callback."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _pct(x: float, digits: int = 3) -> str:
    return f"{100 * x:+.{digits}f}%"


def _units(x: float) -> str:
    return f"{x:+.2f}"


def _figures(table: Table, s: Summary, report: SimReport, counting: bool) -> None:
    if counting:
        table.add_row("win rate", f"[title]{_units(s.win_per_100)}[/] units per 100 hands "
                                  f"(± {100 * s.se_mean:.2f} SE)")
        table.add_row("SD", f"{s.sd_per_100:.1f} units per 100 hands")
        table.add_row("EV per initial bet", f"{_pct(s.ev)} ± {100 * s.se:.3f}% SE")
        table.add_row("average bet", f"{s.average_bet:.2f} units")
        table.add_row("N0", f"{s.n0:,.0f} hands" if math.isfinite(s.n0) else "never: the game does not win")
        table.add_row("SCORE", f"{s.score:.1f}")
        table.add_row("risk of ruin", f"{100 * s.risk_of_ruin(report.bankroll):.1f}% "
                                      f"with a bankroll of {report.bankroll:,} units")
    else:
        table.add_row("EV per initial bet", f"[title]{_pct(s.ev)}[/] ± {100 * s.se:.3f}% SE")
        table.add_row("SD per hand", f"{s.sd:.3f} bets")


def print_report(console: Console, report: SimReport) -> None:
    """The figures of a simulation; for flat play, next to the exact engine's house edge."""
    rules = report.ruleset
    counter = report.counter
    table = Table(show_header=False, box=None, padding=(0, 2, 0, 0))
    table.add_column(style="key")
    table.add_column()
    deck_words = "an infinite deck" if rules.infinite_deck else f"{rules.shoe.decks} decks"
    table.add_row("rule set", f"{rules.name} ({deck_words})")
    if counter is None:
        table.add_row("played by", "the exact basic-strategy chart, one unit a hand")
    else:
        ramp = ", ".join(f"{tc:+d}: {bet}" for tc, bet in counter.ramp.items())
        table.add_row("count", f"{counter.system.title}; true count by {counter.estimation} deck, "
                               f"{counter.rounding}")
        if side := bet_count_words(counter.system):
            table.add_row("", side)
        table.add_row("bets", f"spread {counter.spread[0]}-{counter.spread[1]} units; ramp {ramp} "
                              "(true count: units)")
        table.add_row("index plays", report.indices or "none: basic strategy, no insurance")
    wong = counter.wonging if counter is not None else None
    if wong is None:
        table.add_row("hands", f"{report.hands:,}")
    else:
        s = report.summary
        table.add_row("back-counting", wong.describe())
        table.add_row("hands", f"{s.rounds_observed:,} observed, {s.rounds:,} played "
                               f"({100 * s.played_share:.1f}%); figures per hand played")
        table.add_row("per hand observed", f"{_units(100 * s.mean_observed)} units per 100 hands, "
                                           f"SD {10 * s.sd_observed:.1f}, N0 " + (
                                               f"{s.n0_observed:,.0f} hands" if math.isfinite(s.n0_observed)
                                               else "never"))
    if counter is not None and counter.spots is not None:
        s = report.summary
        table.add_row("spots", f"{counter.spots.text} (true count: hands); {s.hands:,} hands played")
        if s.variance_per_hand is not None:
            cov = "" if s.covariance is None else (
                f"; covariance of two hands of a round {s.covariance:.3f} (correlation "
                f"{s.correlation or 0:.2f}, {s.pair_rounds:,} rounds)")
            table.add_row("per hand", f"variance {s.variance_per_hand:.3f} (flat bets){cov}")
    _figures(table, report.summary, report, counter is not None)
    if counter is None:
        table.add_row("exact EV", f"{_pct(report.chart_ev)} (house edge {-100 * report.chart_ev:.3f}%), "
                                  f"{report.z:+.1f} SE away")
    errors = report.errors
    if errors is not None:
        mine = errors.summary
        table.add_row("", "")
        m = errors.mistakes
        strategy = (f"strategy {100 * m.strategy:.1f}% of answers, in {len(m.cells)} chart cells"
                    if m.cells else f"strategy {100 * m.strategy:.1f}% of hands")
        bets = f", bets {100 * m.bet:.1f}% off your ramp" if m.bet else ""
        table.add_row("your error rates", f"count {100 * m.count:.1f}% of cards, true count "
                                          f"{100 * m.true_count:.1f}% of conversions, {strategy}{bets} "
                                          f"({errors.source})")
        _figures(table, mine, report, counter is not None)
        if counter is not None:
            cost = report.summary.win_per_100 - mine.win_per_100
            table.add_row("your mistakes cost", f"[bad]{cost:.2f}[/] units per 100 hands")
            if errors.bets_only is not None:
                bet_cost = report.summary.win_per_100 - errors.bets_only.win_per_100
                table.add_row("your mis-bets alone", f"[bad]{bet_cost:.2f}[/] units per 100 hands")
        else:
            table.add_row("your mistakes cost", f"[bad]{100 * (report.summary.ev - mine.ev):.3f}%[/] "
                                                "of every bet")
    if report.engine == "compiled":
        where = f"compiled, {report.jobs} thread{'s' if report.jobs > 1 else ''}"
    else:
        where = f"Python, {report.jobs} process{'es' if report.jobs > 1 else ''}"
    table.add_row("speed", f"{report.hands_per_second:,.0f} hands/s ({where}); seed {report.seed}")
    console.print(table)
