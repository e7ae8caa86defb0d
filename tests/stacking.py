"""Helpers for stacked-shoe rule tests: deal exact cards, play a script of actions, read the events."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from trainer.core import Action, Round, Ruleset, Shoe, find_ruleset, load_ruleset
from trainer.core.events import Event
from trainer.core.rulesfile import parse_ruleset


def deal(ruleset: str, cards: str, bets: Sequence[int | str] = (10,)) -> Round:
    """Start a round of `ruleset` from a shoe stacked with `cards` (in the rule set's table order)."""
    rules = load_ruleset(ruleset)
    return Round.start(rules, Shoe.stacked(rules, cards), bets=list(bets))


def play(round_: Round, *actions: str) -> Round:
    """Take the actions in order ("hit", "stand", "double", ...), each for the seat/hand in turn."""
    for action in actions:
        round_.act(Action(action))
    return round_


def of_type(round_: Round, kind: type) -> list[Event]:
    return [e for e in round_.events if isinstance(e, kind)]


def money(*values: int | str) -> tuple[Decimal, ...]:
    return tuple(Decimal(str(v)) for v in values)


def custom(base: str, **sections: dict[str, Any]) -> Ruleset:
    """A rule set that changes a few keys of a built-in one."""
    return parse_ruleset({"name": "custom", "title": "custom", **sections}, path="custom.toml",
                         base=find_ruleset(base))
