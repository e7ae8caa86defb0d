"""Which plays to compute: a hand against an up card with its two plays, and the hands that make it.

`--plays` names sets (`i18`, `fab4`, `insurance`, `all`) or chart cells (`16v10`, `hard 16 vs 10`,
`10,10 vs 6`, `soft 18 vs 2`, `12v4:stand/hit`). A hand is dealt as two cards: a hard total as any two
cards of different values without an ace (a pair is a split question), a soft total as an ace and a
card, a pair as two cards of the value (of one rank where only same-rank cards split).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainer.core.actions import Action
from trainer.core.errors import InvalidInputError

PLAY_WORDS = {"stand": Action.STAND, "hit": Action.HIT, "double": Action.DOUBLE, "split": Action.SPLIT,
              "surrender": Action.SURRENDER, "s": Action.STAND, "h": Action.HIT, "d": Action.DOUBLE,
              "p": Action.SPLIT, "r": Action.SURRENDER}


@dataclass(frozen=True, slots=True, kw_only=True)
class Asked:
    """One play to compute: `first` against `second` for the hand against `up` (values, ace = 1).

    `first`/`second` are in no particular order: the computation finds which one high counts favour.
    None for both means: the full shoe's two best plays.
    """

    kind: str
    total: int
    up: int
    first: Action | None = None
    second: Action | None = None
    set: str = ""
    number: int = 0
    when: str = ""

    @property
    def key(self) -> str:
        """A stable name for caches and JSON: 'hard 16 vs 10', 'pair 10-10 vs 5', 'insurance'."""
        if self.kind == "insurance":
            return "insurance"
        up = "A" if self.up == 1 else str(self.up)
        if self.kind == "pair":
            face = "A" if self.total == 1 else str(self.total)
            return f"pair {face}-{face} vs {up}"
        return f"{self.kind} {self.total} vs {up}"


def combos(asked: Asked) -> tuple[tuple[int, int], ...]:
    """The two-card hands (values) that make the asked hand (insurance: none; any hand is dealt)."""
    if asked.kind == "insurance":
        return ()
    if asked.kind == "pair":
        return ((asked.total, asked.total),)
    if asked.kind == "soft":
        other = asked.total - 11
        if not 2 <= other <= 9:
            raise InvalidInputError(f"soft {asked.total} is not a two-card hand (soft 13 to soft 20)")
        return ((1, other),)
    out = tuple((a, asked.total - a) for a in range(2, 11)
                if a < asked.total - a <= 10)
    if not out:
        raise InvalidInputError(f"hard {asked.total} is not a two-card hand without a pair (hard 5 to 19)")
    return out


_CELL = re.compile(
    r"^(?:(?P<kind>hard|soft|pair)\s*)?(?P<hand>(?:\d+|[at])(?:[,-](?:\d+|[at]))?)\s*"
    r"(?:vs?\.?|v|/)\s*(?P<up>\d+|[AaTt])\s*(?::\s*(?P<one>[a-z]+)\s*/\s*(?P<two>[a-z]+))?$")


def _value(text: str) -> int:
    t = text.strip().upper()
    if t == "A":
        return 1
    if t == "T":
        return 10
    value = int(t)
    if not 1 <= value <= 11:
        raise InvalidInputError(f"{text!r} is not a card value (A, 2-10)")
    return 1 if value in (1, 11) else value


def parse_cell(text: str) -> Asked:
    """'16v10', 'hard 16 vs 10', '10,10 vs 6', 'soft 18 vs 2', 'A,7 vs 2', '12v4:stand/hit'.

    >>> parse_cell("16v10").key, parse_cell("10,10 vs 6").key, parse_cell("A,7 vs 3").key
    ('hard 16 vs 10', 'pair 10-10 vs 6', 'soft 18 vs 3')
    """
    words = " ".join(text.strip().lower().split())
    if words == "insurance":
        return Asked(kind="insurance", total=0, up=1, first=Action.INSURE, second=Action.DECLINE)
    match = _CELL.match(words)
    if match is None:
        raise InvalidInputError(f"{text.strip()!r} is not a play: write e.g. 16v10, 'hard 16 vs 10', "
                                "'10,10 vs 6', 'soft 18 vs 2' or '12v4:stand/hit'")
    kind, hand, up = match.group("kind"), match.group("hand"), _value(match.group("up"))
    if "," in hand or "-" in hand:
        a, b = (_value(x) for x in re.split("[,-]", hand))
        if a == b:
            kind, total = "pair", a
        elif 1 in (a, b):
            kind, total = "soft", 11 + a + b - 1
        else:
            kind, total = "hard", a + b
    else:
        total = _value(hand) if kind == "pair" else int(hand)
        kind = kind or "hard"
    first = second = None
    if match.group("one"):
        try:
            first, second = PLAY_WORDS[match.group("one")], PLAY_WORDS[match.group("two")]
        except KeyError as e:
            raise InvalidInputError(f"{e.args[0]!r} is not a play: stand, hit, double, split or "
                                    "surrender") from None
        if first == second:
            raise InvalidInputError(f"{text.strip()!r} names {first} twice: an index play is between two")
    asked = Asked(kind=kind, total=total, up=up, first=first, second=second)
    combos(asked)  # a hand that two cards cannot make is an error now, not later
    return asked
