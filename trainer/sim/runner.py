"""Running a simulation on every core: the hands split into per-job streams, each seeded from the seed.

Job `j` of a run seeded `s` deals its shoes with `random.Random("cutcard-sim:s:j")`, and draws the
learner's mistakes from a stream of their own, so a given seed and job count always give the same
figures: the jobs' tallies are exact integer sums, and adding them up does not depend on which job
finishes first. Workers are spawned (not forked), so they start clean whatever threads the caller runs,
e.g. a progress bar's.

Workers live and die with the run (`trainer.sim.lifeline`): each watches its parent (Linux's
parent-death signal, and a thread that polls the parent's pid) and exits within a fraction of a second
when the parent dies by any signal, kill -9 included. Ctrl-C is the parent's alone: it tells the
workers to stop at their next progress report, and the run ends with the figures of the rounds
played so far (`Run.stopped`). A job plays its share in segments of `SEGMENT_ROUNDS` rounds, each from
a fresh shoe, so that what a stopped job returns is whole segments' exact tallies.

Where the compiled kernel is available (`trainer.sim.fast`: numba installed), it plays instead of the
Python engine, and the jobs run on threads of this process, since the kernel runs without the GIL: no
worker to start, no second load of the kernel, nothing to outlive the process. The tables are built
once and shared; the run's segments are numbered, each dealt from streams of its own
(`segment_rngs`), and handed to whichever thread is free (`Segments`), so a thread the machine slows
plays fewer of them and none idles at the end waiting for a fixed share, and the figures of a seed do
not depend on the job count at all. The two engines play the same rules but draw different random
numbers, so a seed's figures depend on which engine played them.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.sim import fast, lifeline
from trainer.sim.count import CountPlan
from trainer.sim.counter import CHART_CELLS, Cell, Counter, Mistakes, count_plan, flat_plan
from trainer.sim.engine import Winnings, play_rounds
from trainer.sim.game import make_game
from trainer.sim.plays import Lookup, compile_plays
from trainer.sim.shoes import shoe_source

MOST_HANDS = 10**10
SEGMENT_ROUNDS = 50_000
"""Rounds a job plays from one shoe source call: a stopped job keeps every finished segment."""
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


def _mistakes_rng(seed: int, job: int) -> random.Random:
    """The learner's mistakes draw from their own stream, so a run with mistakes deals the very shoes
    of the run without them and the difference between the two is the mistakes' alone."""
    return random.Random(f"cutcard-sim-mistakes:{seed}:{job}")


def segment_rngs(seed: int, job: int, segment: int) -> tuple[random.Random, random.Random]:
    """The compiled engine's streams for segment `segment` of job `job`: its shoes', its mistakes'."""
    return (random.Random(f"cutcard-sim:{seed}:{job}:{segment}"),
            random.Random(f"cutcard-sim-mistakes:{seed}:{job}:{segment}"))


