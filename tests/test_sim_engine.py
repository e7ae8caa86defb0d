"""The fast engine against the `Round` state machine: the same shoes, the same strategy, the same
result in every round, for every shipped rule set and the rule options no seed uses.

Any difference is a bug in one of the two. The strategies are the textbook chart and charts of random
letters (which double, split, resplit and surrender everywhere), each played with insurance and even
money always declined and always taken.
"""

from __future__ import annotations

import dataclasses
import random
from decimal import Decimal

import pytest
from sim_support import CUSTOM, RecordedShoes, recorded_rounds, scrambled

from trainer.core import Ruleset, builtin_rulesets
from trainer.sim.count import CountPlan
from trainer.sim.counter import Mistakes
from trainer.sim.engine import Tally, play_rounds
from trainer.sim.game import make_game
from trainer.sim.plays import Lookup, UpPlays, compile_plays
from trainer.sim.textbook import textbook

RULESETS = {**builtin_rulesets(), **CUSTOM}
STRATEGIES: dict[str, Lookup] = {"textbook": textbook, "scrambled-1": scrambled(1), "scrambled-2": scrambled(2)}
ROUNDS = 1500


def _always_insure(game_width: int, plays: tuple[UpPlays, ...]) -> CountPlan:
    """A 'count' that never moves, bets one unit and takes every insurance and even money offered."""
    return CountPlan(tag=[0] * game_width, initial=0, burn_shown=False, true_count=lambda rc, left: 0,
                     bet_for=lambda tc: 1, plays_for=lambda tc: plays, insure_from=0)


@pytest.mark.parametrize("insure", [False, True], ids=["decline", "insure"])
@pytest.mark.parametrize("strategy", list(STRATEGIES))
@pytest.mark.parametrize("name", list(RULESETS))
def test_engine_and_round_agree_round_by_round(name: str, strategy: str, insure: bool) -> None:
    rules: Ruleset = RULESETS[name]
    lookup = STRATEGIES[strategy]
    game = make_game(rules)
    seed = f"{name}:{strategy}:{insure}"
    shoes, expected = recorded_rounds(rules, game.codes, lookup, random.Random(seed), ROUNDS, insure=insure)
    plays = compile_plays(lookup, rules, game.codes)
    count = _always_insure(game.codes.width, plays) if insure else None
    record: list[int] = []
    tally = Tally()
    play_rounds(game, plays, RecordedShoes(shoes), ROUNDS, tally, count=count, record=record)
    got = [Decimal(n) / game.scale for n in record]
    for i, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        assert mine == theirs, f"round {i}: engine {mine}, Round {theirs}"
    assert tally.net == sum(record) and tally.rounds == ROUNDS


@pytest.mark.parametrize("insure", [False, True], ids=["decline", "insure"])
@pytest.mark.parametrize("strategy", list(STRATEGIES))
@pytest.mark.parametrize("name", list(RULESETS))
def test_the_compiled_engine_and_round_agree_round_by_round(name: str, strategy: str, insure: bool) -> None:
    """The same for the compiled kernel (`trainer.sim.native`, with numba installed)."""
    pytest.importorskip("numba")
    from trainer.sim.counter import TableSets
    from trainer.sim.fast import NativeSeat, flat_counting

    rules: Ruleset = RULESETS[name]
    lookup = STRATEGIES[strategy]
    game = make_game(rules)
    seed = f"{name}:{strategy}:{insure}"
    shoes, expected = recorded_rounds(rules, game.codes, lookup, random.Random(seed), ROUNDS, insure=insure)
    plays = compile_plays(lookup, rules, game.codes)
    tables = TableSets(low=0, right=[plays], wrong=[], rate=0.0)
    counting = dataclasses.replace(flat_counting(game), insure_from=0) if insure else None
    seat = NativeSeat(game, tables, counting, Mistakes(), random.Random(0), random.Random(1), recorded=shoes)
    record: list[int] = []
    tally = Tally()
    seat.play_rounds(ROUNDS, tally, record=record)
    got = [Decimal(n) / game.scale for n in record]
    for i, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        assert mine == theirs, f"round {i}: kernel {mine}, Round {theirs}"
    assert tally.net == sum(record) and tally.rounds == ROUNDS
