"""`cutcard plan`: the bet ramp for your bankroll, table and risk, from your game's per-count statistics.

Options in, one call to the library (`trainer.planner`, with the statistics from `trainer.statstore`),
the plan out: a table with a bar per count, every figure and a risk curve, or `--json`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from trainer.cli.common import (
    db_option,
    emit_json,
    estimation_option,
    json_option,
    last_deck_option,
    money_options,
    rounding_option,
    ruleset_option,
    settings,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from trainer.planner import PlanReport
    from trainer.planning.ramp import CountRow
    from trainer.sim.runner import Plan
    from trainer.statstore import Statistics, StatsStore
    from trainer.table.edge_line import CountEdges



@click.command("plan")
@ruleset_option
@click.option("--decks", type=int, default=None, help="Play the rule set with this many decks.")
@click.option("--system", default="hi-lo", show_default=True, help="Count system (or a TOML file).")
@money_options("the rule set's", "Players at the table (for the rounds an hour; the simulator deals your "
                                   "seat alone).")
@click.option("--simplify", is_flag=True, help="Bets in chips, never falling, never more than doubling.")
@click.option("--chip", type=float, default=None,
              help="The chip --simplify bets in [$100, $25, $5 or $1: the largest the minimum is made of].")
@click.option("--indices", type=click.Choice(["published", "computed", "none"]), default=None,
              help="Index plays: published (Illustrious 18 and Fab 4, Hi-Lo), computed, or none "
                   "[published for Hi-Lo, none otherwise].")
@estimation_option
@last_deck_option
@rounding_option
@click.option("--errors", is_flag=True,
              help="Beside the perfect player's figures, yours with your measured error rates.")
@click.option("--stats", "stats_file", type=click.Path(dir_okay=False), default=None,
              help="Plan from a document with a per_count table (what `sim --count S --json` writes).")
@click.option("--rounds", type=int, default=None,
              help="Simulate at least this many rounds for the statistics [SCORE's SE at most 2%].")
@click.option("--jobs", type=int, default=None, help="Cores for the simulation (default: every core).")
@click.option("--wong-in", type=int, default=None, metavar="T",
              help="Back-count: play only from this true count up and watch the rounds below it "
                   "(figures per round observed).")
@click.option("--wong-out", type=int, default=None, metavar="T",
              help="Back-count with an exit count: leave below it until the shuffle. The policy's own game "
                   "is simulated once and stored (its rounds depend on the path of the count).")
@click.option("--spots", default=None, metavar="TC:HANDS,...",
              help="Play several hands from these counts up, e.g. '2:2': each at the equal-risk bet from the "
                   "covariance of two hands (simulated once and stored; from the --stats document's "
                   "`sim --spots` figures).")
@click.option("--save", is_flag=True, help="Make this the plan in force ($CUTCARD_HOME/plan.json).")
@click.option("--screen", is_flag=True,
              help="A screen where keys nudge bankroll, risk, spread and bets, re-planned at once "
                   "(the REPL's `plan`).")
@json_option
@db_option
def command(ruleset: str, decks: int | None, system: str, bankroll: float, ror: float, min_bet: float | None,
            max_bet: float | None, spread: float | None, simplify: bool, chip: float | None, hours: float,
            rounds_per_hour: float | None, seats: int, indices: str | None, estimation: str,
            last_deck: str | None, rounding: str, errors: bool, stats_file: str | None, rounds: int | None,
            jobs: int | None, wong_in: int | None, wong_out: int | None, spots: str | None, save: bool,
            screen: bool, as_json: bool) -> None:
    """The bet ramp that grows your bankroll fastest at your target risk of ruin, within the table's
    limits and your spread: its win rate, SD, SCORE, N0, risk of ruin and certainty equivalent."""
    from pathlib import Path

    from trainer.cli.common import cutcard_home
    from trainer.core import load_ruleset
    from trainer.core.errors import InvalidInputError
    from trainer.planner import document_bet_count, plan_game, save_plan
    from trainer.planner import rounds_per_hour as hourly
    from trainer.planning.ramp import SpotPlan, TableLimits, default_chip
    from trainer.sim.runner import most_jobs

    if chip is not None and not simplify:
        raise click.UsageError("--chip goes with --simplify")
    exit_policy = None
    if wong_out is not None:
        from trainer.core.wonging import Wonging

        try:
            exit_policy = Wonging(entry=wong_in, exit=wong_out)
        except InvalidInputError as error:
            raise click.UsageError(str(error)) from None
        if errors:
            raise click.UsageError("--wong-out plans a perfect player's exit policy: not with --errors")
    if screen and (wong_in is not None or wong_out is not None or spots is not None):
        raise click.UsageError("--screen plans one hand every round: not with --wong-in or --spots")
    from trainer.core.spots import Spots

    try:
        spot_counts = Spots.parse(spots) if spots is not None else None
    except InvalidInputError as error:
        raise click.UsageError(str(error)) from None
    if screen and (as_json or errors):
        raise click.UsageError("--screen shows the plan on a terminal: not with --json or --errors")
    if stats_file is not None and errors:
        raise click.UsageError("--errors plans your own game: it needs the simulator, not --stats")
    if rounds is not None and not 1 <= rounds <= 10**10:
        raise InvalidInputError(f"--rounds must be from 1 to 10,000,000,000, not {rounds:,}")
    rules = load_ruleset(ruleset)
    if decks is not None:
        rules = rules.with_decks(decks)
    low = float(min_bet if min_bet is not None else rules.table.min_bet)
    high = float(max_bet) if max_bet is not None else max(float(rules.table.max_bet), low)
    limits = TableLimits(bankroll=bankroll, ror=ror, min_bet=low, max_bet=high, spread=spread,
                         rounds_per_hour=hourly(seats, rounds_per_hour), hours=hours)
    if simplify and chip is None:
        chip = default_chip(low)
    if stats_file is not None:
        from trainer.planner import read_stats

        document = read_stats(Path(stats_file))
        rounds_read = document.observed or sum(r.rounds for r in document.rows)
        spot_plan = None
        if spot_counts is not None:
            if document.correlation is None:
                name = Path(stats_file).name
                raise InvalidInputError(f"--spots needs the covariance of two hands: {name} has none (what "
                                        "`sim --count S --spots TC:N --json` writes)")
            spot_plan = SpotPlan(spots=spot_counts, correlation=document.correlation)
        if exit_policy is not None and document.observed is None:
            name = Path(stats_file).name
            raise InvalidInputError(f"--wong-out plans from the exit policy's own run: {name} is not one "
                                    "(what `sim --count S --wong-out T --json` writes)")
        by_path = document.observed is not None
        report = plan_game(document.rows, limits, chip=chip,
                           statistics=f"{rounds_read:,} rounds from {Path(stats_file).name}",
                           ruleset=document.ruleset or rules.name, system=document.system or system,
                           entry=None if by_path else wong_in, spots=spot_plan, observed=document.observed,
                           wonging=exit_policy, bet_count=document_bet_count(document.bet_count),
                           bet_count_name=document.bet_count)
    else:
        game, words = counter_game(rules, system, indices, estimation, rounding, quiet=as_json,
                                   last_deck=last_deck)
        from trainer.sim.count import bet_count_name, bet_count_words

        if exit_policy is not None:
            import dataclasses

            assert game.counter is not None
            game = dataclasses.replace(game, counter=dataclasses.replace(game.counter, wonging=exit_policy))
        store = stats_store()
        stats = _statistics(store, game, jobs, rounds, "Simulating your game", quiet=as_json)
        spot_plan = None
        if spot_counts is not None:
            two = store.spot_statistics(game, jobs=min(jobs or most_jobs(), most_jobs()))
            spot_plan = SpotPlan(spots=spot_counts, correlation=two.correlation)
        report = plan_game(stats.rows, limits, chip=chip, statistics=_source(stats, words),
                           ruleset=rules.name, system=game.counter.system.name if game.counter else system,
                           entry=None if exit_policy else wong_in, spots=spot_plan, wonging=exit_policy,
                           observed=stats.observed,
                           bet_count=bet_count_words(game.counter.system) if game.counter else "",
                           bet_count_name=bet_count_name(game.counter.system) if game.counter else None)
        if errors:
            report = _with_errors(report, store, game, jobs, rounds, quiet=as_json)
    if screen:
        from trainer.screens.plan import plan_screen

        shown = plan_screen(report.rows, limits, simplify=simplify, ruleset=report.ruleset,
                            system=report.system, statistics=report.statistics,
                            keep=lambda kept: save_plan(cutcard_home(), kept), bet_count=report.bet_count,
                            bet_count_name=report.bet_count_name)
        if save and shown is not None:
            click.echo(f"saved as the plan in force: {save_plan(cutcard_home(), shown)}", err=True)
        return
    if save:
        path = save_plan(cutcard_home(), report)
        if not as_json:
            click.echo(f"saved as the plan in force: {path} (`set ramp plan` in the REPL bets it at play)",
                       err=True)
    _show(report, as_json)


def _show(report: PlanReport, as_json: bool) -> None:
    if as_json:
        from trainer.planner import to_json

        emit_json(to_json(report))
        return
    from trainer.render import make_console
    from trainer.render.plan import print_plan

    print_plan(make_console(), report)


def counter_game(rules: object, system: str, indices: str | None, estimation: str, rounding: str, *,
          quiet: bool, last_deck: str | None = None) -> tuple[Plan, str]:
    """The simulator's plan of the counter's game (flat bets: the statistics are per unit bet)."""
    from trainer.cli.common import load_chart
    from trainer.cli.sim import make_counter
    from trainer.core.rules import Ruleset
    from trainer.sim.counter import check_counting
    from trainer.sim.runner import Plan as SimPlan
    from trainer.sim.runner import letters_of

    assert isinstance(rules, Ruleset)
    check_counting(rules)
    counter, words = make_counter(rules, system, "1-1", None, indices, estimation, rounding, quiet=quiet,
                                  last_deck=last_deck)
    chart = load_chart(rules, quiet=quiet)
    return SimPlan(ruleset=rules, chart=letters_of(chart.lookup), counter=counter), words


def stats_store() -> StatsStore:
    from trainer.cli.common import cutcard_home
    from trainer.statstore import StatsStore

    return StatsStore(cutcard_home() / "stats")


def _statistics(store: StatsStore, game: Plan, jobs: int | None, rounds: int | None, label: str, *,
                quiet: bool) -> Statistics:
    """The game's statistics from the store, or simulated with a progress bar (Ctrl-C: exit 130)."""
    from trainer.cli.sim import prepare_kernel
    from trainer.sim.runner import most_jobs

    cores = most_jobs()
    jobs = min(jobs, cores) if jobs is not None else cores
    if jobs < 1:
        from trainer.core.errors import InvalidInputError

        raise InvalidInputError(f"--jobs must be 1 or more, not {jobs}")
    try:
        if quiet or not sys.stderr.isatty():
            return store.statistics(game, jobs=jobs, rounds=rounds)
        from trainer.statstore import game_key

        stored = store.read(game_key(game))
        if stored is not None and (rounds is None or stored.rounds >= rounds):
            return stored
        prepare_kernel(game, quiet=quiet)
        from trainer.render import make_console
        from trainer.render.sim import sim_progress

        with sim_progress(make_console(sys.stderr), label) as progress:
            return store.statistics(game, jobs=jobs, rounds=rounds, progress=progress)
    except KeyboardInterrupt:
        click.echo("cutcard: stopped (Ctrl-C): nothing was kept; the statistics start afresh next time",
                   err=True)
        raise click.exceptions.Exit(130) from None