def shares(hands: int, jobs: int) -> list[int]:
    """Hands per job, as even as whole hands allow.

    >>> shares(10, 3)
    [4, 3, 3]
    """
    return [hands // jobs + (1 if j < hands % jobs else 0) for j in range(jobs)]


def play_job(plan: Plan, hands: int, seed: int, job: int,
             progress: Callable[[int], None] | None = None,
             stop: Callable[[], bool] | None = None) -> Winnings:
    """Play one job's share of a simulation in this process; `stop` (asked at each progress report)
    ends it early with the tally of the segments played."""
    if fast.available():
        return _play_native(_native_seat(plan, seed, job), Segments(hands), seed, job, progress, stop)
    rng = job_rng(seed, job)
    slips = _mistakes_rng(seed, job)
    game = make_game(plan.ruleset, plan.counter.system.tag if plan.counter else None)
    lookup = plan.lookup()
    plays = compile_plays(lookup, plan.ruleset, game.codes)
    if plan.counter is not None:
        count: CountPlan | None = count_plan(game, lookup, plan.counter, plan.mistakes, slips)
    elif plan.mistakes.any:
        count = flat_plan(game, lookup, plan.mistakes, slips)
    else:
        count = None
    source = shoe_source(plan.ruleset, game.codes, rng)

    def play(size: int, segment: Winnings, tell: Callable[[int], None]) -> None:
        play_rounds(game, plays, source, size, segment, count=count, progress=tell)

    return _play_segments(play, hands, progress, stop)


def _reporter(progress: Callable[[int], None] | None, stop: Callable[[], bool] | None
              ) -> Callable[[int], None]:
    """What a segment calls with its rounds played: passes them on to `progress`, and ends the segment
    (`_Stopped`) once `stop` is asked."""

    def tell(rounds: int) -> None:
        if progress is not None:
            progress(rounds)
        if stop is not None and stop():
            raise _Stopped

    return tell


def _play_segments(play: Callable[[int, Winnings, Callable[[int], None]], None], hands: int,
                   progress: Callable[[int], None] | None, stop: Callable[[], bool] | None) -> Winnings:
    """`hands` rounds in segments of `SEGMENT_ROUNDS`, each `play(rounds, tally, progress)` from a fresh
    shoe; a stop asked for at a progress report keeps the segments finished."""
    tally = Winnings()
    tell = _reporter(progress, stop)

    left = hands
    while left > 0:
        segment, size = Winnings(), min(left, SEGMENT_ROUNDS)
        try:
            play(size, segment, tell)
        except _Stopped:
            break
        tally.add(segment)
        left -= size
    return tally


class Segments:
    """A compiled run's hands as numbered segments of `SEGMENT_ROUNDS` (the last one shorter), handed
    out in order to whichever thread asks first: a thread slowed by the machine's other work plays
    fewer of them, and none waits on another at the end. Each segment plays from a fresh shoe with its
    own streams (`segment_rngs`), so the tally does not depend on which thread played which."""

    def __init__(self, hands: int) -> None:
        self._hands = hands
        self._next = 0
        self._lock = threading.Lock()

    def take(self) -> tuple[int, int] | None:
        """(the next segment's number, its rounds), or None when all are taken."""
        with self._lock:
            index = self._next
            size = min(SEGMENT_ROUNDS, self._hands - index * SEGMENT_ROUNDS)
            if size <= 0:
                return None
            self._next += 1
        return index, size


def prepare(plan: Plan) -> bool:
    """Ready the compiled kernel before a run is timed: loaded from its cache, or compiled on a
    machine's first run (about ten seconds), by one round at a throwaway seat. The run builds its own
    seats, so its figures are those it would have had. False where the Python engine plays (numba
    missing, or `CUTCARD_SIM=python`): it needs no readying."""
    if not fast.available():
        return False
    _native_seat(plan, 0, 0).play_rounds(1, Winnings())
    return True


def _native_seat(plan: Plan, seed: int, job: int) -> fast.NativeSeat:
    """The compiled seat of job `job`: its tables (the mistakes' from the job's stream); `_play_native`
    reseeds it at every segment."""
    game = make_game(plan.ruleset, plan.counter.system.tag if plan.counter else None)
    return fast.native_seat(game, plan.lookup(), plan.counter, plan.mistakes, _mistakes_rng(seed, job),
                            job_rng(seed, job))


def _play_native(seat: fast.NativeSeat, segments: Segments, seed: int, job: int,
                 progress: Callable[[int], None] | None, stop: Callable[[], bool] | None) -> Winnings:
    """The segments this seat takes, until none is left or a progress report finds `stop` asked (the
    segment under way is then left out, as in `_play_segments`)."""
    tally = Winnings()
    tell = _reporter(progress, stop)

    while (taken := segments.take()) is not None:
        index, size = taken
        seat.reseed(*segment_rngs(seed, job, index))
        segment = Winnings()
        try:
            seat.play_rounds(size, segment, progress=tell)
        except _Stopped:
            break
        tally.add(segment)
    return tally


class _Stopped(Exception):
    """Raised from a progress report when the run is told to stop (Ctrl-C)."""


@dataclass(frozen=True, slots=True)
class Run:
    """What a simulation played: the tally, and whether Ctrl-C stopped it short of its hands."""

    tally: Winnings
    stopped: bool = False


def _worker(plan: Plan, hands: int, seed: int, job: int) -> Winnings:
    done = lifeline.done

    def tell(rounds: int) -> None:
        done[job] += rounds

    return play_job(plan, hands, seed, job, tell, stop=lambda: bool(done[len(done) - 1]))


def check_hands(hands: int) -> None:
    if not 1 <= hands <= MOST_HANDS:
        raise InvalidInputError(f"--hands must be from 1 to {MOST_HANDS:,}, not {hands:,}")


def most_jobs() -> int:
    """The processes a run may use: one per core of this machine."""
    return os.cpu_count() or 1


def simulate(plan: Plan, hands: int, *, seed: int, jobs: int, progress: Progress | None = None) -> Winnings:
    """Play `hands` rounds of `plan` over `jobs` processes; the combined tally (Ctrl-C: KeyboardInterrupt)."""
    run = run_simulation(plan, hands, seed=seed, jobs=jobs, progress=progress)
    if run.stopped:
        raise KeyboardInterrupt
    return run.tally


def run_simulation(plan: Plan, hands: int, *, seed: int, jobs: int, progress: Progress | None = None) -> Run:
    """Play `hands` rounds of `plan` over `jobs` processes (at most one per core); Ctrl-C stops the run
    with the tally of what was played."""
    check_hands(hands)
    if jobs < 1:
        raise InvalidInputError(f"--jobs must be 1 or more, not {jobs}")
    jobs = min(jobs, hands, most_jobs())
    if plan.counter is not None:  # fail here, in one line, rather than in every worker
        count_plan(make_game(plan.ruleset, plan.counter.system.tag), plan.lookup(), plan.counter,
                   plan.mistakes, random.Random(0))
    if jobs == 1:
        return _run_here(plan, hands, seed, progress)
    if fast.available():
        return _run_threads(plan, hands, seed, jobs, progress)
    context = multiprocessing.get_context("spawn")
    done = context.Array("q", jobs + 1, lock=False)  # hands per job, then the stop flag
    total = Winnings()
    stopped = False
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=lifeline.start_worker,
                             initargs=(done, os.getpid())) as pool:
        futures = [pool.submit(_worker, plan, share, seed, j) for j, share in enumerate(shares(hands, jobs))]
        pending = set(futures)
        while pending:
            try:
                finished, pending = wait(pending, timeout=0.2, return_when=FIRST_EXCEPTION)
            except KeyboardInterrupt:
                if stopped:  # a second Ctrl-C: no waiting for the workers' last segment
                    for process in list(getattr(pool, "_processes", {}).values()):
                        process.kill()
                    raise
                stopped = True
                done[jobs] = 1
                continue
            for future in finished:
                future.result()  # a worker's error surfaces here
            if progress is not None:
                progress(sum(done[:jobs]), hands)
        for future in futures:
            total.add(future.result())
    return Run(tally=total, stopped=stopped)


