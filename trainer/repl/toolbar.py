"""The REPL's bottom toolbar: rule set, count system, reviews due and this session's accuracy.

The facts are read once after each command (`read_facts`), never while the prompt redraws; drawing
them (`toolbar_fragments`) is pure. Reviews due come from `trainer.review.due_count` and are shown
only when that module is installed: the toolbar never shows a number nobody computed.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prompt_toolkit.formatted_text import FormattedText

from trainer.core.errors import TrainerError
from trainer.repl.prefs import DEFAULT_RULESET, DEFAULT_SYSTEM, Prefs


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolbarFacts:
    """What the toolbar shows."""

    ruleset: str
    system: str
    due: int | None = None
    """Review items due now; None when the review queue is not installed or the database is unusable."""
    answered: int = 0
    right: int = 0
    """Answers given since the REPL started, and how many were right."""


def toolbar_fragments(facts: ToolbarFacts) -> FormattedText:
    """The toolbar as formatted text: ` casino · hi-lo · 3 due · 17/20 right (85%) `."""
    parts = FormattedText([("class:toolbar.key", " rules "), ("class:toolbar", f"{_short(facts.ruleset)} "),
                        ("class:toolbar.key", " count "), ("class:toolbar", f"{_short(facts.system)} ")])
    if facts.due is not None:
        parts += [("class:toolbar.key", " due "), ("class:toolbar", f"{facts.due} ")]
    if facts.answered:
        share = round(100 * facts.right / facts.answered)
        parts += [("class:toolbar.key", " this session "),
                  ("class:toolbar", f"{facts.right}/{facts.answered} right ({share}%) ")]
    else:
        parts += [("class:toolbar.key", " this session "), ("class:toolbar", "no answers yet ")]
    parts.append(("class:toolbar.muted", "  help · Tab · Ctrl-D leaves"))
    return parts


def _short(ruleset: str) -> str:
    """A user's rule-set or count-system file by its name, a built-in by its own."""
    return Path(ruleset).name if "/" in ruleset else ruleset


def read_facts(prefs: Prefs, db_path: Path, since: float, now: float | None = None) -> ToolbarFacts:
    """Read the facts from the settings and the progress database (which is never created here)."""
    facts = ToolbarFacts(ruleset=prefs.ruleset or DEFAULT_RULESET, system=prefs.system or DEFAULT_SYSTEM)
    review = _review_module()
    if not db_path.exists():
        return ToolbarFacts(ruleset=facts.ruleset, system=facts.system, due=0 if review else None)
    try:
        from trainer.runs import open_store

        with open_store(_Path(db_path)) as store:
            row = store.db.execute(
                "SELECT COUNT(*), COALESCE(SUM(correct), 0) FROM attempts WHERE ts >= ?", [since]
            ).fetchone()
            when = time.time() if now is None else now
            due = None if review is None else int(review.due_count(store, when))
    except TrainerError:
        return facts
    return ToolbarFacts(ruleset=facts.ruleset, system=facts.system, due=due,
                        answered=int(row[0]), right=int(row[1]))


def _review_module() -> Any | None:
    """`trainer.review` once the review queue is installed (issue 6), else None."""
    try:
        return importlib.import_module("trainer.review")
    except ModuleNotFoundError as e:
        if e.name in ("trainer.review", "trainer"):
            return None
        raise


@dataclass(frozen=True, slots=True)
class _Path:
    """The one attribute `open_store` reads."""

    db_path: Path
