"""The compiled simulator's random numbers and shoes: `trainer.sim.shoes` in numba.

Each seat has its own xoshiro256** streams (one for the shoes, one for the learner's mistakes), seeded
from its segment's `random.Random` (`trainer.sim.runner.segment_rngs`), so a segment's figures depend on
its seed alone and threads share nothing but the read-only tables.
A shoe is dealt from `buf` by index; past its end the buffer holds 0s (a code of no value that ends
every hand at once), so a round that runs out finishes quickly and is replayed on the continued shoe,
as the Python engine replays it: a cut-card shoe continues with its discard tray shuffled, a shoe
reshuffled every round with more of its cards shuffled into place, the infinite deck with more rolls.
"""

from __future__ import annotations

from typing import Any

import numba.core.options
import numpy as np
from numba import njit, uint64

from trainer.sim.layout import (
    ALWAYS,
    CUT,
    CUT_CARD,
    END,
    EVERY_ROUND,
    EVERY_ROUND_FIRST,
    FAILED,
    INFINITE,
    INFINITE_BLOCK,
    INFINITE_RESERVE,
    NEXT_SHOE,
    POS,
    R_BURN,
    R_CUT_HI,
    R_CUT_LO,
    R_KIND,
    R_PAD,
    SHUFFLED,
)


def _kernel_options() -> dict[str, Any]:
    """How every kernel compiles: cached, without the GIL, and without numba's runtime (`_nrt`). The
    kernels allocate nothing and take no views (their arrays come from `trainer.sim.fast`), so the
    runtime's only work would be reference counts: an atomic increment and decrement of every array a
    round touches, which numba's pruning cannot remove from a loop this branchy, and which would take
    most of a counting kernel's time. Numba refuses to compile a kernel that would need the runtime, so
    none can creep in. `_nrt` is numba's own (underscored) option: a numba without it compiles the same
    kernels with the runtime, slower but alike."""
    options: dict[str, Any] = {"cache": True, "nogil": True}
    if hasattr(getattr(numba.core.options, "DefaultOptions", None), "_nrt"):
        options["_nrt"] = False
    return options


KERNEL_OPTIONS = _kernel_options()
compiled = njit(**KERNEL_OPTIONS)
"""A kernel `trainer.sim.fast` calls from Python (`native.play`)."""
_CALLED_FROM_KERNELS: dict[str, Any] = {**KERNEL_OPTIONS, "no_cpython_wrapper": True,
                                        "no_cfunc_wrapper": True}
inner = njit(**_CALLED_FROM_KERNELS)
"""A kernel only other kernels call (a shuffle, a split): compiled on its own, without the CPython and
C wrappers a call from Python would need."""
inlined = njit(**_CALLED_FROM_KERNELS, forceinline=True)
"""Inlined into every caller: the per-card and per-round steps. `forceinline` marks them `alwaysinline`
for LLVM, which inlines their machine code. Numba's own `inline="always"` copies a function's IR into
each call site and types it again there, which makes the kernel's first compile far longer and its
rounds no faster (`bench/sim.py` times both)."""


@inlined
def _step(s0, s1, s2, s3):
    """xoshiro256** (Blackman and Vigna): 64 random bits and the generator's next state."""
    x = s1 * uint64(5)
    result = ((x << uint64(7)) | (x >> uint64(57))) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << uint64(45)) | (s3 >> uint64(19))
    return result, s0, s1, s2, s3


@inlined
def _next(rng):
    """The next 64 random bits of the generator state `rng`."""
    result, rng[0], rng[1], rng[2], rng[3] = _step(rng[0], rng[1], rng[2], rng[3])
    return result


@inner
def _fisher_yates(cards, start, n, rng):
    """cards[start:start + n] in random order (Fisher-Yates from the back, each index by `_below`'s
    method and its very random numbers), the generator's state held in registers for the loop rather
    than reloaded around every card's store."""
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    for i in range(n - 1, 0, -1):
        bound = uint64(i + 1)
        x, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
        m = (x >> uint64(32)) * bound
        low = m & uint64(0xFFFFFFFF)
        if low < bound:
            floor = (uint64(0x100000000) - bound) % bound
            while low < floor:
                x, s0, s1, s2, s3 = _step(s0, s1, s2, s3)
                m = (x >> uint64(32)) * bound
                low = m & uint64(0xFFFFFFFF)
        j = start + np.int64(m >> uint64(32))
        c = cards[start + i]
        cards[start + i] = cards[j]
        cards[j] = c
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3


@inlined
def _below(rng, n):
    """A uniform whole number from 0 to n - 1 (0 < n < 2**32), unbiased (Lemire's method)."""
    bound = uint64(n)
    m = (_next(rng) >> uint64(32)) * bound
    low = m & uint64(0xFFFFFFFF)
    if low < bound:
        floor = (uint64(0x100000000) - bound) % bound
        while low < floor:
            m = (_next(rng) >> uint64(32)) * bound
            low = m & uint64(0xFFFFFFFF)
    return np.int64(m >> uint64(32))