def _source(stats: Statistics, index_words: str) -> str:
    where = "simulated now" if stats.built else "stored"
    indices = index_words.split(" (")[0] if index_words else "no index plays"
    return f"{indices}; {stats.rounds:,} rounds, {where}; SCORE SE {100 * stats.score_se():.1f}%"


def _with_errors(report: PlanReport, store: StatsStore, game: Plan, jobs: int | None, rounds: int | None, *,
                 quiet: bool) -> PlanReport:
    """The plan's ramp played with the learner's measured error rates, and each kind's cost."""
    from trainer.cli.common import load_chart
    from trainer.planner import learner_plan
    from trainer.practice.launch import open_store
    from trainer.progress.learner import measured_mistakes

    chart = load_chart(game.ruleset, quiet=True)
    with open_store(settings()) as progress_store:
        measured = measured_mistakes(progress_store, chart)

    def statistics(played: Plan, wanted: int | None, label: str) -> Sequence[CountRow]:
        return _statistics(store, played, jobs, wanted, label, quiet=quiet).rows

    return learner_plan(report, game, measured.mistakes, source=measured.describe(), statistics=statistics,
                        rounds=rounds)


def stored_count_edges(rules: object, system: str, indices: str | None, *, estimation: str, rounding: str,
                       last_deck: str | None) -> CountEdges | None:
    """The learner's game's edge per true count, from the statistics `plan` keeps for it (the same game
    key: count, estimation, rounding, index plays); None where `plan` has not simulated it yet."""
    from trainer.statstore import game_key
    from trainer.table.edge_line import CountEdges

    game, _ = counter_game(rules, system, indices, estimation, rounding, quiet=True, last_deck=last_deck)
    stats = stats_store().read(game_key(game))
    if stats is None:
        return None
    return CountEdges(by_count={row.true_count: row.mean for row in stats.rows}, rounds=stats.rounds)
