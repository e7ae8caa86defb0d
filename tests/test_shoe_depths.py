"""Situations from real shoes (`trainer.core.shoe_depths`): per rule set, the trays and running counts
of true-count and deck-estimation questions never pass the cut card (nor one round on a game reshuffled
every round), and the running count spreads as in real shoes at the same depth, dealt independently
here with numpy. How often each depth comes up: `test_tray_depths.py`."""

from __future__ import annotations

import functools
import random
from fractions import Fraction

import numpy as np
import pytest

from drills.counting.deck_estimation import DeckEstimationDrill
from drills.counting.true_count import TrueCountDrill
from drills.strategy.deviations import DeviationsDrill
from trainer.core import Round, Shoe
from trainer.core.cards import full_deck
from trainer.core.counting import find_system, format_count, round_decks, true_count
from trainer.core.rules import Reshuffle, Ruleset
from trainer.core.rulesfile import find_ruleset
from trainer.core.seats import EasySeat
from trainer.core.shoe_depths import PRACTICE_CUT, draw_moment, practice_rules

RULESETS = ["bicycle", "casino", "casino-h17", "chat-host", "european", "eight-deck"]
HI_LO = find_system("hi-lo")


def _questions(name: str, count: int) -> tuple[Ruleset, list[dict[str, object]], list[dict[str, object]]]:
    """`count` questions of the rule set, half true count and half deck estimation."""
    ruleset = find_ruleset(name)
    rng = random.Random(f"real shoes {name} {count}")
    true_counts, deck_estimation = TrueCountDrill(), DeckEstimationDrill()
    tc = [dict(true_counts.ask(rng, ruleset).data) for _ in range(count // 2)]
    de = [dict(deck_estimation.ask(rng, ruleset).data) for _ in range(count - count // 2)]
    return practice_rules(ruleset), tc, de


def _real_running_counts(rules: Ruleset, seen: np.ndarray, seed: int) -> np.ndarray:
    """The Hi-Lo running count after `seen[i]` cards of an independently shuffled shoe, per i."""
    tags = np.array([int(HI_LO.tag(c)) for c in full_deck() * rules.shoe.decks], dtype=np.int16)
    shoes = np.random.default_rng(seed).permuted(np.tile(tags, (len(seen), 1)), axis=1)
    counts = np.concatenate([np.zeros((len(seen), 1), dtype=np.int16), np.cumsum(shoes, axis=1)], axis=1)
    return counts[np.arange(len(seen)), seen]


@functools.cache
def _round_cards(rules: Ruleset, rounds: int = 150) -> np.ndarray:
    """Cards a full table's round takes, dealt by the Round machinery with every seat on the Easy rule."""
    rng = random.Random(f"rounds {rules.name}")
    taken = []
    for _ in range(rounds):
        shoe = Shoe.shuffled(rules, rng)
        table = Round.start(rules, shoe, [rules.table.min_bet] * rules.table.seats)
        while not table.finished:
            table.act(EasySeat().decide(table.view(table.seat_in_turn)))
        taken.append(shoe.dealt - rules.shoe.burn)
    return np.array(taken)


@pytest.mark.parametrize("count", [2_500])
@pytest.mark.parametrize("name", RULESETS)
def test_trays_and_running_counts_are_those_of_real_shoes(name: str, count: int) -> None:
    rules, tc, de = _questions(name, count)
    shoe_cards = rules.shoe.decks * 52
    every_round = rules.shoe.reshuffle is Reshuffle.EVERY_ROUND
    for data in tc + de:
        cut = int(str(data["cards_behind_cut"]))
        left = int(str(data["cards_left"]))
        if every_round:
            assert cut == 0 and shoe_cards - left <= 12 * (rules.table.seats + 1)
        else:  # the cut card lies where the rule set puts it, and no tray passes it
            low, high = rules.shoe.cut_card_from_end
            assert low <= cut <= high and left >= cut, data
    dealt = np.array([shoe_cards - int(str(d["cards_left"])) for d in tc])
    if every_round:  # no deeper than one round: a moment within a round is on average half of one
        rounds = _round_cards(rules)
        spread = np.sqrt(rounds.var() / len(rounds) / 4 + dealt.var() / len(dealt))
        assert abs(dealt.mean() - rounds.mean() / 2) < 4 * spread + 0.5
    # a cut-card shoe's depths are those of a table's round starts: tests/test_tray_depths.py
    hidden = 0 if rules.shoe.burn_shown else rules.shoe.burn
    seen = np.maximum(dealt - hidden, 0)
    ours = np.array([float(Fraction(str(d["running_count"]))) for d in tc])
    real = _real_running_counts(rules, seen, seed=count).astype(float)
    n = len(ours)
    assert abs(ours.mean() - real.mean()) < 4 * np.sqrt((ours.var() + real.var()) / n)
    ratio = ours.var() / real.var()
    assert abs(ratio - 1) < 4 * np.sqrt(2 / n + 2 / n) + 0.02, (ratio, ours.var(), real.var())
    # and the tails, where the old drill went wrong (+27 after 79 cards: 3.5 standard deviations)
    scale = np.sqrt(seen * (10 / 13) * (shoe_cards - seen) / (shoe_cards - 1)) + 1e-9
    far_ours, far_real = np.mean(np.abs(ours) / scale > 2), np.mean(np.abs(real) / scale > 2)
    assert abs(far_ours - far_real) < 4 * np.sqrt(0.05 / n) + 0.005, (far_ours, far_real)


def test_an_infinite_deck_practises_a_six_deck_cut_card_shoe() -> None:
    rules = practice_rules(find_ruleset("chat-host"))
    assert rules.shoe.decks == 6 and rules.shoe.cut_card_from_end == PRACTICE_CUT
    intro = " ".join(TrueCountDrill().intro(find_ruleset("chat-host")))
    assert "infinite deck, which has no discard tray" in intro and "Counting gives no edge" in intro


def test_a_game_reshuffled_every_round_says_its_trays_are_one_round_deep() -> None:
    intro = " ".join(DeckEstimationDrill().intro(find_ruleset("eight-deck")))
    assert "never dealt deeper than one round of a full table" in intro


def test_the_mini_round_takes_as_many_cards_as_the_round_machinery() -> None:
    rules = find_ruleset("eight-deck")
    rng = random.Random(8)
    depths = np.array([draw_moment(rules, rng).deepest for _ in range(3000)])
    rounds = _round_cards(rules)
    spread = np.sqrt(depths.var() / len(depths) + rounds.var() / len(rounds))
    assert abs(depths.mean() - rounds.mean()) < 4 * spread, (depths.mean(), rounds.mean())


def test_a_moment_counts_what_was_seen_whichever_half_it_deals() -> None:
    """Shallow moments deal the cards seen; deep ones the cards to come: both count the same shoe."""
    rules = find_ruleset("casino")
    rng = random.Random(1)
    for _ in range(300):
        moment = draw_moment(rules, rng)
        assert moment.dealt <= moment.deepest == moment.shoe_cards - moment.cards_behind_cut
        if moment.seen:
            assert len(moment.cards) == moment.dealt - min(rules.shoe.burn, moment.dealt)
            assert moment.running_count(HI_LO) == HI_LO.running_count(moment.cards, decks=6)
        else:
            assert len(moment.cards) == moment.cards_left + rules.shoe.burn
            assert moment.running_count(HI_LO) == -HI_LO.running_count(moment.cards, decks=6)
    for system in (find_system("ko"), find_system("wong-halves"), find_system("omega-ii")):
        for _ in range(40):
            moment = draw_moment(rules, rng)
            counted = Fraction(system.running_count(moment.cards, decks=6) - system.initial_running_count(6))
            whole = Fraction(system.end_count(6) - system.initial_running_count(6))
            seen = counted if moment.seen else whole - counted
            assert moment.running_count(system) == system.initial_running_count(6) + seen


@pytest.mark.parametrize("name", ["casino", "eight-deck", "chat-host"])
def test_index_play_counts_come_from_real_shoes_dealt_until_they_reach_them(name: str) -> None:
    drill, ruleset = DeviationsDrill(), find_ruleset(name)
    rng = random.Random(name)
    reached = 0
    for _ in range(40):
        question = drill.ask(rng, ruleset)
        data = question.data
        decks = round_decks(Fraction(data["cards_left"], 52), data["estimation"])
        assert float(decks) == data["decks_left"]
        assert data["true_count"] == true_count(data["running_count"], decks, data["rounding"])
        assert data["cards_left"] >= 60 * (practice_rules(ruleset, cut_card=True).shoe.decks / 6) - 1
        assert f"running {format_count(data['running_count'])}" in " ".join(question.show[0].lines)
        reached += "closest" not in question.explanation
    assert reached >= 38  # the counts near an index are rare, but a real shoe reaches them
