"""Names a user types for things the trainer knows (rule sets, drills, count systems, side bets): the one
way an unknown name is answered, with the closest known name when one is close ("did you mean")."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from trainer.core.errors import excerpt


def closest(word: str, names: Iterable[str]) -> str | None:
    """The known name nearest to `word` when it is near enough to be a typo (difflib's ratio of at least
    0.6, its own default: `europian` → `european`, `stratgy` → `strategy`), else None."""
    found = difflib.get_close_matches(word.strip().lower(), list(names), n=1, cutoff=0.6)
    return found[0] if found else None


def unknown_name(kind: str, word: str, names: Iterable[str], *, files: bool = False) -> str:
    """One line for a name that names no `kind`: the closest name when one is close, else every name
    (and, where `files`, that a path to a .toml file is taken too)."""
    known = list(names)
    near = closest(word[:100], known)  # a name of thousands of characters is no typo of a known one
    quoted = excerpt(repr(word))
    if near is not None:
        return f"no {kind} named {quoted}; did you mean {near!r}?"
    path = "; or give a path to a .toml file" if files else ""
    return f"no {kind} named {quoted} (built-in: {', '.join(known)}{path})"
