"""A shoe that runs out in the middle of a round: the dealer shuffles the discards, and the round says so."""

from __future__ import annotations

import random

from trainer.core import Round, Shoe, find_ruleset
from trainer.core.events import DealerDrew, Dealt, Doubled, Hit, HoleCardTurned, Shuffled, SplitHand
from trainer.core.seats import EasySeat

CARD_EVENTS = (Dealt, Hit, Doubled, SplitHand, DealerDrew)


def test_a_mid_round_reshuffle_is_an_event_before_the_first_card_of_the_new_pack() -> None:
    rules = find_ruleset("casino").with_decks(1)  # seven seats can outrun one deck's cut card
    shoe = Shoe.shuffled(rules, random.Random(1))
    for _ in range(200):
        fresh = shoe.needs_shuffle  # Round.start shuffles first: a full pack less the burn card
        left = 52 - rules.shoe.burn if fresh else shoe.remaining
        shuffles = shoe.shuffles + fresh
        table = Round.start(rules, shoe, [10] * 7)
        while not table.finished:
            table.act(EasySeat().decide(table.view(table.seat_in_turn)))
        if len(table.table_cards()) > left:
            break
    else:
        raise AssertionError("no round ran out of cards")
    marks = [i for i, e in enumerate(table.events) if isinstance(e, Shuffled) and i > 0]
    assert len(marks) == 1  # one reshuffle, in the middle of the round
    reshuffle = table.events[marks[0]]
    assert isinstance(reshuffle, Shuffled) and reshuffle.burned == ()
    drawn_before = [e for e in table.events[:marks[0]] if isinstance(e, CARD_EVENTS)]
    assert len(drawn_before) == left  # the old pack was dealt to its last card first
    assert shoe.shuffles == shuffles + 1
    assert not any(isinstance(e, HoleCardTurned) for e in table.events[:marks[0]])
