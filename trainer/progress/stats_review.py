"""The review picture of `cutcard stats`, like Anki's: reviews per day (the last 30 days and the next 30),
the true retention of reviews, how long items wait between reviews, and where items stand.

Day 0 of the forecast is THE due count (`trainer.storage.due.count_due`), the same the toolbar, the
stats header and `review`'s header show; items falling due later today are counted apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING

from trainer.progress.days import day_start

if TYPE_CHECKING:
    from trainer.storage.reader import ReadOnly

HISTORY_DAYS = 30
FORECAST_DAYS = 30
RETENTION_DAYS = (7, 30)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewDay:
    """Answers given in `cutcard review` on one day, and how many were right."""

    day: date
    answers: int
    right: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ForecastDay:
    """Items due on a day; day 0 is what is due now."""

    day: date
    due: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Retention:
    """Of the answers given in reviews over a window, the share that were right (Anki's true retention)."""

    label: str
    answers: int
    right: int
    rate: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewPicture:
    history: tuple[ReviewDay, ...]
    forecast: tuple[ForecastDay, ...]
    later_today: int
    """Items not due now that fall due before today ends (not in day 0)."""
    retention: tuple[Retention, ...]
    intervals: tuple[tuple[str, int], ...]
    """(bucket, items) of the wait from an item's last answer to its next review."""
    median_stability_days: float | None
    standings: dict[str, int]


def build_review_picture(view: ReadOnly, *, now: float, today: date) -> ReviewPicture:
    progress = view.progress
    first = today - timedelta(days=HISTORY_DAYS - 1)
    past = {day: (n, right) for day, n, right in progress.review_days(day_start(first))}
    history = tuple(ReviewDay(day=d, answers=past.get(d, (0, 0))[0], right=past.get(d, (0, 0))[1])
                    for d in (first + timedelta(days=i) for i in range(HISTORY_DAYS)))
    due_now, upcoming = progress.forecast(now, today, day_start(today + timedelta(days=FORECAST_DAYS + 1)))
    later = dict(upcoming)
    forecast = (ForecastDay(day=today, due=due_now), *(
        ForecastDay(day=today + timedelta(days=i), due=later.get(today + timedelta(days=i), 0))
        for i in range(1, FORECAST_DAYS + 1)))
    retention = []
    for label, days in [(f"{d}d", d) for d in RETENTION_DAYS] + [("all", None)]:
        since = None if days is None else day_start(today - timedelta(days=days - 1))
        answers, right = progress.review_totals(since)
        retention.append(Retention(label=label, answers=answers, right=right,
                                   rate=right / answers if answers else None))
    spread, stability = progress.intervals()
    return ReviewPicture(history=history, forecast=forecast, later_today=later.get(today, 0),
                         retention=tuple(retention), intervals=tuple(spread),
                         median_stability_days=stability, standings=progress.standings())
