"""Cards flashed at a set pace without drift: each card's deadline is counted from the start."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console

from drills.base import Flash


def flash_deadlines(flash: Flash, start: float) -> list[float]:
    """When each group of cards should appear: start + k * (seconds per card * cards per flash)."""
    groups = (len(flash.cards) + flash.per_flash - 1) // flash.per_flash
    period = flash.seconds_per_card * flash.per_flash
    return [start + k * period for k in range(groups + 1)]


def play_flash(console: Console, flash: Flash, *, clock: Callable[[], float] = time.monotonic,
               sleep: Callable[[float], None] = time.sleep) -> list[float]:
    """Show each group in place until the next one's deadline, then clear it; returns when each
    group actually appeared (for the pacing benchmark)."""
    start = clock()
    deadlines = flash_deadlines(flash, start)
    shown_at: list[float] = []
    for index in range(len(deadlines) - 1):
        group = flash.cards[index * flash.per_flash:(index + 1) * flash.per_flash]
        wait = deadlines[index] - clock()
        if wait > 0:
            sleep(wait)
        shown_at.append(clock())
        console.file.write("\r\x1b[2K   " + "  ".join(group))
        console.file.flush()
    wait = deadlines[-1] - clock()
    if wait > 0:
        sleep(wait)
    console.file.write("\r\x1b[2K")
    console.file.flush()
    return shown_at
