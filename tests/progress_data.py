"""A progress database with something of everything, for the stats, ready and read-only tests."""

from __future__ import annotations

import atexit
import functools
import random
import shutil
import tempfile
from pathlib import Path

from trainer.practice.session import Attempt
from trainer.storage import Store

DAY = 86400.0
ITEMS = ("strategy:hard 16 vs 10", "strategy:pair 8-8 vs A", "strategy:soft 18 vs 9", "payout:bj 3:2:35",
         "payout:insurance 2:1:35:17.50", "running-count:hi-lo:0.50s", "true-count:hi-lo:half:floor:+2",
         "bet:hi-lo:tc+3", "speed-count:hi-lo:4:0.30s", "deviations:s17:16 vs 10", "quiz:casino:peek",
         "color-up:140.50", "table:hi-lo:3s")


def fill(path: Path, now: float, *, answers: int = 600, seed: int = 1, pace: str = "learner") -> Path:
    """`answers` answers over the 120 days before `now`, from drills, reviews and the table, in two rule
    sets, some wrong, some slow, every one timed at `pace`; a few count-downs with the cards they showed.

    A copy of the one database filled so in this process: recording 600 answers costs about 0.3 s, and
    tests of one module ask for the same database at the same `now` again and again."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_filled(now, answers, seed, pace), path)
    return path


@functools.cache
def _filled(now: float, answers: int, seed: int, pace: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="cutcard-filled-"))
    atexit.register(shutil.rmtree, folder, True)
    return _record(folder / "progress.db", now, answers=answers, seed=seed, pace=pace)


def _record(path: Path, now: float, *, answers: int, seed: int, pace: str) -> Path:
    rng = random.Random(seed)
    with Store.open(path) as store:
        for i in range(answers):
            item = rng.choice(ITEMS)
            drill = item.partition(":")[0]
            source = rng.choice(("drill", "drill", "review", "play"))
            data: dict[str, object] = {"round": i // 4} if source == "play" else {}
            if source == "play":
                drill = "play"
            store.record(Attempt(
                session_id=f"s{i // 25}-{source}", drill=drill, item=item,
                ruleset=rng.choice(("casino", "casino", "european")), prompt="?", data=data, expected="x",
                given="x", correct=rng.random() < 0.8, latency_ms=rng.randint(400, 250_000 if i % 97 == 0 else 9000),
                ts=now - (answers - i) * (120 * DAY / answers), source=source, pace=pace))
        for i in range(6):
            store.record(Attempt(session_id="cd", drill="countdown", item="countdown:hi-lo:1d:checkout",
                                 ruleset="casino", prompt="?", data={"cards": ["2h"] * 51}, expected="0",
                                 given="0", correct=i != 2, latency_ms=20_000 + 1000 * i,
                                 ts=now - DAY * (6 - i), pace=pace))
    return path
