"""`cutcard review`: the spaced-repetition queue, due items of every drill mixed, then new items."""

from __future__ import annotations

import sys

import click

from trainer.cli.common import db_option, echo_fitted, seed_option, settings, use_chart_cache

DRY_RUN_SHOWN = 30
"""Due items `--dry-run` lists one by one (the rest are counted)."""


@click.command("review")
@click.option("--ruleset", "-r", "ruleset", default=None, metavar="NAME|PATH",
              help="Only this rule set's items, and new items for it (default: every rule set; new items "
                   "for the one you used last).")
@seed_option
@click.option("--limit", "-n", type=click.IntRange(min=1), default=None,
              help="Ask at most this many questions (default: until nothing is due).")
@click.option("--new", "new_per_day", type=click.IntRange(min=0), default=None,
              help="New items a day (default: 20).")
@click.option("--jsonl", is_flag=True, help="Machine mode: JSON question and grade lines.")
@click.option("--dry-run", is_flag=True,
              help="Show what is due, in the order it would be asked, and change nothing.")
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
        _dry_run(rules.name if rules else None, new, limit, time.time())
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


def _dry_run(ruleset: str | None, new_per_day: int, limit: int | None, now: float) -> None:
    """The header and the due items in words, read-only: nothing is asked, recorded or created."""
    from trainer.practice.launch import newest_backup
    from trainer.progress.items import drill_title, item_name
    from trainer.progress.recap import review_header
    from trainer.progress.review import describe_wait
    from trainer.storage.reader import read_consistently

    def read(view: object) -> tuple[str, list[str], int]:
        from trainer.storage.reader import ReadOnly

        assert isinstance(view, ReadOnly)
        header = review_header(view, now=now, ruleset=ruleset, new_per_day=new_per_day, limit=limit)
        entries = view.due_entries(now, ruleset=ruleset, limit=min(limit or DRY_RUN_SHOWN, DRY_RUN_SHOWN))
        lines = []
        for e in entries:
            when = "missed last time" if not e.last_correct else (
                "due now" if now - e.due_ts < 60 else f"overdue by {describe_wait(now - e.due_ts)}")
            lines.append(f"  {item_name(e.item)} — {drill_title(e.drill)}, {e.ruleset}: {when}")
        return header.line(), lines, header.due_now

    found = read_consistently(settings().db_path, read, newest_backup=newest_backup(settings()))
    if found is None:
        click.echo("Review: nothing to review yet (no progress database): answer some drills first")
        return
    head, lines, due = found
    echo_fitted(head)
    for line in lines:
        echo_fitted(line, indent="    ")
    if due > len(lines):
        click.echo(f"  … and {due - len(lines)} more due")
    click.echo("(dry run: nothing was asked or changed)")
