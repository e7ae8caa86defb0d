"""The REPL's bottom toolbar: rule set, count system, reviews due and this session's accuracy.

The facts are read from the progress database (`read_facts`) between commands, never while the prompt
redraws; drawing them (`toolbar_fragments`) is pure. Reading them imports the storage layer (sqlite-utils
brings numpy), which takes longer than the prompt should wait, so the REPL reads the first facts on a
background thread: until they are in, the toolbar shows the settings alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from prompt_toolkit.formatted_text import FormattedText

from trainer.cli.common import DEFAULT_RULESET, DEFAULT_SYSTEM
from trainer.core.errors import TrainerError
from trainer.repl.prefs import Prefs


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolbarFacts:
    """What the toolbar shows."""

    ruleset: str
    system: str
    due: int | None = None
    """Review items due now; None until the database is read, or when it cannot be."""
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


def settings_facts(prefs: Prefs) -> ToolbarFacts:
    """The facts that need no database: the rule set and count system in use."""
    return ToolbarFacts(ruleset=prefs.ruleset or DEFAULT_RULESET, system=prefs.system or DEFAULT_SYSTEM)


def read_facts(prefs: Prefs, db_path: Path, since: float, now: float | None = None) -> ToolbarFacts:
    """Read the facts from the settings and the progress database (which is never created here)."""
    facts = settings_facts(prefs)
    if not db_path.exists():
        return ToolbarFacts(ruleset=facts.ruleset, system=facts.system, due=0)
    from trainer.storage import Store

    try:
        with Store.open(db_path) as store:
            answered, right = store.answers_since(since)
            due = store.due_count(time.time() if now is None else now)
    except TrainerError:
        return facts
    return ToolbarFacts(ruleset=facts.ruleset, system=facts.system, due=due, answered=answered, right=right)
