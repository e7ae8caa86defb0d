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


class UnknownNameError(InvalidInputError):
    """A name that names nothing of its kind (a drill, a count system, a command): a usage error, exit
    status 2 in the CLI; the message offers the closest known name (`trainer.core.names`)."""


class UnknownRulesetError(RulesetError, UnknownNameError):
    """A rule-set or side-bet name that names none (a file that cannot be read stays a `RulesetError`)."""
