"""A comparison's simulation as seeded, independent chunks, run in local processes or on a Dask cluster.

A chunk is one game's block of rounds: block `b` of a game is played as job 0 of a run seeded
`statstore.SEED + b`, which is what the statistics store's block `b` is (`trainer.statstore.build`), so a
chunk's tally is a block of the store and its sums add to the store's exactly (integers). A chunk's
tally depends on its game, block and rounds alone: never on which process or machine played it, in
what order, or how often it was started, so a comparison's figures are the same on one machine and on a
cluster. The engine is part of the chunk (the compiled kernel and the Python engine draw different
random numbers): a worker that cannot play the run's engine says so rather than play the other.

Runners: `LocalProcesses` (a `ProcessPoolExecutor`; a worker lost mid-chunk breaks the pool, and the
chunks without a tally are run again on a fresh one) and `DaskCluster` (`dask.distributed`, imported
only here and only when asked; the scheduler runs a chunk lost with its worker again on another, and
`RETRIES` more times where the chunk itself failed).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

from trainer.core.errors import TrainerError
from trainer.sim.engine import Winnings
from trainer.sim.runner import Plan, compiled, play_job
from trainer.statstore import SEED

ATTEMPTS = 3
"""How often a chunk is started before a comparison gives up on it (its worker died each time)."""
RETRIES = 2
"""Dask: how often a chunk that raised is run again (a lost worker's chunks are rerun by the scheduler,
up to its `allowed-failures`)."""


class ChunkError(TrainerError):
    """A chunk could not be played: its worker died every time, or the cluster cannot play it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Chunk:
    """One game's block of rounds: what a worker needs to play it, as plain data."""

    game: int
    """The game's place in the comparison (for the caller; it changes nothing played)."""
    plan: Plan
    block: int
    """The store's block number: the chunk is seeded `SEED + block`."""
    rounds: int
    compiled: bool
    """The engine that plays it: the compiled kernel, or the Python engine."""

    @property
    def seed(self) -> int:
        return SEED + self.block


Play = Callable[[Chunk], Winnings]
Done = Callable[[Chunk, Winnings], None]
"""Told each chunk with its tally as it finishes, in whatever order they finish."""


def play_chunk(chunk: Chunk) -> Winnings:
    """Play a chunk here (in a worker): its block as job 0 of its seed, on its engine."""
    if compiled(chunk.plan) != chunk.compiled:
        here, wanted = ("compiled", "Python") if compiled(chunk.plan) else ("Python", "compiled")
        raise ChunkError(f"a worker plays the {here} simulator, the comparison the {wanted} one: install "
                         "the same cutcard (with the same extras) and CUTCARD_SIM everywhere")
    return play_job(chunk.plan, chunk.rounds, chunk.seed, 0)


class Runner(Protocol):
    """Where chunks are played."""

    lost_workers: int | None
    """Workers lost while this runner played (their unfinished chunks ran again); None: not known here."""

    def run(self, chunks: Sequence[Chunk], done: Done) -> None:
        """Play every chunk, telling `done` each one's tally as it finishes."""


class LocalProcesses:
    """Chunks on this machine's processes (spawned: numba's threads and forks do not mix), or in this
    process alone where `jobs` is 1. A worker that dies (killed, out of memory) breaks the pool: the
    chunks it left without a tally are run again on a fresh pool, each started at most `ATTEMPTS` times."""

    def __init__(self, jobs: int, *, play: Play = play_chunk) -> None:
        self.jobs = jobs
        self.play = play
        self._pool: ProcessPoolExecutor | None = None
        self.lost_workers: int | None = 0

    def __enter__(self) -> LocalProcesses:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close(wait=kind is None)

    def close(self, *, wait: bool = True) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if not wait:  # Ctrl-C or an error: no waiting on chunks nobody will read
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
        pool.shutdown(wait=wait, cancel_futures=True)

    def _fresh(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def run(self, chunks: Sequence[Chunk], done: Done) -> None:
        if self.jobs == 1:  # one process: this one, with no worker to start (nor to lose)
            for chunk in chunks:
                done(chunk, self.play(chunk))
            return
        left = dict(enumerate(chunks))
        starts = dict.fromkeys(left, 0)
        while left:
            pool = self._fresh()
            for i in left:
                starts[i] += 1
            futures: dict[Future[Winnings], int] = {pool.submit(self.play, chunk): i
                                                     for i, chunk in left.items()}
            pending = set(futures)
            broken = False
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    try:
                        tally = future.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    i = futures[future]
                    done(left.pop(i), tally)
            if broken:
                self.close(wait=False)
                worst = max(left, key=starts.__getitem__, default=None)
                if worst is not None and starts[worst] >= ATTEMPTS:
                    chunk = left[worst]
                    raise ChunkError(f"a worker process died {ATTEMPTS} times playing block {chunk.block} "
                                     f"of game {chunk.game + 1} ({chunk.plan.ruleset.name})")
                self.lost_workers = (self.lost_workers or 0) + 1


class DaskCluster:
    """Chunks on a Dask cluster (`dask.distributed`): the scheduler at `address` hands them to its
    workers, runs a chunk lost with its worker again on another, and a chunk that raised `RETRIES` more
    times; every worker needs this cutcard installed (its `cluster` extra, and `fast` for the kernel)."""

    def __init__(self, address: str, *, play: Play = play_chunk) -> None:
        self.address = address
        self.play = play
        self._client: Any = None
        self.lost_workers: int | None = None  # the scheduler reruns their chunks without telling the client

    def __enter__(self) -> DaskCluster:
        return self

    def _connected(self) -> Any:
        """The client, connected on the first chunks to run (a comparison the store answers whole needs
        no cluster)."""
        if self._client is not None:
            return self._client
        try:
            from dask.distributed import Client
        except ImportError:
            raise ChunkError("--scheduler needs dask.distributed: pip install 'cutcard[cluster]'") from None
        try:
            self._client = Client(self.address, timeout="10s")  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as e:
            raise ChunkError(f"cannot reach the Dask scheduler at {self.address}: {str(e)[:120]}") from None
        return self._client

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.close()

    def run(self, chunks: Sequence[Chunk], done: Done) -> None:
        from dask.distributed import as_completed
        from distributed.scheduler import KilledWorker

        client = self._connected()
        futures = client.map(self.play, list(chunks), retries=RETRIES, pure=False)
        index = {future.key: i for i, future in enumerate(futures)}
        try:
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                try:
                    tally = future.result()
                except KilledWorker:
                    chunk = chunks[index[future.key]]
                    raise ChunkError(f"the cluster lost a worker each time it played block {chunk.block} of "
                                     f"game {chunk.game + 1} ({chunk.plan.ruleset.name})") from None
                done(chunks[index[future.key]], tally)
        except BaseException:
            client.cancel(futures)
            raise
