"""The review queue's reads, in plain `sqlite3`: the store (`review`) and the read-only view (`review
--dry-run`) ask the same questions of the same rows, so the queue one builds is the queue the other lists.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from trainer.progress.scheduling import ItemKey, ReviewItem, ReviewStage
from trainer.storage.due import due_filter

REVIEW_COLUMNS = ("drill", "item", "ruleset", "card", "due_ts", "standing", "first_ts", "last_ts",
                  "attempts", "correct", "last_correct")
REVIEW_SELECT = f"SELECT {', '.join(REVIEW_COLUMNS)} FROM review_items"


def review_item_of(row: sqlite3.Row | tuple[Any, ...]) -> ReviewItem:
    """A `review_items` row (`REVIEW_COLUMNS` order) as a `ReviewItem`."""
    drill, item, ruleset, card, due_ts, standing, first_ts, last_ts, attempts, correct, last_correct = row
    return ReviewItem(key=ItemKey(drill=drill, item=item, ruleset=ruleset), card=card, due_ts=due_ts,
                      standing=ReviewStage(standing), first_ts=first_ts, last_ts=last_ts, attempts=attempts,
                      correct=correct, last_correct=bool(last_correct))


def review_item(conn: sqlite3.Connection, key: ItemKey) -> ReviewItem | None:
    """One review item's schedule, or None if it was never answered."""
    row = conn.execute(f"{REVIEW_SELECT} WHERE drill = ? AND item = ? AND ruleset = ?",
                       (key.drill, key.item, key.ruleset)).fetchone()
    return None if row is None else review_item_of(row)


def due_items(conn: sqlite3.Connection, now: float, ruleset: str | None, limit: int) -> list[ReviewItem]:
    """Items due at `now` (`trainer.storage.due`): those last answered wrong first, then the longest
    overdue (ties by key, so that every reader gets the same rows in the same order)."""
    where, args = due_filter(now, ruleset)
    rows = conn.execute(f"{REVIEW_SELECT} WHERE {where} ORDER BY last_correct, due_ts, drill, item, ruleset "
                        "LIMIT ?", (*args, limit)).fetchall()
    return [review_item_of(row) for row in rows]


def next_due_ts(conn: sqlite3.Connection, ruleset: str | None) -> float | None:
    """When the next item falls due (None: no items yet)."""
    where, args = ("ruleset = ?", (ruleset,)) if ruleset else ("1", ())
    row = conn.execute(f"SELECT min(due_ts) FROM review_items WHERE {where}", args).fetchone()
    return None if row[0] is None else float(row[0])


def known_items(conn: sqlite3.Connection, drill: str, ruleset: str) -> set[str]:
    """The items of a drill under a rule set that have been answered at least once."""
    rows = conn.execute("SELECT item FROM review_items WHERE drill = ? AND ruleset = ?",
                        (drill, ruleset)).fetchall()
    return {row[0] for row in rows}


def latest_ruleset(conn: sqlite3.Connection) -> str | None:
    """The rule set of the most recent answer (review serves new items for it by default)."""
    row = conn.execute("SELECT ruleset FROM attempts ORDER BY id DESC LIMIT 1").fetchone()
    return None if row is None else str(row[0])
