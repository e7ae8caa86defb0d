"""Take-and-pay: the dealer settles hand by hand from third base (the last seat, on the dealer's right) to
first base, in a face-up game and a pitch game alike, in the round's events and on `play`'s screen;
`drill settle` and `drill catch` ask the same order."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from drills.base import DrillOptions
from drills.dealing.catch import CatchDrill
from trainer.core.cards import parse_cards
from trainer.core.deal import TableDeal
from trainer.core.events import CardsTurned, Settled
from trainer.core.round import Round
from trainer.core.rulesfile import find_ruleset
from trainer.core.shoe import Shoe
from trainer.render.table import event_line

NAMES = ["Ann", "Cy", "you", "Bob"]


def _four_seats(decks: int | None) -> Round:
    """Four seats stand on T 9, T 7, T 8, T T; the dealer T under an 8 stands on 18."""
    rules = find_ruleset("casino")
    rules = rules.with_decks(decks) if decks else rules
    t, nine, seven, eight = parse_cards("T 9 7 8")
    deal = TableDeal(seats=((t, nine), (t, seven), (t, eight), (t, t)), up=t, hole=eight)
    table = Round.start(rules, Shoe.stacked(rules, deal), bets=[10, 10, 10, 10])
    for _ in range(4):
        table.stand()
    assert table.finished
    return table


@pytest.mark.parametrize("decks", [None, 1])
def test_the_settlement_runs_from_third_base_to_first_base(decks: int | None) -> None:
    table = _four_seats(decks)
    settled = [(e.seat, e.outcome.value, e.net) for e in table.events if isinstance(e, Settled)]
    assert settled == [(3, "win", Decimal(10)), (2, "push", Decimal(0)), (1, "lose", Decimal(-10)),
                       (0, "win", Decimal(10))]
    turned = [e.seat for e in table.events if isinstance(e, CardsTurned)]
    assert turned == ([] if decks is None else [3, 2, 1, 0])  # a pitch game turns each hand as it is paid


def test_plays_screen_narrates_the_settlement_third_base_first() -> None:
    table = _four_seats(1)
    lines = [line.plain for e in table.events if (line := event_line(e, table, NAMES)) is not None]
    assert lines[lines.index("The dealer stands on 18.") + 1:] == [
        "Bob turns up: 10 10", "Bob wins +$10", "you turn up: 10 8", "you push $0",
        "Cy turns up: 10 7", "Cy loses -$10", "Ann turns up: 10 9", "Ann wins +$10"]


def test_catch_narrates_the_seats_in_the_same_order() -> None:
    question = CatchDrill(DrillOptions(seats=5)).ask(random.Random(5), find_ruleset("casino"), "catch:clean")
    seats = [c["where"] for c in question.data["calls"] if c["where"] != "dealer"]
    assert seats == ["5", "4", "3", "2", "1"]
