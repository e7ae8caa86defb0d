"""The weekly roll-up (`week_times`) read once and grouped in Python: the weekly charts per skill or drill,
their totals over the weeks shown, and the split by source, from one indexed read.

Each row counts one week's answers of a drill, item family and source in one 100 ms band of answer time
(answers whose time is not the learner's own in `UNTIMED_BUCKET`: their accuracy counts, their time not);
a group's median is the middle of the band its middle answer falls in (good to 0.1 s), as
`ProgressFigures.weekly` computes it in SQL. `ProgressFigures.weeks_from` gives this view.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from pathlib import Path
from typing import Protocol

from trainer.progress.items import SKILLS
from trainer.storage.guard import guarded
from trainer.storage.medians import TIME_BUCKET_MS, UNTIMED_BUCKET, Group

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
        self._counted: dict[tuple[str, str, bool], dict[tuple[str, str], dict[int, list[int]]]] = {}
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
        found = []
        for key, bands in sorted(self._counts(what, self._from(first_week), by_week).items()):
            buckets = sorted(bands)
            total = right = 0
            for bucket in buckets:
                n_r = bands[bucket]
                total += n_r[0]
                right += n_r[1]
            untimed = bands.get(UNTIMED_BUCKET)
            timed = [b for b in buckets if b != UNTIMED_BUCKET]
            found.append(Group(key=key, attempts=total, correct=right,
                               median_ms=_middle_band(timed, bands, total - (untimed[0] if untimed else 0))))
        return found

    def _counts(self, what: str, first: str, by_week: bool) -> dict[tuple[str, str], dict[int, list[int]]]:
        """(name, Monday or "") -> band -> [answers, right] from the Monday `first` on, counted once per
        grouping, in one pass over the rows."""
        found = self._counted.get((what, first, by_week))
        if found is not None:
            return found
        found = {}
        weekly = self._counted.get((what, first, True))
        if not by_week and weekly is not None:  # the weeks already counted, merged (fewer than the rows)
            for (name, _week), week_bands in weekly.items():
                merged = found.get((name, ""))
                if merged is None:
                    found[name, ""] = {bucket: list(n_r) for bucket, n_r in week_bands.items()}
                    continue
                for bucket, (n, right) in week_bands.items():
                    counts = merged.get(bucket)
                    if counts is None:
                        merged[bucket] = [n, right]
                    else:
                        counts[0] += n
                        counts[1] += right
            self._counted[what, first, by_week] = found
            return found
        column = _KEY_COLUMN[what]
        skills = SKILLS
        for row in self.rows:
            week = row[0]
            if week < first:
                continue
            name = row[1] if column == 1 else row[3] if column == 3 else skills.get(row[2], row[2])
            key = (name, week if by_week else "")
            bands = found.get(key)
            if bands is None:
                bands = found[key] = {}
            counts = bands.get(row[4])
            if counts is None:
                bands[row[4]] = [row[5], row[6]]
            else:
                counts[0] += row[5]
                counts[1] += row[6]
        self._counted[what, first, by_week] = found
        return found

    def weekly_split(self, first_week: date) -> list[Group]:
        """Per source and drill from the week of `first_week`: answers, right (no medians)."""
        first = self._from(first_week)
        totals: dict[tuple[str, str], list[int]] = {}
        for week, drill, _family, source, _bucket, n, right in self.rows:
            if week >= first:
                counts = totals.get((source, drill))
                if counts is None:
                    totals[source, drill] = [n, right]
                else:
                    counts[0] += n
                    counts[1] += right
        return [Group(key=key, attempts=n, correct=right, median_ms=None)
                for key, (n, right) in sorted(totals.items())]


def _middle_band(buckets: list[int], bands: dict[int, list[int]], total: int) -> float | None:
    """The median of `total` answers counted per band (`buckets` in order): the middle of the band (or
    the mean of the middles of the two bands) holding the middle rank(s), as `middle_of` reads it.

    >>> _middle_band([0, 3], {0: [1, 1], 3: [1, 0]}, 2)
    200.0
    """
    if total == 0:
        return None
    low_rank, high_rank = (total + 1) // 2, total // 2 + 1
    middle = TIME_BUCKET_MS // 2
    seen = 0
    low = -1
    for bucket in buckets:
        seen += bands[bucket][0]
        if low < 0 and seen >= low_rank:
            low = bucket
        if seen >= high_rank:  # high_rank >= low_rank: `low` is found by now
            return (float(low * TIME_BUCKET_MS + middle) + float(bucket * TIME_BUCKET_MS + middle)) / 2
    raise ValueError("the bands hold fewer answers than their total")
