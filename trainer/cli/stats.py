"""`cutcard stats`: progress over time, in the terminal or as one JSON document."""

from __future__ import annotations

import click

from trainer.cli.common import db_option, emit_json, json_option, settings


@click.command("stats")
@click.option("--since", default="all", show_default=True, metavar="SPAN",
              help="Look back this far: 7d, 12w, 1y, or all.")
@json_option
@db_option
def command(since: str, as_json: bool) -> None:
    """Per drill answers, accuracy and answer time with trends; activity, weak spots, forecast."""
    import time

    from trainer.runs import open_store
    from trainer.stats import build_report, parse_since, report_to_json

    span = parse_since(since)
    with open_store(settings()) as store:
        report = build_report(store, now=time.time(), since=span)
    if as_json:
        emit_json(report_to_json(report))
        return
    from trainer.render import make_console
    from trainer.render.stats import print_stats

    print_stats(make_console(), report)
