"""The REPL's bottom toolbar: rule set, count system, reviews due and this session's accuracy.

The facts are read from the progress database (`read_facts`) between commands, never while the prompt
redraws; drawing them (`toolbar_fragments`) is pure. They are read through the read-only view
(`trainer.storage.reader`: plain sqlite3, nothing written, nothing created); the REPL still reads the
first facts on a background thread, and until they are in, the toolbar shows the settings alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from prompt_toolkit.formatted_text import FormattedText

from trainer.cli.common import DEFAULT_RULESET, DEFAULT_SYSTEM
from trainer.core.errors import TrainerError
from trainer.progress.items import item_name
from trainer.repl.prefs import Prefs

if TYPE_CHECKING:
    from trainer.storage.reader import ReadOnly


@dataclass(frozen=True, slots=True, kw_only=True)
class ToolbarFacts:
    """What the toolbar shows."""

    ruleset: str
    system: str
    due: int | None = None
    """Review items due now (`trainer.storage.due.count_due`); None until the database is read, or when
    it cannot be."""
    next_item: str | None = None
    """The first due item in words (`trainer.progress.items.item_name`), e.g. "hard 16 vs 10"."""
    answered: int = 0
    right: int = 0
    """Answers given since the REPL started, and how many were right."""


def toolbar_fragments(facts: ToolbarFacts, width: int | None = None) -> FormattedText:
    """The toolbar as formatted text: ` casino · hi-lo · 3 due · 17/20 right (85%) `.

    Within `width` columns (the terminal's): the next due item's name and the key hints are left out,
    in that order, rather than cut off."""
    parts = FormattedText([("class:toolbar.key", " rules "), ("class:toolbar", f"{_short(facts.ruleset)} "),
                           ("class:toolbar.key", " count "), ("class:toolbar", f"{_short(facts.system)} ")])
    if facts.due is not None:
        parts += [("class:toolbar.key", " due "), ("class:toolbar", f"{facts.due} ")]
    if facts.answered:
        share = round(100 * facts.right / facts.answered)
        session = [("class:toolbar.key", " this session "),
                   ("class:toolbar", f"{facts.right}/{facts.answered} right ({share}%) ")]
    else:
        session = [("class:toolbar.key", " this session "), ("class:toolbar", "no answers yet ")]
    hints = [("class:toolbar.muted", "  help · Tab · Ctrl-D leaves")]
    upcoming = ([("class:toolbar.muted", f"next: {_clip(facts.next_item, 28)} ")]
                if facts.due and facts.next_item else [])
    room = None if width is None else width - 1
    for extra in ((upcoming, hints), (upcoming, []), ([], hints), ([], [])):
        line = FormattedText([*parts, *extra[0], *session, *extra[1]])
        if room is None or sum(len(text) for _style, text, *_ in line) <= room:
            return line
    return line


def _clip(text: str, width: int) -> str:
    """Text of at most `width` characters (an item's name can be long; the toolbar is one line)."""
    return text if len(text) <= width else text[:width - 1] + "…"


def _short(ruleset: str) -> str:
    """A user's rule-set or count-system file by its name, a built-in by its own."""
    return Path(ruleset).name if "/" in ruleset else ruleset


def settings_facts(prefs: Prefs) -> ToolbarFacts:
    """The facts that need no database: the rule set and count system in use."""
    return ToolbarFacts(ruleset=prefs.ruleset or DEFAULT_RULESET, system=prefs.system or DEFAULT_SYSTEM)


def read_facts(prefs: Prefs, db_path: Path, since: float, now: float | None = None) -> ToolbarFacts:
    """Read the facts from the settings and the progress database, read-only (never created here)."""
    from trainer.storage.reader import read_consistently

    facts = settings_facts(prefs)
    at = time.time() if now is None else now

    def read(view: ReadOnly) -> tuple[int, int, int, str | None]:
        answered, right = view.answers_since(since)
        first = view.due_entries(at, limit=1)
        return answered, right, view.due_count(at), item_name(first[0].item) if first else None

    try:
        found = read_consistently(db_path, read, check=False)  # redrawn often: the commands check
    except TrainerError:
        return facts
    if found is None:
        return ToolbarFacts(ruleset=facts.ruleset, system=facts.system, due=0)
    answered, right, due, next_item = found
    return ToolbarFacts(ruleset=facts.ruleset, system=facts.system, due=due, next_item=next_item,
                        answered=answered, right=right)
