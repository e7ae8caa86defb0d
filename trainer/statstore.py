"""The statistics store: a game's per-count statistics, simulated once and kept under `$CUTCARD_HOME/stats`.

A bet plan needs, for every true count, the rounds, mean and second moment of a round's result played
flat by the counter (`trainer.sim.results.CountStats`). Simulating them takes seconds to minutes, so
they are kept in one JSON file per game, keyed by everything that changes them (`GameKey`): the rule
set's fingerprint (its rules, overrides, decks and penetration), the seats the simulator deals, the
count system and its tags (and its side count, which the bets and the per-count sums then follow),
deck estimation and rounding, the index plays and the insurance index, and
the learner's error rates where a plan is made with them. Planning reads the file and never simulates
a game it has seen.

How many rounds: enough that SCORE's standard error is at most `TARGET_SE` (2%) for a reference ramp
(the table 1-12 units, `REFERENCE`): SCORE's relative SE is about 2·√(N0/N), so N ≈ 10⁴·N0 rounds. A
first block of `FIRST_BLOCK` rounds estimates N0, then one more block runs to the target; `rounds`
asks for more. The file keeps the exact integer sums, so a later run that asks for more rounds adds a
block (seeded apart) to them. A file is written whole (a temporary file renamed over it), never half;
a run stopped by Ctrl-C writes nothing.

For several spots the plan also needs the covariance of two hands of one round: the store keeps, beside
a game's per-count file, a run of the same game that plays two hands every round (`SPOT_ROUNDS`
rounds): the variance of a hand and the covariance of the two (`SpotStatistics`).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from trainer.chartcache import FileCache
from trainer.core.spots import Spots
from trainer.core.wonging import Wonging
from trainer.planning.ramp import TableLimits, optimal
from trainer.sim.count import bet_count_name
from trainer.sim.counter import Counter
from trainer.sim.engine import COUNT_REACH, Winnings
from trainer.sim.game import make_game
from trainer.sim.results import CountStats, per_count, spot_figures
from trainer.sim.runner import Plan, run_simulation

VERSION = 1
"""Bumped when the simulator's per-count figures change meaning: older files are then rebuilt."""
TARGET_SE = 0.02
FIRST_BLOCK = 4_000_000
MOST_ROUNDS = 4_000_000_000
"""A game without an edge has no N0; its store stops here (or at the first block's target)."""
REFERENCE = TableLimits(bankroll=10_000, ror=0.05, min_bet=1, max_bet=12)
"""The ramp whose SCORE the default store measures to `TARGET_SE`: a 1-12 spread, optimally shaped."""
SEED = 35_000
"""Block b of a store is simulated with seed SEED + b."""
Progress = Callable[[int, int], None]
SPOT_ROUNDS = 400_000
"""Rounds of two hands the store plays for the covariance: its SE is then about 0.002 (a hand's
variance about 1.3, over √400,000 rounds)."""
SPOT_SEED = 36_000


@dataclass(frozen=True, slots=True, kw_only=True)
class GameKey:
    """Everything that changes a game's per-count statistics."""

    ruleset: str
    """The rule set's name (for people; the fingerprint is what keys)."""
    fingerprint: str
    seats: int = 1
    system: str
    tags: str
    estimation: str
    rounding: str
    indices: str
    """The index plays as the simulator plays them (their repr), with a short name in `index_words`."""
    insurance: int | None
    mistakes: str = ""
    """The learner's error rates, '' for perfect play."""
    wonging: str = ""
    """An exit policy's entry and exit counts ('entry:exit'), '' for a player of every round."""
    bet_count: str = ""
    """The side count the bets and the per-count sums follow ('ace-adjusted: 1 x 1/1 per deck' for
    Hi-Opt I: its ranks, the adjustment, the cards per deck), '' for the plain count. Per-count
    statistics keyed by the plain count have another key, so they are never read as adjusted ones."""

    def digest(self) -> str:
        text = json.dumps(self.to_json(), sort_keys=True)
        return hashlib.sha256(f"v{VERSION}:{text}".encode()).hexdigest()[:20]

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "fingerprint": self.fingerprint, "seats": self.seats,
                "system": self.system, "tags": self.tags, "estimation": self.estimation,
                "rounding": self.rounding, "indices": self.indices, "insurance": self.insurance,
                "mistakes": self.mistakes, **({"wonging": self.wonging} if self.wonging else {}),
                **({"bet_count": self.bet_count} if self.bet_count else {})}


