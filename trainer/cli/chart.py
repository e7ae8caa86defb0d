"""`cutcard chart [--ruleset R] [--json]`: the exact basic-strategy chart of a rule set."""

from __future__ import annotations

import click

from trainer.cli.common import emit_json, json_option, load_chart, pager_option, paging, ruleset_option


@click.command("chart")
@ruleset_option
@json_option
@pager_option
def command(ruleset: str, as_json: bool) -> None:
    """The exact basic-strategy chart of a rule set, with EVs and the house edge (played by the chart, and
    the total-dependent optimum)."""
    from trainer.core.rulesfile import load_ruleset

    rules = load_ruleset(ruleset)
    chart = load_chart(rules)
    if as_json:
        from trainer.core.describe import chart_readings

        document = chart.to_json()
        document["readings"] = [{"key": key, "reading": basis.why} for key, basis in chart_readings(rules)]
        emit_json(document)
        return
    from trainer.render.pager import paged_console
    from trainer.render.strategy_chart import print_chart

    with paged_console(allowed=paging()) as console:
        print_chart(console, chart, rules)
