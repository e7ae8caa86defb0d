"""The pure rules core: cards, hands, rule sets, the shoe, rounds and their events, money.

No I/O happens here: no printing, no clock, and randomness only from an injected `random.Random`. The
only files read are the packaged data and a rule set or count system a user names by path
(`trainer.core.tomlfiles`).

The names below are imported on first use (PEP 562), so that importing one small module such as
`trainer.core.errors` (every command does, for its error boundary) does not load the round engine and
the rule-set reader: `cutcard --help` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainer.core.exports import lazy_exports

if TYPE_CHECKING:
    from trainer.core.actions import Action
    from trainer.core.cards import Card, Rank, Suit, card, format_cards, parse_card, parse_cards
    from trainer.core.errors import (
        IllegalActionError,
        InvalidInputError,
        RulesetError,
        ShoeExhaustedError,
        StorageError,
        TrainerError,
    )
    from trainer.core.events import DEALER, Outcome
    from trainer.core.hands import Hand, hand_total
    from trainer.core.money import Money, Ratio, format_money, parse_money, to_money
    from trainer.core.round import Phase, Round, SeatView
    from trainer.core.rules import Ruleset, ruleset_to_dict
    from trainer.core.rulesfile import builtin_rulesets, find_ruleset, load_ruleset
    from trainer.core.shoe import Shoe

_HOMES = {
    "trainer.core.actions": ("Action",),
    "trainer.core.cards": ("Card", "Rank", "Suit", "card", "format_cards", "parse_card", "parse_cards"),
    "trainer.core.errors": ("IllegalActionError", "InvalidInputError", "RulesetError",
                            "ShoeExhaustedError", "StorageError", "TrainerError"),
    "trainer.core.events": ("DEALER", "Outcome"),
    "trainer.core.hands": ("Hand", "hand_total"),
    "trainer.core.money": ("Money", "Ratio", "format_money", "parse_money", "to_money"),
    "trainer.core.round": ("Phase", "Round", "SeatView"),
    "trainer.core.rules": ("Ruleset", "ruleset_to_dict"),
    "trainer.core.rulesfile": ("builtin_rulesets", "find_ruleset", "load_ruleset"),
    "trainer.core.shoe": ("Shoe",),
}
__getattr__, __dir__ = lazy_exports(globals(), _HOMES)

__all__ = [
    "DEALER",
    "Action",
    "Card",
    "Hand",
    "IllegalActionError",
    "InvalidInputError",
    "Money",
    "Outcome",
    "Phase",
    "Rank",
    "Ratio",
    "Round",
    "Ruleset",
    "RulesetError",
    "SeatView",
    "Shoe",
    "ShoeExhaustedError",
    "StorageError",
    "Suit",
    "TrainerError",
    "builtin_rulesets",
    "card",
    "find_ruleset",
    "format_cards",
    "format_money",
    "hand_total",
    "load_ruleset",
    "parse_card",
    "parse_cards",
    "parse_money",
    "ruleset_to_dict",
    "to_money",
]
