"""An index play as a value: a hand against an up card, the two plays, the index, its direction, its source.

One type for every index play the trainer knows: the published lists (`drills/data/indices.toml`, read
by `drills.strategy.index_plays`) and the indices computed for a learner's own game (`trainer.indices`). The
deviations drill asks them, the table's advice and the simulator play them.

The convention is the published one: at a true count of `index` or more play `above`, below it play
`below`. `basic` is the play of the full shoe (basic strategy); the *direction* says on which side of the
index the deviation from it lies: `+` when the index play is made at the index and above (16 vs 10: stand
from 0 up), `-` when it is made below the index (12 vs 4: stand from 0 up is basic, hit below 0).
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.core.actions import Action
from trainer.core.cards import Card, Rank, card
from trainer.core.errors import InvalidInputError
from trainer.strategy.chart import cell_key

KINDS = ("hard", "soft", "pair", "insurance")
_UP_SYMBOLS = {1: "A", 10: "T"}


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexPlay:
    """One line of a counter's index card: `above` at a true count of `index` or more, `below` under it.

    >>> p = IndexPlay(kind="hard", total=16, up_value=10, index=0, above=Action.STAND, below=Action.HIT,
    ...               basic=Action.HIT, source="Schlesinger")
    >>> p.name, p.cell, p.direction, p.play_at(-1), p.play_at(0)
    ('16 vs 10', 'hard 16 vs 10', '+', <Action.HIT: 'hit'>, <Action.STAND: 'stand'>)
    """

    kind: str
    """'hard', 'soft', 'pair' or 'insurance'."""
    total: int
    """The hand's total (hard, soft) or the pair's card value (1 for aces); 0 for insurance."""
    up_value: int
    """The dealer's up card as a blackjack value: 1 (ace) to 10."""
    index: int | None
    """The true count from which `above` is played; None: no count in reach changes the play."""
    above: Action
    below: Action
    basic: Action
    """The play of the full shoe, which the index play deviates from."""
    source: str
    """Where the index comes from: a book's short name, or 'computed: ...'."""
    game: str = ""
    """The published table it belongs to ('s17', 'h17'), or 'computed'."""
    set: str = ""
    """'illustrious-18', 'fab-4', or '' for a play of no named set."""
    number: int = 0
    """Its place in the set (Illustrious 18 #2)."""
    when: str = ""
    """'' (always), 'surrender' (needs late surrender) or 'no-surrender' (a surrender table replaces it)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidInputError(f"an index play's hand is one of {', '.join(KINDS)}, not {self.kind!r}")
        if not 1 <= self.up_value <= 10:
            raise InvalidInputError(f"an up card is a value from 1 (ace) to 10, not {self.up_value}")
        if self.above == self.below:
            raise InvalidInputError(f"an index play needs two different plays, not {self.above} twice")
        if self.basic not in (self.above, self.below):
            raise InvalidInputError(f"the basic play {self.basic} is neither {self.above} nor {self.below}")

    # --- what the play is ---------------------------------------------------------------------

    @property
    def up(self) -> str:
        """The up card's symbol: 'A', 'T' or '2'..'9'."""
        return _UP_SYMBOLS.get(self.up_value, str(self.up_value))

    @property
    def up_card(self) -> Card:
        return card(Rank(self.up_value))

    @property
    def hand(self) -> str:
        """The hand in the data file's words: 'hard 16', 'soft 18', 'pair of 10s', 'insurance'."""
        if self.kind == "insurance":
            return "insurance"
        if self.kind == "pair":
            return f"pair of {'A' if self.total == 1 else self.total}s"
        return f"{self.kind} {self.total}"

    @property
    def name(self) -> str:
        """How counters name the play: '16 vs 10', '10,10 vs 5', 'soft 18 vs 2', 'insurance'."""
        if self.kind == "insurance":
            return "insurance"
        up = "A" if self.up_value == 1 else str(self.up_value)
        if self.kind == "pair":
            face = "A" if self.total == 1 else str(self.total)
            return f"{face},{face} vs {up}"
        hand = str(self.total) if self.kind == "hard" else f"soft {self.total}"
        return f"{hand} vs {up}"

    @property
    def cell(self) -> str:
        """The chart cell it changes ('hard 16 vs 10', 'pair 10-10 vs 5'), or 'insurance'."""
        if self.kind == "insurance":
            return "insurance"
        return cell_key(self.kind, self.total, self.up_value)

    @property
    def title(self) -> str:
        """'Illustrious 18 #2', 'Fab 4 #3', or the name for a play of no set."""
        titles = {"illustrious-18": "Illustrious 18", "fab-4": "Fab 4"}
        return f"{titles[self.set]} #{self.number}" if self.set in titles else self.name

    @property
    def deviation(self) -> Action:
        """The play that is not basic strategy: the index play itself."""
        return self.below if self.basic == self.above else self.above

    @property
    def direction(self) -> str:
        """'+': the deviation is made at the index and above; '-': it is made below the index."""
        return "+" if self.deviation == self.above else "-"

    # --- playing it ---------------------------------------------------------------------------

    def play_at(self, true_count: int) -> Action:
        """The right play at this true count (the basic play when there is no index)."""
        if self.index is None:
            return self.basic
        return self.above if true_count >= self.index else self.below

    def rule(self) -> str:
        """The index as a sentence: 'stand at a true count of 0 or more, hit below'."""
        if self.index is None:
            return f"{self.basic} at every true count"
        count = f"{self.index:+d}" if self.index else "0"
        return f"{self.above} at a true count of {count} or more, {self.below} below"
