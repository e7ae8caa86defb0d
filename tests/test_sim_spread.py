"""Rounds of several hands in the simulator against `Round` with as many seats: the same shoes, the same
strategy, the same result for every hand, for every shipped rule set and the rule options no seed uses,
with the textbook chart and random letters (which double, split, resplit and surrender everywhere),
insurance always declined and always taken."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

import pytest
from sim_support import CUSTOM, play_round, scrambled

from trainer.core import Round, Shoe, builtin_rulesets
from trainer.core.rules import Reshuffle
from trainer.sim.game import Game, make_game
from trainer.sim.plays import Lookup, UpPlays, compile_plays
from trainer.sim.spread import play_spread
from trainer.sim.textbook import textbook

RULESETS = {name: rules for name, rules in {**builtin_rulesets(), **CUSTOM}.items()
            if not rules.infinite_deck and rules.tournament is None}
STRATEGIES: dict[str, Lookup] = {"textbook": textbook, "scrambled-1": scrambled(1)}
ROUNDS = 250


@functools.cache
def _game(name: str) -> Game:
    return make_game(RULESETS[name])


@functools.cache
def _plays(name: str, strategy: str) -> tuple[UpPlays, ...]:
    return compile_plays(STRATEGIES[strategy], RULESETS[name], _game(name).codes)


@pytest.mark.parametrize("insure", [False, True])
@pytest.mark.parametrize("strategy", list(STRATEGIES))
@pytest.mark.parametrize("name", list(RULESETS))
def test_each_hand_of_a_spread_round_wins_what_round_pays_its_seat(name: str, strategy: str,
                                                                    insure: bool) -> None:
    rules = RULESETS[name]
    game = _game(name)
    plays = _plays(name, strategy)
    codes = game.codes.by_card
    rng = random.Random(f"{name}:{strategy}:{insure}")
    shoe = Shoe.shuffled(rules, rng)
    for n in range(ROUNDS):
        hands = 2 + n % 3
        if shoe.needs_shuffle or rules.shoe.reshuffle is Reshuffle.EVERY_ROUND or shoe.remaining < 60:
            shoe.shuffle()
        ahead = [codes[c] for c in shoe.remaining_cards()]
        before = shoe.dealt
        round_ = Round.start(rules, shoe, bets=[1] * hands)
        play_round(round_, STRATEGIES[strategy], insure=insure)
        used = shoe.dealt - before
        deck = iter(ahead)
        drawn = [0]

        def draw(deck: Iterator[int] = deck, drawn: list[int] = drawn) -> int:
            drawn[0] += 1
            return next(deck)

        nets = play_spread(game, hands, draw, lambda shown, up: (plays, insure))
        expected = [round_.results[i] * game.scale for i in range(hands)]
        assert nets == expected, f"round {n} ({hands} hands): {nets} against Round's {expected}"
        assert drawn[0] == used, f"round {n}: the engine drew {drawn[0]} cards, Round {used}"
