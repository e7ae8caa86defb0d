"""`cutcard stats [VIEW]`: progress over time, in the terminal or as one JSON document; read-only."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from trainer.cli.common import db_option, emit_json, json_option, pager_option, paging, settings
from trainer.practice.launch import newest_backup

if TYPE_CHECKING:
    from collections.abc import Sequence

    from trainer.planning.cover import RampPrice
    from trainer.planning.ramp import CountRow
    from trainer.progress.since import Since
    from trainer.progress.stats_bets import BetGame

    Pricing = tuple[RampPrice, list[RampPrice], str]
    """The learner's ramp priced, the covers priced, and where the statistics came from."""

VIEWS = ("overview", "drills", "review", "strategy", "bets")


@click.command("stats")
@click.argument("view", type=click.Choice(VIEWS), default="overview", required=False)
@click.option("--since", default="all", show_default=True, metavar="SPAN",
              help="Look back this far: 7d, 12w, 1y, or all.")
@click.option("--ruleset", "-r", "ruleset", default=None, metavar="NAME|PATH",
              help="strategy: the rule set whose chart to draw (default: the one practised most).")
@click.option("--counts", is_flag=True, help="strategy: each cell's number of answers instead of % right.")
@click.option("--cell", default=None, metavar="CELL",
              help="strategy: one cell's answers in full, e.g. --cell 'hard 16 vs 10'.")
@click.option("--cover", default=None, metavar="SPEC",
              help="bets: the cover ramp to price beside yours: a spread (1-8), a ramp (TC:UNITS,...), half, "
                   "late or flat [all four named ones].")
