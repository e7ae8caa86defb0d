"""Playing several spots (hands) a round at good counts: the number of hands by the count.

Written as `TC:N` steps, `"2:2,4:3"`: from each count up, play that many hands; below the first step,
one. The simulator (`sim --spots`), the plan and the table (`play --spots`) read the same syntax.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.core.errors import InvalidInputError
from trainer.core.money import Money

MOST_SPOTS = 7
"""A table has at most seven seats."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Spots:
    """Hands a round by the count: `steps` of (count, hands), counts rising."""

    steps: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        if not self.steps:
            raise InvalidInputError("spots need at least one step, e.g. 2:2")
        counts = [c for c, _ in self.steps]
        if counts != sorted(set(counts)):
            raise InvalidInputError("the spots' counts must rise, each once, e.g. 2:2,4:3")
        for count, hands in self.steps:
            if not 1 <= hands <= MOST_SPOTS:
                raise InvalidInputError(f"spots {count:+d}:{hands}: 1 to {MOST_SPOTS} hands a round, "
                                        f"not {hands}")

    @classmethod
    def parse(cls, text: str) -> Spots:
        """`--spots "TC:N,..."`.

        >>> Spots.parse("2:2, 4:3").at(3), Spots.parse("2:2").at(1)
        (2, 1)
        """
        steps = []
        for part in text.replace(" ", "").split(","):
            count, sep, hands = part.partition(":")
            try:
                steps.append((int(count), int(hands)))
            except ValueError:
                raise InvalidInputError(f"spots {text!r}: expected TC:HANDS steps, e.g. 2:2,4:3") from None
            if not sep:
                raise InvalidInputError(f"spots {text!r}: expected TC:HANDS steps, e.g. 2:2,4:3")
        return cls(steps=tuple(steps))

    @property
    def most(self) -> int:
        return max(n for _, n in self.steps)

    def at(self, count: int) -> int:
        """The hands played at `count`: the last step at or below it, one below the first."""
        hands = 1
        for step, n in self.steps:
            if count < step:
                break
            hands = n
        return hands

    @property
    def text(self) -> str:
        return ",".join(f"{c}:{n}" for c, n in self.steps)


@dataclass(frozen=True, slots=True, kw_only=True)
class SpotStep:
    """From `true_count` up: `hands` hands of `bet` each (money, as a plan has it)."""

    true_count: int
    bet: Money
    hands: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SpotRamp:
    """A plan's hands and bet per hand by true count, and the most hands the learner spreads to."""

    steps: tuple[SpotStep, ...]
    most: int = 2

    def at(self, count: int) -> SpotStep:
        """The step at `count`: its own, or the nearest end's beyond the ramp."""
        chosen = self.steps[0]
        for step in self.steps:
            if step.true_count <= count:
                chosen = step
        return chosen
