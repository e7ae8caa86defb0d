"""`cutcard chart [--ruleset R] [--json]`: the exact basic-strategy chart of a rule set."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from trainer.cli.common import cutcard_home, emit_json, json_option, ruleset_option

if TYPE_CHECKING:
    from trainer.core.rules import Ruleset
    from trainer.strategy import Chart


def load_chart(ruleset_name: str, *, quiet: bool = False) -> tuple[Ruleset, Chart]:
    """The rule set and its chart, with the file cache installed and, on a terminal, a progress bar."""
    import sys

    from trainer.chartcache import install_file_cache
    from trainer.core.rulesfile import load_ruleset
    from trainer.strategy import chart_for, has_chart

    ruleset = load_ruleset(ruleset_name)
    install_file_cache(cutcard_home() / "charts")
    if quiet or has_chart(ruleset) or not sys.stderr.isatty():
        return ruleset, chart_for(ruleset)
    from trainer.render import make_console
    from trainer.render.chart import chart_progress

    with chart_progress(make_console(sys.stderr), f"Computing the {ruleset.name} chart") as progress:
        return ruleset, chart_for(ruleset, progress=progress)


@click.command("chart")
@ruleset_option
@json_option
def command(ruleset: str, as_json: bool) -> None:
    """The exact basic-strategy chart of a rule set, with EVs and the house edge."""
    rules, chart = load_chart(ruleset)
    if as_json:
        emit_json(chart.to_json())
        return
    from trainer.render import make_console
    from trainer.render.chart import print_chart

    print_chart(make_console(), chart, rules)
