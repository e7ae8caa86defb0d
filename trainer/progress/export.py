"""Every recorded attempt as CSV or JSON (`cutcard export`), streamed so a large history fits anywhere;
and the journal of real play (`cutcard export --journal`) in the same two formats.

Both formats carry the same fields: the attempt's row id, its session, the UTC time as epoch seconds and
as ISO 8601, the drill, item and rule set, the prompt and its data, the expected and given answers,
whether it was right, the answer time, the drill's target pace, where it was given (`source`:
`drill`, `review` or `play`), and whose pace the answer time is (`pace`: `learner`, `program`, `script`
or `unknown`, `trainer.practice.session.PACES`).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import IO, Any

from trainer.core.errors import InvalidInputError
from trainer.planning.journal import JournalEntry
from trainer.practice.session import Attempt

FORMATS = ("csv", "json")
FIELDS = ("id", "session_id", "ts", "time_utc", "drill", "item", "ruleset", "prompt", "data", "expected",
          "given", "correct", "latency_ms", "target_ms", "verdict", "source", "pace",
          "distracted")


def attempt_record(row_id: int, attempt: Attempt) -> dict[str, Any]:
    """One attempt as an export record, fields in `FIELDS` order."""
    return {
        "id": row_id,
        "session_id": attempt.session_id,
        "ts": attempt.ts,
        "time_utc": datetime.fromtimestamp(attempt.ts, tz=UTC).isoformat(timespec="milliseconds"),
        "drill": attempt.drill,
        "item": attempt.item,
        "ruleset": attempt.ruleset,
        "prompt": attempt.prompt,
        "data": dict(attempt.data),
        "expected": attempt.expected,
        "given": attempt.given,
        "correct": attempt.correct,
        "latency_ms": attempt.latency_ms,
        "target_ms": attempt.target_ms,
        "verdict": attempt.verdict,
        "source": attempt.source,
        "pace": attempt.pace,
        "distracted": attempt.distracted,
    }


def write_attempts(records: Iterable[tuple[int, Attempt]], out: IO[str], fmt: str) -> int:
    """Write the attempts to `out` as `fmt` (csv: `data` as a JSON string, `correct` as 1/0); count them."""
    if fmt not in FORMATS:
        raise InvalidInputError(f"export format {fmt!r}: expected one of {', '.join(FORMATS)}")
    written = 0
    if fmt == "csv":
        writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        for row_id, attempt in records:
            record = attempt_record(row_id, attempt)
            record["data"] = json.dumps(record["data"], ensure_ascii=False, sort_keys=True)
            record["correct"] = int(record["correct"])
            record["distracted"] = int(record["distracted"])
            writer.writerow(record)
            written += 1
        return written
    out.write("[")
    for row_id, attempt in records:
        out.write(",\n " if written else "\n ")
        out.write(json.dumps(attempt_record(row_id, attempt), ensure_ascii=False, default=str))
        written += 1
    out.write("\n]\n" if written else "]\n")
    return written


JOURNAL_FIELDS = ("id", "date", "hours", "rounds", "result", "ramp", "note", "plan_id", "plan_ev_per_round",
                  "plan_sd_per_round", "plan_bankroll", "expected", "recorded_utc")
"""A journal session's export fields: its own, then the plan figures it was logged under (empty: none)."""


def journal_record(entry: JournalEntry) -> dict[str, Any]:
    """One session of the journal as an export record, fields in `JOURNAL_FIELDS` order; the result is a
    decimal string (exact money)."""
    planned = entry.planned
    return {
        "id": entry.id,
        "date": entry.day.isoformat(),
        "hours": entry.hours,
        "rounds": entry.rounds,
        "result": str(entry.result),
        "ramp": entry.ramp,
        "note": entry.note,
        "plan_id": None if planned is None else planned.plan_id,
        "plan_ev_per_round": None if planned is None else planned.ev_per_round,
        "plan_sd_per_round": None if planned is None else planned.sd_per_round,
        "plan_bankroll": None if planned is None else planned.bankroll,
        "expected": entry.expected,
        "recorded_utc": datetime.fromtimestamp(entry.recorded_ts, tz=UTC).isoformat(timespec="seconds"),
    }


def write_journal(entries: Iterable[JournalEntry], out: IO[str], fmt: str) -> int:
    """Write the journal's sessions to `out` as `fmt` (csv: a missing figure is an empty cell); count them."""
    if fmt not in FORMATS:
        raise InvalidInputError(f"export format {fmt!r}: expected one of {', '.join(FORMATS)}")
    records = [journal_record(entry) for entry in entries]
    if fmt == "csv":
        writer = csv.DictWriter(out, fieldnames=JOURNAL_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(records)
    else:
        json.dump(records, out, ensure_ascii=False, indent=1)
        out.write("\n")
    return len(records)
