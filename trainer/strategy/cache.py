"""`chart_for`: a rule set's chart, computed once and kept in memory and in the installed cache.

The engine does no file I/O. Whoever owns the files (the CLI, the REPL) installs a `ChartCache` at
start-up; drills and tests call `chart_for` with or without one.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Protocol

from trainer.core.rules import Ruleset
from trainer.strategy.build import build_chart
from trainer.strategy.chart import Chart
from trainer.strategy.engine import Progress

ENGINE_VERSION = 2
"""Bumped whenever the engine's numbers or the cached format change, so stale charts are recomputed."""


class ChartCache(Protocol):
    """Where computed charts are kept between runs, by key (bytes in, bytes out)."""

    def load(self, key: str) -> bytes | None: ...

    def save(self, key: str, data: bytes) -> None: ...


_installed: ChartCache | None = None
_memory: dict[str, Chart] = {}


def install_cache(cache: ChartCache | None) -> None:
    """Use `cache` for every later `chart_for` (None: memory only)."""
    global _installed
    _installed = cache


def installed_cache() -> ChartCache | None:
    """The cache `install_cache` put in place (None: charts are kept in memory only)."""
    return _installed


def cache_key(ruleset: Ruleset) -> str:
    """The key of a rule set's chart: the engine version and the rules' fingerprint."""
    return f"chart-v{ENGINE_VERSION}-{ruleset.fingerprint}"


def forget_charts() -> None:
    """Drop the charts kept in memory (the installed cache keeps its own)."""
    _memory.clear()


def chart_for(ruleset: Ruleset, *, progress: Progress | None = None) -> Chart:
    """The exact basic-strategy chart of `ruleset`: from memory, else the installed cache, else computed
    (calling `progress(done, total)` as it goes) and stored in both."""
    key = cache_key(ruleset)
    chart = _memory.get(key)
    if chart is None and _installed is not None:
        data = _installed.load(key)
        if data is not None:
            try:
                chart = Chart.from_cache(json.loads(data))
            except (ValueError, KeyError, TypeError):
                chart = None  # a damaged or foreign file: compute afresh and overwrite it
    if chart is None:
        chart = build_chart(ruleset, progress)
        if _installed is not None:
            _installed.save(key, json.dumps(chart.to_cache(), separators=(",", ":")).encode())
    _memory[key] = chart
    if chart.ruleset != ruleset.name:  # the same rules under another name (an alias, a user's copy)
        chart = dataclasses.replace(chart, ruleset=ruleset.name)
    return chart


def has_chart(ruleset: Ruleset) -> bool:
    """True when `chart_for` will not need to compute (so a caller can skip its progress bar)."""
    key = cache_key(ruleset)
    return key in _memory or (_installed is not None and _installed.load(key) is not None)
