"""The total-dependent basic-strategy chart of a rule set, its exceptions, and the house edge.

How a cell's action is chosen: every two-card hand that belongs to the cell (hard 12 = T-2, 9-3, 8-4,
7-5; a pair cell holds just its pair) is evaluated exactly against the up card, with the best play after
any hit (composition-dependent). The cell's EV of each action is the average over those hands weighted
by the chance of being dealt each one with that up card and no dealer natural (where the dealer
peeks); the cell's letter is the best averaged action (ties go to standing, then hitting). Cells no
two-card hand reaches (hard 20 without a pair, hard 21, soft 21) use the three-card hands instead.
EVs are per unit of the original bet and, where the dealer peeks, conditioned on no dealer natural.

The house edge is the exact EV of the whole game played by the chart: every two-card hand takes its
cell's action (made legal as `letters.resolve` reads it), every later decision follows the chart by
total, split hands too. Insurance and even money are never taken. Beside it, `total_dependent_edge_pct`
plays every hit or stand after the two cards dealt (hands of three cards or more, and split hands) by
its best total-dependent play (a hard 16 of three cards may stand where the two-card 16 hits): the
figure published total-dependent tables give.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trainer.core.errors import InvalidInputError
from trainer.strategy.letters import LETTERS

UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
"""Up cards in chart order: 2..10, then the ace (value 1)."""
ROWS = {"hard": tuple(range(5, 22)), "soft": tuple(range(13, 22)), "pair": (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)}
ACTIONS = ("stand", "hit", "double", "split", "surrender")


def up_label(up: int) -> str:
    """'A' for the ace (value 1 or 11), else the value: '2'..'10'."""
    return "A" if up in (1, 11) else str(up)


def row_label(kind: str, number: int) -> str:
    """A chart row's name as the printed chart has it: `16`, `A,7`, `8,8`."""
    if kind == "pair":
        face = up_label(number)
        return f"{face},{face}"
    if kind == "soft":
        return f"A,{number - 11}" if number < 21 else "soft 21"
    return str(number)


def cell_key(kind: str, number: int, up: int) -> str:
    """The JSON key of a cell: 'hard 16 vs 10', 'soft 18 vs A', 'pair 8-8 vs 9', 'pair A-A vs A'.

    >>> cell_key("pair", 1, 10), cell_key("soft", 18, 1)
    ('pair A-A vs 10', 'soft 18 vs A')
    """
    if kind == "pair":
        face = up_label(number)
        return f"pair {face}-{face} vs {up_label(up)}"
    return f"{kind} {number} vs {up_label(up)}"


_UPS = {"A": 1, **{str(v): v for v in range(2, 11)}}


def parse_cell_key(cell: str) -> tuple[str, int, int]:
    """A chart cell's key read back (the inverse of `cell_key`): kind, hand value
    and up card, aces as 1; pairs by the value of one card.

    >>> parse_cell_key("hard 16 vs 10"), parse_cell_key("soft 18 vs A"), parse_cell_key("pair A-A vs 9")
    (('hard', 16, 10), ('soft', 18, 1), ('pair', 1, 9))
    >>> parse_cell_key("pair 8-9 vs 2")
    Traceback (most recent call last):
    ...
    trainer.core.errors.InvalidInputError: 'pair 8-9 vs 2' is not a chart cell like 'hard 16 vs 10'
    """
    row, vs, up = cell.partition(" vs ")
    kind, _, number = row.partition(" ")
    value: int | None = None
    if kind == "pair":
        face, dash, other = number.partition("-")
        value = _UPS.get(face) if dash and other == face else None
    elif kind in ("hard", "soft") and number.isdecimal():
        value = int(number)
    if not vs or value is None or up not in _UPS:
        raise InvalidInputError(f"{cell!r} is not a chart cell like 'hard 16 vs 10'")
    return kind, value, _UPS[up]


@dataclass(frozen=True, slots=True, kw_only=True)
class Cell:
    """One chart cell: its letter and the EV of each action (None where the rules do not allow it)."""

    action: str
    ev: dict[str, float | None]

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "ev": {a: self.ev.get(a) for a in ACTIONS}}