def game_key(plan: Plan) -> GameKey:
    """The key of a counting plan's statistics."""
    counter = plan.counter
    if counter is None:
        raise ValueError("per-count statistics need a counter")
    m = plan.mistakes
    mistakes = "" if not m.any else json.dumps(
        {"count": m.count, "true_count": m.true_count, "strategy": m.strategy, "bet": m.bet,
         "cells": sorted((" ".join(map(str, c)), r) for c, r in m.cells.items() if r),
         "wrong": sorted((" ".join(map(str, c)), w) for c, w in m.wrong.items())})
    return GameKey(ruleset=plan.ruleset.name, fingerprint=plan.ruleset.fingerprint,
                   system=counter.system.name, tags=repr(counter.system.tags),
                   estimation=counter.estimation if counter.last_deck in (None, counter.estimation)
                   else f"{counter.estimation}, {counter.last_deck} in the last deck",
                   rounding=counter.rounding,
                   indices=repr(tuple(sorted(counter.indices, key=repr))), insurance=counter.insurance_index,
                   mistakes=mistakes, wonging=_policy(counter.wonging), bet_count=_bet_count(counter))


def _bet_count(counter: Counter) -> str:
    """The side count a counter's bets follow as its key ('' for the plain count)."""
    side, name = counter.system.side_count, bet_count_name(counter.system)
    if side is None or name == "plain":
        return ""
    return f"{name}: {' '.join(map(str, side.ranks))} x {side.adjustment} per deck of {side.per_deck}"


def _policy(wonging: Wonging | None) -> str:
    """An exit policy as its key ('2:0', 'None:-1'); '' for none, or entry only (the plan reads an
    entry-only policy from the full per-count table)."""
    return "" if wonging is None or not wonging.by_path else f"{wonging.entry}:{wonging.exit}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Statistics:
    """A game's per-count statistics and how they were made."""

    key: GameKey
    rows: tuple[CountStats, ...]
    rounds: int
    blocks: int
    scale: int
    sums: dict[int, list[int]] = field(default_factory=dict)
    built: bool = False
    """True when this call simulated (some of) them; False when they came from the store."""
    observed: int | None = None
    """An exit policy's statistics: the rounds dealt, of which `rows` holds those played."""

    def score_se(self) -> float:
        """SCORE's relative standard error for the reference ramp (see the module)."""
        n0 = optimal(self.rows, REFERENCE, observed=self.observed).figures.n0_rounds
        return 2 * math.sqrt(n0 / self.rounds) if math.isfinite(n0) else math.inf


@dataclass(frozen=True, slots=True, kw_only=True)
class SpotStatistics:
    """A game played two hands a round: the variance of a hand, the covariance of the two."""

    variance: float
    covariance: float
    rounds: int
    built: bool = False

    @property
    def correlation(self) -> float:
        return self.covariance / self.variance if self.variance else 0.0


class StatsStore(FileCache):
    """Per-count statistics as files `<key digest>.json` in one directory."""

    what = "stats"

    def read(self, key: GameKey) -> Statistics | None:
        """The stored statistics of a game, or None (none yet, unreadable, another version)."""
        data = self.load(key.digest())
        if data is None:
            return None
        try:
            document = json.loads(data)
            if document.get("version") != VERSION or document.get("key") != key.to_json():
                return None
            sums = {int(tc): [int(n), int(net), int(sq)] for tc, n, net, sq in document["sums"]}
            scale = int(document["scale"])
            blocks = int(document["blocks"])
            observed = document.get("observed")
            observed = int(observed) if observed is not None else None
        except (ValueError, KeyError, TypeError):
            return None
        return _statistics(key, sums, scale, blocks, built=False, observed=observed)

    def write(self, stats: Statistics) -> None:
        document = {"version": VERSION, "key": stats.key.to_json(), "scale": stats.scale,
                    "rounds": stats.rounds, "blocks": stats.blocks, "observed": stats.observed,
                    "sums": [[tc, *sums] for tc, sums in sorted(stats.sums.items())]}
        self.save(stats.key.digest(), json.dumps(document).encode())

    def statistics(self, plan: Plan, *, jobs: int, rounds: int | None = None,
                   progress: Progress | None = None) -> Statistics:
        """The game's statistics: from the store where it holds enough rounds, else simulated (and
        kept). `rounds`: at least this many (default: SCORE's SE at most 2%). Ctrl-C:
        KeyboardInterrupt, and nothing is written."""
        key = game_key(plan)
        stored = self.read(key)
        if stored is not None and (rounds is None or stored.rounds >= rounds):
            return stored
        stats = build(plan, key, jobs=jobs, rounds=rounds, progress=progress, start=stored)
        self.write(stats)
        return stats

    def spot_statistics(self, plan: Plan, *, jobs: int, progress: Progress | None = None) -> SpotStatistics:
        """The game's two-hand figures: from the store, else simulated once (and kept)."""
        key = game_key(plan)
        name = f"{key.digest()}-spots"
        data = self.load(name)
        if data is not None:
            try:
                document = json.loads(data)
                if document.get("version") == VERSION and document.get("key") == key.to_json():
                    return _spot_figures(Winnings(**document["sums"]), int(document["scale"]), built=False)
            except (ValueError, KeyError, TypeError):
                pass
        assert plan.counter is not None
        two = replace(plan, counter=replace(plan.counter, spots=Spots(steps=((-COUNT_REACH - 1, 2),))))
        run = run_simulation(two, SPOT_ROUNDS, seed=SPOT_SEED, jobs=jobs, progress=progress)
        if run.stopped:
            raise KeyboardInterrupt
        t = run.tally
        sums = {name: getattr(t, name) for name in ("spot_hands", "spot_sum", "spot_squares", "pair_rounds",
                                                   "pair_first", "pair_second", "pair_products")}
        scale = make_game(plan.ruleset).scale
        self.save(name, json.dumps({"version": VERSION, "key": key.to_json(), "scale": scale,
                                    "sums": sums}).encode())
        return _spot_figures(Winnings(**sums), scale, built=True)


