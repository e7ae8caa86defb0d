"""Running a simulation on every core: the hands split into per-job streams, each seeded from the seed.

Job `j` of a run seeded `s` deals its shoes with `random.Random("cutcard-sim:s:j")`, and draws the
learner's mistakes from a stream of their own, so a given seed and job count always give the same
figures: the jobs' tallies are exact integer sums, and adding them up does not depend on which job
finishes first. Workers are spawned (not forked), so they start clean whatever threads the caller runs,
e.g. a progress bar's.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.sim.count import CountPlan
from trainer.sim.counter import CHART_CELLS, Cell, Counter, Mistakes, count_plan, flat_plan
from trainer.sim.engine import Tally, play_rounds
from trainer.sim.game import make_game
from trainer.sim.plays import Lookup, compile_plays
from trainer.sim.shoes import shoe_source

MOST_HANDS = 10**10
Progress = Callable[[int, int], None]
"""Told (hands played so far, hands in all) as a run goes."""


def chart_cells() -> list[Cell]:
    """Every cell of a basic-strategy chart: hard 5-21, soft 13-21 and pairs, against A and 2-10."""
    return list(CHART_CELLS)


def letters_of(lookup: Lookup) -> dict[Cell, str]:
    """A chart as plain data: the letter of every cell."""
    return {cell: lookup(*cell) for cell in chart_cells()}


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """One simulation as plain data, so that a worker process can rebuild everything from it."""

    ruleset: Ruleset
    chart: Mapping[Cell, str]
    """The letter of every chart cell (see `letters_of`)."""
    counter: Counter | None = None
    """None: flat bets of one unit by the chart."""
    mistakes: Mistakes = field(default_factory=Mistakes)
    """The learner's error rates (none: perfect play)."""

    def lookup(self) -> Lookup:
        chart = self.chart

        def letter(kind: str, number: int, up: int) -> str:
            return chart[(kind, number, up)]

        return letter


def job_rng(seed: int, job: int) -> random.Random:
    """The random stream of job `job` of a run seeded `seed`."""
    return random.Random(f"cutcard-sim:{seed}:{job}")


def shares(hands: int, jobs: int) -> list[int]:
    """Hands per job, as even as whole hands allow.

    >>> shares(10, 3)
    [4, 3, 3]
    """
    return [hands // jobs + (1 if j < hands % jobs else 0) for j in range(jobs)]


def play_job(plan: Plan, hands: int, seed: int, job: int,
             progress: Callable[[int], None] | None = None) -> Tally:
    """Play one job's share of a simulation in this process."""
    rng = job_rng(seed, job)
    slips = random.Random(f"cutcard-sim-mistakes:{seed}:{job}")
    """The learner's mistakes draw from their own stream, so a run with mistakes deals the very shoes
    of the run without them and the difference between the two is the mistakes' alone."""
    game = make_game(plan.ruleset, plan.counter.system.tag if plan.counter else None)
    lookup = plan.lookup()
    plays = compile_plays(lookup, plan.ruleset, game.codes)
    if plan.counter is not None:
        count: CountPlan | None = count_plan(game, lookup, plan.counter, plan.mistakes, slips)
    elif plan.mistakes.any:
        count = flat_plan(game, lookup, plan.mistakes, slips)
    else:
        count = None
    tally = Tally()
    play_rounds(game, plays, shoe_source(plan.ruleset, game.codes, rng), hands, tally, count=count,
                progress=progress)
    return tally


_done: Any = None
"""In a worker: the shared array of hands played per job."""


def _start_worker(done: Any) -> None:
    global _done
    _done = done


def _worker(plan: Plan, hands: int, seed: int, job: int) -> Tally:
    def tell(rounds: int) -> None:
        _done[job] += rounds

    return play_job(plan, hands, seed, job, tell)


def check_hands(hands: int) -> None:
    if not 1 <= hands <= MOST_HANDS:
        raise InvalidInputError(f"--hands must be from 1 to {MOST_HANDS:,}, not {hands:,}")


def simulate(plan: Plan, hands: int, *, seed: int, jobs: int, progress: Progress | None = None) -> Tally:
    """Play `hands` rounds of `plan` over `jobs` processes; the combined tally."""
    check_hands(hands)
    if jobs < 1:
        raise InvalidInputError(f"--jobs must be 1 or more, not {jobs}")
    jobs = min(jobs, hands)
    if plan.counter is not None:  # fail here, in one line, rather than in every worker
        count_plan(make_game(plan.ruleset, plan.counter.system.tag), plan.lookup(), plan.counter,
                   plan.mistakes, random.Random(0))
    if jobs == 1:
        played = [0]

        def tell(rounds: int) -> None:
            played[0] += rounds
            if progress is not None:
                progress(played[0], hands)

        return play_job(plan, hands, seed, 0, tell)
    context = multiprocessing.get_context("spawn")
    done = context.Array("q", jobs, lock=False)
    total = Tally()
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                             initargs=(done,)) as pool:
        futures = [pool.submit(_worker, plan, share, seed, j) for j, share in enumerate(shares(hands, jobs))]
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=0.2, return_when=FIRST_EXCEPTION)
            for future in finished:
                future.result()  # a worker's error surfaces here
            if progress is not None:
                progress(sum(done), hands)
        for future in futures:
            total.add(future.result())
    return total