def _run_here(plan: Plan, hands: int, seed: int, progress: Progress | None) -> Run:
    """One job in this process; Ctrl-C (in the main thread) stops it at the next progress report."""
    played = [0]
    asked = threading.Event()

    def tell(rounds: int) -> None:
        played[0] += rounds
        if progress is not None:
            progress(played[0], hands)

    if threading.current_thread() is not threading.main_thread():
        return Run(tally=play_job(plan, hands, seed, 0, tell))
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: asked.set())
    try:
        tally = play_job(plan, hands, seed, 0, tell, stop=asked.is_set)
    finally:
        signal.signal(signal.SIGINT, previous)
    return Run(tally=tally, stopped=asked.is_set())


def _run_threads(plan: Plan, hands: int, seed: int, jobs: int, progress: Progress | None) -> Run:
    """The jobs on threads of this process, for the compiled kernel, which runs without the GIL: no
    worker to start, no code to load twice, and nothing left behind however the process ends. Ctrl-C
    (in the main thread) stops every job at its next progress report; a second one stops at once."""
    fast.native()  # import the kernel once, before the jobs want it (its first call compiles or loads it)
    first = _native_seat(plan, seed, 0)  # the tables once: every thread plays them
    seats = [first, *(first.twin() for _ in range(jobs - 1))]
    segments = Segments(hands)
    done = [0] * jobs
    results: list[Winnings | None] = [None] * jobs
    errors: list[BaseException] = []
    asked = threading.Event()

    def work(job: int) -> None:
        def tell(rounds: int) -> None:
            done[job] += rounds

        try:
            results[job] = _play_native(seats[job], segments, seed, 0, tell, asked.is_set)
        except BaseException as error:  # surfaces in the caller's thread
            errors.append(error)
            asked.set()

    threads = [threading.Thread(target=work, args=(j,), name=f"cutcard-sim-{j}", daemon=True)
               for j in range(jobs)]
    main = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGINT) if main else None

    def interrupted(_signum: int, _frame: object) -> None:
        if asked.is_set():
            raise KeyboardInterrupt
        asked.set()

    if main:
        signal.signal(signal.SIGINT, interrupted)
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():
                thread.join(0.2)
                if progress is not None:
                    progress(sum(done), hands)
        if progress is not None:
            progress(sum(done), hands)  # the last word: every job has reported all it played
    finally:
        if main:
            signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
    if errors:
        raise errors[0]
    total = Winnings()
    for tally in results:
        if tally is not None:
            total.add(tally)
    return Run(tally=total, stopped=asked.is_set())
