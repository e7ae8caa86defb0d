"""The compiled simulator, when numba is installed (`pip install -e '.[fast]'`): the engine's tables
as numpy arrays, and a seat that plays them with `trainer.sim.native`.

Why a compiled kernel rather than thousands of shoes in numpy lockstep: a round is a chain of small
dependent steps (a hit decides the next draw, a split adds hands, a shoe runs out mid-round), so a
lockstep version spends its time on masks for the few lanes still drawing, and each numpy call costs
about a microsecond whatever its size; the same rules compiled run a round in well under 200 ns, on
every rule the Python engine plays, from one source of truth (the Python engine's own tables).

The kernel is used only where it is available: numba importable and `CUTCARD_SIM` not set to
`python`. Without it `trainer.sim.engine` plays every run, with the same rules (the reference: the
round-by-round tests check the kernel against the `Round` state machine on the same shoes). Compiled
code is cached (numba's `cache=True`) next to this module, or, where the package directory is not
writable, in numba's directory of the user cache (`$NUMBA_CACHE_DIR` where the user sets one): the
first run on a machine compiles for some seconds, later runs load in a fraction of one.
"""

from __future__ import annotations

import copy
import importlib.util
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from trainer.core.rules import Reshuffle
from trainer.core.spots import MOST_SPOTS, Spots
from trainer.core.wonging import Wonging
from trainer.sim import layout as k
from trainer.sim.count import NEVER, SideCounter, TrueCounter, side_counter
from trainer.sim.counter import (
    Counter,
    Mistakes,
    TableSets,
    charts_by_count,
    check_counting,
    table_sets,
)
from trainer.sim.engine import Winnings
from trainer.sim.game import Game
from trainer.sim.hands import STATES
from trainer.sim.plays import Lookup, UpPlays
from trainer.sim.shoes import ALWAYS, INFINITE_BLOCK

NEVER_BELOW = -NEVER
"""A back-counting count every count reaches (no entry count: sit at once)."""

ENGINE_VARIABLE = "CUTCARD_SIM"
"""`python` plays every simulation with the Python engine even where numba is installed."""
Array = Any  # numpy arrays (int64 unless named otherwise)
Shoes = Sequence[tuple[Sequence[int], int, int]]
"""Recorded shoes: (cards in dealing order, cards behind the cut card, burn cards) each."""
_native: ModuleType | None = None
_unavailable = False


def available() -> bool:
    """Whether runs here may use the compiled kernel: numba imports (a missing or broken install
    leaves the Python engine in charge), and `CUTCARD_SIM` does not say `python`."""
    if os.environ.get(ENGINE_VARIABLE, "").strip().lower() == "python":
        return False
    return _load() is not None


def native() -> ModuleType:
    """The compiled kernel module (see `available`)."""
    module = _load()
    if module is None:
        raise RuntimeError("the compiled simulator needs numba: pip install -e '.[fast]'")
    return module


def _load() -> ModuleType | None:
    """Import the kernel once; None when numba cannot load. numba caches the compiled kernel beside
    this package, or in the user's cache directory where the package directory is not writable."""
    global _native, _unavailable
    if _native is None and not _unavailable:
        if importlib.util.find_spec("numba") is None:
            _unavailable = True
            return None
        try:
            from trainer.sim import native as module
        except ImportError:  # numba installed but broken (e.g. built for another numpy)
            _unavailable = True
            return None
        _native = module
    return _native


@dataclass(frozen=True, slots=True, kw_only=True)
class CounterInts:
    """What the kernel needs of a counter (or of a flat bettor who makes strategy mistakes)."""

    tag: Sequence[int]
    initial: int
    burn_shown: bool
    mode: int
    """native.TC_ZERO (no count: flat bets), TC_BALANCED (by the true count) or TC_RUNNING."""
    rounding: str
    tag_scale: int
    mults: list[int]
    divs: list[int]
    """The true count at n cards left is whole(running x mults[n] / divs[n]) (balanced counts)."""
    insure_from: int
    bet_first: int
    bet_low: int
    bets: list[int]
    wonging: Wonging | None = None
    spots: Spots | None = None
    side: SideCounter | None = None
    """The side count the bet is adjusted by (None: the bet reads the plain count)."""
    decks: int = 0


