"""Where a drill's practice should go: the learner's answers per item, read from the progress database.

The strategy drill asks the chart cells a learner gets wrong more often
(`drills.strategy.basic.focus_weights`); this reads each cell's answers and right answers under the
rule set being drilled, as one aggregate query.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from drills.strategy.basic import focus_weights

if TYPE_CHECKING:
    from trainer.storage import Store


def strategy_weights(store: Store, ruleset: str) -> dict[str, float]:
    """Item ('strategy:hard 16 vs 10') -> how much more often to ask it, from its answers under `ruleset`."""
    tallies = store.figures.item_tallies(item_prefix="strategy:")
    return focus_weights((t.key.item, t.attempts, t.correct) for t in tallies
                         if t.key.drill == "strategy" and t.key.ruleset == ruleset)


def best_pace(store: Store, drill: str) -> float | None:
    """The learner's fastest exact answer of a drill timed per deck (countdown, speed-count), in seconds
    per 52 cards shown, over all their history; None before the first."""
    weeks = store.figures.counting_pace(drill, date.today(), None, weeks=100_000)
    return min((week.best for week in weeks), default=None)
