"""Which chart cells the strategy drill asks, and how often: by how often the hand comes up at the table
and what a mistake costs, trivial hands rarely, the learner's misses more.

- How often: `trainer.strategy.frequency.cell_chances`, the chance a round meets the cell (dealt as two
  cards, or reached by one hit where the chart hits), from the rule set's full shoe.
- What a mistake costs: the cell's `gap`, the EV of its best play less the second best (per unit bet),
  from the exact chart. A cell is asked in proportion to chance x (gap + `COST_FLOOR`): the floor keeps
  the close calls (16 vs 10, a fraction of a per cent) coming up, which is where learners go wrong.
- Trivial hands: a row played the same against every up card (hard 5-8, hard 17+ at S17, soft 19+ at
  S17, A-A, 8-8, 10-10 ...) is learnt once. Those cells share `TRIVIAL_SHARE` of the questions between
  them (5%), unless `--all`, which weights them like any other.
- The learner's misses (`focus` weights from the progress store) multiply a cell's weight.

Every cell keeps at least a tenth of an even share (`FLOOR`, within the trivial or the other cells), so
the drill still asks every cell over time. `--hands` narrows
the cells: hard, soft, pairs, close (the best play beats the second by under `CLOSE_GAP`), or missed
(cells whose focus weight is above 1: missed more than the right answers since have made up for).
"""

from __future__ import annotations

from collections.abc import Mapping

from trainer.core.actions import Action
from trainer.core.cards import Rank, card
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.strategy import Cell, Chart, chart_action, legal_actions
from trainer.strategy.chart import parse_cell_key
from trainer.strategy.frequency import cell_chances

HANDS = ("hard", "soft", "pairs", "close", "missed")
"""What `--hands` may narrow the drill to."""
TRIVIAL_SHARE = 0.05
COST_FLOOR = 0.02
FLOOR = 0.1
"""No cell is asked less than a tenth as often as if all were asked evenly (within its group)."""
CLOSE_GAP = 0.02
"""A close call: the best play beats the second best by under 2% of the bet."""


def gap(cell: Cell) -> float:
    """What the cell's best play gains over its second best, per unit bet (1.0 if only one is allowed).

    >>> gap(Cell(action="H", ev={"stand": -0.54, "hit": -0.535, "double": -1.07, "split": None}))
    0.005
    """
    values = sorted((v for v in cell.ev.values() if v is not None), reverse=True)
    return round(values[0] - values[1], 12) if len(values) > 1 else 1.0


def trivial_rows(chart: Chart) -> set[tuple[str, int]]:
    """The rows the chart plays with one letter against every up card."""
    letters: dict[tuple[str, int], set[str]] = {}
    for key, cell in chart.cells.items():
        kind, number, _ = parse_cell_key(key)
        letters.setdefault((kind, number), set()).add(cell.action)
    return {row for row, used in letters.items() if len(used) == 1}


def _hits(ruleset: Ruleset, chart: Chart) -> dict[tuple[tuple[int, ...], int], bool]:
    """Whether the chart hits each two-card hand against each up card (value 1-10, ace 1)."""
    out: dict[tuple[tuple[int, ...], int], bool] = {}
    for first in range(1, 11):
        for second in range(first, 11):
            cards = (card(Rank(first)), card(Rank(second)))
            legal = legal_actions(ruleset, cards)
            for up in range(1, 11):
                out[((first, second), up)] = chart_action(chart, cards, card(Rank(up)), legal) is Action.HIT
    return out


def cell_weights(ruleset: Ruleset, chart: Chart, *, every: bool = False) -> dict[str, float]:
    """Cell key -> how often to ask it before the learner's misses: see the module note. Sums to 1."""
    hits = _hits(ruleset, chart)
    chances = cell_chances(ruleset, lambda start, up: hits[(start, up)])
    trivial = trivial_rows(chart)
    weights = {key: max(chances.get(key, 0.0), 1e-6) * (gap(cell) + COST_FLOOR)
               for key, cell in chart.cells.items()}
    easy = {key for key in weights if parse_cell_key(key)[:2] in trivial}
    if every or not easy or len(easy) == len(weights):
        return _spread(weights)
    rest = _spread({key: w for key, w in weights.items() if key not in easy})
    return {**{key: (1 - TRIVIAL_SHARE) * w for key, w in rest.items()},
            **{key: TRIVIAL_SHARE * w for key, w in _spread({k: weights[k] for k in easy}).items()}}


def _spread(weights: Mapping[str, float]) -> dict[str, float]:
    """The weights made shares summing to 1, none below `FLOOR` of an even share (every cell comes up)."""
    total = sum(weights.values())
    least = FLOOR / len(weights)
    floored = {key: max(w / total, least) for key, w in weights.items()}
    again = sum(floored.values())
    return {key: w / again for key, w in floored.items()}


def narrow(chart: Chart, hands: str | None, focus: Mapping[str, float], ruleset: str) -> list[str]:
    """The cells `--hands` leaves to ask (all of them without it)."""
    cells = list(chart.cells)
    if hands is None:
        return cells
    if hands not in HANDS:
        raise InvalidInputError(f"--hands {hands!r}: expected one of {', '.join(HANDS)}")
    if hands in ("hard", "soft"):
        return [c for c in cells if c.startswith(hands + " ")]
    if hands == "pairs":
        return [c for c in cells if c.startswith("pair ")]
    if hands == "close":
        return [c for c in cells if gap(chart.cells[c]) < CLOSE_GAP]
    missed = [c for c in cells if focus.get(f"strategy:{c}", focus.get(c, 1.0)) > 1.0]
    if not missed:
        raise InvalidInputError(f"no hand of the {ruleset} chart is missed in your history yet: "
                                "drill without --hands missed first")
    return missed
