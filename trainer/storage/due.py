"""What is due for review now: the one definition that the toolbar, `stats`, its forecast and `review` use.

An item is due when fsrs says so (`due_ts <= now`) or when its last answer was wrong: a miss stays in the
queue until it is answered right (fsrs would hold it back for its 1-10 minute relearning step, so a
review started right after a drill would skip exactly what was just missed); after a right answer fsrs
alone decides when it comes back. Plain `sqlite3`, so the read-only path shares it with the store.
"""

from __future__ import annotations

import sqlite3
from typing import Any

DUE = "(due_ts <= ? OR last_correct = 0)"


def due_filter(now: float, ruleset: str | None = None) -> tuple[str, tuple[Any, ...]]:
    """The SQL condition on `review_items` for "due at `now`" (of one rule set, or all), and its arguments."""
    if ruleset is None:
        return DUE, (now,)
    return f"{DUE} AND ruleset = ?", (now, ruleset)


def count_due(conn: sqlite3.Connection, now: float, ruleset: str | None = None) -> int:
    """How many review items are due at `now`: THE due count (see the module's docstring)."""
    where, args = due_filter(now, ruleset)
    return int(conn.execute(f"SELECT count(*) FROM review_items WHERE {where}", args).fetchone()[0])
