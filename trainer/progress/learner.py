"""The learner's measured error rates, read from the progress database, as the simulator's `Mistakes`.

Four kinds of answer measure what `cutcard sim --errors` injects, over the last 30 days (all time if
there is nothing that recent). Each counts the drill's answers and the table's (`cutcard play` records
its decisions under the same drills and items, source "play"):

- `running-count`: a wrong count after a stretch of cards. A drill stretch shows 6 to 20 cards (13 on
  average), so a miss rate e per stretch is a per-card slip rate of 1 - (1 - e) ** (1 / 13);
- `true-count`: a wrong conversion, per question;
- `strategy`: a wrong play, per chart cell (`strategy:hard 16 vs 10`), over every rule set drilled. A
  simulated mistake plays the cell's next-best action by the exact engine's EVs, so misplaying a close
  hand costs little and a wild play costs what it should.

A drill without answers contributes no error, and the report says which drills had none.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import date, timedelta

from drills.counting.running_count import STRETCH
from trainer.core.errors import InvalidInputError
from trainer.progress.days import local_day
from trainer.sim.counter import CHART_CELLS, Cell, Mistakes
from trainer.storage import Store
from trainer.strategy import Chart, cell_key

WINDOW_DAYS = 30
CARDS_PER_STRETCH = sum(STRETCH) / 2
DRILLS = ("running-count", "true-count", "strategy", "bet")
RATE_NAMES = {"running-count": "running count", "true-count": "true count", "strategy": "strategy",
              "bet": "bets"}
_WORD = {"H": "hit", "S": "stand", "Dh": "double", "Ds": "double", "P": "split", "Ph": "split",
         "Rh": "surrender", "Rs": "surrender", "Rp": "surrender"}


@dataclass(frozen=True, slots=True, kw_only=True)
class MeasuredMistakes:
    """Error rates and what they rest on."""

    mistakes: Mistakes
    answers: dict[str, int]
    """Answers behind each rate, by drill."""
    window: str
    """'the last 30 days' or 'all time'."""

    def describe(self) -> str:
        """'412 answers over the last 30 days (running count 40, strategy 350, bets 22); no true-count
        answers yet'."""
        total = sum(self.answers.values())
        missing = [d for d in DRILLS if not self.answers.get(d)]
        each = ", ".join(f"{RATE_NAMES[d]} {self.answers[d]:,}" for d in DRILLS if self.answers.get(d))
        text = f"{total:,} answers over {self.window}, drills and table together ({each})"
        if missing:
            text += f"; no {', '.join(missing)} answers yet"
        return text


def per_card(miss_rate: float, cards: float = CARDS_PER_STRETCH) -> float:
    """A per-stretch miss rate as the chance of slipping on any one card.

    >>> round(per_card(0.2), 4)
    0.017
    """
    return float(1 - (1 - miss_rate) ** (1 / cards))


def next_best(chart: Chart, cell: Cell) -> str | None:
    """The letter of a cell's second-best play by the chart's EVs (None where it has no other play).

    A double or a surrender falls back to the better of hitting and standing, like the chart's letters.
    """
    entry = chart.cells.get(cell_key(*cell))
    if entry is None:
        return None
    best = _WORD[entry.action]
    others = {a: ev for a, ev in entry.ev.items() if ev is not None and a != best}
    if not others:
        return None
    wrong = max(others, key=lambda a: others[a])
    hit_first = (entry.ev.get("hit") or -9.0) >= (entry.ev.get("stand") or -9.0)
    if wrong in ("double", "surrender"):
        return ("Dh" if hit_first else "Ds") if wrong == "double" else ("Rh" if hit_first else "Rs")
    return {"hit": "H", "stand": "S", "split": "P"}[wrong]


def measured_mistakes(store: Store, chart: Chart, *, now: float | None = None) -> MeasuredMistakes:
    """The learner's error rates from `store`, their mistakes read on `chart` (see the module docstring)."""
    today = local_day(time.time() if now is None else now)
    window = "the last 30 days"
    since: date | None = today - timedelta(days=WINDOW_DAYS - 1)
    totals = store.figures.drill_totals(since=since)
    if not any(totals.get(d) and totals[d].attempts for d in DRILLS):
        window, since = "all time", None
        totals = store.figures.drill_totals()
    answers = {d: totals[d].attempts for d in DRILLS if d in totals and totals[d].attempts}
    if not answers:
        raise InvalidInputError("--errors needs your answers in the running-count, true-count, strategy "
                                "or bet drills (or at `cutcard play`), and the progress database has none: "
                                "drill first")

    def miss(drill: str) -> float:
        tally = totals.get(drill)
        return 1 - tally.correct / tally.attempts if tally and tally.attempts else 0.0

    by_key = {cell_key(*cell): cell for cell in CHART_CELLS}
    asked: dict[Cell, list[int]] = {}
    for item in store.figures.item_tallies(since=since, item_prefix="strategy:"):
        cell = by_key.get(item.key.item.removeprefix("strategy:"))
        if cell is not None:
            tally = asked.setdefault(cell, [0, 0])
            tally[0] += item.attempts
            tally[1] += item.correct
    cells = {cell: 1 - right / n for cell, (n, right) in asked.items() if n and right < n}
    wrong = {cell: letter for cell in cells if (letter := next_best(chart, cell)) is not None}
    mistakes = Mistakes(count=per_card(miss("running-count")), true_count=miss("true-count"),
                        strategy=miss("strategy"), cells={c: r for c, r in cells.items() if c in wrong},
                        wrong=wrong, bet=miss("bet"))
    return MeasuredMistakes(mistakes=mistakes, answers=answers, window=window)
