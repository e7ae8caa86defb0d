"""The progress database (DESIGN §8): the only package that speaks SQL.

`Store` keeps every graded answer and the review schedule (sqlite-utils, migrations on open);
`store.figures` answers the stats queries. Reading alone goes through `trainer.storage.reader`, which
opens the file read-only with plain `sqlite3`: so this package's names are loaded on first use, and
importing the reader does not load sqlite-utils (and numpy) behind it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trainer.storage.figures import AnswerTally, DayTally, Figures, ItemTally, PaceWeek, WeekTally
    from trainer.storage.schema import SCHEMA_VERSION
    from trainer.storage.store import Store, StoredAttempt

_HOMES = {"DayTally": "figures", "Figures": "figures", "ItemTally": "figures", "PaceWeek": "figures",
          "AnswerTally": "figures", "WeekTally": "figures", "SCHEMA_VERSION": "schema", "Store": "store",
          "StoredAttempt": "store"}

__all__ = [
    "SCHEMA_VERSION",
    "AnswerTally",
    "DayTally",
    "Figures",
    "ItemTally",
    "PaceWeek",
    "Store",
    "StoredAttempt",
    "WeekTally",
]


def __getattr__(name: str) -> Any:
    """`from trainer.storage import Store` loads the store (and sqlite-utils) only then."""
    if name not in _HOMES:
        raise AttributeError(f"module 'trainer.storage' has no attribute {name!r}")
    return getattr(importlib.import_module(f"trainer.storage.{_HOMES[name]}"), name)
