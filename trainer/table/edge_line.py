"""The edge line after each round at the table: the learner's true count, the edge that count implies
for this game, and the exact edge of the next round for the cards actually left.

The count's edge comes from the game's per-count statistics (`trainer.statstore`, the ones `plan`
uses: the mean result of the rounds dealt at each true count, played flat by the counter's plays,
index plays included). The table never simulates: where the store has none for this game the line
says so (`cutcard plan` makes them).

The exact edge is `trainer.strategy.edge.exact_edge` on the shoe's undealt cards (the burn card is not
among them): one seat, flat bet, the rule set's basic strategy. It takes a tenth of a second or so, so
at a terminal it runs in a background thread started as the round ends, and the line says "computing"
until it is done (`pending` then gives the figure for the next screen); machine mode computes it at
once. A shoe whose cut card is out is shuffled before the next round: that round is dealt off the top
of an unseen shuffle, whose exact edge is the full shoe's (the chart's own figure), at true count 0.

Decision-free: nothing here is graded or recorded.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from trainer.core.errors import TrainerError
from trainer.core.rules import Ruleset
from trainer.core.shoe import Shoe
from trainer.strategy.chart import Chart
from trainer.strategy.composition import Composition
from trainer.strategy.edge import exact_edge


@dataclass(frozen=True, slots=True, kw_only=True)
class CountEdges:
    """The learner's game's edge at each true count, from the stored per-count statistics."""

    by_count: dict[int, float]
    """True count -> mean result per unit bet of the rounds dealt at it."""
    rounds: int

    def at(self, true_count: int) -> float | None:
        """The edge at this true count; None where the statistics dealt no round at it."""
        return self.by_count.get(true_count)


@dataclass(frozen=True, slots=True, kw_only=True)
class EdgeReading:
    """One round's figures for the next round."""

    true_count: int | None
    """The learner's true count (None: an unbalanced count has none)."""
    count_edge: float | None
    """The edge the statistics give at that count (None: no statistics, or no rounds at that count)."""
    exact_edge: float | None
    """None while it is being computed, or where the engine cannot (a shoe of a handful of cards)."""
    stats: bool = True
    """The store holds per-count statistics for this game."""
    computing: bool = False
    fresh_shoe: bool = False


def percent(edge: float) -> str:
    """An edge as a signed percentage: +0.52%, -0.41%."""
    return f"{edge * 100:+.2f}%"


class EdgeWatch:
    """Reads the edges after each round; `background` computes the exact edge in a thread."""

    def __init__(self, ruleset: Ruleset, chart: Chart, count_edges: CountEdges | None, *,
                 background: bool) -> None:
        self.ruleset = ruleset
        self.chart = chart
        self.count_edges = count_edges
        self.background = background
        self._pool: ThreadPoolExecutor | None = None
        self._computing: tuple[EdgeReading, Future[float | None]] | None = None
        """The last reading whose exact edge was started, and its computation."""
        self._reading: EdgeReading | None = None
        """The last reading given: the one `pending` finishes."""

    def after_round(self, shoe: Shoe, true_count: int | None) -> EdgeReading:
        """The figures for the round after this one: the exact edge started (or computed, in machine
        mode) on the shoe as the round left it."""
        fresh = shoe.needs_shuffle or shoe.infinite
        if fresh:
            return self.reading(None, None if true_count is None else 0)
        return self.reading(Composition.of(shoe.remaining_cards()), true_count)

    def reading(self, shoe: Composition | None, true_count: int | None) -> EdgeReading:
        """The figures for a round dealt from `shoe` (None: off the top of a fresh shuffle) at the
        learner's `true_count`: the exact edge started in the background, or computed now."""
        count_edge = None
        if true_count is not None and self.count_edges is not None:
            count_edge = self.count_edges.at(true_count)
        stats = self.count_edges is not None
        if shoe is None:
            reading = EdgeReading(true_count=true_count, count_edge=count_edge, exact_edge=self.chart.ev,
                                  stats=stats, fresh_shoe=True)
        elif not self.background:
            reading = EdgeReading(true_count=true_count, count_edge=count_edge, exact_edge=self._exact(shoe),
                                  stats=stats)
        else:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="exact-edge")
            reading = EdgeReading(true_count=true_count, count_edge=count_edge, exact_edge=None,
                                  stats=stats, computing=True)
            self._computing = (reading, self._pool.submit(self._exact, shoe))
        self._reading = reading
        return self.settled(reading)

    def settled(self, reading: EdgeReading) -> EdgeReading:
        """The reading with the exact edge filled in if its computation is done (a reading older than
        the last one started comes back as it is)."""
        computing = self._computing
        if computing is None or computing[0] is not reading or not computing[1].done():
            return reading
        future = computing[1]
        self._computing = None
        done = EdgeReading(true_count=reading.true_count, count_edge=reading.count_edge,
                           exact_edge=future.result(), stats=reading.stats, fresh_shoe=reading.fresh_shoe)
        self._reading = done
        return done

    def pending(self) -> str | None:
        """The exact edge the last line said was computing, once it is done (then None again)."""
        reading = self._reading
        if reading is None or not reading.computing:
            return None
        done = self.settled(reading)
        if done.computing:
            return None
        self._reading = None
        return pending_line(done)

    def close(self) -> None:
        """Stop the thread (a computation under way finishes first)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _exact(self, shoe: Composition) -> float | None:
        try:
            return exact_edge(self.ruleset, shoe, chart=self.chart)
        except TrainerError:  # too few cards for the engine: the line says so
            return None


def edge_line(reading: EdgeReading) -> str:
    """The line after a round, at most 80 columns:
    'Next round: true count +2 gives +0.52% (stats) · exact edge +0.61%'."""
    count = "Next round:"
    if reading.true_count is not None:
        tc = f"{reading.true_count:+d}" if reading.true_count else "0"
        if reading.count_edge is not None:
            said = f"gives {percent(reading.count_edge)} (stats)"
        elif not reading.stats:
            said = "(no stats: see `plan`)"
        else:
            said = "(none in the stats)"
        count = f"Next round: true count {tc} {said} ·"
    return f"  {count} {_exact_words(reading)}"


def _exact_words(reading: EdgeReading) -> str:
    if reading.computing:
        return "exact edge computing"
    if reading.exact_edge is None:
        return "exact n/a: too few cards"
    if reading.fresh_shoe:
        return f"exact {percent(reading.exact_edge)}, fresh shoe"
    return f"exact edge {percent(reading.exact_edge)}"


def pending_line(reading: EdgeReading) -> str:
    """The exact edge on the next screen, when the line after the round said 'computing'."""
    shown = "n/a, too few cards" if reading.exact_edge is None else percent(reading.exact_edge)
    return f"  This round's exact edge: {shown}"
