"""`cutcard journal` and `cutcard journal add`: the journal of real play, against the plan in force.

The plan in force is `$CUTCARD_HOME/plan.json`, the document `cutcard plan` saves (its `--json` keys);
each session logged keeps that plan's figures, so its expectation stays its own plan's.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

import click

from trainer.cli.common import (
    DEFAULT_RULESET,
    DEFAULT_SYSTEM,
    Number,
    cutcard_home,
    db_option,
    emit_json,
    json_option,
    settings,
)
from trainer.practice.launch import newest_backup

if TYPE_CHECKING:
    from trainer.planner import PlanReport
    from trainer.planning.journal import JournalEntry, JournalStanding, PlanInForce

PLAN_DEFAULTS = {"ruleset": DEFAULT_RULESET, "system": DEFAULT_SYSTEM}
"""What `cutcard plan` assumes unless told: the command the journal suggests leaves them out."""


class _Parsed(click.ParamType[Any]):
    """A value read by one of the journal's parsers: a bad one is a one-line usage error."""

    def __init__(self, name: str) -> None:
        self.name = name

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from trainer.core.errors import InvalidInputError
        from trainer.planning.journal import parse_day, parse_result

        if not isinstance(value, str):
            return value
        try:
            if self.name == "date":
                return parse_day(value, date.today())
            if self.name == "result":
                return parse_result(value)
            from trainer.core.betting import parse_ramp

            if value.strip().lower() != "plan":
                parse_ramp(value)
            return value.strip()
        except InvalidInputError as e:
            self.fail(str(e), param, ctx)


def load_plan() -> PlanInForce | None:
    """The plan in force (`$CUTCARD_HOME/plan.json`), or None where no plan was made."""
    from trainer.core.errors import InvalidInputError
    from trainer.planner import PLAN_FILE, plan_document
    from trainer.planning.journal import plan_in_force

    document = plan_document(cutcard_home())
    if document is None:
        return None
    try:
        return plan_in_force(document)
    except InvalidInputError as e:
        raise InvalidInputError(f"the plan in force {cutcard_home() / PLAN_FILE} is not a plan "
                                f"({str(e)[:80]}): make it again with `cutcard plan`") from None


def today_plan(summary: JournalStanding) -> PlanReport | None:
    """The plan for today's bankroll: the plan in force's table, target risk and statistics at the
    bankroll today (None where the plan keeps no statistics or no table, or the bankroll is gone)."""
    from trainer.planner import document_bet_count, plan_game
    from trainer.planning.ramp import TableLimits

    plan, bankroll = summary.plan, summary.bankroll_today
    if (plan is None or bankroll is None or bankroll <= 0 or not plan.per_count or plan.min_bet is None
            or plan.max_bet is None or plan.target_ror is None):
        return None
    limits = TableLimits(bankroll=bankroll, ror=plan.target_ror, min_bet=plan.min_bet, max_bet=plan.max_bet,
                         spread=plan.spread, rounds_per_hour=plan.rounds_per_hour or 100.0,
                         hours=plan.hours or 100.0)
    return plan_game(plan.per_count, limits, chip=plan.chip, statistics="the plan in force's statistics",
                     ruleset=plan.ruleset or "", system=plan.system or "",
                     bet_count=document_bet_count(plan.bet_count), bet_count_name=plan.bet_count)


@click.group("journal", invoke_without_command=True)
@json_option
@db_option
@click.pass_context
def command(ctx: click.Context, as_json: bool) -> None:
    """Your sessions of real play: the results against the plan's expectation with its ±1 and ±2 SD
    bands, and the bankroll today. `journal add` logs a session."""
    if ctx.invoked_subcommand is not None:
        return
    from trainer.planning.journal import standing
    from trainer.storage.reader import read_consistently

    entries = read_consistently(settings().db_path, lambda view: view.journal(),
                                newest_backup=newest_backup(settings())) or []
    plan = load_plan()
    summary = standing(entries, plan)
    today = today_plan(summary)
    if as_json:
        emit_json(journal_to_json(entries, summary, today))
        return
    from trainer.render import make_console
    from trainer.render.journal import print_journal

    print_journal(make_console(), entries, summary, today, defaults=PLAN_DEFAULTS)


