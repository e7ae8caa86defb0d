"""Side bets as data: their pay tables (`rulesets/sidebets/*.toml`) and what a hand wins on each.

A side bet reads a few cards of the round — 21+3 the player's two cards and the dealer's up card, Perfect
Pairs and Lucky Ladies the player's two cards, insurance the dealer's hole card under an ace — and pays by
its table. A hand is paid at the first outcome of its kind's order (best first) that the table lists, so
a suited trips on a table without a suited-trips line is paid as three of a kind, as a casino pays it.
Like rule sets, a pay table is data: unknown keys and bad values are errors that name the file and key.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainer.core.cards import Card, Rank
from trainer.core.errors import InvalidInputError, RulesetError
from trainer.core.money import Money, Ratio
from trainer.core.tomlfiles import names_a_file, read_toml, shipped


class SideBetKind(enum.Enum):
    """Which cards a side bet reads, and so which outcomes it can pay."""

    THREE_CARD_POKER = "three-card-poker"
    """The player's first two cards and the dealer's up card as a poker hand (21+3)."""
    PAIR = "pair"
    """The player's first two cards are a pair (Perfect Pairs)."""
    TWENTY = "twenty"
    """The player's first two cards total 20 (Lucky Ladies)."""
    DEALER_BLACKJACK = "dealer-blackjack"
    """The dealer's hole card under an ace is a ten (insurance)."""

    @property
    def cards_read(self) -> int:
        return 3 if self is SideBetKind.THREE_CARD_POKER else 2

    @property
    def reads(self) -> str:
        return {
            SideBetKind.THREE_CARD_POKER: "the player's two cards and the dealer's up card",
            SideBetKind.PAIR: "the player's two cards",
            SideBetKind.TWENTY: "the player's two cards (and, for the top tier, the dealer's blackjack)",
            SideBetKind.DEALER_BLACKJACK: "the dealer's up ace and hole card",
        }[self]


OUTCOMES: dict[SideBetKind, tuple[str, ...]] = {
    SideBetKind.THREE_CARD_POKER: ("suited-trips", "straight-flush", "three-of-a-kind", "straight", "flush"),
    SideBetKind.PAIR: ("perfect-pair", "coloured-pair", "mixed-pair"),
    SideBetKind.TWENTY: ("queen-hearts-pair-dealer-blackjack", "queen-hearts-pair", "matched-20", "suited-20",
                         "any-20"),
    SideBetKind.DEALER_BLACKJACK: ("dealer-blackjack",),
}
"""Each kind's outcomes, best first."""

OUTCOME_WORDS = {
    "suited-trips": "suited three of a kind", "straight-flush": "straight flush",
    "three-of-a-kind": "three of a kind", "straight": "straight", "flush": "flush",
    "perfect-pair": "perfect pair (same suit)", "coloured-pair": "coloured pair (same colour)",
    "mixed-pair": "mixed pair (red and black)",
    "queen-hearts-pair-dealer-blackjack": "two queens of hearts and a dealer blackjack",
    "queen-hearts-pair": "two queens of hearts", "matched-20": "matched 20 (same rank and suit)",
    "suited-20": "suited 20", "any-20": "any 20", "dealer-blackjack": "dealer blackjack",
}

_KEYS = ("name", "title", "kind", "aliases", "pays", "source")


