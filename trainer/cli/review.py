"""`cutcard review`: the spaced-repetition queue, due items of every drill mixed, then new items."""

from __future__ import annotations

import sys

import click

from trainer.cli.common import db_option, seed_option, settings, use_chart_cache


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
@db_option
def command(ruleset: str | None, seed: int | None, limit: int | None, new_per_day: int | None,
            jsonl: bool) -> None:
    """The items that are due, those you got wrong first, then new ones up to the day's limit.

    Every answer reschedules its item (fsrs): wrong comes back in minutes, right but slower than the
    drill's target pace sooner than right in time.
    """
    from trainer.core.rulesfile import load_ruleset
    from trainer.review import NEW_PER_DAY, ReviewQueue
    from trainer.runs import open_store, rng_for, run_plan

    rules = load_ruleset(ruleset) if ruleset else None
    use_chart_cache()  # the queue may ask strategy items
    with open_store(settings()) as store:
        queue = ReviewQueue(store, rng=rng_for(seed), ruleset=rules, limit=limit,
                            new_per_day=NEW_PER_DAY if new_per_day is None else new_per_day)
        interactive = sys.stdin.isatty() and not jsonl
        summary = run_plan(queue.plan(), jsonl=jsonl, interactive=interactive)
        if summary.answered == 0 and queue.served == 0:
            queue.notes.append(queue.nothing_to_do())
        for note in queue.notes:
            click.echo(note, err=jsonl)
