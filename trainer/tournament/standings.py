"""Who plays the chat-host tournament and where it stands: entrants, players, standings, the stage."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from trainer.core.money import Money


class Stage(enum.StrEnum):
    """Where the tournament stands."""

    BETTING = "betting"
    PLAY = "play"
    ATTACKS = "attacks"
    OVER = "over"


@dataclass(frozen=True, slots=True, kw_only=True)
class Entrant:
    """A player at the start: a name, and whether the computer plays them."""

    name: str
    computer: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing:
    """One player as the table sees them now."""

    name: str
    computer: bool
    cash: Money
    out_round: int | None
    """The round in which they were eliminated; None while they play."""

    @property
    def out(self) -> bool:
        return self.out_round is not None


@dataclass(slots=True, kw_only=True)
class Player:
    """A player's state inside the tournament (mutable; the outside sees `Standing`s)."""

    name: str
    computer: bool
    cash: Money
    out_round: int | None = None
    round_start_cash: Money = Decimal(0)


def ranked(players: Iterable[Player]) -> list[Standing]:
    """Everyone, best first: players still in by cash, then the eliminated, last out first."""
    order = sorted(players, key=lambda p: (p.out_round is None, p.out_round or 0, p.cash), reverse=True)
    return [Standing(name=p.name, computer=p.computer, cash=p.cash, out_round=p.out_round) for p in order]
