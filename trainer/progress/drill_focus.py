"""Where a drill's practice should go: the learner's answers per item, read from the progress database.

The strategy drill asks the chart cells a learner gets wrong more often
(`drills.strategy.basic.focus_weights`); this reads each cell's answers and right answers under the rule set
being drilled, as one aggregate query. A countdown beats the learner's own best, read here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drills.strategy.basic import focus_weights

if TYPE_CHECKING:
    from trainer.storage import Store


def strategy_weights(store: Store, ruleset: str) -> dict[str, float]:
    """Item ('strategy:hard 16 vs 10') -> how much more often to ask it, from its answers under `ruleset`."""
    tallies = store.figures.item_tallies(item_prefix="strategy:")
    return focus_weights((t.key.item, t.attempts, t.correct) for t in tallies
                         if t.key.drill == "strategy" and t.key.ruleset == ruleset)


def prepare_bests(drill: object, store: Store) -> None:
    """Give a drill timed per deck (the countdown) the learner's bests from their history: at their own
    pace only, per item and cards per flash (`Figures.best_deck_seconds`)."""
    set_lookup = getattr(drill, "set_best_lookup", None)
    if callable(set_lookup):
        name = str(getattr(drill, "name", ""))
        set_lookup(lambda item, per_flash: store.figures.best_deck_seconds(name, item, per_flash))
