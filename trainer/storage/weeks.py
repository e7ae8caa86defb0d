"""The weekly roll-up (`week_times`) read once and grouped in Python: the weekly charts per skill or drill,
their totals over the weeks shown, and the split by source, from one indexed read.

Each row counts one week's answers of a drill, item family and source in one 100 ms band of answer time;
a group's median is the middle of the band its middle answer falls in (good to 0.1 s), as
`ProgressFigures.weekly` computes it in SQL. `ProgressFigures.weeks_from` gives this view, or for a
database without the roll-up (schema 2, read as it is) one that asks those SQL queries instead.
"""

from __future__ import annotations

import itertools
import sqlite3
from datetime import date, timedelta
from pathlib import Path
from typing import Protocol

from trainer.progress.items import SKILLS
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
        self._counted: dict[tuple[str, str], dict[tuple[str, str, int], list[int]]] = {}
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
        counts = self._counts(what, self._from(first_week))
        if not by_week:  # the weeks together: from the weeks' counts (fewer than the rows)
            together: dict[tuple[str, str, int], list[int]] = {}
            for (name, _week, bucket), (n, right) in counts.items():
                merged = together.get((name, "", bucket))
                if merged is None:
                    together[name, "", bucket] = [n, right]
                else:
                    merged[0] += n
                    merged[1] += right
            counts = together
        found = []
        for key, bands in itertools.groupby(sorted(counts.items()), key=lambda kv: kv[0][:2]):
            values = [(bucket * TIME_BUCKET_MS + TIME_BUCKET_MS // 2, n, right)  # the middle of the band
                      for (_name, _week, bucket), (n, right) in bands]
            total = sum(n for _v, n, _r in values)
            found.append(Group(key=key, attempts=total, correct=sum(r for _v, _n, r in values),
                               median_ms=middle_of(values, total)))
        return found

    def _counts(self, what: str, first: str) -> dict[tuple[str, str, int], list[int]]:
        """(name, Monday, band) -> [answers, right] from the Monday `first` on, counted once per `what`."""
        found = self._counted.get((what, first))
        if found is not None:
            return found
        found = {}
        column = _KEY_COLUMN[what]
        for week, drill, family, source, bucket, n, right in self.rows:
            if week < first:
                continue
            name = drill if column == 1 else source if column == 3 else SKILLS.get(family, family)
            counts = found.get((name, week, bucket))
            if counts is None:
                found[name, week, bucket] = [n, right]
            else:
                counts[0] += n
                counts[1] += right
        self._counted[what, first] = found
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
