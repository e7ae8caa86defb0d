"""The words every narrator of a round says alike.

Three audiences read a round's events: the counter's transcript (`drills.counting.table_transcript`), the
table screen (`trainer.render.table.event_line`) and the chat host's posts (`trainer.tournament.posts`).
Each writes its own sentences as one exhaustive `match` over the `Event` union closed by
`typing.assert_never`, so `mypy --strict` fails when an event type is added and a narrator does not say
it (tests/test_narration.py proves the check bites). What two narrators say the same way is defined here
once and used by both: whose hand it is, a seat standing, a surrender, even money, the dealer's
result, each outcome.

>>> dealer_result(DealerStood(total=23, bust=True, natural=False))
'busts with 23'
>>> stands_on(17), OUTCOME_WORDS[Outcome.PUSH]
('stands on 17', 'pushes')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from trainer.core.events import DealerStood, Outcome

SURRENDERS = "surrenders"
TAKES_EVEN_MONEY = "takes even money"


def whose_hand(name: str, hand: int, hands: int) -> str:
    """Who acts: the seat's name, with the hand's number once a split has made `hands` of them.

    >>> whose_hand("Ann", 0, 1), whose_hand("Ann", 1, 2)
    ('Ann', 'Ann (hand 2)')
    """
    return f"{name} (hand {hand + 1})" if hands > 1 else name


def stands_on(total: int) -> str:
    """A seat's or the dealer's stand: 'stands on 17'."""
    return f"stands on {total}"


def dealer_result(event: DealerStood) -> str:
    """How the dealer's hand ended, said of the dealer: 'has blackjack', 'busts with 23', 'stands on 18'."""
    if event.natural:
        return "has blackjack"
    return f"busts with {event.total}" if event.bust else stands_on(event.total)


OUTCOME_WORDS: Mapping[Outcome, str] = MappingProxyType({
    Outcome.WIN: "wins",
    Outcome.LOSE: "loses",
    Outcome.PUSH: "pushes",
    Outcome.BLACKJACK: "has blackjack",
    Outcome.BUST: "busts",
    Outcome.SURRENDER: SURRENDERS,
    Outcome.EVEN_MONEY: TAKES_EVEN_MONEY,
    Outcome.DEALER_BLACKJACK: "loses to the dealer's blackjack",
})
"""A settled hand's outcome said of its seat, every outcome named."""
