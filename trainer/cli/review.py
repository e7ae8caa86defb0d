"""`cutcard review`: the spaced-repetition queue, due items of every drill mixed, then new items."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from trainer.cli.common import db_option, echo_fitted, seed_option, settings, use_chart_cache

if TYPE_CHECKING:
    from trainer.core.rules import Ruleset

DRY_RUN_SHOWN = 30
"""Questions `--dry-run` lists without `--limit` (the rest are counted)."""
WIDTH = 79
"""The widest line `--dry-run` prints as one (an 80-column terminal)."""
MOST_NEW = 9999
"""The most new items a day `--new` takes (Anki's own bound): a day's estimate stays a day's."""


@click.command("review")
@click.option("--ruleset", "-r", "ruleset", default=None, metavar="NAME|PATH",
              help="Only this rule set's items, and new items for it (default: every rule set; new items "
                   "for the one you used last).")
@seed_option
@click.option("--limit", "-n", type=click.IntRange(min=1), default=None,
              help="Ask at most this many questions (default: until nothing is due).")
@click.option("--new", "new_per_day", type=click.IntRange(min=0, max=MOST_NEW), default=None,
              help="New items a day (default: 20; at most 9999).")
@click.option("--jsonl", is_flag=True, help="Machine mode: JSON question and grade lines.")
@click.option("--dry-run", is_flag=True,
              help="List what review would ask next, in that order (due items, then new ones; up to "
                   "--limit, else the first 30), and change nothing.")
@db_option
def command(ruleset: str | None, seed: int | None, limit: int | None, new_per_day: int | None,
            jsonl: bool, dry_run: bool) -> None:
    """The items that are due, those you got wrong first, then new ones up to the day's limit.

    Every answer reschedules its item (fsrs): wrong comes back in minutes, right but slower than the
    drill's target pace sooner than right in time. It starts with a header (due now, new today, the time
    it may take) and ends with a summary per drill: answered, right, and when each missed item comes back.
    """
    import time

    from trainer.core.rulesfile import load_ruleset
    from trainer.progress.review import NEW_PER_DAY

    rules = load_ruleset(ruleset) if ruleset else None
    new = NEW_PER_DAY if new_per_day is None else new_per_day
    if dry_run:
        _dry_run(rules, new, limit, time.time())
        return
    from trainer.practice.launch import open_store, rng_for, run_plan
    from trainer.progress.recap import review_header
    from trainer.progress.review import ReviewQueue

    use_chart_cache()  # the queue may ask strategy items
    with open_store(settings()) as store:
        queue = ReviewQueue(store, rng=rng_for(seed), ruleset=rules, limit=limit, new_per_day=new)
        header = review_header(store, now=time.time(), ruleset=rules.name if rules else None,
                               new_per_day=new, limit=limit)
        interactive = sys.stdin.isatty() and not jsonl
        summary = run_plan(queue.plan(), jsonl=jsonl, interactive=interactive, store=store,
                           header=header.line())
        if summary.answered == 0 and queue.served == 0:
            queue.notes.append(queue.nothing_to_do())
        for note in queue.notes:
            echo_fitted(note, err=jsonl)


def _dry_run(rules: Ruleset | None, new_per_day: int, limit: int | None, now: float) -> None:
    """The header and the questions `review` would ask next, in its order, read-only: the queue `review`
    builds (`ReviewQueue.upcoming`) on a read-only view; nothing is asked, recorded or created."""
    import random

    from trainer.core.errors import escaped
    from trainer.practice.launch import newest_backup
    from trainer.practice.session import Clock, ListRecorder
    from trainer.progress.items import drill_title, item_name
    from trainer.progress.recap import review_header
    from trainer.progress.review import ReviewQueue, describe_wait
    from trainer.storage.reader import ReadOnly, read_consistently

    ruleset = rules.name if rules else None
    shown = limit if limit is not None else DRY_RUN_SHOWN

    def read(view: object) -> tuple[str, list[str], int, list[str]]:
        assert isinstance(view, ReadOnly)
        header = review_header(view, now=now, ruleset=ruleset, new_per_day=new_per_day, limit=limit)
        queue = ReviewQueue(view, rng=random.Random(0), clock=Clock(now=lambda: now), ruleset=rules,
                            limit=limit, new_per_day=new_per_day, recorder=ListRecorder())
        upcoming = queue.upcoming(shown + 1)
        lines = []
        for number, entry in enumerate(upcoming[:shown], 1):
            where = f"{drill_title(entry.session.drill.name)}, {entry.session.ruleset.name}"
            what = item_name(entry.item) if entry.item else "a new question"
            due = entry.due
            if due is None:
                when = "new"
            elif not due.last_correct:
                when = "missed last time"
            else:
                when = "due now" if now - due.due_ts < 60 else f"overdue by {describe_wait(now - due.due_ts)}"
            line = f"{number:>4}. {what} — {where}: {when}"
            if len(line) > WIDTH:  # the drill, rule set and why on a line of their own
                line = f"{number:>4}. {what}\n{'':6}{where}: {when}"
            lines.append(escaped(line) if "\n" not in line else "\n".join(map(escaped, line.split("\n"))))
        left = header.due_now + header.new_today - len(lines) if len(upcoming) > shown else 0
        return header.line(), lines, left, [n for n in queue.notes if n.startswith("skipped")]

    found = read_consistently(settings().db_path, read, newest_backup=newest_backup(settings()))
    if found is None:
        click.echo("Review: nothing to review yet (no progress database): answer some drills first")
        return
    head, lines, left, notes = found
    click.echo(head)
    if not lines:
        click.echo("  nothing to ask now")
    for line in lines:
        click.echo(line)
    if left > 0:
        click.echo(f"  … then {left} more (--limit N lists more)")
    for note in notes:
        echo_fitted(escaped(f"  {note}"), indent="    ")
    click.echo("(dry run: nothing was asked or changed)")
