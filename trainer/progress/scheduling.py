"""What one answer does to a review item's schedule: the fsrs rating and the next due time (DESIGN §8).

Pure functions over frozen values, so the store can reschedule an item inside the very transaction that
records the answer. A review item is one thing a drill asks about under one rule set (a strategy cell
depends on the rules), identified by (drill, item, ruleset).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from fsrs import Card, Rating, Scheduler, State

from trainer.practice.session import Attempt
from trainer.progress.items import ItemKey as ItemKey  # re-exported: its home is trainer.progress.items

SCHEDULER = Scheduler(enable_fuzzing=False)
"""fsrs with its default weights; no fuzz, so `--seed` runs and tests schedule reproducibly."""


class ReviewStage(enum.StrEnum):
    """Where an item is in fsrs's cycle: being learnt, in long-term review, or relearnt after a miss."""

    LEARNING = "learning"
    REVIEW = "review"
    RELEARNING = "relearning"


_STANDING = {State.Learning: ReviewStage.LEARNING, State.Review: ReviewStage.REVIEW,
             State.Relearning: ReviewStage.RELEARNING}


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewItem:
    """One review item's schedule and record, as the `review_items` table keeps it."""

    key: ItemKey
    card: str
    """The fsrs `Card` as JSON (stability, difficulty, step, due, last review)."""
    due_ts: float
    standing: ReviewStage
    first_ts: float
    """When the item was first answered: the daily limit on new items counts these."""
    last_ts: float
    attempts: int
    correct: int
    last_correct: bool

    @property
    def accuracy(self) -> float:
        return self.correct / self.attempts if self.attempts else 0.0


def rating_for(*, correct: bool, latency_ms: int, target_ms: int | None) -> Rating:
    """Wrong is Again; right is Good, or Hard when slower than the drill's target pace.

    >>> rating_for(correct=False, latency_ms=100, target_ms=2000).name
    'Again'
    >>> rating_for(correct=True, latency_ms=2500, target_ms=2000).name
    'Hard'
    >>> rating_for(correct=True, latency_ms=2500, target_ms=None).name
    'Good'
    """
    if not correct:
        return Rating.Again
    if target_ms is not None and latency_ms > target_ms:
        return Rating.Hard
    return Rating.Good


def _utc(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, tz=UTC)


def schedule_answer(previous: ReviewItem | None, attempt: Attempt) -> ReviewItem:
    """The item's schedule after `attempt` (a first answer makes a new fsrs card)."""
    rating = rating_for(correct=attempt.correct, latency_ms=attempt.latency_ms, target_ms=attempt.target_ms)
    when = _utc(attempt.ts)
    if previous is None:
        card = Card(card_id=int(attempt.ts * 1000), due=when)
    else:
        card = Card.from_json(previous.card)
    card, _log = SCHEDULER.review_card(card, rating, review_datetime=when, review_duration=attempt.latency_ms)
    due_ts = card.due.timestamp()
    if previous is None:
        return ReviewItem(
            key=ItemKey(drill=attempt.drill, item=attempt.item, ruleset=attempt.ruleset),
            card=card.to_json(), due_ts=due_ts, standing=_STANDING[card.state], first_ts=attempt.ts,
            last_ts=attempt.ts, attempts=1, correct=int(attempt.correct), last_correct=attempt.correct,
        )
    return replace(
        previous, card=card.to_json(), due_ts=due_ts, standing=_STANDING[card.state],
        last_ts=attempt.ts, attempts=previous.attempts + 1,
        correct=previous.correct + int(attempt.correct),
        last_correct=attempt.correct,
    )
