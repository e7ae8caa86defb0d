"""The textbook multi-deck basic strategy (S17, DAS, late surrender) as chart letters.

The simulator's fixed strategy, independent of the exact engine: the cross-check between the fast
engine and the `Round` state machine plays it (any strategy would do, as long as both engines play the
same one), and so does `bench/sim.py`. It is the Normal computer seat's printed card,
`trainer.strategy.play.GENERIC_CHART`; `cutcard sim` itself always plays the exact chart of the rule set.
"""

from __future__ import annotations

from trainer.sim.plays import Lookup
from trainer.strategy.play import GENERIC_CHART

textbook: Lookup = GENERIC_CHART.lookup
"""The textbook letter for a chart cell: `textbook("hard", 16, 10)` is 'Rh'."""
