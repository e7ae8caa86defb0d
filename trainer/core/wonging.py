"""Back-counting ("wonging"): watching a table and playing only at a good count.

A policy has an entry count, an exit count, or both (true counts for a balanced system, running counts
for an unbalanced one, as the system's key counts are):

- entry only: play exactly the rounds that start at the entry count or above, watch the others (the
  idealised back-counter of the per-count tables: a seat is free whenever the count is good);
- exit (with or without an entry): after a shuffle the player watches until the count reaches the
  entry count (at once without one), sits, and stays while the count is at the exit count or above;
  below it the player leaves and does not come back until the shuffle. This depends on the path of
  the count through the shoe, as it is played.

Before each round the player sits, stays, watches or leaves (`WongMove`); `Wonging.move` says which
the policy wants, and `after` how the seat stands once it is done.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from trainer.core.errors import InvalidInputError


class WongMove(enum.StrEnum):
    """What a back-counter does before a round."""

    SIT = "sit"
    """Not playing, and the count calls for it: take a seat and bet."""
    STAY = "stay"
    """Playing, and the count keeps the player in."""
    WATCH = "watch"
    """Not playing, and staying out: count the round dealt to the others."""
    LEAVE = "leave"
    """Playing, and the count has fallen: stop betting."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Seat:
    """How a back-counter stands before a round: playing or not, and whether they left this shoe
    already (an exit policy does not come back until the shuffle)."""

    playing: bool = False
    gone: bool = False


WATCHING = Seat()
"""After a shuffle: watching, free to sit."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Wonging:
    """A back-counting policy: enter at `entry` and above, leave below `exit` (see the module)."""

    entry: int | None = None
    exit: int | None = None

    def __post_init__(self) -> None:
        if self.entry is None and self.exit is None:
            raise InvalidInputError("back-counting needs an entry count, an exit count or both")
        if self.entry is not None and self.exit is not None and self.exit > self.entry:
            raise InvalidInputError(f"the exit count ({self.exit:+d}) must not be above the entry count "
                                    f"({self.entry:+d}): the player would leave as soon as they sat")

    @property
    def by_path(self) -> bool:
        """True for an exit policy: which rounds are played depends on the count's path."""
        return self.exit is not None

    def move(self, seat: Seat, count: int) -> WongMove:
        """What the policy does before a round that starts at `count`.

        >>> policy = Wonging(entry=2, exit=0)
        >>> [policy.move(Seat(), c).value for c in (1, 2)]
        ['watch', 'sit']
        >>> [policy.move(Seat(playing=True), c).value for c in (0, -1)]
        ['stay', 'leave']
        >>> policy.move(Seat(gone=True), 5).value
        'watch'
        >>> Wonging(entry=1).move(Seat(playing=True), 0).value
        'leave'
        """
        if seat.playing:
            floor = self.exit if self.exit is not None else self.entry
            assert floor is not None
            return WongMove.STAY if count >= floor else WongMove.LEAVE
        if seat.gone or (self.entry is not None and count < self.entry):
            return WongMove.WATCH
        return WongMove.SIT

    def after(self, seat: Seat, move: WongMove) -> Seat:
        """The seat once `move` is made: an exit policy's leaver is gone until the shuffle."""
        playing = move in (WongMove.SIT, WongMove.STAY)
        return Seat(playing=playing, gone=seat.gone or (move is WongMove.LEAVE and self.by_path))

    def describe(self) -> str:
        """The policy in words, e.g. 'enter at +2, leave below 0'."""
        parts = []
        if self.entry is not None:
            parts.append(f"enter at {self.entry:+d}")
        if self.exit is not None:
            parts.append(f"leave below {self.exit:+d} until the shuffle")
        return ", ".join(parts)