@dataclass(frozen=True, slots=True, kw_only=True)
class SideBet:
    """A side bet's pay table: what it reads and what each outcome pays."""

    name: str
    title: str
    kind: SideBetKind
    pays: tuple[tuple[str, Ratio], ...]
    """(outcome, ratio) in the kind's best-first order; outcomes the table does not list pay nothing."""
    aliases: tuple[str, ...] = ()

    @property
    def needs_suits(self) -> bool:
        """Whether the outcomes depend on suits (every kind but insurance)."""
        return self.kind is not SideBetKind.DEALER_BLACKJACK

    def ratio(self, outcome: str) -> Ratio | None:
        for paid, ratio in self.pays:  # a handful of lines: no dict built on every call
            if paid == outcome:
                return ratio
        return None

    def paid_outcome(self, cards: Sequence[Card], *, dealer_blackjack: bool = False) -> str | None:
        """The outcome the table pays these cards at (best first), or None: the bet loses."""
        for outcome in outcomes_of(self.kind, cards, dealer_blackjack=dealer_blackjack):
            if self.ratio(outcome) is not None:
                return outcome
        return None

    def settle(self, stake: Money, cards: Sequence[Card], *, dealer_blackjack: bool = False) -> Money:
        """The side bet's net: its pay on a win, minus the stake on a loss."""
        outcome = self.paid_outcome(cards, dealer_blackjack=dealer_blackjack)
        if outcome is None:
            return -stake
        ratio = self.ratio(outcome)
        assert ratio is not None
        return ratio.pay(stake)

    def __repr__(self) -> str:
        return f"find_sidebet({self.name!r})"


def outcomes_of(kind: SideBetKind, cards: Sequence[Card], *, dealer_blackjack: bool = False) -> list[str]:
    """Every outcome of `kind` these cards make, best first (a suited trips is also trips and a flush).

    >>> from trainer.core.cards import parse_cards
    >>> outcomes_of(SideBetKind.THREE_CARD_POKER, parse_cards("Qh Kh Ah"))
    ['straight-flush', 'straight', 'flush']
    >>> outcomes_of(SideBetKind.PAIR, parse_cards("8h 8d"))
    ['coloured-pair']
    """
    if len(cards) != kind.cards_read:
        raise InvalidInputError(f"{kind.value} reads {kind.cards_read} cards ({kind.reads}), "
                                f"not {len(cards)}")
    suits = [c.suit for c in cards]
    if kind is not SideBetKind.DEALER_BLACKJACK and None in suits:
        raise InvalidInputError(f"{kind.value} pays by suit: name each card's suit (e.g. 'Kh')")
    found: list[str] = []
    if kind is SideBetKind.THREE_CARD_POKER:
        # by comparison and identity, not sets: the exact EV and its brute-force check classify every
        # three cards of a shoe this way, and hashing suits (a Python-level Enum hash) was most of it
        a, b, c = cards
        low, mid, high = sorted((a.rank, b.rank, c.rank))
        flush = a.suit is b.suit is c.suit
        trips = low == high
        straight = low < mid < high and (high - low == 2 or (low, mid, high) == (1, 12, 13))
        if trips and flush:
            found.append("suited-trips")
        if straight and flush:
            found.append("straight-flush")
        if trips:
            found.append("three-of-a-kind")
        if straight:
            found.append("straight")
        if flush:
            found.append("flush")
    elif kind is SideBetKind.PAIR:
        a, b = cards
        if a.rank is b.rank:
            assert a.suit is not None and b.suit is not None
            found.append("perfect-pair" if a.suit is b.suit else
                         "coloured-pair" if a.suit.is_red == b.suit.is_red else "mixed-pair")
    elif kind is SideBetKind.TWENTY:
        a, b = cards
        if sorted((a.value, b.value)) in ([10, 10], [1, 9]):
            queens = a.rank is b.rank is Rank.QUEEN and a.suit is b.suit and a.suit is not None \
                and a.suit.value == "h"
            if queens and dealer_blackjack:
                found.append("queen-hearts-pair-dealer-blackjack")
            if queens:
                found.append("queen-hearts-pair")
            if a.rank is b.rank and a.suit is b.suit:
                found.append("matched-20")
            if a.suit is b.suit:
                found.append("suited-20")
            found.append("any-20")
    else:
        up, hole = cards
        if not up.is_ace:
            raise InvalidInputError(f"insurance is offered only under an ace, not a {up.pretty()}")
        if hole.is_ten:
            found.append("dealer-blackjack")
    return found


