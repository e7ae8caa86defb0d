"""The counter a simulation plays: count system, bet ramp, index plays, and the learner's mistakes.

Index plays change a chart cell from a true count on: `ChartChange("hard", 16, 10, 0, "S", "H")` stands
on 16 against a ten at 0 and above and hits below. Insurance is its own index. The engine reads one
table set per true count, compiled here once, so index plays cost nothing per decision.

Mistakes model a learner from their measured error rates (`--errors`):

- count drift: each card seen is mis-tagged with probability `count`, by one point either way, and the
  error stays in the running count until the shuffle;
- true-count mistakes: each conversion is one off, either way, with probability `true_count`;
- strategy mistakes: a hand's first decision is wrong at its chart cell's own error rate (`cells`, as
  the strategy drill measured it), playing the cell's wrong letter (`wrong`: the next-best play by the
  exact engine's EVs); without per-cell rates, every cell errs at `strategy` with the usual wrong play
  (hit for stand and stand for hit, no double, no surrender, not splitting a pair that splits, splitting
  one that does not). Later decisions of the hand are right;
- bet mistakes: each round's bet is, with probability `bet`, the ramp's next bet up or down instead of
  the right one (as the bet drill and the table measure it: a bet off the learner's ramp).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from trainer.core.actions import Action
from trainer.core.counting import CountSystem
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.core.spots import Spots
from trainer.core.wonging import Wonging
from trainer.sim.count import NEVER, CountPlan, TrueCounter, bet_function, side_counter
from trainer.sim.game import Game
from trainer.sim.plays import Lookup, UpPlays, compile_charts
from trainer.strategy import indexplay
from trainer.strategy.chart import ROWS, UPS

BetCount = Callable[[int, int, int], int]
"""(running count, side-counted cards seen, cards left) -> the count a side-counting counter bets by."""
Cell = tuple[str, int, int]
"""A chart cell: (kind, total or pair value, up value)."""
CHART_CELLS: tuple[Cell, ...] = tuple(
    (kind, n, up) for kind, rows in ROWS.items() for n in rows for up in UPS)
"""Every cell of a basic-strategy chart: hard 5-21, soft 13-21 and pairs, against A and 2-10."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChartChange:
    """A count-dependent play: `at_or_above` from the true count `index` up, `below` under it."""

    kind: str
    number: int
    up: int
    index: int
    at_or_above: str
    below: str


_LETTERS = {Action.STAND: "S", Action.HIT: "H", Action.SPLIT: "P"}


def _letter(play: Action, other: Action) -> str:
    """An index play's action as a chart letter (a double or surrender falls back to the other play)."""
    if play is Action.DOUBLE:
        return "Ds" if other is Action.STAND else "Dh"
    if play is Action.SURRENDER:
        return "Rs" if other is Action.STAND else "Rh"
    return _LETTERS[play]


def chart_changes(plays: Sequence[indexplay.IndexPlay]) -> tuple[tuple[ChartChange, ...], int | None]:
    """Index plays (`trainer.strategy.indexplay`) as the simulator's chart changes, and the insurance
    index (None: never insure). A play with no index keeps its basic play and changes nothing."""
    changes: list[ChartChange] = []
    insurance: int | None = None
    for play in plays:
        if play.index is None:
            continue
        if play.kind == "insurance":
            insurance = play.index
            continue
        changes.append(ChartChange(kind=play.kind, number=play.total, up=play.up_value, index=play.index,
                                   at_or_above=_letter(play.above, play.below),
                                   below=_letter(play.below, play.above)))
    return tuple(changes), insurance


