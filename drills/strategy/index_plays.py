"""Hi-Lo index plays as data: the Illustrious 18 and the Fab 4, S17 and H17 (`drills/data/indices.toml`).

Each play is one line of a counter's index card: a hand against an up card, an index, the play at that
true count or more, and the play below it. The sources are cited in the data file. Which plays fit a
table depends on its rules: doubles need the double rule, the ten split needs splitting, the Fab 4
needs late surrender, and plays that double or split against a ten or an ace assume the dealer has
already checked for blackjack (so a no-peek table leaves them out).
"""

from __future__ import annotations

import random
import tomllib
from functools import cache
from importlib import resources
from typing import Any

from trainer.core.actions import Action
from trainer.core.cards import TEN_RANKS, Card, Rank, card, card_of_value
from trainer.core.legal import may_double
from trainer.core.rules import Ruleset
from trainer.strategy.indexplay import IndexPlay

__all__ = ["GAMES", "SET_TITLES", "IndexPlay", "boundary_count", "deal_hand", "fits", "game_of",
           "index_plays", "plays_for", "source"]

GAMES = ("s17", "h17")
SET_TITLES = {"illustrious-18": "Illustrious 18", "fab-4": "Fab 4"}


@cache
def _data() -> dict[str, Any]:
    text = resources.files("drills").joinpath("data/indices.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def index_plays(game: str) -> tuple[IndexPlay, ...]:
    """Every index play of one table ('s17' or 'h17'), in the source's order, as typed plays."""
    if game not in GAMES:
        raise ValueError(f"no index plays for {game!r}: expected one of {', '.join(GAMES)}")
    name, _ = source(game)
    return tuple(_typed(game, entry, name) for entry in _data()[game])


def _typed(game: str, entry: dict[str, Any], source_name: str) -> IndexPlay:
    """One data-file entry as an `IndexPlay` ('hard 16' vs 'T', 'pair of 10s', 'insurance')."""
    hand, up = str(entry["hand"]), str(entry["up"])
    if hand == "insurance":
        kind, total = "insurance", 0
    elif hand.startswith("pair of "):
        kind, face = "pair", hand.removeprefix("pair of ").removesuffix("s")
        total = 1 if face == "A" else int(face)
    else:
        kind, number = hand.split()
        total = int(number)
    index = int(entry["index"])
    above, below = Action(entry["above"]), Action(entry["below"])
    basic = Action(entry["basic"]) if "basic" in entry else (below if index > 0 else above)
    return IndexPlay(kind=kind, total=total, up_value=1 if up == "A" else 10 if up == "T" else int(up),
                     index=index, above=above, below=below, basic=basic, source=source_name, game=game,
                     set=str(entry["set"]), number=int(entry["number"]), when=str(entry.get("when", "")))


def source(game: str) -> tuple[str, str]:
    """(short name, full citation) of the index table for 's17' or 'h17'."""
    entry = _data()["sources"][game]
    return str(entry["name"]), " ".join(str(entry["cite"]).split())


def game_of(ruleset: Ruleset) -> str:
    """Which index table a rule set uses: H17 where the dealer hits soft 17, else S17."""
    return "h17" if ruleset.dealer.hits_soft_17 else "s17"


def fits(play: IndexPlay, ruleset: Ruleset) -> bool:
    """True when the play can arise at this table, as its index assumes (see the module docstring)."""
    player, dealer = ruleset.player, ruleset.dealer
    surrender = player.surrender.value != "none"
    if play.when == "surrender" and not surrender:
        return False
    if play.when == "no-surrender" and surrender:
        return False
    if play.kind == "insurance":
        return player.insurance
    doubles_or_splits = {play.above, play.below} & {"double", "split", "surrender"}
    if doubles_or_splits and play.up in ("A", "T"):
        peeked = (1 if play.up == "A" else 10) in dealer.peek and dealer.natural and dealer.hole_card
        if not peeked:
            return False
    if "split" in doubles_or_splits and player.max_hands < 2:
        return False
    if "double" in doubles_or_splits:
        hand = [card(Rank(v)) for v in _HARD_HANDS[play.total][0]]
        return may_double(ruleset, hand, from_split=False, split_aces=False)
    return True


def plays_for(ruleset: Ruleset) -> tuple[IndexPlay, ...]:
    """The index plays of the rule set's table that fit its rules."""
    return tuple(p for p in index_plays(game_of(ruleset)) if fits(p, ruleset))


_HARD_HANDS = {
    9: ((2, 7), (3, 6), (4, 5)),
    10: ((2, 8), (3, 7), (4, 6)),
    11: ((2, 9), (3, 8), (4, 7), (5, 6)),
    12: ((10, 2), (9, 3), (8, 4), (7, 5)),
    13: ((10, 3), (9, 4), (8, 5), (7, 6)),
    14: ((10, 4), (9, 5), (8, 6)),
    15: ((10, 5), (9, 6), (8, 7)),
    16: ((10, 6), (9, 7)),
}
"""Two-card hard totals without a pair (a pair is a split question, not this one) and without an ace."""


def deal_hand(play: IndexPlay, rng: random.Random, *, natural: bool = False) -> tuple[Card, Card]:
    """Two cards that make the play's hand ('hard 16' as 10-6 or 9-7; tens as a same-rank pair)."""
    if play.kind == "pair" and play.total == 10:
        rank = rng.choice(TEN_RANKS)
        return card(rank), card(rank)
    if play.kind == "insurance":
        if natural:
            return card(Rank.ACE), card_of_value(10, rng)
        first, second = rng.choice([pair for hands in _HARD_HANDS.values() for pair in hands])
        return card_of_value(first, rng), card_of_value(second, rng)
    first, second = rng.choice(_HARD_HANDS[play.total])
    cards = [card_of_value(first, rng), card_of_value(second, rng)]
    rng.shuffle(cards)
    return cards[0], cards[1]


_OFFSETS = (0, -1, 1, -2, 2, -3, 3)
_OFFSET_WEIGHTS = (4, 4, 2, 1, 1, 0.5, 0.5)
"""True counts around the index: the index itself and the count just below it are asked most."""


def boundary_count(play: IndexPlay, rng: random.Random) -> int:
    """A true count near the play's index, the boundary weighted most (around 0 for a play without one)."""
    return (play.index or 0) + rng.choices(_OFFSETS, weights=_OFFSET_WEIGHTS)[0]