def counting_for(game: Game, counter: Counter) -> CounterInts:
    """A counter as the kernel reads it (the tables of `count_plan`)."""
    rules = game.ruleset
    check_counting(rules)
    scale = game.codes.tag_scale
    system = counter.system
    most = 52 * rules.shoe.decks + 1
    converter = TrueCounter(estimation=counter.estimation, rounding=counter.rounding, scale=scale,
                            last_deck=counter.last_deck)
    pairs = converter.divisors(most)
    first, bets = _ramp(counter)
    return CounterInts(tag=game.codes.tag,
                       initial=int(system.initial_running_count(rules.shoe.decks) * scale),
                       burn_shown=rules.shoe.burn_shown,
                       mode=k.TC_BALANCED if system.balanced else k.TC_RUNNING,
                       rounding=counter.rounding, tag_scale=scale, mults=[m for m, _ in pairs],
                       divs=[d for _, d in pairs],
                       insure_from=NEVER if counter.insurance_index is None else counter.insurance_index,
                       bet_first=first, bet_low=counter.spread[0], bets=bets,
                       wonging=counter.wonging, spots=counter.spots,
                       side=side_counter(system, converter, rules.shoe.decks), decks=rules.shoe.decks)


def _ramp(counter: Counter) -> tuple[int, list[int]]:
    from trainer.sim.count import ramp_table

    return ramp_table(counter.ramp, counter.spread)


def flat_counting(game: Game) -> CounterInts:
    """One unit every round and no count: a flat bettor whose strategy mistakes need the count path."""
    return CounterInts(tag=(0,) * game.codes.width, initial=0, burn_shown=False, mode=k.TC_ZERO,
                       rounding="floor", tag_scale=1, mults=[1], divs=[1], insure_from=NEVER, bet_first=0,
                       bet_low=1, bets=[1])


TABLE_RUNNING = 64
"""The kernel looks a balanced count's true count up for running counts within ±64 points (a 6-deck
Hi-Lo shoe stays within ±40 all but never) and divides beyond them."""


