"""`cutcard sim`: simulate rounds played by the exact chart; EV and standard error, or what a count earns.

Flat mode plays one unit a hand by the rule set's exact chart and sets the simulated EV beside the
exact engine's. Counting mode (`--count`) bets by a ramp on the true count and plays the index plays;
`--errors` plays the same game again with the learner's measured error rates and shows the cost.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from trainer.cli.common import (
    db_option,
    echo_fitted,
    emit_json,
    estimation_option,
    json_option,
    last_deck_option,
    load_chart,
    pager_option,
    paging,
    rounding_option,
    ruleset_option,
    settings,
)

if TYPE_CHECKING:
    from trainer.core.rules import Ruleset
    from trainer.core.wonging import Wonging
    from trainer.sim.counter import ChartChange, Counter
    from trainer.sim.results import Summary
    from trainer.sim.runner import Plan

RAMP_HELP = ("Bet ramp as TRUE_COUNT:UNITS steps, e.g. '1:1,2:2,3:4,4:8,5:12': from each true count up, "
             "bet that many units; below the first step, the low bet of --spread. Default: the low bet "
             "up to +1, then doubling per count up to the high bet.")
PROGRESS_FROM = 200_000
"""Runs of at least this many hands show a progress bar (on a terminal, without --json)."""


@click.command("sim")
@ruleset_option
@click.option("--decks", type=int, default=None, help="Play the rule set with this many decks.")
@click.option("--hands", type=int, default=1_000_000, show_default=True,
              help="Rounds to play (one seat; a round that splits counts once).")
@click.option("--seed", type=int, default=None, help="Make the run reproducible (with the same --jobs).")
@json_option
@click.option("--jobs", type=int, default=None, help="Processes to use (default: every core).")
@click.option("--count", "system", metavar="SYSTEM", default=None,
              help="Count cards with this system (hi-lo, ko, zen, ...) and bet by the ramp.")
@click.option("--spread", default=None, metavar="LOW-HIGH", help="Lowest and highest bet in units [1-12].")
@click.option("--ramp", default=None, metavar="TC:UNITS,...", help=RAMP_HELP)
@click.option("--indices", type=click.Choice(["published", "computed"]), is_flag=False,
              flag_value="published", default=None,
              help="Index plays: the published Illustrious 18 and Fab 4 (S17 or H17 set; Hi-Lo only), or "
                   "those computed for this table and count (`cutcard indices`) [published for Hi-Lo].")
@click.option("--no-indices", is_flag=True, help="Play no index plays: the chart at every count.")
@estimation_option
@last_deck_option
@rounding_option
@pager_option
@click.option("--bankroll", type=int, default=1000, show_default=True,
              help="Bankroll in betting units, for the risk of ruin.")
@click.option("--wong-in", type=int, default=None, metavar="T",
              help="Back-count: play only from this true count up (running count for KO, Red 7); "
                   "alone, every round at it or above is played and the others watched.")
@click.option("--wong-out", type=int, default=None, metavar="T",
              help="Back-count: leave below this count, and stay away until the shuffle.")
@click.option("--spots", default=None, metavar="TC:HANDS,...",
              help="Play several hands a round from these counts up, each at the ramp's bet, e.g. '2:2,4:3'; "
                   "the report adds the variance of a hand and the covariance of two hands of one round.")
@click.option("--errors", is_flag=True,
              help="Play again with your error rates from the progress database; show what they cost.")
@db_option
def command(ruleset: str, decks: int | None, hands: int, seed: int | None, as_json: bool, jobs: int | None,
            system: str | None, spread: str | None, ramp: str | None, indices: str | None,
            no_indices: bool, estimation: str, last_deck: str | None, rounding: str, bankroll: int,
            wong_in: int | None, wong_out: int | None, spots: str | None, errors: bool) -> None:
    """Simulate rounds dealt from real shoes and played by the exact chart: EV and standard error, or,
    with --count, the win rate, SD, N0, SCORE and risk of ruin of a count and a bet ramp."""
    import dataclasses
    import random

    from trainer.core import load_ruleset
    from trainer.core.errors import InvalidInputError
    from trainer.sim.report import SimReport
    from trainer.sim.runner import Plan as SimPlan
    from trainer.sim.runner import check_hands, compiled, letters_of
    from trainer.sim.study import check_options, choose_jobs, run_study

    check_hands(hands)
    rules = load_ruleset(ruleset)
    if decks is not None:
        rules = rules.with_decks(decks)
    if system is None and indices is not None and _from_default_map("indices"):
        indices = None  # the REPL's remembered `set indices` is for counting runs only
    check_options(counting=system is not None, spread=spread, ramp=ramp, indices=indices,
                  no_indices=no_indices, bankroll=bankroll)
    wonging = wonging_option(wong_in, wong_out, counting=system is not None)
    jobs, warning = choose_jobs(jobs)
    if warning:
        click.echo(f"cutcard: {warning}", err=True)
    counter, index_words = (None, "") if system is None else make_counter(
        rules, system, spread, ramp, "none" if no_indices else indices, estimation, rounding,
        quiet=as_json, last_deck=last_deck)
    if counter is not None and wonging is not None:
        counter = dataclasses.replace(counter, wonging=wonging)
    if spots is not None:
        if counter is None:
            raise click.UsageError("--spots needs --count SYSTEM (e.g. --count hi-lo)")
        from trainer.core.spots import Spots

        try:
            counter = dataclasses.replace(counter, spots=Spots.parse(spots))
        except InvalidInputError as error:
            raise click.UsageError(str(error)) from None
    chart = load_chart(rules, quiet=as_json)
    plan = SimPlan(ruleset=rules, chart=letters_of(chart.lookup), counter=counter)
    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    measured = None
    if errors:  # read first: a database without answers fails before a long run, not after
        from trainer.practice.launch import open_store
        from trainer.progress.learner import measured_mistakes

        with open_store(settings()) as store:
            measured = measured_mistakes(store, chart)

    prepare_kernel(plan, quiet=as_json)  # the speed is the engine's: the kernel's loading is done first
    study = run_study(plan, lambda played, label: _run(played, hands, seed, jobs, label, quiet=as_json),
                      mistakes=None if measured is None else measured.mistakes,
                      source="" if measured is None else measured.describe(),
                      answers=None if measured is None else measured.answers)
    summary, stopped, seconds, mine = study.summary, study.stopped, study.seconds, study.errors
    if stopped and summary.rounds == 0:
        echo_fitted("cutcard: stopped (Ctrl-C) before a whole segment of hands was played", err=True)
        raise click.exceptions.Exit(130)
    if stopped:
        echo_fitted(f"cutcard: stopped (Ctrl-C) after {summary.rounds:,} of {hands:,} hands: the figures "
                    "below are for those", err=True)
    report = SimReport(ruleset=rules, seed=seed, jobs=min(jobs, hands), seconds=seconds, summary=summary,
                       chart_ev=chart.ev, counter=counter, indices=index_words, bankroll=bankroll,
                       errors=mine, engine="compiled" if compiled(plan) else "python")
    if as_json:
        emit_json(report.to_json())
    else:
        from trainer.render.pager import paged_console
        from trainer.render.sim import print_report

        with paged_console(allowed=paging()) as console:
            print_report(console, report)
    if stopped:
        raise click.exceptions.Exit(130)


def wonging_option(wong_in: int | None, wong_out: int | None, *, counting: bool) -> Wonging | None:
    """The back-counting policy of `--wong-in` / `--wong-out` (None without either)."""
    if wong_in is None and wong_out is None:
        return None
    if not counting:
        raise click.UsageError("--wong-in and --wong-out need --count SYSTEM (e.g. --count hi-lo)")
    from trainer.core.errors import InvalidInputError
    from trainer.core.wonging import Wonging

    try:
        return Wonging(entry=wong_in, exit=wong_out)
    except InvalidInputError as error:
        raise click.UsageError(str(error)) from None


def _from_default_map(name: str) -> bool:
    """True when an option's value came from the REPL's remembered settings, not the command line."""
    source = click.get_current_context().get_parameter_source(name)
    return source is click.core.ParameterSource.DEFAULT_MAP


def prepare_kernel(plan: Plan, *, quiet: bool) -> None:
    """Load the compiled simulator (or compile it: a machine's first run) before the clock starts,
    saying so on a terminal, where the wait would otherwise be a progress bar standing at 0. Nothing
    where the Python engine plays: it has nothing to load."""
    from trainer.sim.runner import compiled, prepare

    if not compiled(plan):
        return
    if quiet or not sys.stderr.isatty():
        prepare(plan)
        return
    from trainer.render import make_console

    with make_console(sys.stderr).status("Loading the compiled simulator (compiled on a machine's first run: "
                                         "about ten seconds)"):
        prepare(plan)


def _run(plan: Plan, hands: int, seed: int, jobs: int, label: str, *, quiet: bool) -> tuple[Summary, bool]:
    """Simulate, with a progress bar for long runs on a terminal; the figures, and whether Ctrl-C
    stopped the run (the figures are then those of the hands played)."""
    from trainer.sim.game import make_game
    from trainer.sim.results import summarize
    from trainer.sim.runner import run_simulation

    scale = make_game(plan.ruleset).scale
    if quiet or hands < PROGRESS_FROM or not sys.stderr.isatty():
        run = run_simulation(plan, hands, seed=seed, jobs=jobs)
    else:
        from trainer.render import make_console
        from trainer.render.sim import sim_progress

        with sim_progress(make_console(sys.stderr), label) as progress:
            run = run_simulation(plan, hands, seed=seed, jobs=jobs, progress=progress)
    return summarize(run.tally, scale), run.stopped


def make_counter(rules: Ruleset, system_name: str, spread_text: str | None, ramp_text: str | None,
             indices: str | None, estimation: str, rounding: str, *, quiet: bool,
             last_deck: str | None = None) -> tuple[Counter, str]:
    """The simulated counter from the options, and its index plays in words (`indices`: published,
    computed, none, or None for the default: published for Hi-Lo, none for another count)."""
    from trainer.cli.indices import index_source
    from trainer.core.betting import check_ramp, default_ramp, parse_ramp, parse_spread
    from trainer.core.counting import load_system
    from trainer.sim.count import TrueCounter
    from trainer.sim.counter import Counter, chart_changes

    system = load_system(system_name)
    TrueCounter(estimation=estimation, rounding=rounding, last_deck=last_deck)  # checks the words
    spread = parse_spread(spread_text or "1-12")
    ramp = parse_ramp(ramp_text) if ramp_text else default_ramp(spread)
    check_ramp(ramp, spread)
    source = indices or ("published" if system.name == "hi-lo" else "none")
    plays: tuple[ChartChange, ...] = ()
    insurance: int | None = None
    words = ""
    if source != "none":
        typed, words = index_source(rules, system_name, source, estimation=estimation, rounding=rounding,
                                    quiet=quiet, last_deck=last_deck)
        plays, insurance = chart_changes(typed)
    counter = Counter(system=system, spread=spread, ramp=ramp, estimation=estimation, rounding=rounding,
                      last_deck=last_deck, indices=plays, insurance_index=insurance)
    return counter, words
