"""The exact edge of the next round: one seat's EV, flat bet, dealt from the cards actually left in the
shoe and played by the rule set's basic strategy (its full-shoe chart, as `sim` plays it).

A counter's true count estimates this figure; the engine computes it. It is `ChartBuilder.game_ev` on
an engine of the depleted composition: every two-card hand and up card the shoe can deal, weighted by
their exact chances, each hand played by the chart (doubles and splits as the chart says, later cards
by total), the dealer's draws exact for the cards left. For the full shoe it is the chart's own `ev`.

Other seats at the table do not change it: whatever they draw is unseen when the round starts, and a
seat that plays a fixed strategy has the same expectation whatever cards the others take (each card's
chance is the same from any position in an unseen stack).

Under same-rank splitting (`bicycle`), the engine weighs a pair of ten-valued cards as splittable by a
full shoe's equal counts of tens, jacks, queens and kings, which a depleted shoe need not have. That
weight only matters where the chart splits tens, which no built-in rule set's chart does (it stands),
so the edge is exact there; a rule file whose chart split tens would see a small approximation.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.strategy.build import ChartBuilder
from trainer.strategy.cache import chart_for
from trainer.strategy.chart import Chart
from trainer.strategy.composition import Composition
from trainer.strategy.evaluate import evaluate

FEWEST_CARDS = 10
"""A shoe smaller than this is no round start: a one-deck cut card leaves 10 or more (the engine needs some
cards for the seat, the dealer and their draws)."""


def exact_edge(ruleset: Ruleset, shoe: Composition, *, chart: Chart | None = None) -> float:
    """The player's EV per unit bet of one round dealt from `shoe`, played by `chart` (default: the
    rule set's basic-strategy chart), as a fraction (-0.004 is a 0.4% house edge)."""
    if shoe.infinite:
        shoe = Composition.full(ruleset)
    if shoe.size < FEWEST_CARDS:
        raise InvalidInputError(f"{shoe.size} cards left: too few for the exact edge of a round")
    if chart is None:
        chart = chart_for(ruleset)
    builder = ChartBuilder(ruleset, shoe=shoe)
    engine = builder.engine
    by_chart = evaluate(engine.table, engine.pay, decisions=builder.chart_decisions(chart),
                        like=engine.optimal)
    ev, _ = builder.game_ev(chart, by_chart, builder.split_values(by_chart))
    return ev


def round_starts(ruleset: Ruleset, rng: random.Random, rounds: int) -> Iterator[Composition]:
    """The undealt cards at the start of each of `rounds` rounds dealt from real shoes (`Shoe`: burn
    card, cut card, the shuffle once it comes out), one seat playing the rule set's chart: the shoes a
    player meets, cut-card effect included, as `sim` deals them."""
    from trainer.core.round import Round
    from trainer.core.shoe import Shoe
    from trainer.strategy.seats import HardSeat

    shoe = Shoe.shuffled(ruleset, rng)
    seat = HardSeat()
    for _ in range(rounds):
        if shoe.needs_shuffle:
            shoe.shuffle()
        yield Composition.of(shoe.remaining_cards())
        round_ = Round.start(ruleset, shoe, [ruleset.table.min_bet])
        while not round_.finished:  # the round puts its cards in the tray when it ends
            round_.act(seat.decide(round_.view(0)))
