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


EDGE_BAND = 2
"""Wong items group the count's distance from the threshold that decides (entry or exit) from -2 to +2."""


def threshold(policy: Wonging, seat: Seat) -> int | None:
    """The count that decides the next move: the exit floor when playing, the entry count when free to
    sit (None: gone until the shuffle, or no entry count, where the move does not depend on the count)."""
    if seat.playing:
        return policy.exit if policy.exit is not None else policy.entry
    if seat.gone:
        return None
    return policy.entry


def wong_item(system: str, policy: Wonging, seat: Seat, count: int) -> str:
    """The review item of a back-counting decision, shared by the wong drill and the table: the seat's
    state and the count's distance from the threshold that decides, banded.

    >>> policy = Wonging(entry=2, exit=0)
    >>> wong_item("hi-lo", policy, Seat(), 2), wong_item("hi-lo", policy, Seat(playing=True), -5)
    ('wong:hi-lo:watching:+0', 'wong:hi-lo:playing:-2')
    >>> wong_item("ko", policy, Seat(gone=True), 9)
    'wong:ko:gone'
    """
    if seat.gone and not seat.playing:
        return f"wong:{system}:gone"
    line = threshold(policy, seat)
    state = "playing" if seat.playing else "watching"
    edge = 0 if line is None else min(max(count - line, -EDGE_BAND), EDGE_BAND)
    return f"wong:{system}:{state}:{edge:+d}"