@inlined
def _chance(rng):
    """A uniform float in [0, 1) with 53 random bits."""
    return np.float64(_next(rng) >> uint64(11)) * (1.0 / 9007199254740992.0)


@inner
def _copy(dst, at, src, start, n):
    """dst[at:at + n] = src[start:start + n], front to back (so `at <= start` may overlap), as a plain
    loop: array slices would need numba's reference counting, which the kernels run without."""
    for i in range(n):
        dst[at + i] = src[start + i]


@inner
def _end_at(buf, seat, end, pad):
    """The shoe ends after `end` cards: 0s behind them."""
    seat[END] = end
    for i in range(end, end + pad):
        buf[i] = 0


@inner
def _place(deck, seat, rng, upto):
    """Fisher-Yates from the front until the first `upto` cards of `deck` are in random order
    (`EveryRoundShoe._place`)."""
    n = len(deck)
    upto = min(upto, n)
    for i in range(seat[SHUFFLED], upto):
        j = i + _below(rng, n - i)
        c = deck[i]
        deck[i] = deck[j]
        deck[j] = c
    seat[SHUFFLED] = upto
    return upto


@inner
def _roll(buf, faces, rng, start, stop):
    """Infinite-deck cards: independent uniform d13 faces."""
    for i in range(start, stop):
        buf[i] = faces[_below(rng, 13)]


@inner
def _shuffle(buf, deck, faces, seat, rng, rules, shoes, shoe_sizes, shoe_cuts, shoe_burns):
    """A new shoe into `buf`, its burn cards dealt (`ShoeSource.shuffle`); the burn count."""
    kind = rules[R_KIND]
    burn = rules[R_BURN]
    pad = rules[R_PAD]
    if kind == CUT_CARD:
        n = len(deck)
        _fisher_yates(deck, 0, n, rng)
        _copy(buf, 0, deck, 0, n)
        _end_at(buf, seat, n, pad)
        seat[CUT] = rules[R_CUT_LO] + _below(rng, rules[R_CUT_HI] - rules[R_CUT_LO] + 1)
    elif kind == EVERY_ROUND:
        seat[SHUFFLED] = 0
        upto = _place(deck, seat, rng, burn + EVERY_ROUND_FIRST)
        _copy(buf, 0, deck, 0, upto)
        _end_at(buf, seat, upto, pad)
        seat[CUT] = ALWAYS
    elif kind == INFINITE:
        _roll(buf, faces, rng, 0, INFINITE_BLOCK)
        _end_at(buf, seat, INFINITE_BLOCK, pad)
        seat[CUT] = INFINITE_RESERVE
        burn = 0
    else:  # recorded shoes, one after another
        k = seat[NEXT_SHOE]
        if k >= len(shoe_sizes):
            seat[FAILED] = 1
            return 0
        seat[NEXT_SHOE] = k + 1
        n = shoe_sizes[k]
        for i in range(n):
            buf[i] = shoes[k, i]
        _end_at(buf, seat, n, pad)
        seat[CUT] = shoe_cuts[k]
        burn = shoe_burns[k]
    seat[POS] = burn
    return burn


@inner
def _run_out(buf, deck, faces, seat, at, spare, rng, rules):
    """Where a round that ran out is replayed from (`ShoeSource.run_out`): the round's cards, then what
    the dealer deals on with. False when the shoe cannot go on (a recorded one)."""
    kind = rules[R_KIND]
    pad = rules[R_PAD]
    end = seat[END]
    if kind == CUT_CARD:  # the discard tray, shuffled
        k = end - at
        _copy(spare, 0, buf, at, k)
        _copy(spare, k, buf, 0, at)  # the tray: spare[k:end]
        _fisher_yates(spare, k, at, rng)
        _copy(buf, 0, spare, 0, end)
        seat[POS] = 0
    elif kind == EVERY_ROUND:  # more of the shoe shuffled into place
        if seat[SHUFFLED] >= len(deck):
            return False
        upto = _place(deck, seat, rng, 2 * seat[SHUFFLED])
        _copy(buf, 0, deck, 0, upto)
        _end_at(buf, seat, upto, pad)
        seat[POS] = at
    elif kind == INFINITE:  # another block of rolls
        k = end - at
        _copy(buf, 0, buf, at, k)  # front to back: at >= 0
        _roll(buf, faces, rng, k, k + INFINITE_BLOCK)
        _end_at(buf, seat, k + INFINITE_BLOCK, pad)
        seat[POS] = 0
    else:
        return False
    seat[CUT] = ALWAYS  # the dealer reshuffles after this round
    return True