def parse_sidebet(data: Mapping[str, Any], where: str) -> SideBet:
    """A side bet from its TOML table; errors name `where` (the file) and the key."""
    for key in data:
        if key not in _KEYS:
            raise RulesetError(f"{where}: unknown key {key!r} (known: {', '.join(_KEYS)})")
    for key in ("name", "title", "kind", "pays"):
        if key not in data:
            raise RulesetError(f"{where}: missing key {key!r}")
    name, title = data["name"], data["title"]
    if not isinstance(name, str) or not name.strip():
        raise RulesetError(f"{where}: name = {name!r} is not allowed: expected a non-empty string")
    if not isinstance(title, str):
        raise RulesetError(f"{where}: title = {title!r} is not allowed: expected a string")
    try:
        kind = SideBetKind(data["kind"])
    except (ValueError, TypeError):
        allowed = ", ".join(f'"{k.value}"' for k in SideBetKind)
        raise RulesetError(f"{where}: kind = {data['kind']!r} is not allowed: "
                           f"expected one of {allowed}") from None
    pays = data["pays"]
    if not isinstance(pays, dict) or not pays:
        raise RulesetError(f"{where}: [pays] must be a table of outcome = \"WIN:STAKE\"")
    order = OUTCOMES[kind]
    table: list[tuple[str, Ratio]] = []
    for outcome, text in pays.items():
        if outcome not in order:
            raise RulesetError(f"{where}: [pays] {outcome} is not an outcome of {kind.value} "
                               f"(outcomes: {', '.join(order)})")
        try:
            ratio = Ratio.parse(text if isinstance(text, str) else "")
        except InvalidInputError:
            raise RulesetError(f"{where}: [pays] {outcome} = {text!r} is not allowed: "
                               "expected a ratio such as \"9:1\"") from None
        table.append((outcome, ratio))
    table.sort(key=lambda pair: order.index(pair[0]))
    aliases = data.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise RulesetError(f"{where}: aliases = {aliases!r} is not allowed: expected a list of names")
    return SideBet(name=name.strip(), title=title, kind=kind, pays=tuple(table), aliases=tuple(aliases))


_BUILTINS: dict[str, SideBet] | None = None


def builtin_sidebets() -> dict[str, SideBet]:
    """The side bets shipped in `rulesets/sidebets/`, by name."""
    global _BUILTINS
    if _BUILTINS is None:
        import tomllib

        found: dict[str, SideBet] = {}
        folder = shipped("rulesets") / "sidebets"
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".toml"):
                bet = parse_sidebet(tomllib.loads(entry.read_text(encoding="utf-8")), entry.name)
                found[bet.name] = bet
        _BUILTINS = found
    return _BUILTINS


def find_sidebet(name_or_path: str | Path) -> SideBet:
    """A built-in side bet by name or alias, or a user's pay-table TOML file."""
    if names_a_file(name_or_path):
        data, path = read_toml(name_or_path, what="side bet", error=RulesetError)
        return parse_sidebet(data, path.name)
    wanted = str(name_or_path).strip().lower()
    for bet in builtin_sidebets().values():
        if wanted == bet.name or wanted in bet.aliases:
            return bet
    from trainer.core.errors import UnknownRulesetError
    from trainer.core.names import unknown_name

    raise UnknownRulesetError(unknown_name("side bet", str(name_or_path), builtin_sidebets(), files=True))


def parse_sidebet_names(text: str) -> tuple[SideBet, ...]:
    """`--set sidebets=21+3,perfect-pairs`: the side bets a practice table offers ('none' for none)."""
    words = [w.strip() for w in text.split(",") if w.strip()]
    if words == ["none"]:
        return ()
    if not words:
        raise InvalidInputError("sidebets: name one or more side bets, e.g. sidebets=21+3,perfect-pairs")
    try:
        return tuple(find_sidebet(w) for w in words)
    except RulesetError as e:
        raise InvalidInputError(str(e)) from None
