"""The narrow error types of cutcard; every message names the bad value and what was expected."""

from __future__ import annotations


class TrainerError(Exception):
    """Base of every error cutcard reports to a user as one line."""


class InvalidInputError(TrainerError, ValueError):
    """Text from a user (an answer, a card, a command argument) that cannot be understood."""


class IllegalActionError(TrainerError):
    """An action the round does not allow now; the round is left unchanged."""


class RulesetError(TrainerError):
    """A rule-set file or name that cannot be loaded."""


class StorageError(TrainerError):
    """The progress database cannot be opened, read or written."""


class DamagedDatabaseError(StorageError):
    """The progress database is damaged: SQLite found it malformed, or a stored value cannot be read."""


class ShoeExhaustedError(TrainerError):
    """A stacked shoe ran out of the cards it was given."""


class UsageError(TrainerError):
    """A command given a name or value it does not know (a rule set, a count system, a drill, a setting or
    its value): the command line exits 2 for it, as for a bad option, where an error found while running
    exits 1 (`trainer.cli.common.run_guarded`)."""


class UnknownNameError(InvalidInputError, UsageError):
    """A name or value that is none of those known: a count system, a drill, a setting or its value."""


class UnknownRulesetError(RulesetError, UsageError):
    """A rule-set name that is neither built in nor a file."""


class RuleOverrideError(RulesetError, UsageError):
    """A rule key set on the command line or in a grid (`casino:decks=2`) that names no rule key, or a
    value that key does not take."""


EXCERPT_CHARS = 60
"""The most of a bad value a one-line error quotes."""


def escaped(text: str) -> str:
    """`text` with every control character (an escape sequence that would retitle or repaint the
    terminal, a newline that would split a one-line message) written as a Python escape: `\\x1b`."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """A bad value as a one-line error quotes it: control characters escaped, cut to about `limit`
    characters with the length said (a 100 KB value is never echoed whole)."""
    text = value if isinstance(value, str) else str(value)
    if len(text) > limit:
        return f"{escaped(text[:limit])}… ({len(text):,} characters)"
    return escaped(text)
