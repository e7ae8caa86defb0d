"""Local calendar days of UTC timestamps: the unit of the activity heatmap, the daily new-item limit and
the review forecast.

Times are stored as UTC epoch seconds; a learner's "day" is their own local calendar day, as in Anki.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta


def local_day(ts: float) -> date:
    """The local calendar day of a UTC epoch time."""
    return datetime.fromtimestamp(ts).date()


def day_start(day: date) -> float:
    """The UTC epoch time at which a local calendar day begins."""
    return datetime(day.year, day.month, day.day).timestamp()


def week_start(day: date) -> date:
    """The Monday of the week holding `day` (the heatmap's columns are weeks).

    >>> week_start(date(2024, 5, 19)).isoformat()
    '2024-05-13'
    """
    return day - timedelta(days=day.weekday())
