"""Benchmark: how closely the flash display keeps its pace (200 cards at 0.25 s a card by default).

Plays a real flash through prompt-toolkit with the real clock and prints the mean and worst deviation
of each card's appearance from its deadline (targets: mean within 5 ms, worst within 20 ms). At a
terminal the cards are drawn there (keys you type are swallowed, as in the drill; Enter skips the
'get ready'); otherwise, or with --null, they go to a null terminal of 120 x 40.

    python bench/flash.py [--cards 200] [--speed 0.25] [--per-flash 1] [--null]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from drills.base import Flash
from trainer.core.cards import full_deck
from trainer.render.flash import play_flash

MEAN_TARGET_MS, WORST_TARGET_MS = 5.0, 20.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--speed", type=float, default=0.25, help="seconds a card")
    parser.add_argument("--per-flash", type=int, default=1)
    parser.add_argument("--null", action="store_true", help="draw to a null terminal even at a tty")
    args = parser.parse_args()

    deck = list(full_deck() * 8)
    random.Random(1).shuffle(deck)
    flash = Flash(cards=tuple(str(c) for c in deck[:args.cards]), seconds_per_card=args.speed,
                  per_flash=args.per_flash)
    to_tty = sys.stdout.isatty() and not args.null
    sink = sys.stdout if to_tty else open(os.devnull, "w")  # noqa: SIM115 - closed below
    try:
        output = Vt100_Output.from_pty(sink) if to_tty else \
            Vt100_Output(sink, lambda: Size(rows=40, columns=120), term="xterm-256color")
        if to_tty:  # the terminal answers prompt-toolkit's cursor queries on stdin: read them there
            timing = play_flash(flash, output=output)
        else:
            with create_pipe_input() as pipe:
                timing = play_flash(flash, input=pipe, output=output)
    finally:
        if not to_tty:
            sink.close()
    late = timing.deviations_ms()
    size = [abs(d) for d in late]
    mean, worst = statistics.fmean(size), max(size)
    print(f"{len(late)} groups of {args.per_flash} at {args.speed:g} s a card "
          f"({'this terminal' if to_tty else 'a null terminal'})")
    print(f"deviation from the set pace: mean {mean:.2f} ms, median {statistics.median(size):.2f} ms, "
          f"worst {worst:.2f} ms (targets: mean <= {MEAN_TARGET_MS:g} ms, worst <= {WORST_TARGET_MS:g} ms)")
    drift = late[-1] - late[0]
    print(f"drift from first to last card: {drift:+.2f} ms; keys swallowed: {timing.keys_discarded}; "
          f"cards never drawn on their own: {timing.missed}")
    met = mean <= MEAN_TARGET_MS and worst <= WORST_TARGET_MS and not timing.missed
    print("targets met" if met else "targets MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