@dataclass(frozen=True, slots=True, kw_only=True)
class Mistakes:
    """A learner's error rates, each a probability from 0 to 1."""

    count: float = 0.0
    """Per card seen: the tag is off by one."""
    true_count: float = 0.0
    """Per conversion: the true count is off by one."""
    strategy: float = 0.0
    """Per hand: the first decision is wrong (every cell alike, unless `cells` says otherwise)."""
    cells: Mapping[Cell, float] = field(default_factory=dict)
    """Per chart cell: how often its first decision is wrong (cells not named: never)."""
    wrong: Mapping[Cell, str] = field(default_factory=dict)
    """The wrong letter a mistake plays in a cell (default: `mistaken`'s usual wrong play)."""
    bet: float = 0.0
    """Per round: the bet is the ramp's bet one true count off, either way."""

    def __post_init__(self) -> None:
        for name in ("count", "true_count", "strategy", "bet"):
            _check_rate(name.replace("_", "-"), getattr(self, name))
        for cell, rate in self.cells.items():
            _check_rate(" ".join(map(str, cell)), rate)

    @property
    def any(self) -> bool:
        return bool(self.count or self.true_count or self.strategy or self.bet or any(self.cells.values()))

    def cell_rates(self) -> dict[Cell, float]:
        """The error rate of every cell that has one."""
        if self.cells:
            return {cell: rate for cell, rate in self.cells.items() if rate}
        return {cell: self.strategy for cell in CHART_CELLS} if self.strategy else {}


