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