@command.command("add")
@click.option("--date", "day", type=_Parsed("date"), default=None, metavar="YYYY-MM-DD",
              help="The day played (default today; also `yesterday`).")
@click.option("--hours", type=Number(above=0), required=True, metavar="H", help="Hours played.")
@click.option("--rounds", type=click.IntRange(min=1), required=True, metavar="N", help="Rounds played.")
@click.option("--result", type=_Parsed("result"), required=True, metavar="R",
              help="Net won (+350) or lost (-350), in money.")
@click.option("--ramp", type=_Parsed("ramp"), default=None, metavar="plan|RAMP",
              help="plan (the default with a plan in force) or the ramp you played, e.g. 1:1,2:2,3:4.")
@click.option("--note", default="", metavar="TEXT", help="A line about the session (casino, table).")
@json_option
@db_option
def add(day: date | None, hours: float, rounds: int, result: Any, ramp: str | None, note: str,
        as_json: bool) -> None:
    """Log a session of real play; with a plan in force it keeps the plan's figures."""
    import time

    from trainer.planning.journal import PLAN_RAMP, new_entry, standing
    from trainer.practice.launch import open_store

    plan = load_plan()
    entry = new_entry(day=day or date.today(), hours=hours, rounds=rounds, result=result,
                      ramp=ramp if ramp is not None else (PLAN_RAMP if plan is not None else ""),
                      note=note, plan=plan, recorded_ts=time.time())
    with open_store(settings()) as store:
        kept = store.add_journal_entry(entry)
        entries = store.journal()
    summary = standing(entries, plan)
    if as_json:
        emit_json({"session": entry_to_json(kept), "bankroll_today": summary.bankroll_today})
        return
    from trainer.render import make_console
    from trainer.render.journal import print_logged

    print_logged(make_console(), kept, summary)


def entry_to_json(entry: JournalEntry) -> dict[str, Any]:
    planned = entry.planned
    return {
        "id": entry.id, "date": entry.day.isoformat(), "hours": entry.hours, "rounds": entry.rounds,
        "result": str(entry.result), "ramp": entry.ramp, "note": entry.note,
        "plan": None if planned is None else {
            "id": planned.plan_id, "ev_per_round": planned.ev_per_round,
            "sd_per_round": planned.sd_per_round, "bankroll": planned.bankroll},
        "expected": entry.expected,
        "sd": None if entry.variance is None else entry.variance ** 0.5,
    }


def journal_to_json(entries: list[JournalEntry], summary: JournalStanding,
                    today: PlanReport | None = None) -> dict[str, Any]:
    """`cutcard journal --json`: the sessions, the totals, the standing against the plans, the bankroll
    today, the plan for it (`cutcard plan --json`'s keys; null where the plan in force keeps no
    statistics) and the command that makes it the plan in force."""
    from trainer.planner import to_json
    from trainer.planning.journal import replan_command

    last = summary.track[-1]
    plan = summary.plan
    return {
        "sessions": [entry_to_json(e) for e in entries],
        "totals": {"sessions": summary.sessions, "hours": summary.hours, "rounds": summary.rounds,
                   "result": str(summary.result)},
        "against_plan": None if len(summary.track) < 2 else {
            "sessions": len(summary.track) - 1, "rounds": last.rounds, "result": last.result,
            "expected": last.expected, "sd": last.sd, "z": summary.z},
        "unplanned": {"sessions": summary.unplanned, "result": str(summary.unplanned_result)},
        "plan": None if plan is None else {
            "id": plan.plan_id, "ev_per_round": plan.ev_per_round, "sd_per_round": plan.sd_per_round,
            "bankroll": plan.bankroll, "min_bet": plan.min_bet, "ror": plan.ror,
            "target_ror": plan.target_ror},
        "bankroll_today": summary.bankroll_today,
        "ror_today": summary.ror_today,
        "today_plan": None if today is None else to_json(today),
        "replan": (None if plan is None or summary.bankroll_today is None
                   else replan_command(plan, summary.bankroll_today, defaults=PLAN_DEFAULTS)),
    }
