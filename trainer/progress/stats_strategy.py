"""The strategy heatmap of `cutcard stats strategy`: accuracy per chart cell, laid out exactly like the
rule set's chart (hard 5-21, soft 13-21, pairs, against 2-10 and the ace), every cell present, the
unanswered ones marked as such.

A cell counts every answer to its item (`strategy:hard 16 vs 10`) under the rule set, whether given in
the strategy drill, a review or at the table. A rule set without splitting (`max_hands = 1`) has no pair
rows: its pairs are played as hard or soft totals (a reading of the chart engine's layout).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from trainer.core.rules import Ruleset
from trainer.core.rulesfile import load_ruleset
from trainer.progress.days import local_day
from trainer.progress.since import Since
from trainer.progress.stats import plain
from trainer.strategy.chart import ROWS, UPS, cell_key, row_label, up_label

if TYPE_CHECKING:
    from trainer.storage.reader import ReadOnly

DEFAULT_RULESET = "casino"
SECTION_TITLES = {"hard": "Hard totals", "soft": "Soft totals", "pair": "Pairs"}


@dataclass(frozen=True, slots=True, kw_only=True)
class HeatCell:
    key: str
    """The chart cell, e.g. `hard 16 vs 10`."""
    attempts: int
    correct: int

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.attempts if self.attempts else None


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    kind: str
    title: str
    rows: tuple[tuple[str, tuple[HeatCell, ...]], ...]
    """(row label, the row's cells against `Heatmap.ups`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Heatmap:
    ruleset: str
    title: str
    since: Since
    ups: tuple[str, ...]
    sections: tuple[Section, ...]

    def cells(self) -> Iterator[HeatCell]:
        for section in self.sections:
            for _label, row in section.rows:
                yield from row

    @property
    def answered(self) -> int:
        return sum(1 for c in self.cells() if c.attempts)

    @property
    def total(self) -> int:
        return sum(1 for _ in self.cells())


def chart_cells(ruleset: Ruleset) -> list[tuple[str, int, str]]:
    """Every cell of the rule set's chart, in chart order: (kind, row number, cell key)."""
    kinds = ("hard", "soft", "pair") if ruleset.player.max_hands > 1 else ("hard", "soft")
    return [(kind, number, cell_key(kind, number, up))
            for kind in kinds for number in ROWS[kind] for up in UPS]


def build_heatmap(view: ReadOnly, *, now: float, since: Since, ruleset: str | None) -> Heatmap:
    """Every cell of the chart of `ruleset` (default: the rule set with the most strategy answers)."""
    first = None if since.days is None else local_day(now) - timedelta(days=since.days - 1)
    tallies = view.figures.item_tallies(since=first, item_prefix="strategy:")
    if ruleset is None:
        per_ruleset: dict[str, int] = {}
        for t in tallies:
            per_ruleset[t.key.ruleset] = per_ruleset.get(t.key.ruleset, 0) + t.attempts
        ruleset = max(per_ruleset, key=lambda r: per_ruleset[r]) if per_ruleset else DEFAULT_RULESET
    rules = load_ruleset(ruleset)
    answered: dict[str, list[int]] = {}
    for t in tallies:
        if t.key.ruleset == rules.name:
            counts = answered.setdefault(t.key.item.removeprefix("strategy:"), [0, 0])
            counts[0] += t.attempts
            counts[1] += t.correct
    sections = []
    cells = chart_cells(rules)
    for kind in dict.fromkeys(kind for kind, _, _ in cells):
        rows = []
        for number in ROWS[kind]:
            row = tuple(HeatCell(key=key, attempts=answered.get(key, [0, 0])[0],
                                 correct=answered.get(key, [0, 0])[1])
                        for k, n, key in cells if k == kind and n == number)
            rows.append((row_label(kind, number), row))
        sections.append(Section(kind=kind, title=SECTION_TITLES[kind], rows=tuple(rows)))
    return Heatmap(ruleset=rules.name, title=rules.title, since=since, ups=tuple(up_label(u) for u in UPS),
                   sections=tuple(sections))


def heatmap_to_json(heatmap: Heatmap) -> dict[str, Any]:
    """`stats strategy --json`: every cell with its answers, right answers and accuracy (null: none)."""
    return {
        "ruleset": heatmap.ruleset,
        "since": plain(heatmap.since),
        "ups": list(heatmap.ups),
        "answered_cells": heatmap.answered,
        "cells_total": heatmap.total,
        "sections": [{"kind": s.kind, "title": s.title, "rows": [
            {"row": label, "cells": [{"cell": c.key, "attempts": c.attempts, "correct": c.correct,
                                      "accuracy": None if c.accuracy is None else round(c.accuracy, 4)}
                                     for c in row]} for label, row in s.rows]} for s in heatmap.sections],
    }
