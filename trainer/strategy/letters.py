"""Strategy-card letters and how a player reads them at the table.

H hit, S stand, Dh double (else hit), Ds double (else stand), P split, Rh / Rs / Rp surrender (else
hit / stand / split); the generic chart also uses Ph (split if doubling after a split is allowed, else
hit). A letter whose action is not allowed falls back as its second letter says; a P that cannot be
played (the hand limit, or a pair of unequal tens under same-rank splitting) is read as the hand's
total instead. Rows: `hard` 5-21, `soft` 13-21, `pair` 1-10 (1 = aces); hard 4 (2-2 that cannot be
split) and soft 12 (A-A that cannot be split) are always hit.
"""

from __future__ import annotations

from collections.abc import Callable

LETTERS = ("H", "S", "Dh", "Ds", "P", "Rh", "Rs", "Rp")
Lookup = Callable[[str, int, int], str]
"""(kind, total or pair value, up value) -> letter."""

HIT, STAND, DOUBLE, SPLIT, SURRENDER = "hit", "stand", "double", "split", "surrender"


def row_of(total: int, soft: bool) -> tuple[str, int] | None:
    """The chart row of a hand that is not read as a pair; None when every chart says hit."""
    if soft:
        return ("soft", total) if total >= 13 else None
    return ("hard", max(total, 5)) if total >= 5 else None


def pair_total(pair: int) -> tuple[int, bool]:
    """The total of a pair of this value when it is played as a hand (aces: soft 12)."""
    return (12, True) if pair == 1 else (2 * pair, False)


def resolve(lookup: Lookup, kind: str, number: int, up: int, *, can_double: bool, can_split: bool,
            can_surrender: bool, can_hit: bool = True, double_after_split: bool = True) -> str:
    """The action a chart prescribes for a hand in row (kind, number) against `up`, made legal.

    >>> chart = {("hard", 11, 10): "Dh", ("pair", 8, 1): "Rp", ("hard", 16, 1): "Rh"}
    >>> lookup = lambda kind, n, up: chart[(kind, n, up)]
    >>> resolve(lookup, "hard", 11, 10, can_double=False, can_split=False, can_surrender=False)
    'hit'
    >>> resolve(lookup, "pair", 8, 1, can_double=False, can_split=False, can_surrender=False)
    'hit'
    """
    if kind == "pair":
        letter = lookup("pair", number, up)
    else:
        row = row_of(number, kind == "soft") if kind in ("hard", "soft") else None
        if row is None:
            return HIT if can_hit else STAND
        letter = lookup(row[0], row[1], up)
    action = read_letter(letter, can_double=can_double, can_split=can_split, can_surrender=can_surrender,
                   double_after_split=double_after_split)
    if action is None:  # a split that cannot be played: read the pair as its total
        total, soft = pair_total(number)
        return resolve(lookup, "soft" if soft else "hard", total, up, can_double=can_double,
                       can_split=False, can_surrender=can_surrender, can_hit=can_hit)
    if action == HIT and not can_hit:
        return STAND
    return action


def read_letter(letter: str, *, can_double: bool, can_split: bool, can_surrender: bool,
                double_after_split: bool) -> str | None:
    """One letter as an action name; None for a split that cannot be played.

    >>> read_letter("Dh", can_double=False, can_split=False, can_surrender=False, double_after_split=True)
    'hit'
    >>> read_letter("Rp", can_double=True, can_split=True, can_surrender=False, double_after_split=True)
    'split'
    """
    if letter == "H":
        return HIT
    if letter == "S":
        return STAND
    if letter in ("Dh", "Ds"):
        return DOUBLE if can_double else (HIT if letter == "Dh" else STAND)
    if letter == "P":
        return SPLIT if can_split else None
    if letter == "Ph":
        return SPLIT if can_split and double_after_split else (None if not can_split else HIT)
    if letter in ("Rh", "Rs", "Rp"):
        if can_surrender:
            return SURRENDER
        return {"Rh": HIT, "Rs": STAND}.get(letter, SPLIT if can_split else None)
    raise ValueError(f"{letter!r} is not a strategy letter (expected one of {', '.join(LETTERS)}, Ph)")


def letter_for(evs: dict[str, float | None]) -> str:
    """The letter of the best action given EVs by action name (None: not allowed).

    Ties go to the simpler play (stand, hit, double, split, surrender in that order).

    >>> letter_for({"stand": -0.54, "hit": -0.53, "double": None, "split": None, "surrender": -0.5})
    'Rh'
    >>> letter_for({"stand": 0.1, "hit": 0.2, "double": 0.3, "split": None, "surrender": None})
    'Dh'
    """
    order = (STAND, HIT, DOUBLE, SPLIT, SURRENDER)
    allowed = [(a, v) for a in order if (v := evs.get(a)) is not None]
    best = max(allowed, key=lambda av: av[1])[0]
    hit, stand = evs.get(HIT), evs.get(STAND)
    hits = hit is not None and stand is not None and hit > stand
    if best == STAND:
        return "S"
    if best == HIT:
        return "H"
    if best == DOUBLE:
        return "Dh" if hits else "Ds"
    if best == SPLIT:
        return "P"
    others = [(a, v) for a, v in allowed if a != SURRENDER]
    second = max(others, key=lambda av: av[1])[0]
    return "Rp" if second == SPLIT else ("Rh" if second in (HIT, DOUBLE) else "Rs")
