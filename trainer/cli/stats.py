"""`cutcard stats [VIEW]`: progress over time, in the terminal or as one JSON document; read-only."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from trainer.cli.common import db_option, emit_json, json_option, pager_option, paging, settings
from trainer.practice.launch import newest_backup

if TYPE_CHECKING:
    from trainer.progress.stats import Since

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
@json_option
@pager_option
@db_option
def command(view: str, since: str, ruleset: str | None, counts: bool, cell: str | None,
            as_json: bool) -> None:
    """Progress: per drill and per skill accuracy and answer time, week by week; the review picture.

    VIEW is `overview` (the default), `drills` (each drill's weekly charts), `review` (reviews done and
    due, retention, intervals), `strategy` (accuracy per cell, laid out like the rule set's chart) or
    `bets` (your bets at play against your true count, as a surveillance room would read them).
    Reads the progress database without writing to it; a missing one is left missing.
    """
    import time

    from trainer.progress.stats import parse_since

    span = parse_since(since)
    if view == "bets":
        _bets(as_json)
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


def _bets(as_json: bool) -> None:
    """`stats bets`: the bets placed at play against the true count, and the surveillance figures."""
    from pathlib import Path

    from trainer.progress.stats_bets import bet_picture, bet_points, picture_to_json
    from trainer.storage.reader import read_consistently

    rows = read_consistently(Path(str(settings().db_path)), lambda v: v.table_bets(),
                             newest_backup=newest_backup(settings()))
    points = bet_points(rows or [])
    picture = bet_picture(points)
    if as_json:
        emit_json(picture_to_json(picture))
        return
    if not points:
        click.echo("No bets with a true count yet: sit at a table (`cutcard play`) and bet by your count; "
                   "the picture a surveillance room would draw appears here.")
        return
    from trainer.render.bet_scatter import bet_lines

    for line in bet_lines(picture):
        click.echo(line)


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
    from trainer.progress.stats import plain
    from trainer.progress.stats_review import build_review_picture
    from trainer.storage.reader import read_consistently

    today = local_day(now)
    picture = read_consistently(Path(str(path)), lambda v: build_review_picture(v, now=now, today=today),
                                newest_backup=newest_backup(settings()))
    if picture is None:
        _no_progress_yet(as_json)
        return
    if as_json:
        emit_json({"today": today.isoformat(), **plain(picture)})
        return
    from trainer.render.pager import paged_console
    from trainer.render.review_stats import print_review_picture

    with paged_console(allowed=paging()) as console:
        print_review_picture(console, picture, today)


def _strategy(path: object, now: float, span: object, ruleset: str | None, counts: bool, cell: str | None,
              as_json: bool) -> None:
    from pathlib import Path

    from trainer.progress.stats import Since
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