def _check_rate(what: str, rate: float) -> None:
    if not 0 <= rate <= 1:
        raise InvalidInputError(f"a {what} error rate is from 0 to 1, not {rate}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Counter:
    """How the simulated player counts, bets and deviates (plain data: it crosses process bounds)."""

    system: CountSystem
    spread: tuple[int, int]
    ramp: Mapping[int, int]
    estimation: str = "half"
    rounding: str = "floor"
    last_deck: str | None = None
    """The estimation once fewer than 52 cards are left (None: as `estimation`)."""
    indices: tuple[ChartChange, ...] = ()
    insurance_index: int | None = None
    """Insure at this true count and above; None: never."""
    wonging: Wonging | None = None
    """Back-counting: the counts at which the counter sits and leaves (None: plays every round)."""
    spots: Spots | None = None
    """Several hands a round, each at the ramp's bet, from the counts given (None: one hand)."""


def with_indices(lookup: Lookup, indices: tuple[ChartChange, ...], count: int) -> Lookup:
    """The chart as a counter plays it at `count`."""
    changes: dict[Cell, str] = {}
    for play in indices:
        changes[(play.kind, play.number, play.up)] = play.at_or_above if count >= play.index else play.below

    def letter(kind: str, number: int, up: int) -> str:
        return changes.get((kind, number, up)) or lookup(kind, number, up)

    return letter


def mistaken(lookup: Lookup) -> Lookup:
    """The chart with every cell's usual wrong answer (see the module docstring).

    >>> from trainer.sim.textbook import textbook
    >>> wrong = mistaken(textbook)
    >>> wrong("hard", 16, 10), wrong("hard", 11, 6), wrong("pair", 8, 10), wrong("pair", 10, 6)
    ('H', 'H', 'Rh', 'P')
    """
    swap = {"H": "S", "S": "H", "Dh": "H", "Ds": "S", "Rh": "H", "Rs": "S"}

    def letter(kind: str, number: int, up: int) -> str:
        right = lookup(kind, number, up)
        if kind != "pair":
            return swap.get(right, right)
        if right in ("P", "Ph", "Rp"):  # not splitting: the pair played as its total
            return "H" if number in (1, 2) else lookup("hard", 2 * number, up)
        return "P"

    return letter


def check_counting(rules: Ruleset) -> None:
    """Refuse a counter where the count cannot move (an infinite deck, a shoe reshuffled every round)."""
    if not rules.counting_helps:
        why = "an infinite deck" if rules.infinite_deck else "a shoe reshuffled every round"
        raise InvalidInputError(f"{rules.name} deals from {why}: counting cannot help there")


def charts_by_count(lookup: Lookup, counter: Counter) -> tuple[int, list[Lookup]]:
    """(the lowest count, the chart played at each count from it): one chart per count from just below
    the lowest index (every play's `below`) to the highest."""
    indexes = [p.index for p in counter.indices]
    low, high = (min(indexes) - 1, max(indexes)) if indexes else (0, 0)
    basic = functools.cache(lookup)  # every chart (and every mistaken one) reads the basic chart's cells
    return low, [with_indices(basic, counter.indices, tc) for tc in range(low, high + 1)]


def count_plan(game: Game, lookup: Lookup, counter: Counter, mistakes: Mistakes,
               rng: random.Random) -> CountPlan:
    """The engine's view of a counter: tags, the true-count function, bets, and tables by count."""
    rules: Ruleset = game.ruleset
    check_counting(rules)
    codes = game.codes
    system = counter.system
    scale = codes.tag_scale
    most = 52 * rules.shoe.decks + 1
    converter = TrueCounter(estimation=counter.estimation, rounding=counter.rounding, scale=scale,
                            last_deck=counter.last_deck)
    sides = side_counter(system, converter, rules.shoe.decks)
    if system.balanced:
        true_count = converter.table(most)
    else:  # an unbalanced count bets and plays by the running count itself

        def true_count(running: int, left: int) -> int:
            return running // scale

    bet_count = None if sides is None else sides.table(most)
    low, charts = charts_by_count(lookup, counter)
    plays_for = _played(game, charts, low, mistakes, rng)
    if mistakes.count or mistakes.true_count:
        true_count, bet_count = _with_count_mistakes(true_count, bet_count, mistakes, scale, rng)
    insurance = NEVER if counter.insurance_index is None else counter.insurance_index
    initial = int(system.initial_running_count(rules.shoe.decks) * scale)
    bet_for = bet_function(dict(counter.ramp), counter.spread)
    if mistakes.bet:
        bet_for = _with_bet_mistakes(bet_for, mistakes.bet, rng)
    return CountPlan(tag=codes.tag, initial=initial, burn_shown=rules.shoe.burn_shown,
                     true_count=true_count, bet_for=bet_for, plays_for=plays_for, insure_from=insurance,
                     wonging=counter.wonging, spots=counter.spots, bet_count=bet_count,
                     side=() if sides is None else tuple(int(v in sides.ranks) for v in codes.value))


def _with_bet_mistakes(bet_for: Callable[[int], int], rate: float,
                       rng: random.Random) -> Callable[[int], int]:
    """The ramp's bet, or with probability `rate` a wrong one: the nearest other bet of the ramp, a step
    up or down at random (up where the ramp is flat below: a bet off the ramp is never the right bet)."""
    chance = rng.random

    def off(count: int) -> int:
        right = bet_for(count)
        if chance() >= rate:
            return right
        first = 1 if chance() < 0.5 else -1
        for step in range(1, 12):
            for way in (first, -first):
                bet = bet_for(count + way * step)
                if bet != right:
                    return bet
        return right  # a ramp of one bet: nothing else to bet

    return off


def flat_plan(game: Game, lookup: Lookup, mistakes: Mistakes, rng: random.Random) -> CountPlan:
    """One unit every round by the chart, with the learner's strategy mistakes (no count to keep)."""
    return CountPlan(tag=(0,) * game.codes.width, initial=0, burn_shown=False,
                     true_count=lambda running, left: 0, bet_for=lambda count: 1,
                     plays_for=_played(game, [lookup], 0, mistakes, rng), insure_from=NEVER)


MISTAKE_TABLES = 16
"""Table sets a mistaken hand picks from: each cell is wrong in its share of them (see `_played`)."""


@dataclass(frozen=True, slots=True)
class TableSets:
    """The decision tables a seat plays: by count, right, and the learner's mistaken sets (see `_played`)."""

    low: int
    """The count of the first table set; counts below read it, counts above the last read the last."""
    right: list[tuple[UpPlays, ...]]
    """right[i]: the tables at count low + i."""
    wrong: list[list[tuple[UpPlays, ...]]]
    """`MISTAKE_TABLES` mistaken table sets, each by count like `right` (none without mistakes)."""
    rate: float
    """How often a hand errs: it then plays one of `wrong`, chosen uniformly."""


def table_sets(game: Game, charts: list[Lookup], low: int, mistakes: Mistakes,
               rng: random.Random) -> TableSets:
    """Tables by count from `low` up, one chart per count, with the learner's strategy mistakes.

    A hand errs with the highest cell rate `top`; an erring hand then plays one of `MISTAKE_TABLES`
    table sets, in which each cell is wrong in a share rate / top of the sets (placed at random). So a
    cell's first decision is wrong at its own rate, and the hot loop still makes one lookup.
    """
    rules, codes = game.ruleset, game.codes
    right = compile_charts(charts, rules, codes)
    rates = mistakes.cell_rates()
    top = max(rates.values(), default=0.0)
    if not top:
        return TableSets(low=low, right=right, wrong=[], rate=0.0)
    place = {cell: rng.randrange(MISTAKE_TABLES) for cell in sorted(rates)}
    compiled: dict[frozenset[Cell], list[tuple[UpPlays, ...]]] = {}
    sets = []
    for k in range(MISTAKE_TABLES):
        cells = frozenset(cell for cell, rate in rates.items()
                          if (k + place[cell]) % MISTAKE_TABLES < round(MISTAKE_TABLES * rate / top))
        if cells not in compiled:
            wrong = compile_charts([_wrong_in(chart, cells, mistakes.wrong) for chart in charts], rules,
                                   codes)
            compiled[cells] = [_first_decisions_wrong(w, r) for w, r in zip(wrong, right, strict=True)]
        sets.append(compiled[cells])
    return TableSets(low=low, right=right, wrong=sets, rate=top)


def _played(game: Game, charts: list[Lookup], low: int, mistakes: Mistakes,
            rng: random.Random) -> Callable[[int], tuple[UpPlays, ...]]:
    """The tables of `table_sets` as the engine reads them: a function of the count."""
    sets = table_sets(game, charts, low, mistakes, rng)
    plays_for = _by_count(sets.right, low)
    if not sets.rate:
        return plays_for
    return _with_strategy_mistakes(plays_for, [_by_count(w, low) for w in sets.wrong], sets.rate, rng)


def _wrong_in(lookup: Lookup, cells: frozenset[Cell], letters: Mapping[Cell, str]) -> Lookup:
    """The chart with the wrong letter in `cells` only."""
    usual = mistaken(lookup)

    def letter(kind: str, number: int, up: int) -> str:
        cell = (kind, number, up)
        if cell not in cells:
            return lookup(kind, number, up)
        return letters.get(cell) or usual(kind, number, up)

    return letter


def _by_count(tables: list[tuple[UpPlays, ...]], low: int) -> Callable[[int], tuple[UpPlays, ...]]:
    top = len(tables) - 1
    if top == 0:
        only = tables[0]
        return lambda count: only

    def plays_for(count: int) -> tuple[UpPlays, ...]:
        i = count - low
        return tables[0 if i < 0 else (i if i < top else top)]

    return plays_for


def _first_decisions_wrong(wrong: tuple[UpPlays, ...], right: tuple[UpPlays, ...]) -> tuple[UpPlays, ...]:
    """Wrong first decisions, right ones after them (the hit-or-stand table of the right chart)."""
    return tuple(UpPlays(first=w.first, pair=w.pair, split_first=r.split_first, split_pair=r.split_pair,
                         split_pair_capped=r.split_pair_capped, hits=r.hits)
                 for w, r in zip(wrong, right, strict=True))


def _with_strategy_mistakes(right: Callable[[int], tuple[UpPlays, ...]],
                            wrong: list[Callable[[int], tuple[UpPlays, ...]]], rate: float,
                            rng: random.Random) -> Callable[[int], tuple[UpPlays, ...]]:
    chance = rng.random
    sets = len(wrong)

    def plays_for(count: int) -> tuple[UpPlays, ...]:
        if chance() < rate:
            return wrong[int(chance() * sets)](count)
        return right(count)

    return plays_for


def _with_count_mistakes(true_count: Callable[[int, int], int], bet_count: BetCount | None,
                         mistakes: Mistakes, scale: int, rng: random.Random
                         ) -> tuple[Callable[[int, int], int], BetCount | None]:
    """The true count (and a side count's betting count) read through one drifting running count and an
    occasional conversion slip. The side-counted cards are kept without mistakes."""
    chance = rng.random
    per_card, per_conversion = mistakes.count, mistakes.true_count
    drift = last = 0  # the drift so far, and the cards left when last asked (cells: read twice a round)

    def drifted(running: int, left: int) -> int:
        nonlocal drift, last
        if left > last:  # a new shoe: the drift goes with the old count
            drift = 0
        else:
            for _ in range(last - left):
                if chance() < per_card:
                    drift += scale if chance() < 0.5 else -scale
        last = left
        return running + drift

    def slipped(count: int) -> int:
        if per_conversion and chance() < per_conversion:
            count += 1 if chance() < 0.5 else -1
        return count

    def noisy(running: int, left: int) -> int:
        return slipped(true_count(drifted(running, left), left))

    if bet_count is None:
        return noisy, None
    betting = bet_count

    def noisy_bet(running: int, seen: int, left: int) -> int:
        return slipped(betting(drifted(running, left), seen, left))

    return noisy, noisy_bet
