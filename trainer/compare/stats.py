"""Many games' per-count statistics at once: from the store, else simulated as chunks and kept there.

The same rounds `plan` would simulate for each game (`trainer.statstore`): a game the store holds is
read as it is; another gets `FIRST_BLOCK` rounds, then the rounds its SCORE's 2% SE needs, judged from
those, or the `rounds` asked for. Each phase is cut into chunks of `CHUNK_ROUNDS` (a game's blocks of
the store, `trainer.compare.chunks`) that every game's chunks share one runner and one progress bar;
a game's file is written when all of its phase's chunks are in.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from trainer.compare.chunks import Chunk, Runner
from trainer.sim.engine import Winnings
from trainer.sim.game import make_game
from trainer.sim.runner import Plan, compiled
from trainer.statstore import (
    FIRST_BLOCK,
    GameKey,
    Statistics,
    StatsStore,
    game_key,
    rounds_needed,
    with_blocks,
)

CHUNK_ROUNDS = 10_000_000
"""Rounds a chunk plays: about a second of one core for the compiled kernel, so a cluster's scheduling
costs little beside it and a lost worker loses little."""
Progress = Callable[[int, int], None]
"""Told (rounds simulated so far, rounds to simulate in all)."""


@dataclass(slots=True)
class _Want:
    """A game still to simulate: its key, plan, what it has and the rounds it is going to."""

    key: GameKey
    plan: Plan
    scale: int
    have: Statistics | None
    target: int


def chunks_for(game: int, plan: Plan, start: int, have: int, target: int, chunk_rounds: int) -> list[Chunk]:
    """The chunks that take a game from `have` rounds to `target`, its blocks numbered from `start`."""
    engine = compiled(plan)
    count = max(0, math.ceil((target - have) / chunk_rounds))
    return [Chunk(game=game, plan=plan, block=start + i, compiled=engine,
                  rounds=min(chunk_rounds, target - have - i * chunk_rounds)) for i in range(count)]


def gather(plans: Sequence[Plan], store: StatsStore, runner: Runner, *, rounds: int | None = None,
           chunk_rounds: int = CHUNK_ROUNDS, progress: Progress | None = None) -> list[Statistics]:
    """Every game's statistics, in order (a game named twice is simulated once)."""
    keys = [game_key(plan) for plan in plans]
    found: dict[GameKey, Statistics] = {}
    wants: dict[GameKey, _Want] = {}
    for key, plan in zip(keys, plans, strict=True):
        if key in found or key in wants:
            continue
        stored = store.read(key)
        if stored is not None and (rounds is None or stored.rounds >= rounds):
            found[key] = stored
        else:
            wants[key] = _Want(key=key, plan=plan, scale=make_game(plan.ruleset).scale, have=stored,
                               target=rounds if rounds is not None else FIRST_BLOCK)
    done_rounds = [0]
    planned = [0]

    def phase() -> None:
        chunks: list[Chunk] = []
        order = list(wants)
        for g, key in enumerate(order):
            want = wants[key]
            have = want.have.rounds if want.have else 0
            blocks = want.have.blocks if want.have else 0
            chunks += chunks_for(g, want.plan, blocks, have, want.target, chunk_rounds)
        planned[0] += sum(c.rounds for c in chunks)
        tallies: dict[int, dict[int, Winnings]] = {g: {} for g in range(len(order))}
        expected = {g: sum(1 for c in chunks if c.game == g) for g in range(len(order))}
        if progress is not None:
            progress(done_rounds[0], planned[0])

        def done(chunk: Chunk, tally: Winnings) -> None:
            tallies[chunk.game][chunk.block] = tally
            done_rounds[0] += chunk.rounds
            if len(tallies[chunk.game]) == expected[chunk.game]:  # the game's phase is in: keep it
                want = wants[order[chunk.game]]
                blocks = [tallies[chunk.game][b] for b in sorted(tallies[chunk.game])]
                want.have = with_blocks(want.key, want.scale, want.have, blocks)
                store.write(want.have)
            if progress is not None:
                progress(done_rounds[0], planned[0])

        if chunks:
            runner.run(chunks, done)

    phase()
    if rounds is None:  # the first block measured N0: on to SCORE's target
        for want in wants.values():
            assert want.have is not None
            want.target = rounds_needed(want.have)
        phase()
    for key, want in wants.items():
        assert want.have is not None
        found[key] = want.have
    return [found[key] for key in keys]
