"""Helpers for stacked-shoe rule tests: deal exact cards, play a script of actions, read the events."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from trainer.core import Action, Round, Ruleset, Shoe, find_ruleset, load_ruleset
from trainer.core.cards import parse_card, parse_cards
from trainer.core.deal import TableDeal
from trainer.core.events import Event
from trainer.core.rulesfile import parse_ruleset


def deal(ruleset: str, cards: str, bets: Sequence[int | str] = (10,)) -> Round:
    """Start a round of `ruleset` from a shoe stacked with `cards` (in the rule set's table order)."""
    rules = load_ruleset(ruleset)
    return Round.start(rules, Shoe.stacked(rules, cards), bets=list(bets))


def stacked_table(r: Ruleset, seats: Sequence[str], up: str, hole: str, draws: str = "",
                  dealer: str = "") -> Shoe:
    """A shoe dealing `seats` (two-card hands), the dealer's `up` and `hole`, then the players' `draws`,
    then the dealer's draws, in the table order of `r` (`trainer.core.deal.TableDeal`); in a
    no-hole-card game `hole` is the dealer's second card, after play."""
    tail = [*parse_cards(dealer)] if dealer else []
    tail += [*parse_cards("2 2 2 2 2 2")]  # spare low cards: a dealer who must draw finishes on them
    return Shoe.stacked(r, TableDeal(seats=[parse_cards(s) for s in seats], up=parse_card(up),
                                     hole=parse_card(hole), draws=parse_cards(draws) if draws else (),
                                     dealer_draws=tail))


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
