"""`cutcard risk --ev E --sd S --bankroll B [--rounds N] [--goal W] [--ror P] [--json]`: the risk family
of a game given per round, in the user's units (the diffusion approximation)."""

from __future__ import annotations

from typing import Any

import click

from trainer.cli.common import Number, emit_json, json_option


class Risk(click.ParamType[float]):
    """A target risk of ruin: a fraction (0.05) or a percentage (5%)."""

    name = "risk"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, float):
            return value
        from trainer.core.errors import InvalidInputError
        from trainer.planning.risk_report import parse_risk

        try:
            return parse_risk(str(value))
        except InvalidInputError as e:
            self.fail(str(e), param, ctx)


@click.command("risk")
@click.option("--ev", type=Number(), required=True, metavar="E",
              help="Win rate a round (negative for a losing game), in your units.")
@click.option("--sd", type=Number(least=0), required=True, metavar="S",
              help="Standard deviation a round, in the same units.")
@click.option("--bankroll", "-b", type=Number(above=0), required=True, metavar="B",
              help="The bankroll, in the same units.")
@click.option("--rounds", "-n", type=Number(least=0), default=None, metavar="N",
              help="Rounds of a trip: trip ruin, the goal within N rounds, the range of results.")
@click.option("--goal", "-w", type=Number(above=0), default=None, metavar="W",
              help="A win goal: the risk of ruin before winning W (and within N rounds).")
@click.option("--ror", "target", type=Risk(), default=None, metavar="P",
              help="A target risk of ruin (0.05 or 5%): the bankroll it needs.")
@json_option
def command(ev: float, sd: float, bankroll: float, rounds: float | None, goal: float | None,
            target: float | None, as_json: bool) -> None:
    """The risk of ruin of a game (for life, within a trip, before a goal), the bankroll a target risk
    needs, and the range of a trip's results: the diffusion approximation, per round, in your units.

    Example: cutcard risk --ev 0.02 --sd 1.15 --bankroll 200 --rounds 1000 --ror 5%
    """
    from trainer.planning.risk_report import report_to_json, risk_report

    report = risk_report(ev=ev, sd=sd, bankroll=bankroll, rounds=rounds, goal=goal, target=target)
    if as_json:
        emit_json(report_to_json(report))
        return
    from trainer.render import make_console
    from trainer.render.risk import print_risk

    print_risk(make_console(), report)
