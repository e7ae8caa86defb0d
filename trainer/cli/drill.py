"""`cutcard drill NAME`: one drill session, interactive at a terminal, plain lines or JSON lines otherwise."""

from __future__ import annotations

import sys

import click

from drills import DRILLS
from trainer.cli.common import (
    DEFAULT_SYSTEM,
    SPEED_RANGE,
    db_option,
    estimation_option,
    rounding_option,
    ruleset_option,
    seed_option,
    settings,
    use_chart_cache,
)


def _pairs(values: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{value!r} is not KEY=VALUE", param_hint="--set")
        out[key.strip()] = rest.strip()
    return out


@click.command("drill")
@click.argument("name", type=click.Choice(list(DRILLS)), required=False)
@ruleset_option
@seed_option
@click.option("--count", "-n", type=click.IntRange(min=1), default=None,
              help="Questions to ask (default: 20 at a terminal, until input ends otherwise).")
@click.option("--jsonl", is_flag=True, help="Machine mode: JSON question and grade lines.")
@click.option("--system", default=DEFAULT_SYSTEM, show_default=True, help="Count system (count drills).")
@click.option("--speed", type=click.FloatRange(*SPEED_RANGE), default=None,
              help="Seconds per card for flashed cards.")
@click.option("--per-flash", type=click.IntRange(1, 3), default=1, show_default=True,
              help="Cards shown at a time in flash drills.")
@click.option("--decks", type=click.IntRange(1, 8), default=None, help="Decks (countdown, table).")
@estimation_option
@rounding_option
@click.option("--seats", type=click.IntRange(1, 7), default=3, show_default=True,
              help="Seats at the table (table drill).")
@click.option("--chips", is_flag=True, help="Answer payouts in chips, e.g. '2 green 1 red'.")
@click.option("--set", "extra", multiple=True, metavar="KEY=VALUE", help="A drill-specific setting.")
@click.option("--indices", type=click.Choice(["published", "computed"]), default="published",
              show_default=True,
              help="deviations: the published Illustrious 18 and Fab 4, or the index plays computed for "
                   "this table and --system (`cutcard indices`).")
@db_option
def command(name: str | None, ruleset: str, seed: int | None, count: int | None, jsonl: bool,
            system: str, speed: float | None, per_flash: int, decks: int | None, estimation: str,
            rounding: str, seats: int, chips: bool, extra: tuple[str, ...], indices: str) -> None:
    """One drill session. Without NAME, list the drills.

    At a terminal the drill is interactive; with input from a pipe it reads one answer per line, and
    with --jsonl it speaks JSON lines. Every answer is recorded in the progress database as it is graded.
    """
    if name is None:
        width = max(len(n) for n in DRILLS)
        for drill_name, (_, help_text) in DRILLS.items():
            click.echo(f"{drill_name:<{width}}  {help_text}")
        return

    from drills import make_drill
    from drills.base import DrillOptions
    from trainer.core.rulesfile import load_ruleset
    from trainer.runs import open_store, rng_for, run_plan

    rules = load_ruleset(ruleset)
    if name == "strategy":  # the one drill that reads a chart
        use_chart_cache()
    options = DrillOptions(system=system, speed=speed, per_flash=per_flash, decks=decks,
                           estimation=estimation, rounding=rounding, seats=seats, chips=chips,
                           extra=_pairs(extra))
    drill = make_drill(name, options)
    if indices == "computed":
        from drills.deviations import DeviationsDrill

        if isinstance(drill, DeviationsDrill):
            from drills.settings import practice_table
            from trainer.cli.indices import index_source

            table = practice_table(rules, drill.surrender)
            plays, words = index_source(table, system, "computed", estimation=estimation, rounding=rounding,
                                        quiet=jsonl)
            drill.use_index_plays(plays, words)
    with open_store(settings()) as store:
        from trainer.batch import repeat
        from trainer.session import Session

        if name == "strategy":  # the hands a learner gets wrong come up more often
            from drills.strategy import StrategyDrill
            from trainer.focus import strategy_weights

            if isinstance(drill, StrategyDrill):
                drill.set_weights(strategy_weights(store, rules.name))
        session = Session(drill=drill, ruleset=rules, rng=rng_for(seed), recorder=store)
        interactive = sys.stdin.isatty() and not jsonl
        run_plan(repeat(session, count if count or not interactive else 20), jsonl=jsonl,
                 interactive=interactive)
