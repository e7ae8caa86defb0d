"""The progress database (DESIGN §8): the only package that speaks SQL.

`Store` keeps every graded answer and the review schedule; `store.figures` answers the stats queries.
"""

from __future__ import annotations

from trainer.storage.figures import DayTally, Figures, ItemTally, PaceWeek, Tally, WeekTally
from trainer.storage.schema import SCHEMA_VERSION
from trainer.storage.store import Store, StoredAttempt

__all__ = ["SCHEMA_VERSION", "DayTally", "Figures", "ItemTally", "PaceWeek", "Store", "StoredAttempt",
           "Tally", "WeekTally"]
