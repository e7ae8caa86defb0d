"""`cutcard compare`: many games planned for your bankroll and risk, side by side, and which to play.

Options in, the games built as `plan` builds its one (`trainer.cli.plan`), one call to the library
(`trainer.compare.report.compare_games`, on local processes or a Dask cluster), the table out or `--json`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from trainer.cli.common import (
    emit_json,
    estimation_option,
    json_option,
    last_deck_option,
    money_options,
    rounding_option,
)

if TYPE_CHECKING:
    from trainer.compare.chunks import DaskCluster, LocalProcesses
    from trainer.compare.games import GameSpec
    from trainer.compare.report import ComparedGame, CompareReport
    from trainer.core.rules import Ruleset
    from trainer.planning.ramp import TableLimits


@click.command("compare")
@click.argument("games", nargs=-1, metavar="GAME...")
@click.option("--grid", "grid_file", type=click.Path(dir_okay=False), default=None,
              help="A TOML file of lists of values per rule key, crossed into games.")
@money_options("each game's own", "Players at the table (for the rounds an hour).")
@click.option("--system", default="hi-lo", show_default=True, help="Count system (or a TOML file).")
@click.option("--indices", type=click.Choice(["published", "computed", "none"]), default=None,
              help="Index plays [published for Hi-Lo, none otherwise].")
@estimation_option
@last_deck_option
@rounding_option
@click.option("--sort", type=click.Choice(["win", "score", "n0", "risk"]), default="score", show_default=True,
              help="Order the games by win per hour, SCORE, hours to N0 or risk of ruin.")
@click.option("--rounds", type=int, default=None,
              help="Simulate at least this many rounds a game [SCORE's SE at most 2%].")
@click.option("--jobs", type=int, default=None, help="Local processes (default: every core).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run the chunks on a Dask cluster: its scheduler's address (tcp://HOST:8786).")
@json_option
def command(games: tuple[str, ...], grid_file: str | None, bankroll: float, ror: float, min_bet: float | None,
            max_bet: float | None, spread: float | None, hours: float, rounds_per_hour: float | None,
            seats: int, system: str, indices: str | None, estimation: str, last_deck: str | None,
            rounding: str, sort: str, rounds: int | None, jobs: int | None, scheduler: str | None,
            as_json: bool) -> None:
    """Compare games (`casino`, `casino:decks=2,penetration=0.6,hits_soft_17=true`, or a --grid's rows):
    each planned for your bankroll and risk, with every figure's SE, the flat-bet house edge, and which
    game to play."""
    from pathlib import Path

    from trainer.compare.games import parse_game, read_grid
    from trainer.core.errors import InvalidInputError
    from trainer.sim.runner import most_jobs

    if not games and grid_file is None:
        raise click.UsageError("name the games (e.g. casino bicycle casino:decks=2) or a --grid FILE")
    if rounds is not None and not 1 <= rounds <= 10**10:
        raise InvalidInputError(f"--rounds must be from 1 to 10,000,000,000, not {rounds:,}")
    if jobs is not None and jobs < 1:
        raise InvalidInputError(f"--jobs must be 1 or more, not {jobs}")
    if jobs is not None and scheduler is not None:
        raise click.UsageError("--jobs sets local processes: not with --scheduler (the cluster has its own)")
    specs = [parse_game(text) for text in games]  # every game checked before anything is simulated
    if grid_file is not None:
        specs += read_grid(Path(grid_file))
    built = [_game(spec, bankroll, ror, min_bet, max_bet, spread, hours, rounds_per_hour, seats, system,
                   indices, estimation, rounding, last_deck, quiet=as_json) for spec in specs]
    from trainer.compare.chunks import DaskCluster, LocalProcesses

    runner: LocalProcesses | DaskCluster
    if scheduler is not None:
        runner, where = DaskCluster(scheduler), f"the Dask cluster at {scheduler}"
    else:
        cores = min(jobs or most_jobs(), most_jobs())
        runner, where = LocalProcesses(cores), f"{cores} local process{'es' if cores > 1 else ''}"
    report = _compare(built, runner, where, sort, rounds, quiet=as_json)
    if as_json:
        from trainer.compare.report import report_json

        emit_json(report_json(report))
        return
    from trainer.render import make_console
    from trainer.render.compare import print_comparison

    print_comparison(make_console(), report)


def _game(spec: GameSpec, bankroll: float, ror: float, min_bet: float | None, max_bet: float | None,
          spread: float | None, hours: float, rounds_per_hour: float | None, seats: int, system: str,
          indices: str | None, estimation: str, rounding: str, last_deck: str | None, *,
          quiet: bool) -> ComparedGame:
    """One game: its counter's plan as `plan` makes it (none where counting cannot help), its chart's
    house edge, its table's limits."""
    from trainer.cli.common import load_chart
    from trainer.cli.plan import counter_game
    from trainer.compare.report import ComparedGame
    from trainer.planner import rounds_per_hour as hourly

    rules = spec.ruleset
    limits = _limits(rules, bankroll, ror, min_bet, max_bet, spread, hours, hourly(seats, rounds_per_hour))
    edge = load_chart(rules, quiet=quiet).house_edge_pct
    if not rules.counting_helps:
        return ComparedGame(spec=spec, plan=None, house_edge_pct=edge, limits=limits)
    plan, words = counter_game(rules, system, indices, estimation, rounding, quiet=True, last_deck=last_deck)
    assert plan.counter is not None
    return ComparedGame(spec=spec, plan=plan, house_edge_pct=edge, limits=limits,
                        system=plan.counter.system.name,
                        indices=words.split(" (")[0] if words else "no index plays")


def _limits(rules: Ruleset, bankroll: float, ror: float, min_bet: float | None, max_bet: float | None,
            spread: float | None, hours: float, per_hour: float) -> TableLimits:
    """The game's own table (its rule set's limits) unless --min-bet or --max-bet say otherwise."""
    from trainer.planning.ramp import TableLimits

    low = float(min_bet if min_bet is not None else rules.table.min_bet)
    high = float(max_bet) if max_bet is not None else max(float(rules.table.max_bet), low)
    return TableLimits(bankroll=bankroll, ror=ror, min_bet=low, max_bet=high, spread=spread,
                       rounds_per_hour=per_hour, hours=hours)


def _compare(games: list[ComparedGame], runner: LocalProcesses | DaskCluster, where: str, sort: str,
             rounds: int | None, *, quiet: bool) -> CompareReport:
    """The library's comparison with one progress bar on a terminal (Ctrl-C: exit 130)."""
    from trainer.cli.common import cutcard_home
    from trainer.cli.sim import prepare_kernel
    from trainer.compare.chunks import LocalProcesses
    from trainer.compare.report import compare_games
    from trainer.statstore import StatsStore

    store = StatsStore(cutcard_home() / "stats")
    counted = [g.plan for g in games if g.plan is not None]
    if counted and isinstance(runner, LocalProcesses):
        prepare_kernel(counted[0], quiet=quiet)  # compiled once here: the workers load it from the cache
    try:
        with runner:
            if quiet or not sys.stderr.isatty():
                return compare_games(games, store=store, runner=runner, sort=sort, rounds=rounds, where=where)
            from trainer.render import make_console
            from trainer.render.sim import sim_progress

            label = f"Simulating {len(counted)} game{'s' if len(counted) != 1 else ''}"
            with sim_progress(make_console(sys.stderr), label) as progress:
                return compare_games(games, store=store, runner=runner, sort=sort, rounds=rounds, where=where,
                                     progress=progress)
    except KeyboardInterrupt:
        click.echo("cutcard: stopped (Ctrl-C): the games finished are kept in the store",
                   err=True)
        raise click.exceptions.Exit(130) from None
