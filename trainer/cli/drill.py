"""`cutcard drill NAME`: one drill session, interactive at a terminal, plain lines or JSON lines otherwise.

Each drill's help is its own: `cutcard drill NAME --help` lists the options that drill reads (its
`reads`, with what each means there) and its `--set` keys with their allowed values (its `set_keys`),
and an option the drill does not read is refused. `DrillCommand.commands` offers one such view per
drill, which the REPL's completion reads.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from drills import DRILLS
from trainer.cli.common import (
    DEFAULT_SYSTEM,
    SPEED_RANGE,
    NameChoice,
    close_call_option,
    db_option,
    distract_option,
    estimation_option,
    last_deck_option,
    load_chart,
    rounding_option,
    ruleset_option,
    seed_option,
    settings,
)

COMMON = frozenset({"name", "ruleset", "seed", "count", "jsonl", "db", "help"})
"""The options every drill takes; the others are read by some drills only (`Drill.reads`)."""
_DRILL = "cutcard.drill"
"""Where `DrillCommand` notes, in the context's meta, the drill a command line names."""

if TYPE_CHECKING:
    from drills.base import DrillOptions
    from trainer.core.rules import Ruleset
    from trainer.table.edge_line import EdgeWatch


def _pairs(values: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{value!r} is not KEY=VALUE", param_hint="--set")
        out[key.strip()] = rest.strip()
    return out


def _check_settings(name: str, extra: Iterable[str]) -> None:
    """A `--set` key the drill does not read is a usage error (exit 2), as an unknown option is; the
    drill itself reads the values (a list, a ratio, a size), and refuses a bad one when it starts."""
    known = [s.key for s in _drill_class(name).set_keys]
    for key in extra:
        if key not in known:
            raise click.UsageError(f"{name} has no setting {key!r} (settings: {', '.join(known) or 'none'})")


def _drill_class(name: str) -> Any:
    from drills import find_drill

    return find_drill(name)


class DrillCommand(click.Command):
    """`drill` with options narrowed to the drill named on the line (see the module note)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        name = ctx.meta[_DRILL] = self._named(ctx, args)
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as e:
            every = {opt for p in super().get_params(ctx) for opt in getattr(p, "opts", ())}
            if e.option_name not in every:
                raise
            which = f"the {name} drill" if name else "`cutcard drill` without a drill name"
            raise click.UsageError(f"{which} takes no {e.option_name}: `cutcard drill {name or 'NAME'} "
                                   "--help` lists its options", ctx) from None

    def _named(self, ctx: click.Context, args: list[str]) -> str | None:
        """The first word of the line that is not an option or an option's value ('' if it names no
        drill: every option stays, so that click's own error names the drills)."""
        takes_value = {opt for p in super().get_params(ctx) if isinstance(p, click.Option) and not p.is_flag
                       for opt in p.opts}
        words = iter(args)
        for word in words:
            if word == "--":
                word = next(words, "")
            elif word.startswith("-"):
                if word in takes_value and "=" not in word:
                    next(words, None)
                continue
            return word if word in DRILLS else ""
        return None

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        name = ctx.meta.get(_DRILL)
        if name == "":
            return params
        return drill_params(params, name)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        name = ctx.meta.get(_DRILL)
        if name:
            formatter.write_usage(f"{ctx.command_path} {name}", "[OPTIONS]")
        else:
            super().format_usage(ctx, formatter)

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        name = ctx.meta.get(_DRILL)
        if not name:
            super().format_help_text(ctx, formatter)
            with formatter.section("Drills (`cutcard drill NAME --help` for one drill's options)"):
                formatter.write_dl([(n, help_text) for n, (_, help_text) in DRILLS.items()])
            return
        doc = " ".join((_drill_class(name).__doc__ or "").split())
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(f"{name}: {DRILLS[name][1]}.")
            if doc:
                formatter.write_paragraph()
                formatter.write_text(doc)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        name = ctx.meta.get(_DRILL)
        if name:
            rows = [(s.shown(), s.help) for s in _drill_class(name).set_keys]
            if rows:
                with formatter.section("Settings (--set KEY=VALUE)"):
                    formatter.write_dl(rows)

    @property
    def commands(self) -> dict[str, click.Command]:
        """One command per drill with only that drill's options (what completion offers after NAME)."""
        return {name: drill_view(self, name) for name in DRILLS}


def _common(param: click.Parameter) -> bool:
    """An option every drill takes; the help option by its flag, since click names it differently across
    versions ('help' before 8.5, '_click_default_help' since)."""
    return param.name in COMMON or "--help" in param.opts


def drill_params(params: list[click.Parameter], name: str | None) -> list[click.Parameter]:
    """The options of one drill (or, without a name, the common ones), with its own help where it has
    one; `--set` only for a drill with settings."""
    if name is None:
        return [p for p in params if _common(p)]
    drill = _drill_class(name)
    out: list[click.Parameter] = []
    for param in params:
        if _common(param) or (param.name == "extra" and drill.set_keys):
            out.append(param)
        elif param.name in drill.reads:
            own = drill.reads[param.name]
            if param.name == "system":
                own = (own or "Count system") + ": " + ", ".join(_systems()) + ", or a TOML file of your own."
            if own and isinstance(param, click.Option):
                param = copy.copy(param)
                param.help = own
            out.append(param)
    return out


def _systems() -> list[str]:
    from trainer.core.counting import builtin_systems

    return list(builtin_systems())


def drill_view(command: click.Command, name: str) -> click.Command:
    """`drill NAME` as a command of its own: its options, and `--set` completing to its KEY=VALUEs."""
    params = drill_params(list(command.params), name)
    settings_ = _drill_class(name).set_keys
    view: list[click.Parameter] = []
    for param in params:
        if param.name == "extra":
            choices = [f"{s.key}={v}" for s in settings_ for v in s.values] + \
                      [f"{s.key}=" for s in settings_ if not s.values]
            param = click.Option(["--set", "extra"], type=click.Choice(choices), multiple=True,
                                 help="A drill-specific setting.")
        elif param.name == "name":
            continue
        view.append(param)
    return click.Command(name, params=view, short_help=DRILLS[name][1], help=DRILLS[name][1])


@click.command("drill", cls=DrillCommand)
@click.argument("name", type=NameChoice(list(DRILLS), "drill"), required=False, metavar="[NAME]")
@ruleset_option
@seed_option
@click.option("--count", "-n", type=click.IntRange(min=1), default=None,
              help="Questions to ask (default: 20 at a terminal, until input ends otherwise).")
@click.option("--jsonl", is_flag=True, help="Machine mode: JSON question and grade lines.")
@click.option("--system", default=DEFAULT_SYSTEM, show_default=True, help="Count system.")
@click.option("--speed", type=click.FloatRange(*SPEED_RANGE), default=None,
              help="Seconds per card for flashed cards.")
@click.option("--per-flash", type=click.IntRange(1, 3), default=1, show_default=True,
              help="Cards shown at a time.")
@click.option("--decks", type=click.IntRange(1, 8), default=None, help="Decks to deal from.")
@estimation_option
@last_deck_option
@rounding_option
@close_call_option
@click.option("--seats", type=click.IntRange(1, 7), default=3, show_default=True, help="Seats at the table.")
@click.option("--chips", is_flag=True, help="Answer payouts in chips, e.g. '2 green 1 red'.")
@click.option("--hands", type=click.Choice(["hard", "soft", "pairs", "close", "missed"]), default=None,
              help="Only these hands: hard or soft totals, pairs, close calls (under 2% of the bet "
                   "between the best play and the next), or the ones you have missed.")
@click.option("--all", "every_hand", is_flag=True,
              help="Trivial hands (played alike against every up card) as often as the others.")
@click.option("--readings", is_flag=True, default=None,
              help="Also ask this trainer's readings where the seed is silent (worded as readings).")
@distract_option
@click.option("--set", "extra", multiple=True, metavar="KEY=VALUE", help="A drill-specific setting.")
@click.option("--indices", type=click.Choice(["published", "computed"]), default=None,
              help="The published Illustrious 18 and Fab 4 [the default], or the index plays computed for "
                   "this table and --system (`cutcard indices`).")
@db_option
def command(name: str | None, ruleset: str, seed: int | None, count: int | None, jsonl: bool,
            extra: tuple[str, ...] = (), **chosen: Any) -> None:
    """One drill session. Without NAME, list the drills.

    At a terminal the drill is interactive; with input from a pipe it reads one answer per line, and
    with --jsonl it speaks JSON lines. Every answer is recorded in the progress database as it is graded.
    """
    if name is None:
        width = max(len(n) for n in DRILLS)
        for drill_name, (_, help_text) in DRILLS.items():
            click.echo(f"{drill_name:<{width}}  {help_text}")
        return

    from drills import find_drill, make_drill
    from drills.base import DrillOptions
    from trainer.core.errors import InvalidInputError, UnknownNameError
    from trainer.core.rulesfile import load_ruleset
    from trainer.practice.launch import open_store, rng_for, run_plan
    from trainer.progress.review import offered_items

    game: str | None = getattr(find_drill(name), "game", None)
    if game is not None:  # a drill of one game runs at it unless --ruleset names one that has it
        source = click.get_current_context().get_parameter_source("ruleset")
        if source in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP):
            ruleset = game
    rules = load_ruleset(ruleset)
    if game is not None and rules.name != game and offered_items(make_drill(name), rules) is None:
        raise click.UsageError(f"{name} is a {game} drill, and {rules.name} does not have it (leave out "
                               f"--ruleset, or give a rule set based on {game})")
    if name == "strategy":  # the one drill that reads a chart: computed first, with a progress bar
        load_chart(rules, quiet=jsonl)
    indices = chosen.pop("indices", None)
    options = DrillOptions(extra=_pairs(extra), **{key: value for key, value in chosen.items()
                                                   if value is not None})
    if options.system:  # a count system file that cannot be read is an error found while running (1)
        from trainer.core.counting import load_system

        load_system(options.system)
    try:
        drill = make_drill(name, options)
    except InvalidInputError as e:  # the files read, an option or setting the drill cannot take (2)
        raise UnknownNameError(str(e)) from None
    if indices == "computed":
        from drills.strategy.deviations import DeviationsDrill

        if isinstance(drill, DeviationsDrill):
            from drills.settings import practice_table
            from trainer.cli.indices import index_source

            table = practice_table(rules, drill.surrender)
            plays, words = index_source(table, options.system, "computed", estimation=options.estimation,
                                        rounding=options.rounding, quiet=jsonl, last_deck=options.last_deck)
            drill.use_index_plays(plays, words)
    with open_store(settings()) as store:
        from trainer.practice.batch import repeat
        from trainer.practice.session import DrillRun

        if name == "strategy":  # the hands a learner gets wrong come up more often
            from drills.strategy.basic import StrategyDrill
            from trainer.progress.drill_focus import strategy_weights

            if isinstance(drill, StrategyDrill):
                drill.set_weights(strategy_weights(store, rules.name))
        from trainer.progress.drill_focus import prepare_bests

        prepare_bests(drill, store)  # a countdown beats the learner's own best
        rng = rng_for(seed)
        distractor = None
        if options.distract:
            from drills.distraction import Distractor

            distractor = Distractor(rng, rules)
        session = DrillRun(drill=drill, ruleset=rules, rng=rng, recorder=store, distractor=distractor)
        interactive = sys.stdin.isatty() and not jsonl
        planned = count if count or not interactive else 20
        edges = _true_count_edges(rules, options) if name == "true-count" and interactive else None
        run_plan(repeat(session, planned), jsonl=jsonl, interactive=interactive, store=store, total=planned,
                 edges=edges)


def _true_count_edges(rules: Ruleset, options: DrillOptions) -> EdgeWatch:
    """The true-count drill's `e`: its shoes' exact edges in the background, and the count's edge from
    the statistics `plan` keeps for the game (the published index plays, as `plan` plays Hi-Lo)."""
    from trainer.cli.plan import stored_count_edges
    from trainer.core.shoe_depths import practice_rules
    from trainer.strategy import chart_for
    from trainer.table.edge_line import EdgeWatch

    table = practice_rules(rules, options.decks)
    stats = stored_count_edges(table, options.system, None, estimation=options.estimation,
                               rounding=options.rounding, last_deck=options.last_deck)
    return EdgeWatch(table, chart_for(table), stats, background=True)
