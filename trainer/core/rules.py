"""Rule sets as data: the frozen `Ruleset`, its parts and their enums (DESIGN §3).

Every key of a rule-set file maps to one field here; `trainer.core.rulesfile` reads the files.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from trainer.core.basis import Basis, BasisKind, RuleBasis, seed_title
from trainer.core.errors import RulesetError
from trainer.core.money import Money, Ratio


class Reshuffle(enum.StrEnum):
    CUT_CARD = "cut-card"
    EVERY_ROUND = "every-round"


class Double(enum.StrEnum):
    """Which first-two-card hands may double ('9-11' and '10-11' are hard totals)."""

    ANY_TWO = "any-two"
    NINE_TO_ELEVEN = "9-11"
    TEN_OR_ELEVEN = "10-11"
    NONE = "none"


class Split(enum.StrEnum):
    SAME_VALUE = "same-value"
    SAME_RANK = "same-rank"


class Surrender(enum.StrEnum):
    NONE = "none"
    LATE = "late"
    EARLY = "early"


class InsuranceBet(enum.StrEnum):
    """How much a player may insure: exactly half the original bet (seed 004) or any amount up to half."""

    HALF = "half"
    UP_TO_HALF = "up-to-half"


class PlayerCards(enum.StrEnum):
    """How the players' first two cards are dealt: face up (a shoe game: nobody touches them), face down
    with the player holding them (a pitch game), or face down only where the cards are dealt from the
    hand, 1 or 2 decks, and face up from a shoe."""

    FACE_UP = "face-up"
    FACE_DOWN = "face-down"
    FACE_DOWN_HAND_HELD = "face-down-hand-held"


class BlackjackTakes(enum.StrEnum):
    """What a dealer natural found after the players acted collects: every bet or the original ones."""

    ALL = "all"
    ORIGINAL = "original"


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeRules:
    """The `[shoe]` table: how many decks, where the cut card goes, when the cards are shuffled and how
    many are burnt."""

    decks: int
    """1..8; 0 is the infinite deck (every card an independent, uniform draw of a rank)."""
    decks_range: tuple[int, int]
    """The deck counts `--decks` may choose (seed 001 plays one to eight decks)."""
    reshuffle: Reshuffle
    cut_card_from_end: tuple[int, int]
    """Cards left behind the cut card, drawn uniformly per shoe, both ends included."""
    burn: int
    burn_shown: bool
    """True when the dealer shows the burn card, so a counter may count it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerRules:
    """The `[dealer]` table: how the dealer draws, takes a hole card and peeks, and what a dealer natural
    takes."""

    hits_soft_17: bool
    hole_card: bool
    peek: frozenset[int]
    """Up-card values on which the dealer checks for a natural before the players act: 1 (ace), 10."""
    hole_card_first: bool
    blackjack_takes: BlackjackTakes
    natural: bool
    """False: a dealer's two-card 21 is only 21 (seed 002's host)."""
    player_cards: PlayerCards = PlayerCards.FACE_UP
    """How the players' first two cards are dealt (`Ruleset.players_face_down` says for this deck count)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerRules:
    """The `[player]` table: doubling, splitting, surrender, insurance and even money."""

    double: Double
    double_after_split: bool
    max_hands: int
    split: Split
    split_aces_one_card: bool
    resplit_aces: bool
    surrender: Surrender
    insurance: bool
    even_money: bool
    insurance_bet: InsuranceBet = InsuranceBet.UP_TO_HALF
    """Insurance of exactly half the bet, or of any amount up to half (a file may leave it out)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PayoutRules:
    """The `[payouts]` table: what a blackjack and insurance pay, and whether a split 21 is a blackjack."""

    blackjack: Ratio
    insurance: Ratio
    split_21_is_blackjack: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRules:
    """The `[table]` table: bet limits, seats and the bankroll a learner sits down with."""

    min_bet: Money
    max_bet: Money
    seats: int
    bankroll: Money
    """What a learner sits down with in `play`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentRules:
    """Seed 002's chat game: betting timer, players and the attack phase between rounds."""

    players: tuple[int, int]
    bet_timer: tuple[int, int]
    """Seconds the host gives for betting (the seed says 30 s to 1 min)."""
    attacks: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """One blackjack variant, exactly as its rule-set file states it."""

    name: str
    title: str
    source: str
    aliases: tuple[str, ...]
    shoe: ShoeRules
    dealer: DealerRules
    player: PlayerRules
    payouts: PayoutRules
    table: TableRules
    tournament: TournamentRules | None = None
    path: str = ""
    """Where the rules were read from (for error messages); not a rule."""
    basis: RuleBasis = field(default_factory=RuleBasis, compare=False)
    """Where each rule key comes from (`trainer.core.basis`); not a rule, so not compared or hashed."""

    @property
    def infinite_deck(self) -> bool:
        return self.shoe.decks == 0

    @property
    def counting_helps(self) -> bool:
        """False where a count carries no information: an infinite deck or a reshuffle every round."""
        return self.shoe.decks > 0 and self.shoe.reshuffle is Reshuffle.CUT_CARD

    @property
    def players_face_down(self) -> bool:
        """True in a pitch game: the players' first two cards are dealt face down and held, and the table
        sees them only when they are turned (a bust, a double, a split, a natural or the settlement)."""
        cards = self.dealer.player_cards
        if cards is PlayerCards.FACE_DOWN_HAND_HELD:
            return self.shoe.decks in (1, 2)
        return cards is PlayerCards.FACE_DOWN

    @property
    def fingerprint(self) -> str:
        """A short hash of every rule that changes play or payouts (not names, titles or table limits).

        Computed once per rule set: the strategy engine keys its memo on it for every hand.
        """
        return _fingerprint(self)

    def with_decks(self, decks: int) -> Ruleset:
        """The same rules with another number of decks, within the rule set's `decks_range`.

        The cut-card range scales so the penetration stays the same: 60-75 of 6 decks is 10-12 of 1.
        """
        lo, hi = self.shoe.decks_range
        if self.infinite_deck or not lo <= decks <= hi:
            allowed = "none: the deck is infinite" if self.infinite_deck else f"{lo}..{hi}"
            raise RulesetError(f"{self.name} cannot be played with {decks} decks (allowed: {allowed})")
        if decks == self.shoe.decks:
            return self
        cut = scale_cut_card(self.shoe.cut_card_from_end, self.shoe.decks, decks)
        shoe = dataclasses.replace(self.shoe, decks=decks, cut_card_from_end=cut)
        title = re.sub(rf"\b{self.shoe.decks} decks\b", f"{decks} deck{'s' if decks > 1 else ''}", self.title)
        return dataclasses.replace(self, shoe=shoe, title=title, basis=_basis_with_decks(self, decks, cut))

    def rule_keys(self) -> list[str]:
        """Every rule key of the rule set as 'section.key', in file order (tournament keys where present),
        then the keys of how this trainer runs every round (`PLAY_KEYS`), which carry a basis but no value."""
        keys = []
        for section in RULE_SECTIONS:
            value = getattr(self, section)
            if value is not None:
                keys += [f"{section}.{f.name}" for f in dataclasses.fields(value)]
        return keys + [key for key in PLAY_KEYS if getattr(self, key.partition(".")[0]) is not None]

    @property
    def source_title(self) -> str:
        """The document the rules come from as a learner knows it: a seed's title, or a user's file."""
        return seed_title(self.source) or self.source

    def basis_of(self, key: str) -> Basis:
        """The basis of one rule key; a key with none recorded is the rule file's own (`user`)."""
        found = self.basis.get(key)
        if found is not None:
            return found
        if key in PLAY_KEYS and key in self.rule_keys():
            return Basis(kind=BasisKind.READING, why=PLAY_KEYS[key])
        return Basis(kind=BasisKind.USER, file=self.path.rsplit("/", 1)[-1])