@click.option("--stats", "stats_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="bets: price the ramps from a document with a per_count table (what `sim --count S "
                   "--json` writes) [the statistics `plan` stored for your game].")
@json_option
@pager_option
@db_option
def command(view: str, since: str, ruleset: str | None, counts: bool, cell: str | None,
            cover: str | None, stats_file: str | None, as_json: bool) -> None:
    """Progress: per drill and per skill accuracy and answer time, week by week; the review picture.

    VIEW is `overview` (the default), `drills` (each drill's weekly charts), `review` (reviews done and
    due, retention, intervals), `strategy` (accuracy per cell, laid out like the rule set's chart) or
    `bets` (your bets at play against your true count, as a surveillance room would read them, and
    what your ramp earns and a cover ramp would cost an hour).
    Reads the progress database without writing to it; a missing one is left missing.
    """
    import time

    from trainer.progress.since import parse_since

    span = parse_since(since)
    if view != "bets" and (cover is not None or stats_file is not None):
        raise click.UsageError("--cover and --stats go with `stats bets`")
    if view == "bets":
        _bets(as_json, cover, stats_file)
        return
    if view == "strategy":  # may compute the rule set's chart first: the collector stays on
        _strategy(settings().db_path, time.time(), span, ruleset, counts, cell, as_json)
        return
    _show(view, span, time.time(), as_json)


def _show(view: str, span: Since, now: float, as_json: bool) -> None:
    """The overview, `drills` or `review`, read and printed."""
    from trainer.storage.reader import read_consistently

    path = settings().db_path
    if view == "review":
        _review(path, now, as_json)
        return
    from trainer.progress.stats import build_report, report_to_json

    weeks = as_json or view == "drills"  # the overview draws the skills' weeks, not each drill's
    report = read_consistently(path, lambda view_: build_report(view_, now=now, since=span,
                                                                per_drill_weeks=weeks),
                               newest_backup=newest_backup(settings()))
    if report is None:
        _no_progress_yet(as_json)
        return
    if as_json:
        emit_json(report_to_json(report))
        return
    from trainer.render.pager import paged_console

    with paged_console(allowed=paging()) as console:
        if view == "drills":
            from trainer.render.stats import print_drill_charts

            print_drill_charts(console, report)
        else:
            from trainer.render.stats import print_stats

            print_stats(console, report)


def _bets(as_json: bool, cover: str | None, stats_file: str | None) -> None:
    """`stats bets`: the bets placed at play against the true count, the surveillance figures, and what
    the learner's ramp earns beside a cover ramp."""
    from pathlib import Path

    from trainer.core.betting import DEFAULT_RAMP, BetRamp
    from trainer.core.errors import InvalidInputError
    from trainer.planning.cover import cover_ramp
    from trainer.progress.stats_bets import bet_picture, bet_points, latest_game, picture_to_json
    from trainer.storage.reader import read_consistently

    if cover is not None:  # a cover no ramp can make is a usage error, bets or none
        try:
            cover_ramp(cover, BetRamp.parse(DEFAULT_RAMP))
        except InvalidInputError as e:
            raise click.UsageError(f"--cover: {e}") from None
    rows = read_consistently(Path(str(settings().db_path)), lambda v: v.table_bets(),
                             newest_backup=newest_backup(settings())) or []
    points = bet_points(rows)
    picture = bet_picture(points)
    game = latest_game(rows) if points else None
    pricing = _ramp_prices(game, cover, stats_file) if game is not None else None
    if as_json:
        from trainer.planning.cover import price_to_json

        document = picture_to_json(picture)
        if isinstance(pricing, str):
            document["ramps"] = {"priced": False, "note": pricing}
        elif pricing is not None:
            own, priced, source = pricing
            document["ramps"] = {"priced": True, "statistics": source,
                                 "unit": str(game.unit) if game else None,
                                 "rounds_per_hour": own.figures.rounds_per_hour, "yours": price_to_json(own),
                                 "covers": [price_to_json(p) for p in priced]}
        emit_json(document)
        return
    if not points:
        click.echo("No bets with a true count yet: sit at a table (`cutcard play`) and bet by your count; "
                   "the picture a surveillance room would draw appears here.")
        return
    from trainer.render.bet_scatter import bet_lines, ramp_lines

    for line in bet_lines(picture):
        click.echo(line)
    if game is not None and pricing is not None:
        click.echo("")
        for line in ramp_lines(game, pricing):
            click.echo(line)


def _ramp_prices(game: BetGame, cover: str | None, stats_file: str | None) -> Pricing | str:
    """The learner's ramp and the covers priced from the game's statistics (a `--stats` document, else
    the ones `plan` stored), or the one line that says how to get them: never a simulation unasked."""
    from pathlib import Path

    from trainer.core.betting import BetRamp
    from trainer.core.errors import TrainerError
    from trainer.planner import ROUNDS_PER_HOUR, read_stats
    from trainer.planning.cover import SHOWN, cover_costs, cover_ramp
    from trainer.planning.ramp import TableLimits

    try:
        yours = BetRamp.parse(game.ramp)
    except TrainerError:
        return f"your ramp at play ({game.ramp!r}) is not readable: bet a session with `set ramp` first"
    rows: Sequence[CountRow]
    if stats_file is not None:
        document = read_stats(Path(stats_file))
        rows = document.rows
        source = f"{sum(r.rounds for r in rows):,} rounds from {Path(stats_file).name}"
        named = (document.ruleset or game.ruleset, document.system or game.system)
        if named != (game.ruleset, game.system):  # priced as asked, and said
            source += f", a game of {named[0]} with {named[1]}"
    else:
        stored = _stored_statistics(game)
        if stored is None:
            return f"To price ramps: `{game.plan_command()}` (once, minutes)"
        rows, source = stored
    unit = float(game.unit)
    limits = TableLimits(bankroll=10_000 * unit, ror=0.05, min_bet=unit, max_bet=1_000 * unit,
                         rounds_per_hour=float(ROUNDS_PER_HOUR[3]))
    covers = [cover_ramp(spec, yours) for spec in ((cover,) if cover is not None else SHOWN)]
    own, priced = cover_costs(rows, yours, covers, limits)
    return own, priced, source


def _stored_statistics(game: BetGame) -> tuple[Sequence[CountRow], str] | None:
    """The per-count statistics `plan` stored for the game of the bets (its default index plays), read
    and never simulated; None where none are stored, or the game's chart is not computed yet."""
    from trainer.cli.common import cutcard_home, use_chart_cache
    from trainer.core.errors import TrainerError
    from trainer.core.rulesfile import load_ruleset

    try:
        rules = load_ruleset(game.ruleset)
        use_chart_cache()
        from trainer.strategy import chart_for, has_chart

        if not rules.counting_helps or not has_chart(rules):
            return None
        from trainer.cli.sim import make_counter
        from trainer.sim.runner import Plan, letters_of
        from trainer.statstore import StatsStore, game_key

        counter, _ = make_counter(rules, game.system, "1-1", None, None, game.estimation, game.rounding,
                                  quiet=True, last_deck=game.last_deck)
        plan = Plan(ruleset=rules, chart=letters_of(chart_for(rules).lookup), counter=counter)
        stats = StatsStore(cutcard_home() / "stats").read(game_key(plan))
    except TrainerError:
        return None
    if stats is None:
        return None
    return stats.rows, f"{stats.rounds:,} rounds stored by `plan`"


def _no_progress_yet(as_json: bool) -> None:
    """What `stats` says on a home with no database yet (it creates none)."""
    if as_json:
        emit_json({"progress": False, "message": "no progress yet"})
    else:
        click.echo("No progress yet: answer a drill (`cutcard drill`) and your figures appear here.")


def _review(path: object, now: float, as_json: bool) -> None:
    """`stats review`: the review picture alone (the rest of the report is not read)."""
    from pathlib import Path

    from trainer.progress.days import local_day
    from trainer.progress.stats_review import build_review_picture
    from trainer.storage.reader import read_consistently

    today = local_day(now)
    picture = read_consistently(Path(str(path)), lambda v: build_review_picture(v, now=now, today=today),
                                newest_backup=newest_backup(settings()))
    if picture is None:
        _no_progress_yet(as_json)
        return
    if as_json:
        from trainer.progress.stats import plain  # the whole report's module: only for the JSON helper

        emit_json({"today": today.isoformat(), **plain(picture)})
        return
    from trainer.render.pager import paged_console
    from trainer.render.review_stats import print_review_picture

    with paged_console(allowed=paging()) as console:
        print_review_picture(console, picture, today)


def _strategy(path: object, now: float, span: object, ruleset: str | None, counts: bool, cell: str | None,
              as_json: bool) -> None:
    from pathlib import Path

    from trainer.progress.since import Since
    from trainer.progress.stats_strategy import build_heatmap, heatmap_to_json
    from trainer.storage.reader import read_consistently

    assert isinstance(span, Since)
    heatmap = read_consistently(Path(str(path)), lambda v: build_heatmap(v, now=now, since=span,
                                                                         ruleset=ruleset),
                                newest_backup=newest_backup(settings()))
    if heatmap is None:
        if as_json:
            emit_json({"progress": False, "message": "no progress yet"})
        else:
            click.echo("No progress yet: try `cutcard drill strategy`, then the chart fills in here.")
        return
    if as_json:
        emit_json(heatmap_to_json(heatmap))
        return
    from trainer.render.heatmap import print_cell, print_heatmap
    from trainer.render.pager import paged_console

    with paged_console(allowed=paging()) as console:
        if cell:
            print_cell(console, heatmap, cell)
        else:
            print_heatmap(console, heatmap, counts=counts)
