"""The journal of real play as the progress database keeps it (table `journal`, migration 0006).

Results are kept as decimal strings (exact money); the plan figures of a session, all or none. A
database from before the journal (read without migrating, `trainer.storage.reader`) has no sessions.
"""

from __future__ import annotations

import sqlite3
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from trainer.planning.journal import JournalEntry, PlannedFigures
from trainer.storage.guard import guarded

COLUMNS = ("day", "hours", "rounds", "result", "ramp", "note", "plan_id", "plan_ev", "plan_sd",
           "plan_bankroll", "recorded_ts")
INSERT_ENTRY = f"INSERT INTO journal ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})"


def entry_row(entry: JournalEntry) -> tuple[Any, ...]:
    """A session as the values of a `journal` row, in `COLUMNS` order."""
    planned = entry.planned
    return (entry.day.isoformat(), entry.hours, entry.rounds, str(entry.result), entry.ramp, entry.note,
            None if planned is None else planned.plan_id, None if planned is None else planned.ev_per_round,
            None if planned is None else planned.sd_per_round, None if planned is None else planned.bankroll,
            entry.recorded_ts)


def insert_entry(conn: sqlite3.Connection, entry: JournalEntry) -> int:
    """Add a session (inside the caller's write transaction); its number in the journal."""
    cursor = conn.execute(INSERT_ENTRY, entry_row(entry))
    assert cursor.lastrowid is not None
    return int(cursor.lastrowid)


def _entry(row: tuple[Any, ...]) -> JournalEntry:
    (row_id, day, hours, rounds, result, ramp, note, plan_id, plan_ev, plan_sd, plan_bankroll,
     recorded_ts) = row
    planned = (None if plan_id is None else
               PlannedFigures(plan_id=plan_id, ev_per_round=plan_ev, sd_per_round=plan_sd,
                              bankroll=plan_bankroll))
    return JournalEntry(id=row_id, day=date.fromisoformat(day), hours=hours, rounds=rounds,
                        result=Decimal(result), ramp=ramp, note=note, planned=planned,
                        recorded_ts=recorded_ts)


def read_entries(conn: sqlite3.Connection, path: Path) -> list[JournalEntry]:
    """Every session of the journal, by date and then in the order logged ([] before the journal)."""
    with guarded(path, "read the journal"):
        found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal'")
        if found.fetchone() is None:
            return []
        rows = conn.execute(f"SELECT id, {', '.join(COLUMNS)} FROM journal ORDER BY day, id").fetchall()
    return [_entry(tuple(row)) for row in rows]
