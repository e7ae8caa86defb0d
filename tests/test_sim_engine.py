"""The fast engine against the `Round` state machine: the same shoes, the same strategy, the same
result in every round, for every shipped rule set and the rule options no seed uses.

Any difference is a bug in one of the two. The strategies are the textbook chart and charts of random
letters (which double, split, resplit and surrender everywhere), each played with insurance and even
money always declined and always taken.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from decimal import Decimal
from typing import Any

import pytest
from sim_support import CUSTOM, RecordedShoes, recorded_rounds, scrambled

from trainer.core import builtin_rulesets
from trainer.sim.count import CountPlan
from trainer.sim.counter import Mistakes
from trainer.sim.engine import Winnings, play_rounds
from trainer.sim.game import Game, make_game
from trainer.sim.plays import Lookup, UpPlays, compile_plays
from trainer.sim.textbook import textbook

RULESETS = {**builtin_rulesets(), **CUSTOM}
STRATEGIES: dict[str, Lookup] = {"textbook": textbook, "scrambled-1": scrambled(1), "scrambled-2": scrambled(2)}
ROUNDS = 850


def _always_insure(game_width: int, plays: tuple[UpPlays, ...]) -> CountPlan:
    """A 'count' that never moves, bets one unit and takes every insurance and even money offered."""
    return CountPlan(tag=[0] * game_width, initial=0, burn_shown=False, true_count=lambda rc, left: 0,
                     bet_for=lambda tc: 1, plays_for=lambda tc: plays, insure_from=0)


def _cases() -> list[Any]:
    """Every (rule set, strategy, insurance) played by both engines, the two side by side on one
    xdist worker (`--dist loadgroup`) so the rounds `Round` plays are recorded once for both."""
    return [pytest.param(name, strategy, insure, engine,
                         id=f"{name}-{strategy}-{'insure' if insure else 'decline'}-{engine}",
                         marks=pytest.mark.xdist_group(f"sim-engine-{name}-{strategy}-{insure}"))
            for name in RULESETS for strategy in STRATEGIES for insure in (False, True)
            for engine in ("python", "compiled")]


@functools.cache
def _game(name: str) -> Game:
    return make_game(RULESETS[name])


@functools.cache
def _plays(name: str, strategy: str) -> tuple[UpPlays, ...]:
    """The strategy's compiled tables (a hundredth of a second each: the four checks of a rule set and
    strategy share them)."""
    return compile_plays(STRATEGIES[strategy], RULESETS[name], _game(name).codes)


@functools.lru_cache(maxsize=1)
def _recorded(name: str, strategy: str, insure: bool) -> tuple[list[tuple[list[int], int, int]], list[Decimal]]:
    """The shoes `Round` dealt and its result of each round (the slow half of each check, shared by the
    two engines' checks of one case). A shoe reshuffled after its round is recorded as far as that round
    dealt: an engine that draws a card more than `Round` did runs out and fails."""
    rules = RULESETS[name]
    return recorded_rounds(rules, _game(name).codes, STRATEGIES[strategy], random.Random(
        f"{name}:{strategy}:{insure}"), ROUNDS, insure=insure, dealt_only=True)


@pytest.mark.parametrize(("name", "strategy", "insure", "engine"), _cases())
def test_each_engine_and_round_agree_round_by_round(name: str, strategy: str, insure: bool,
                                                     engine: str) -> None:
    """The Python engine (`trainer.sim.engine`) and the compiled kernel (`trainer.sim.native`, with
    numba installed) each against the rounds `Round` played."""
    game = _game(name)
    shoes, expected = _recorded(name, strategy, insure)
    plays = _plays(name, strategy)
    record: list[int] = []
    tally = Winnings()
    if engine == "python":
        count = _always_insure(game.codes.width, plays) if insure else None
        play_rounds(game, plays, RecordedShoes(shoes), ROUNDS, tally, count=count, record=record)
    else:
        pytest.importorskip("numba")
        from trainer.sim.counter import TableSets
        from trainer.sim.fast import NativeSeat, flat_counting

        tables = TableSets(low=0, right=[plays], wrong=[], rate=0.0)
        counting = dataclasses.replace(flat_counting(game), insure_from=0) if insure else None
        seat = NativeSeat(game, tables, counting, Mistakes(), random.Random(0), random.Random(1),
                          recorded=shoes)
        seat.play_rounds(ROUNDS, tally, record=record)
    got = [Decimal(n) / game.scale for n in record]
    for i, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        assert mine == theirs, f"round {i}: {engine} engine {mine}, Round {theirs}"
    assert tally.net == sum(record) and tally.rounds == ROUNDS
