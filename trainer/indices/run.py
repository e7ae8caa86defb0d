"""Computing a list of index plays: the pool of shoes and the plays spread over processes, and the cache.

A run is plain data (`IndexRun`): the rule set, the count, the seats, the shoes dealt and the EV samples
per play, and the seed. The pool is dealt in chunks of shoes, chunk `j` with `random.Random(
"cutcard-indices:seed:pool:j")`; each play then draws its rounds with a stream named after the seed and
the play. So the results depend on the run's settings alone, not on `--jobs` or which process finishes
first, and a run's fingerprint names its cached results (`$CUTCARD_HOME/indices/<fingerprint>.json`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from trainer.core.actions import Action
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset, Surrender
from trainer.indices.asked import Asked
from trainer.indices.compute import Dealer, PlayResult, TrueCountMethod, compute_play
from trainer.indices.crossing import CountGroup
from trainer.indices.shoes import Pool, deal_pool
from trainer.strategy.indexplay import IndexPlay

VERSION = 1
"""Bumped when the method or the cached format changes, so stale results are computed again."""
POOL_CHUNK = 50
"""Shoes per pool job."""
SMALL_RUN = 1_000
"""A run of fewer work units than this (shoes dealt x seats, plus exact EVs in all: each about 2 ms of
CPU) keeps to one process unless told otherwise: a spawned worker costs about 0.4 s of CPU to start (an
interpreter, numpy and the exact engine's imports), so on a run of a second or two it saves little or
no time and costs a third more CPU. The standard run is twenty times past it."""

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexRun:
    """One computation of index plays, as plain data a worker can rebuild everything from."""

    ruleset: Ruleset
    counting: TrueCountMethod
    seats: int
    shoes: int
    """Shoes dealt for the pool of round starts."""
    samples: int
    """Exact EV evaluations per play."""
    seed: int

    def fingerprint(self) -> str:
        """A name for the run's results: the method's version and every setting that changes them."""
        system = self.counting.system
        parts = [f"v{VERSION}", self.ruleset.fingerprint, system.name, repr(system.tags),
                 repr(system.red_tags), str(system.initial_running_count(self.ruleset.shoe.decks)),
                 self.counting.estimation, self.counting.rounding, str(self.seats), str(self.shoes),
                 str(self.samples), str(self.seed)]
        if self.counting.last_deck not in (None, self.counting.estimation):  # older runs keep their names
            parts.append(f"last-deck {self.counting.last_deck}")
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]


def table_for(ruleset: Ruleset, asked: Asked) -> Ruleset:
    """The table a play is computed at: a surrender play at a table without surrender is computed
    as if late surrender were offered (the Fab 4 for a learner practising them)."""
    if Action.SURRENDER in (asked.first, asked.second) and ruleset.player.surrender is Surrender.NONE:
        player = dataclasses.replace(ruleset.player, surrender=Surrender.LATE)
        return dataclasses.replace(ruleset, player=player)
    return ruleset


def _pool_job(run: IndexRun, job: int, shoes: int) -> tuple[Pool, float]:
    """One chunk of the pool, and the CPU seconds it took."""
    started = time.process_time()
    pool = deal_pool(run.ruleset, run.seats, shoes, random.Random(f"cutcard-indices:{run.seed}:pool:{job}"))
    return pool, time.process_time() - started


_pool: Pool | None = None
_dealers: dict[tuple[str, str], Dealer] = {}


def _play_job(run: IndexRun, asked: Asked, pool: Pool | None) -> PlayResult:
    global _pool
    if pool is not None:
        _pool = pool
        _dealers.clear()
    if _pool is None:
        raise RuntimeError("a play job before its pool")  # pragma: no cover
    table = table_for(run.ruleset, asked)
    key = (table.fingerprint, run.fingerprint())
    dealer = _dealers.get(key)
    if dealer is None:
        dealer = _dealers[key] = Dealer(table, _pool, run.counting)
    rng = random.Random(f"cutcard-indices:{run.seed}:play:{asked.key}:{asked.first}:{asked.second}")
    started = time.process_time()
    result = compute_play(table, dealer, asked, run.samples, rng)
    result.cpu_seconds = time.process_time() - started
    return result


def _cost(asked: Asked) -> int:
    """Rough relative cost, to start the slow plays first."""
    if asked.kind == "pair":
        return 100
    if asked.kind == "insurance":
        return 1
    return 30 - asked.total


def default_jobs(run: IndexRun, plays: int) -> int:
    """The processes for a run of `plays` plays when none are asked for: every core, or one for a run
    too small to repay starting workers (`SMALL_RUN`)."""
    if run.shoes * run.seats + run.samples * plays < SMALL_RUN:
        return 1
    return os.cpu_count() or 1


def compute_indices(run: IndexRun, plays: Sequence[Asked], *, jobs: int = 1,
                    progress: Progress | None = None) -> list[PlayResult]:
    """Every play of `plays` for this run (in their order), on `jobs` processes."""
    if jobs < 1:
        raise InvalidInputError(f"--jobs must be 1 or more, not {jobs}")
    if run.ruleset.infinite_deck:
        return [_infinite(run.ruleset, asked) for asked in plays]
    chunks = [min(POOL_CHUNK, run.shoes - s) for s in range(0, run.shoes, POOL_CHUNK)]
    total = len(chunks) + len(plays)
    done = 0

    def tick() -> None:
        if progress is not None:
            progress(done, total)

    tick()
    order = sorted(range(len(plays)), key=lambda i: -_cost(plays[i]))
    results: dict[int, PlayResult] = {}
    if jobs == 1:
        parts = []
        for j, n in enumerate(chunks):
            parts.append(_pool_job(run, j, n))
            done += 1
            tick()
        pool = _merged(parts)
        first = True
        for i in order:
            results[i] = _play_job(run, plays[i], pool if first else None)
            first = False
            done += 1
            tick()
        return [results[i] for i in range(len(plays))]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=context) as executor:
        futures = [executor.submit(_pool_job, run, j, n) for j, n in enumerate(chunks)]
        parts = _gather(futures, lambda: None)
        done = len(chunks)
        tick()
        pool = _merged(parts)
        play_futures = {executor.submit(_play_job, run, plays[i], pool): i for i in order}
        pending = set(play_futures)
        while pending:
            finished, pending = wait(pending, timeout=0.5, return_when=FIRST_EXCEPTION)
            for future in finished:
                results[play_futures[future]] = future.result()
                done += 1
            tick()
    return [results[i] for i in range(len(plays))]


POOL_CPU: list[float] = [0.0]
"""CPU seconds the last run's pool took to deal (for the benchmark)."""


def _merged(parts: list[tuple[Pool, float]]) -> Pool:
    POOL_CPU[0] = sum(cpu for _, cpu in parts)
    return Pool.merged([pool for pool, _ in parts])


def _gather(futures: list[Any], tick: Callable[[], None]) -> list[Any]:
    pending = set(futures)
    while pending:
        finished, pending = wait(pending, timeout=0.5, return_when=FIRST_EXCEPTION)
        for future in finished:
            future.result()
        tick()
    return [f.result() for f in futures]


def _infinite(ruleset: Ruleset, asked: Asked) -> PlayResult:
    """The infinite deck: every shoe is the full shoe, so no count changes the play."""
    from trainer.indices.compute import two_plays
    from trainer.strategy.hand import hand_evs

    first, second = two_plays(ruleset, asked)
    if asked.kind == "insurance":
        ratio = ruleset.payouts.insurance
        diff = ((ratio.win / ratio.stake + 1) * 4 / 13 - 1) / 2
    else:
        from trainer.core.cards import Rank, card
        from trainer.indices.asked import combos

        a, b = combos(asked)[0]
        evs = hand_evs(ruleset, (card(Rank(a)), card(Rank(b))), card(Rank(asked.up)))
        diff = evs.ev[first] - evs.ev[second]
    above, below = (first, second) if diff >= 0 else (second, first)
    group = CountGroup(true_count=0, samples=1, mean=abs(diff), se=0.0, occurrences=1)
    return PlayResult(asked=asked, above=above, below=below, index=None, crossing=None, se=None,
                      groups=[group], samples=1, always=above,
                      note="the infinite deck: every card is a fresh draw, so no count changes the play")


# --- results as data -------------------------------------------------------------------------------


def result_json(result: PlayResult) -> dict[str, Any]:
    """One play's result as the JSON contract has it (`cutcard indices --json`)."""
    a = result.asked
    return {
        "play": a.key, "set": a.set, "number": a.number, "when": a.when,
        "above": result.above.value, "below": result.below.value, "basic": result.basic.value,
        "index": result.index, "crossing": result.crossing, "se": result.se,
        "always": result.always.value if result.always else None, "samples": result.samples,
        "note": result.note,
        "counts": [{"true_count": g.true_count, "samples": g.samples, "mean_ev_difference": g.mean,
                    "se": g.se, "occurrences": g.occurrences,
                    "gain": _gain(result, g)} for g in result.groups],
    }


def _gain(result: PlayResult, g: CountGroup) -> float:
    """What the right play at this count gains over the basic play, per occurrence (per unit bet)."""
    if result.index is None:
        return 0.0
    right = result.above if g.true_count >= result.index else result.below
    if right == result.basic:
        return 0.0
    return g.mean if right == result.above else -g.mean


def result_from_json(data: dict[str, Any]) -> PlayResult:
    asked = Asked(kind=_kind(data["play"]), total=_total(data["play"]), up=_up(data["play"]),
                  first=Action(data["above"]), second=Action(data["below"]), set=data["set"],
                  number=data["number"], when=data["when"])
    groups = [CountGroup(true_count=c["true_count"], samples=c["samples"], mean=c["mean_ev_difference"],
                         se=c["se"], occurrences=c["occurrences"]) for c in data["counts"]]
    return PlayResult(asked=asked, above=Action(data["above"]), below=Action(data["below"]),
                      index=data["index"], crossing=data["crossing"], se=data["se"], groups=groups,
                      samples=data["samples"], always=Action(data["always"]) if data["always"] else None,
                      note=data["note"])


def _kind(key: str) -> str:
    return "insurance" if key == "insurance" else key.split()[0]


def _total(key: str) -> int:
    if key == "insurance":
        return 0
    word = key.split()[1]
    face = word.split("-")[0]
    return 1 if face == "A" else int(face)


def _up(key: str) -> int:
    if key == "insurance":
        return 1
    up = key.split()[-1]
    return 1 if up == "A" else int(up)


def to_index_play(result: PlayResult, source: str) -> IndexPlay:
    """A computed result as the trainer's index play (the drill, the table and the simulator read it)."""
    a = result.asked
    return IndexPlay(kind=a.kind, total=a.total, up_value=a.up, index=result.index, above=result.above,
                     below=result.below, basic=result.basic, source=source, game="computed", set=a.set,
                     number=a.number, when=a.when)


def play_key(asked: Asked) -> str:
    """How a play's result is named in a run's cache: the cell and the two plays asked."""
    plays = "/".join(sorted(str(p) for p in (asked.first, asked.second) if p is not None)) or "best"
    return f"{asked.key}:{plays}"


class ResultCache:
    """Where finished plays are kept between runs: bytes by (run fingerprint) (the CLI's is a file)."""

    def load(self, key: str) -> bytes | None:
        return None

    def save(self, key: str, data: bytes) -> None:
        return None


def cached_indices(run: IndexRun, plays: Sequence[Asked], cache: ResultCache, *, jobs: int = 1,
                   progress: Progress | None = None) -> tuple[list[PlayResult], int]:
    """`compute_indices` for the plays the cache does not hold; (results in order, plays computed)."""
    key = run.fingerprint()
    stored: dict[str, Any] = {}
    raw = cache.load(key)
    if raw is not None:
        try:
            stored = dict(json.loads(raw)["plays"])
        except (ValueError, KeyError, TypeError):
            stored = {}
    known: dict[str, PlayResult] = {}
    for asked in plays:
        entry = stored.get(play_key(asked))
        if entry is not None:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                known[play_key(asked)] = dataclasses.replace(result_from_json(entry), asked=asked)
    missing = [a for a in plays if play_key(a) not in known]
    if missing:
        for asked, result in zip(missing, compute_indices(run, missing, jobs=jobs, progress=progress),
                                 strict=True):
            known[play_key(asked)] = result
            stored[play_key(asked)] = result_json(result)
        cache.save(key, json.dumps({"ruleset": run.ruleset.name, "system": run.counting.system.name,
                                    "plays": stored}).encode())
    return [known[play_key(a)] for a in plays], len(missing)
