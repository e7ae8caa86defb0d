"""The weekly roll-up (`week_times`) read once and grouped in Python: the weekly charts per skill or drill,
their totals over the weeks shown, and the split by source, from one indexed read.

Each row counts one week's answers of a drill, item family and source in one 100 ms band of answer time;
a group's median is the middle of the band its middle answer falls in (good to 0.1 s), as
`ProgressFigures.weekly` computes it in SQL. `ProgressFigures.weeks_from` gives this view, or for a
database without the roll-up (schema 2, read as it is) one that asks those SQL queries instead.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from pathlib import Path
from typing import Protocol

from trainer.items import SKILLS
from trainer.storage.guard import guarded
from trainer.storage.medians import TIME_BUCKET_MS, Group, middle_of

_KEY_COLUMN = {"drill": 1, "skill": 2, "source": 3}


class WeeklyFigures(Protocol):
    """Weekly groups of answers from some first week on (`ProgressFigures.weeks_from`)."""

    def weekly(self, what: str, first_week: date, *, by_week: bool = True) -> list[Group]: ...

    def weekly_split(self, first_week: date) -> list[Group]: ...


def monday(day: date) -> str:
    return (day - timedelta(days=day.weekday())).isoformat()


class WeekRows:
    """The roll-up's rows from one Monday on; asked for groups from that week or a later one."""

    def __init__(self, conn: sqlite3.Connection, path: Path, first_week: date) -> None:
        self.first = monday(first_week)
        with guarded(path, "read the weekly figures"):
            self.rows: list[tuple[str, str, str, str, int, int, int]] = conn.execute(
                "SELECT week, drill, family, source, bucket, answers, correct FROM week_times "
                "WHERE week >= ?", (self.first,)).fetchall()

    def _from(self, first_week: date) -> str:
        first = monday(first_week)
        if first < self.first:
            raise ValueError(f"the weekly rows were read from {self.first}, not {first}")
        return first

    def weekly(self, what: str, first_week: date, *, by_week: bool = True) -> list[Group]:
        """Per `what` ("drill", "skill" or "source") and week from the week of `first_week`: answers,
        right and the median answer time to 0.1 s; key (name, Monday), or (name, "") not `by_week`."""
        first = self._from(first_week)
        column = _KEY_COLUMN[what]
        bands: dict[tuple[str, str], dict[int, list[int]]] = {}
        for row in self.rows:
            week = row[0]
            if week < first:
                continue
            name = row[1] if column == 1 else row[3] if column == 3 else SKILLS.get(row[2], row[2])
            group = bands.setdefault((name, week if by_week else ""), {})
            counts = group.get(row[4])
            if counts is None:
                group[row[4]] = [row[5], row[6]]
            else:
                counts[0] += row[5]
                counts[1] += row[6]
        found = []
        for key in sorted(bands):
            group = bands[key]
            values = [(bucket * TIME_BUCKET_MS + TIME_BUCKET_MS // 2, n, right)  # the middle of the band
                      for bucket, (n, right) in sorted(group.items())]
            total = sum(n for _v, n, _r in values)
            found.append(Group(key=key, attempts=total, correct=sum(r for _v, _n, r in values),
                               median_ms=middle_of(values, total)))
        return found

    def weekly_split(self, first_week: date) -> list[Group]:
        """Per source and drill from the week of `first_week`: answers, right (no medians)."""
        first = self._from(first_week)
        totals: dict[tuple[str, str], list[int]] = {}
        for week, drill, _family, source, _bucket, n, right in self.rows:
            if week >= first:
                counts = totals.setdefault((source, drill), [0, 0])
                counts[0] += n
                counts[1] += right
        return [Group(key=key, attempts=n, correct=right, median_ms=None)
                for key, (n, right) in sorted(totals.items())]
