"""Every item key has a learner's name, from one home (`trainer.progress.items`), with a fallback for families
this version does not know."""

from __future__ import annotations

import random

import pytest

from drills import DRILLS, make_drill
from trainer.core.rulesfile import find_ruleset
from trainer.progress.items import drill_title, item_name, skill


@pytest.mark.parametrize(("item", "name"), [
    ("running-count:hi-lo:0.50s", "running count at 0.5 s a card, Hi-Lo"),
    ("countdown:ko:2d", "count down 2 decks, KO"),
    ("countdown:hi-lo:1d:checkout", "count down 1 deck, Hi-Lo, and the missing card"),
    ("true-count:hi-lo:half:floor:+3", "true count +3, Hi-Lo (half-deck estimate, floor)"),
    ("deck-estimation:6d:half:2.5", "2.5 decks left of 6, to the half deck"),
    ("table:zen:3s", "count a 3-seat table, Zen"),
    ("payout:bj 3:2:35", "blackjack 3:2 on $35"),
    ("payout:bj 6:5:40", "blackjack 6:5 on $40"),
    ("payout:insurance 2:1:35:17.50", "insurance 2:1 on $35 (insured $17.50)"),
    ("payout:even-money 47", "even money on $47"),
    ("payout:surrender 40", "surrender on $40"),
    ("color-up:140.50", "colour up $140.50"),
    ("strategy:hard 16 vs 10", "hard 16 vs 10"),
    ("strategy:pair 8-8 vs A", "pair of 8s vs A"),
    ("strategy:pair A-A vs 6", "pair of aces vs 6"),
    ("deviations:s17:16 vs 10", "index play 16 vs 10 (S17)"),
    ("quiz:casino:dealer-soft-18", "rules of casino: dealer soft 18"),
    ("bet:hi-lo:tc+3", "bet at true count +3, Hi-Lo"),
    ("bet:hi-lo:tc-1", "bet at true count -1, Hi-Lo"),
    ("speed-count:hi-lo:1d:3s", "speed count of 1 deck at a 3-seat table, Hi-Lo"),
    ("speed-count:hi-lo:4:0.30s", "speed count: hi-lo, 4, 0.30s"),  # a known family in an unknown shape
    ("attack:2 rivals:pass", "attack phase with 2 rivals (best: pass)"),
    ("attack:2 players", "attack: 2 players"),
    ("settle:split", "settle a split seat"),
    ("settle:lose", "settle a seat that lost"),
    ("settle:blackjack 6:5", "settle a blackjack 6:5 seat"),
    ("settle:sidebet 21+3", "settle a seat with a winning 21+3 side bet"),
    ("cut:stack green", "what a stack of green is worth"),
    ("cut:win:150", "cut a $150 payout"),
    ("cut:bj 6:5:90", "cut blackjack 6:5 on $90"),
    ("catch:takes-a-push", "catch the dealer's error: takes a push"),
    ("catch:clean", "a clean table (no foul to call)"),
    ("payout:weird", "payout: weird"),  # a known family in an unknown shape
    ("plain", "plain"),
])
def test_names(item: str, name: str) -> None:
    assert item_name(item) == name


def test_every_drills_own_items_get_a_name_without_a_colon_code() -> None:
    """The items the drills really ask read as words, not as `family:part:part`."""
    rng = random.Random(3)
    rules = find_ruleset("casino")
    for name in DRILLS:
        drill = make_drill(name)
        for _ in range(3):
            item = drill.ask(rng, rules, None).item
            words = item_name(item)
            assert words != item and not words.startswith(f"{item.partition(':')[0]}:"), (item, words)
        assert drill_title(name) != name or name in ("table",)


def test_skills_gather_the_families_that_train_them() -> None:
    assert {skill(i) for i in ("running-count:x", "countdown:x", "table:x", "speed-count:x")} == {"counting"}
    assert skill("payout:bj 3:2:5") == skill("color-up:5") == skill("settle:x") == "payouts"
    assert skill("brand-new:1") == "brand-new"