def _spot_figures(tally: Winnings, scale: int, *, built: bool) -> SpotStatistics:
    figures = spot_figures(tally, scale)
    return SpotStatistics(variance=figures.get("variance_per_hand") or 0.0,
                          covariance=figures.get("covariance") or 0.0, rounds=tally.pair_rounds, built=built)


def _statistics(key: GameKey, sums: dict[int, list[int]], scale: int, blocks: int, *,
                built: bool, observed: int | None = None) -> Statistics:
    tally = Winnings(rounds=sum(s[0] for s in sums.values()), by_count=sums)
    return Statistics(key=key, rows=per_count(tally, scale), rounds=observed or tally.rounds, blocks=blocks,
                      scale=scale, sums=sums, built=built, observed=observed)


def with_blocks(key: GameKey, scale: int, start: Statistics | None,
                tallies: Sequence[Winnings]) -> Statistics:
    """`start` (or nothing yet) with more blocks added, one per tally, numbered on from `start.blocks`
    as `build` numbers its own: the sums exact (integers), whatever order the tallies come in. For a
    game played a round per round dealt (no exit policy)."""
    sums: dict[int, list[int]] = {tc: list(s) for tc, s in (start.sums if start else {}).items()}
    for tally in tallies:
        for tc, (n, net, squares) in tally.by_count.items():
            mine = sums.setdefault(tc, [0, 0, 0])
            mine[0] += n
            mine[1] += net
            mine[2] += squares
    return _statistics(key, sums, scale, (start.blocks if start else 0) + len(tallies), built=bool(tallies))


def rounds_needed(stats: Statistics) -> int:
    """Rounds for SCORE's SE to reach `TARGET_SE` on the reference ramp, from what `stats` measured."""
    n0 = optimal(stats.rows, REFERENCE, observed=stats.observed).figures.n0_rounds
    if not math.isfinite(n0):
        return stats.rounds
    return min(MOST_ROUNDS, math.ceil(1.05 * n0 * (2 / TARGET_SE) ** 2))


def build(plan: Plan, key: GameKey, *, jobs: int, rounds: int | None = None, progress: Progress | None = None,
          start: Statistics | None = None) -> Statistics:
    """Simulate a game's statistics to the target (or to `rounds`), going on from `start` if given."""
    scale = make_game(plan.ruleset).scale
    sums: dict[int, list[int]] = {tc: list(s) for tc, s in (start.sums if start else {}).items()}
    blocks = start.blocks if start else 0
    have = start.rounds if start else 0
    by_path = bool(key.wonging)  # an exit policy: `have` counts the rounds observed

    def run_to(total: int) -> None:
        nonlocal blocks, have
        if total <= have:
            return
        before = have
        tell = None if progress is None else (lambda done, _: progress(before + done, total))
        run = run_simulation(plan, total - have, seed=SEED + blocks, jobs=jobs, progress=tell)
        if run.stopped:
            raise KeyboardInterrupt
        for tc, (n, net, squares) in run.tally.by_count.items():
            mine = sums.setdefault(tc, [0, 0, 0])
            mine[0] += n
            mine[1] += net
            mine[2] += squares
        blocks += 1
        have += run.tally.rounds

    if rounds is not None:
        run_to(rounds)
    else:  # a first block measures N0, then one more runs to SCORE's target
        run_to(FIRST_BLOCK)
        run_to(rounds_needed(_statistics(key, sums, scale, blocks, built=True,
                                         observed=have if by_path else None)))
    return _statistics(key, sums, scale, blocks, built=True, observed=have if by_path else None)
