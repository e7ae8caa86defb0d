"""The ace adjustment's two forms agree: so many running-count points per surplus ace is the same number
of true-count points per surplus ace per deck left; the shipped figures are the effects of removal's,
kept whole, and say so; a figure of +3 per surplus ace per deck left for Hi-Opt I is not that reading."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from drills.base import DrillOptions
from drills.counting.aces import AcesDrill
from trainer.core.counting import adjusted_running_count, find_system
from trainer.core.rulesfile import find_ruleset

EOR = {1: -0.61, 2: 0.38, 3: 0.44, 4: 0.55, 5: 0.69, 6: 0.46, 7: 0.28, 8: 0.0, 9: -0.18, 10: -0.51}
"""Griffin's single-deck effects of removal, % of edge per card removed, A and 2..9, T."""


def _ace_worth(name: str) -> float:
    """True-count points of the system that one surplus ace per deck left is worth."""
    system = find_system(name)
    per_rank = {v: 16 if v == 10 else 4 for v in EOR}
    slope = sum(float(system.tags[v - 1]) * per_rank[v] * EOR[v] for v in EOR) / \
        sum(float(system.tags[v - 1]) ** 2 * per_rank[v] for v in EOR)
    return -EOR[1] / slope


@pytest.mark.parametrize("name, worth", [("hi-opt-i", 1.17), ("hi-opt-ii", 2.10), ("omega-ii", 2.23)])
def test_the_source_states_the_figure_and_keeps_it_whole(name: str, worth: float) -> None:
    side = find_system(name).side_count
    assert side is not None
    assert round(_ace_worth(name), 2) == worth
    assert f"{worth:.2f} true-count points" in side.source and f"{worth:.2f} running-count points" in side.source
    assert side.adjustment == round(worth) and f"kept whole as +{round(worth)}" in side.source
    assert "our reading" in side.source


def test_three_per_surplus_ace_per_deck_left_is_not_hi_opt_is_reading() -> None:
    side = find_system("hi-opt-i").side_count
    assert side is not None
    assert round(3 / _ace_worth("hi-opt-i"), 1) == 2.6 and "2.6 times its effect of removal" in side.source
    assert side.adjustment_words == ("+1 running-count point per surplus ace, which is +1 true-count point "
                                     "per surplus ace per deck left")


@pytest.mark.parametrize("seed", range(20))
def test_per_surplus_ace_on_the_running_count_is_per_surplus_ace_per_deck_on_the_true_count(seed: int) -> None:
    rng = random.Random(seed)
    running, surplus = Fraction(rng.randint(-20, 20)), Fraction(rng.randint(-8, 8))
    decks, adjustment = Fraction(rng.randint(1, 16), 4), Fraction(rng.choice([1, 2]))
    assert adjusted_running_count(running, surplus, adjustment) / decks == \
        running / decks + adjustment * (surplus / decks)


def test_the_drills_betting_count_is_the_plain_true_count_plus_the_adjustment_per_ace_per_deck() -> None:
    drill = AcesDrill(DrillOptions(system="hi-opt-i", rounding="floor"))
    rng = random.Random(4)
    for _ in range(8):
        question = drill.ask(rng, find_ruleset("casino"))
        d = question.data
        per_deck = Fraction(d["surplus"]) / Fraction(d["decks_left"]).limit_denominator(4)
        plain = Fraction(d["running_count"]) / Fraction(d["decks_left"]).limit_denominator(4)
        assert d["betting_true_count"] == int((plain + per_deck) // 1)
        assert "which is +1 true-count point per surplus ace per deck left" in question.explanation