@dataclass(frozen=True, slots=True, kw_only=True)
class Deviation:
    """A composition-dependent exception: a hand whose own best play differs from its cell's."""

    cards: tuple[int, ...]
    """The hand's values (ace = 1), sorted."""
    up: int
    chart: str
    """The action the chart prescribes (a word: hit, stand, double, split, surrender)."""
    best: str
    gain: float
    """What the best play gains over the chart's, per unit bet."""

    def labels(self) -> list[str]:
        """The hand's cards as the chart labels them: 'A', '2'..'10' (a ten-valued card is '10')."""
        return [up_label(v) if v == 1 else str(v) for v in self.cards]

    def describe(self) -> str:
        hand = "-".join(self.labels())
        return (f"{hand} vs {up_label(self.up)}: {self.best} instead of {self.chart} "
                f"(+{self.gain * 100:.3f}% of the bet)")

    def to_json(self) -> dict[str, Any]:
        """One entry of `chart --json`'s `exceptions` (contract: cards, up, chart, best, gain)."""
        return {"cards": self.labels(), "up": up_label(self.up), "chart": self.chart, "best": self.best,
                "gain": self.gain}


@dataclass(frozen=True, slots=True, kw_only=True)
class Chart:
    """A rule set's exact basic-strategy chart, with its EVs, exceptions and house edge."""

    ruleset: str
    fingerprint: str
    ev: float
    """The game's EV per unit of the original bet, played by this chart (negative: the house wins)."""
    cells: dict[str, Cell]
    exceptions: tuple[Deviation, ...] = ()
    ev_by_up: dict[str, float] = field(default_factory=dict)
    """The game's EV per up card (before the peek), keyed by up label."""
    ev_total_dependent: float = 0.0
    """The game's EV played by the chart on the two cards dealt and by the best total-dependent play on
    every later hit or stand, split hands' too (`ChartBuilder.total_dependent`): what published
    total-dependent house edges give."""
    _letters: dict[tuple[str, int, int], str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        table: dict[tuple[str, int, int], str] = {}
        for kind, numbers in ROWS.items():
            for number in numbers:
                for up in UPS:
                    cell = self.cells.get(cell_key(kind, number, up))
                    if cell is not None:
                        table[(kind, number, up)] = cell.action
        object.__setattr__(self, "_letters", table)

    @property
    def house_edge_pct(self) -> float:
        """The house edge in percent of the original bet, played by this chart: every later decision by
        the chart's letter for its total (three-card hands as the two-card cell reads)."""
        return -100.0 * self.ev

    @property
    def total_dependent_edge_pct(self) -> float:
        """The house edge in percent with hands of three cards or more and split hands played by their
        best total-dependent play (the total-dependent optimum published tables give)."""
        return -100.0 * self.ev_total_dependent

    def lookup(self, kind: str, number: int, up: int) -> str:
        """The letter of a cell in O(1): kind 'hard' | 'soft' | 'pair', a total or the pair's value
        (ace = 1 or 11), the up card's value (ace = 1 or 11)."""
        key = (kind, 1 if number == 11 and kind == "pair" else number, 1 if up == 11 else up)
        try:
            return self._letters[key]
        except KeyError:
            raise KeyError(f"the chart has no cell {cell_key(kind, key[1], key[2])!r}") from None

    def to_json(self) -> dict[str, Any]:
        """The `cutcard chart --json` document."""
        return {
            "ruleset": self.ruleset,
            "ev": self.ev,
            "house_edge_pct": self.house_edge_pct,
            "house_edge_total_dependent_pct": self.total_dependent_edge_pct,
            "cells": {key: cell.to_json() for key, cell in self.cells.items()},
            "exceptions": [d.to_json() for d in self.exceptions],
        }

    def letters(self) -> set[str]:
        """The letters the chart's cells use (its legend lists only these)."""
        return {cell.action for cell in self.cells.values()}

    def to_cache(self) -> dict[str, Any]:
        """Everything, for the chart cache (`from_cache` reads it back)."""
        document = self.to_json()
        del document["exceptions"]  # kept below in the cache's own compact form
        document["fingerprint"] = self.fingerprint
        document["ev_by_up"] = self.ev_by_up
        document["ev_total_dependent"] = self.ev_total_dependent
        document["exceptions"] = [[list(d.cards), d.up, d.chart, d.best, d.gain] for d in self.exceptions]
        return document

    @classmethod
    def from_cache(cls, document: dict[str, Any]) -> Chart:
        cells = {}
        for key, cell in document["cells"].items():
            if cell["action"] not in LETTERS:
                raise ValueError(f"bad letter {cell['action']!r} in cached chart")
            cells[key] = Cell(action=cell["action"], ev=dict(cell["ev"]))
        exceptions = tuple(Deviation(cards=tuple(c), up=u, chart=a, best=b, gain=g)
                           for c, u, a, b, g in document["exceptions"])
        return cls(ruleset=document["ruleset"], fingerprint=document["fingerprint"], ev=document["ev"],
                   cells=cells, exceptions=exceptions, ev_by_up=dict(document["ev_by_up"]),
                   ev_total_dependent=float(document["ev_total_dependent"]))
