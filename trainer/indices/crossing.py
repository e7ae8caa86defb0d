"""Where the mean EV difference crosses zero: the index, its fractional crossing, and its standard error.

The samples of one play are grouped by the true count the learner computes. `d` is EV(above) - EV(below),
oriented so that high counts favour `above`. The index follows the published convention: `above` is
played at a true count of `index` or more. It is the threshold that a counter playing by it would gain
most from, max over T of sum_{t >= T} f_t m_t (f_t: how often the count t occurs with this hand, m_t:
the mean difference there); for a mean difference that rises through zero, that is the first count
whose mean is not negative. That threshold places a weighted straight line through the groups within
three counts of it; the line's zero is the crossing, and the index reported is the first whole count
at or past the crossing (less sensitive to one noisy group than the threshold itself). Its standard
error comes from a bootstrap: every group resampled with replacement, the crossing found again, and
the spread of those crossings taken (half their central 68% range, which is the standard deviation for
a normal spread and is not thrown by the odd resample whose line comes out nearly flat).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MIN_SAMPLES = 6
"""Groups with fewer samples are shown but not used for the index."""
WINDOW = 3
"""Counts either side of the index that the straight line is fitted through."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CountGroup:
    """The samples at one true count."""

    true_count: int
    samples: int
    mean: float
    """Mean of EV(above) - EV(below) per unit bet."""
    se: float
    occurrences: int
    """How often this count came up with the hand in the shoes dealt (its natural frequency)."""


def group(differences: Mapping[int, Sequence[float]], occurrences: Mapping[int, int]) -> list[CountGroup]:
    """Per true count: the sample count, mean and standard error of the differences.

    >>> [(g.true_count, g.samples, g.mean) for g in group({1: [0.5, 1.5], -1: [-1.0]}, {1: 9, -1: 3})]
    [(-1, 1, -1.0), (1, 2, 1.0)]
    """
    out = []
    for tc in sorted(differences):
        values = differences[tc]
        n = len(values)
        if not n:
            continue
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        out.append(CountGroup(true_count=tc, samples=n, mean=mean, se=math.sqrt(var / n),
                              occurrences=occurrences.get(tc, n)))
    return out


def threshold(groups: Sequence[CountGroup], *, min_samples: int = MIN_SAMPLES) -> int | None:
    """The index: the count T maximising sum over t >= T of occurrences x mean (see the module).

    None when `above` is better at every count sampled or at none (no crossing in reach): the caller
    tells which by the sign of the means.

    >>> gs = [CountGroup(true_count=t, samples=50, mean=0.01 * (t - 2.4), se=0.001, occurrences=100)
    ...       for t in range(-3, 8)]
    >>> threshold(gs)
    3
    """
    usable = [g for g in groups if g.samples >= min_samples]
    if not usable:
        return None
    best_t, best, running = None, 0.0, 0.0
    # T above every usable count (never play `above`) is worth 0; add counts from the top down
    for g in reversed(usable):
        running += g.occurrences * g.mean
        if running > best:
            best, best_t = running, g.true_count
    if best_t is None or best_t == usable[0].true_count:
        return None  # never above, or above from the lowest count: no crossing inside the range
    return best_t


def crossing(groups: Sequence[CountGroup], index: int, *, window: int = WINDOW,
             min_samples: int = MIN_SAMPLES) -> float | None:
    """The zero of the weighted straight line through the groups within `window` of `index`.

    >>> gs = [CountGroup(true_count=t, samples=50, mean=0.01 * (t - 2.4), se=0.001, occurrences=100)
    ...       for t in range(-3, 8)]
    >>> round(crossing(gs, 3), 6)
    2.4
    """
    near = [g for g in groups if abs(g.true_count - index) <= window and g.samples >= min_samples]
    if len(near) < 2:
        return None
    floor = max((g.se for g in near), default=0.0) * 0.05 + 1e-9
    weights = [1.0 / max(g.se, floor) ** 2 for g in near]
    sw = sum(weights)
    mx = sum(w * g.true_count for w, g in zip(weights, near, strict=True)) / sw
    my = sum(w * g.mean for w, g in zip(weights, near, strict=True)) / sw
    sxx = sum(w * (g.true_count - mx) ** 2 for w, g in zip(weights, near, strict=True))
    sxy = sum(w * (g.true_count - mx) * (g.mean - my) for w, g in zip(weights, near, strict=True))
    if sxx <= 0 or sxy <= 0:
        return None
    slope = sxy / sxx
    return mx - my / slope


def bootstrap_se(differences: Mapping[int, Sequence[float]], occurrences: Mapping[int, int],
                 rng: random.Random, *, reps: int = 200) -> float | None:
    """The standard error of the crossing: the spread of crossings of resampled groups."""
    found: list[float] = []
    counts = sorted(differences)
    for _ in range(reps):
        resampled = {tc: [rng.choice(differences[tc]) for _ in differences[tc]] for tc in counts
                     if differences[tc]}
        gs = group(resampled, occurrences)
        index = threshold(gs)
        if index is None:
            continue
        x = crossing(gs, index)
        if x is not None:
            found.append(x)
    if len(found) < reps // 2:
        return None
    found.sort()  # half the central 68% range: a standard deviation that one wild resample cannot blow up
    low, high = found[int(0.16 * (len(found) - 1))], found[int(0.84 * (len(found) - 1))]
    return (high - low) / 2