def true_count_table(c: CounterInts, reach: int) -> Array:
    """int8 [cards left, running count + reach]: the true count of `c` for running counts (in tag
    units) from -reach to reach - 1, `layout.OFF_TABLE` where it is beyond an int8 (the kernel then
    divides). Integer arithmetic throughout, as `trainer.sim.count.whole_count`."""
    running = np.arange(-reach, reach, dtype=np.int64)[None, :]
    x = running * np.array(c.mults, dtype=np.int64)[:, None]
    d = np.array(c.divs, dtype=np.int64)[:, None]
    if c.rounding == "floor":
        counts = x // d
    elif c.rounding == "truncate":
        counts = np.where(x >= 0, x // d, -((-x) // d))
    else:
        n = (2 * np.abs(x) + d) // (2 * d)
        counts = np.where(x >= 0, n, -n)
    counts = np.where(np.abs(counts) < -k.OFF_TABLE, counts, k.OFF_TABLE)
    return np.ascontiguousarray(counts.astype(np.int8))


def _plays(sets: list[tuple[UpPlays, ...]], width: int) -> tuple[Array, ...]:
    """Table sets as six int8 arrays [set, up code, state or code]."""
    arrays = []
    for name, size in (("first", STATES), ("pair", width), ("split_first", STATES), ("split_pair", width),
                       ("split_pair_capped", width), ("hits", STATES)):
        a = np.array([[getattr(plays, name) for plays in by_up] for by_up in sets], dtype=np.int8)
        assert a.shape == (len(sets), width, size)
        arrays.append(np.ascontiguousarray(a))
    return tuple(arrays)


def _i64(values: Any) -> Array:
    return np.ascontiguousarray(np.array(values, dtype=np.int64))


def _u8(values: Any) -> Array:
    """Card codes and hand states, which the kernel uses as indexes, as unsigned bytes: numba wraps a
    signed index (a negative one counts from the end) with a test and an add at every lookup, an
    unsigned one it takes as it is."""
    wide = np.array(values, dtype=np.int64)
    assert wide.size == 0 or (wide.min() >= 0 and wide.max() <= 255)
    return np.ascontiguousarray(wide.astype(np.uint8))


def _i8(values: Any) -> Array:
    """Card codes and hand states as bytes: the kernel's tables stay in the first-level cache."""
    wide = np.array(values, dtype=np.int64)
    assert wide.size == 0 or (wide.min() >= -128 and wide.max() <= 127)
    return np.ascontiguousarray(wide.astype(np.int8))


class NativeSeat:
    """One seat's compiled simulation: the game's tables as arrays, and its shoe and count between
    calls. Like `play_rounds`, each `play_rounds` call starts from a freshly shuffled shoe.

    `recorded` replays shoes (cards in dealing order, cards behind the cut, burn cards) instead of
    shuffling: the tests deal the kernel the very shoes `Round` played.
    """

    def __init__(self, game: Game, tables: TableSets, counting: CounterInts | None, mistakes: Mistakes,
                 rng: random.Random, slips: random.Random, recorded: Shoes | None = None) -> None:
        self._kernel = native()
        rules = game.ruleset
        codes = game.codes
        hands = game.hands
        width = codes.width
        deck = codes.deck(rules.shoe.decks)
        if recorded is not None:
            kind = k.RECORDED
            longest = max((len(cards) for cards, _, _ in recorded), default=1)
            shoes = np.zeros((max(len(recorded), 1), longest), dtype=np.uint8)
            for i, (cards, _, _) in enumerate(recorded):
                shoes[i, :len(cards)] = cards
            self._shoes = shoes
            self._shoe_sizes = _i64([len(c) for c, _, _ in recorded] or [0])[: len(recorded)]
            self._shoe_cuts = _i64([min(cut, ALWAYS) for _, cut, _ in recorded] or [0])[: len(recorded)]
            self._shoe_burns = _i64([burn for _, _, burn in recorded] or [0])[: len(recorded)]
            size = longest
        else:
            kind = (k.INFINITE if rules.infinite_deck else
                    k.EVERY_ROUND if rules.shoe.reshuffle is Reshuffle.EVERY_ROUND else k.CUT_CARD)
            self._shoes = np.zeros((1, 1), dtype=np.uint8)
            self._shoe_sizes = self._shoe_cuts = self._shoe_burns = np.zeros(0, dtype=np.int64)
            size = 2 * INFINITE_BLOCK if rules.infinite_deck else len(deck)
        most_spots = counting.spots.most if counting is not None and counting.spots is not None else 1
        # room for the 0s a round that ran out draws before it ends (each of its hands)
        pad = (4 * game.max_hands + 32) * most_spots
        self._fresh_deck = _u8(deck)
        self._deck = _own(self._fresh_deck)
        self._buf = _own(np.zeros(size + pad, dtype=np.uint8))
        self._spare = _own(np.zeros(size + pad, dtype=np.uint8))
        self._faces = _u8(codes.roll_faces)
        lo, hi = rules.shoe.cut_card_from_end
        wong = counting.wonging if counting is not None else None
        tally_counting = counting is not None
        c = counting or flat_counting(game)
        sets = [tables.right, *tables.wrong]
        r = np.zeros(k.RULES_SIZE, dtype=np.int64)
        for index, value in (
            (k.R_HOLE, game.hole_card), (k.R_HOLE_FIRST, game.hole_card_first),
            (k.R_EVEN_MONEY, game.even_money), (k.R_SCALE, game.scale), (k.R_BLACKJACK, game.blackjack),
            (k.R_SURRENDER_LOSS, game.surrender_loss), (k.R_INS_STAKE, game.insurance_stake),
            (k.R_INS_WIN, game.insurance_win), (k.R_TAKES_ALL, game.takes_all),
            (k.R_EARLY_RULE, game.surrender_early), (k.R_MAX_HANDS, game.max_hands),
            (k.R_ONE_CARD_ACES, game.one_card_split_aces), (k.R_RESPLIT_ACES, game.resplit_aces),
            (k.R_SPLIT_21_BJ, game.split_21_is_blackjack), (k.R_KIND, kind), (k.R_BURN, rules.shoe.burn),
            (k.R_CUT_LO, lo), (k.R_CUT_HI, hi), (k.R_COUNTING, tally_counting), (k.R_TC_MODE, c.mode),
            (k.R_ROUNDING, ("floor", "truncate", "round").index(c.rounding)), (k.R_TAG_SCALE, c.tag_scale),
            (k.R_INITIAL, c.initial), (k.R_BURN_SHOWN, c.burn_shown), (k.R_LOW, tables.low),
            (k.R_COUNTS, len(tables.right)), (k.R_SETS, len(sets)), (k.R_INSURE_FROM, c.insure_from),
            (k.R_BET_FIRST, c.bet_first), (k.R_BET_LOW, c.bet_low), (k.R_PAD, pad),
            (k.R_TC_LOW, -TABLE_RUNNING * c.tag_scale), (k.R_WONG, wong is not None),
            (k.R_WONG_IN, NEVER_BELOW if wong is None or wong.entry is None else wong.entry),
            (k.R_WONG_OUT, NEVER_BELOW if wong is None else _floor(wong)),
            (k.R_WONG_PATH, wong is not None and wong.by_path),
            (k.R_SIDE_RANKS, sum(1 << v for v in c.side.ranks) if c.side else 0),
            (k.R_SIDE_NUM, c.side.adjustment.numerator if c.side else 0),
            (k.R_SIDE_DEN, c.side.adjustment.denominator if c.side else 0),
            (k.R_SIDE_PER_DECK, c.side.per_deck if c.side else 0), (k.R_DECKS, c.decks),
        ):
            r[index] = int(value)
        self._rules = r
        rates = np.zeros(k.RATES_SIZE, dtype=np.float64)
        if counting is not None and c.mode != k.TC_ZERO:
            rates[k.M_COUNT], rates[k.M_TRUE_COUNT], rates[k.M_BET] = (
                mistakes.count, mistakes.true_count, mistakes.bet)
        rates[k.M_STRATEGY] = tables.rate
        self._rates = rates
        self._start = _u8(hands.start)
        self._next = _u8(hands.next_state)
        self._total = _i8(hands.total)
        self._dealer_start = _u8(hands.dealer_start)
        self._dealer_next = _u8(hands.dealer_next)
        self._natural = np.array(hands.natural, dtype=np.int8)
        self._value = _i64(codes.value)
        self._pair_key = _i64(codes.pair_key)
        self._tag = _i64(c.tag)
        self._ups = np.array([game.offers, game.peeks, game.may_have_natural, game.insurance,
                              game.early_surrender], dtype=np.int8)
        # the table sets, flattened: set s at count i is row s * counts + i
        flat = [by_count for one in sets for by_count in one]
        self._plays = _plays(flat, width)
        self._mults = _i64(c.mults)
        self._divs = _i64(c.divs)
        self._tcs = true_count_table(c, TABLE_RUNNING * c.tag_scale)
        self._bets = _i64(c.bets)
        self._bet_counts = _own(np.zeros(max(max(c.bets), c.bet_low) + 1, dtype=np.int64))
        self._count_sums = _own(np.zeros((2 * k.COUNT_REACH + 1, 3), dtype=np.int64))
        self._scratch = _own(np.zeros((k.SCRATCH_ROWS, max(game.max_hands, 2) + 2), dtype=np.int64))
        self._state = _own(np.zeros(k.STATE_SIZE, dtype=np.int64))
        self._out = _own(np.zeros(4, dtype=np.int64))
        steps = counting.spots.steps if counting is not None and counting.spots is not None else ()
        self._spots = np.array(steps, dtype=np.int64).reshape(len(steps), 2)
        self._spot_sums = _own(np.zeros(7, dtype=np.int64))
        self._work = _own(np.zeros((k.WORK_ROWS, MOST_SPOTS * (game.max_hands + 2)), dtype=np.int64))
        self._counting = tally_counting
        self._rng = _own(_stream(rng))
        self._slip = _own(_stream(slips))  # the mistakes' own stream: with or without them, the same shoes

    def twin(self) -> NativeSeat:
        """Another seat of the same game: the same tables (read only, shared), its own shoe, count,
        scratch and random streams (a copy of this seat's: `reseed` it). A thread plays each."""
        other = copy.copy(self)
        for name in ("_deck", "_buf", "_spare", "_state", "_scratch", "_bet_counts", "_count_sums", "_out",
                     "_rng", "_slip", "_spot_sums", "_work"):
            setattr(other, name, _own(getattr(self, name)))
        return other

    def reseed(self, rng: random.Random, slips: random.Random) -> None:
        """Go on with these streams, as if the seat were new: its deck back in order, so that what it
        plays next depends on the streams alone, not on the rounds it played before."""
        self._deck[:] = self._fresh_deck
        self._rng[:] = _stream(rng)
        self._slip[:] = _stream(slips)

    def play_rounds(self, rounds: int, tally: Winnings, *, record: list[int] | None = None,
                    progress: Callable[[int], None] | None = None, chunk: int = 25_000) -> None:
        """Play `rounds` rounds from a fresh shoe, adding to `tally` (see `engine.play_rounds`)."""
        st = self._state
        next_shoe = st[k.NEXT_SHOE]
        st[:] = 0
        st[k.CUT] = ALWAYS
        st[k.NEXT_SHOE] = next_shoe
        out = self._out
        out[:] = 0
        self._bet_counts[:] = 0
        self._count_sums[:] = 0
        self._spot_sums[:] = 0
        done = 0
        while done < rounds:
            size = min(chunk, rounds - done)
            results = np.zeros(size if record is not None else 0, dtype=np.int64)
            self._kernel.play(
                size, self._buf, self._deck, self._spare, st, self._rng, self._slip, self._rules,
                self._rates, self._faces, self._start, self._next, self._total, self._dealer_start,
                self._dealer_next, self._natural, self._value, self._pair_key, self._tag, self._ups,
                *self._plays, self._mults, self._divs, self._tcs, self._bets, self._shoes,
                self._shoe_sizes, self._shoe_cuts, self._shoe_burns, out, self._bet_counts,
                self._count_sums, results, self._scratch, self._spots, self._spot_sums, self._work)
            if st[k.FAILED] == 1:
                raise AssertionError("the recorded shoes ran out")
            if st[k.FAILED] == 2:
                raise RuntimeError("a round ran out of a shoe that cannot continue")
            if record is not None:
                record.extend(results.tolist())
            done += size
            if progress is not None:
                progress(size)
        tally.rounds += rounds
        tally.watched += int(out[3])
        if len(self._spots):
            sums = [int(x) for x in self._spot_sums]
            tally.add(Winnings(spot_hands=sums[0], spot_sum=sums[1], spot_squares=sums[2],
                               pair_rounds=sums[3],
                               pair_first=sums[4], pair_second=sums[5], pair_products=sums[6]))
        tally.net += int(out[0])
        tally.net_squares += int(out[1])
        tally.wagered += int(out[2]) if self._counting else rounds - int(out[3])
        for bet, n in enumerate(self._bet_counts.tolist()):
            if n:
                tally.bets[bet] = tally.bets.get(bet, 0) + n
        if self._counting:
            rows = np.flatnonzero(self._count_sums[:, 0])
            tally.add(Winnings(by_count={int(i) - k.COUNT_REACH: [int(x) for x in self._count_sums[i]]
                                      for i in rows}))


def native_seat(game: Game, lookup: Lookup, counter: Counter | None, mistakes: Mistakes,
                slips: random.Random, rng: random.Random, recorded: Shoes | None = None) -> NativeSeat:
    """The compiled seat of a plan's game: the tables `play_job` would give the Python engine."""
    if counter is not None:
        counting: CounterInts | None = counting_for(game, counter)
        low, charts = charts_by_count(lookup, counter)
        tables = table_sets(game, charts, low, mistakes, slips)
    else:
        tables = table_sets(game, [lookup], 0, mistakes, slips)
        counting = flat_counting(game) if mistakes.any else None  # as `flat_plan`: bets counted
    return NativeSeat(game, tables, counting, mistakes, rng, slips, recorded=recorded)


def _floor(wong: Wonging) -> int:
    """The count below which a seated back-counter leaves: the exit count, or the entry count."""
    floor = wong.exit if wong.exit is not None else wong.entry
    assert floor is not None
    return floor


CACHE_LINE = 64


def _own(values: Array) -> Array:
    """A copy of `values` on cache lines of its own. A seat's thread writes its state, shoe and streams
    at every round; allocated beside the tables every thread reads (or another seat's state), each
    write would take the line from the other core's cache (false sharing)."""
    size = values.nbytes
    raw = np.zeros(size + 3 * CACHE_LINE, dtype=np.uint8)
    start = CACHE_LINE + (-raw.ctypes.data) % CACHE_LINE
    own = raw[start:start + size].view(values.dtype).reshape(values.shape)
    own[...] = values
    return own


def _stream(rng: random.Random) -> Array:
    """A xoshiro256** state for the kernel, drawn from `rng` (never all zeros)."""
    bits = rng.getrandbits(256) | 1
    return np.array([(bits >> (64 * i)) & (2**64 - 1) for i in range(4)], dtype=np.uint64)