RULE_SECTIONS = ("shoe", "dealer", "player", "payouts", "table", "tournament")

PLAY_KEYS: dict[str, str] = {
    "dealer.draws_when_settled": (
        "no seed says what the dealer does when every player hand is already settled (busted, "
        "surrendered or paid as a natural); this trainer plays as casinos do: the dealer draws no card, "
        "so the cards a counter would see stay in the shoe"),
    "payouts.push": (
        "the rule file does not say what a tie pays; this trainer pushes it: the bet comes back"),
    "tournament.attack_ties": (
        "the seed's attacks are «HG style»: this trainer reads a successful attack as a strictly higher "
        "attacker roll, so a tie is a failed attack"),
}
"""How this trainer plays where no rule-set value says: key -> the reading, in one line. A rule set has
the keys of its sections (the tournament's only where it has one).

A rule-set file words a key's basis in its `[basis]` table like any rule key (a seed quote where its seed
says it); a file that does not gets the reading here. The keys hold no value: the trainer always plays so,
and a rule-set file cannot set them."""


def _basis_with_decks(ruleset: Ruleset, decks: int, cut: tuple[int, int]) -> RuleBasis:
    """The bases after `--decks`: the deck count rests on what the rule set allows (`decks_range`), and a
    scaled cut card is this trainer's reading of the original depth."""
    changes = {"shoe.decks": ruleset.basis_of("shoe.decks_range")}
    if cut != ruleset.shoe.cut_card_from_end:
        was = ruleset.basis_of("shoe.cut_card_from_end")
        lo, hi = ruleset.shoe.cut_card_from_end
        why = (f"the cut card's {lo} to {hi} cards of {ruleset.shoe.decks} decks, scaled to the same "
               f"penetration for {decks}")
        if was.kind is BasisKind.SEED:
            why += f" (seed {was.file}: {' … '.join(f'«{q}»' for q in was.quotes)})"
        elif was.why:
            why += f"; {was.why}"
        changes["shoe.cut_card_from_end"] = Basis(kind=BasisKind.READING, why=why)
    return ruleset.basis.replaced(changes)


