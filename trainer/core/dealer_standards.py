"""The timed standards a dealer school or an audition asks for, each with where its figure comes from.

A standard is a number of things done within a number of seconds ("run down 20 cheques under 10 s"). The
drills time each answer against its share of the standard (`ms_for`), and `ready`'s dealer track checks
the learner against the whole of it; both read it here, so the drill and the checklist cannot disagree.
Where no seed speaks (none does of timing), the figure is this trainer's reading of a named public course,
and `source` says so.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerStandard:
    """`count` of `what` within `seconds`, from `source`."""

    key: str
    what: str
    count: int
    seconds: int
    source: str

    @property
    def ms_each(self) -> float:
        """The standard's time for one of `what` (10 s for 20 cheques: 500 ms a cheque)."""
        return self.seconds * 1000 / self.count

    def ms_for(self, n: int) -> int:
        """The standard's time for `n` of `what`: 20 cheques at 20-under-10-s is 10 000 ms.

        >>> RUNDOWN.ms_for(20), RUNDOWN.ms_for(12), ADDITION.ms_for(1)
        (10000, 6000, 1200)
        """
        return round(self.ms_each * n)

    def words(self) -> str:
        """'20 cheques under 10 s'."""
        return f"{self.count} {self.what} under {self.seconds} s"


RUNDOWN = DealerStandard(
    key="rundown", what="cheques run down", count=20, seconds=10,
    source=("this trainer's reading of the Anne Arundel Community College Dealer School's Casino Blackjack "
            "Dealer course (COO-370), whose cheque-handling skills include running down 20 cheques in "
            "less than 10 seconds"))
ADDITION = DealerStandard(
    key="addition", what="two-digit additions", count=50, seconds=60,
    source=("this trainer's reading of the dealer schools' math screening, 50 two-digit additions in a "
            "minute; no published course stating it is cited"))
"""The standards the dealer drills time against (`drills.dealing.rundown`, `drills.dealing.addition`)."""
