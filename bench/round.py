"""Rounds per second through the `Round` state machine: one seat, basic hit/stand play (hit below 17).

Run: python bench/round.py [--rounds N] [--seats N] [--ruleset NAME]
Target (issue 2): at least 20,000 rounds/s for one seat.
"""

from __future__ import annotations

import argparse
import random
import time

from trainer.core import Action, Round, Shoe, load_ruleset


def play_rounds(ruleset_name: str, rounds: int, seats: int, seed: int) -> float:
    """Play `rounds` rounds; returns the seconds it took."""
    rules = load_ruleset(ruleset_name)
    shoe = Shoe.shuffled(rules, random.Random(seed))
    bets = [10] * seats
    start = time.perf_counter()
    for _ in range(rounds):
        round_ = Round.start(rules, shoe, bets)
        while not round_.finished:
            legal = round_.legal_actions()
            if Action.DECLINE in legal:
                round_.decline()
            elif Action.HIT in legal and round_.hands(round_.seat_in_turn)[round_.hand_in_turn].total < 17:
                round_.hit()
            else:
                round_.stand()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--seats", type=int, default=1)
    parser.add_argument("--ruleset", default="casino")
    args = parser.parse_args()
    play_rounds(args.ruleset, 2_000, args.seats, 0)  # warm up
    timings = [play_rounds(args.ruleset, args.rounds, args.seats, seed) for seed in (1, 2, 3)]
    best = min(timings)
    print(f"ruleset {args.ruleset}, {args.seats} seat(s), {args.rounds:,} rounds x 3 runs")
    print(f"best {args.rounds / best:,.0f} rounds/s  (median {args.rounds / sorted(timings)[1]:,.0f})")
    print("target: 20,000 rounds/s for one seat")


if __name__ == "__main__":
    main()