@functools.lru_cache(maxsize=256)
def _fingerprint(ruleset: Ruleset) -> str:
    rules = {key: _plain(getattr(ruleset, key)) for key in ("shoe", "dealer", "player", "payouts")}
    del rules["dealer"]["player_cards"]  # who sees the cards changes neither the play nor the payouts
    return hashlib.sha256(json.dumps(rules, sort_keys=True).encode()).hexdigest()[:16]


def scale_cut_card(cut: tuple[int, int], decks: int, to_decks: int) -> tuple[int, int]:
    """The cut-card range for `to_decks` that keeps the penetration of `cut` in `decks`.

    >>> scale_cut_card((60, 75), 6, 1), scale_cut_card((60, 75), 6, 8)
    ((10, 12), (80, 100))
    """
    if decks == 0 or to_decks == decks or cut == (0, 0):
        return cut
    scale = Decimal(to_decks) / Decimal(decks)
    lo, hi = (max(1, int((end * scale).to_integral_value())) for end in cut)
    return (lo, hi)


def _plain(value: Any) -> Any:
    """A JSON-ready copy of a rules value (enums as their words, ratios as '3:2', sets sorted)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if isinstance(value, Ratio):
            return str(value)
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(_plain(v) for v in value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Decimal):
        return str(value)
    return value


_PEEK_WORDS = {1: "A", 10: "T"}


def ruleset_to_dict(ruleset: Ruleset) -> dict[str, Any]:
    """The rule set as a JSON-ready dict with the same keys and words as its TOML file."""
    out: dict[str, Any] = {
        "name": ruleset.name,
        "title": ruleset.title,
        "source": ruleset.source,
        "source_title": ruleset.source_title,
        "aliases": list(ruleset.aliases),
    }
    for section in RULE_SECTIONS:
        value = getattr(ruleset, section)
        if value is not None:
            out[section] = _plain(value)
    out["dealer"]["peek"] = [_PEEK_WORDS[v] for v in sorted(ruleset.dealer.peek, reverse=True)]
    out["basis"] = {key: ruleset.basis_of(key).to_dict() for key in ruleset.rule_keys()}
    out["fingerprint"] = ruleset.fingerprint
    return out
