"""The engine's EVs against the plain evaluator in `tests/strategy_reference.py` (real deal order)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from strategy_reference import Reference

from trainer.core import Action, Ruleset, load_ruleset, parse_card, parse_cards
from trainer.core.rules import BlackjackTakes
from trainer.strategy import hand_evs
from trainer.strategy.composition import Composition
from trainer.strategy.engine import Engine
from trainer.strategy.evaluate import HIT, STAND, evaluate
from trainer.strategy.terms import Terms
from trainer.strategy.tree import Context

ONE_DECK = (4,) * 9 + (16,)


def one_deck(name: str, **dealer: object) -> Ruleset:
    r = load_ruleset(name)
    shoe = dataclasses.replace(r.shoe, decks=1, decks_range=(1, 8), cut_card_from_end=(10, 12))
    return dataclasses.replace(r, shoe=shoe, dealer=dataclasses.replace(r.dealer, **dealer))


def face(value: int) -> str:
    return "A" if value == 1 else str(value)


HANDS = [((10, 6), 10), ((2, 3), 6), ((1, 7), 9), ((9, 2), 1), ((10, 2), 4), ((5, 5), 10), ((1, 6), 2),
         ((8, 4), 7), ((10, 3, 2), 10)]


@pytest.mark.parametrize(("hand", "up"), HANDS, ids=lambda x: str(x))
def test_one_deck_peek_game(hand: tuple[int, ...], up: int) -> None:
    """S17 with a peek: stand, hit (best play after) and double, to 1e-9 of the plain evaluator."""
    ruleset = one_deck("casino")
    ref = Reference(ONE_DECK, up, h17=False, peek=True)
    got = hand_evs(ruleset, parse_cards([face(v) for v in hand]), parse_card(face(up)))
    for action in ("stand", "hit", "double"):
        if Action(action) in got.ev:
            assert got.ev[Action(action)] == pytest.approx(ref.hand_ev(hand, action), abs=1e-9), action


@pytest.mark.parametrize(("hand", "up"), [((10, 6), 10), ((9, 2), 1), ((6, 5), 10)], ids=str)
def test_one_deck_no_peek_h17_game(hand: tuple[int, ...], up: int) -> None:
    """H17 without a peek, a dealer natural taking every bet: doubles lose two units to it."""
    ruleset = one_deck("casino-h17", peek=frozenset(), blackjack_takes=BlackjackTakes.ALL)
    ref = Reference(ONE_DECK, up, h17=True, peek=False)
    got = hand_evs(ruleset, parse_cards([face(v) for v in hand]), parse_card(face(up)))
    assert not got.peeked
    for action in ("stand", "hit", "double"):
        assert got.ev[Action(action)] == pytest.approx(ref.hand_ev(hand, action), abs=1e-9), action


# --- splitting, resplits included, against the split hands dealt one after another ---------------

SPLIT_SHOE = (1, 1, 1, 1, 2, 2, 1, 4, 1, 2, 1, 1, 2)  # ranks A..K: 20 cards, four 8s
SPLIT_COUNTS = (*SPLIT_SHOE[:9], sum(SPLIT_SHOE[9:]))


def hits_below_17(total: int, soft: bool) -> bool:
    return total < 17


def engine_split(ruleset: Ruleset, pair: int, up: int) -> float:
    """The engine's split EV with every split hand hitting below 17 (never doubling), as
    `hits_below_17` plays them in the reference."""
    terms = Terms.of(ruleset)
    own = tuple(2 if v == pair else 0 for v in range(1, 11))
    contexts = [Context(extra=(0,) * 10, root=own),
                *Engine.split_contexts_for(terms, pair, (0,) * 10, infinite=False)]
    engine = Engine(ruleset, Composition(ranks=SPLIT_SHOE), contexts)
    decisions = np.where(engine.table.total < 17, HIT, STAND).astype(np.int8)[:, None].repeat(10, axis=1)
    values = evaluate(engine.table, engine.pay, decisions=decisions)
    node = engine.node(own)
    seat = None
    if engine.seat_blackjack_correction_needed():
        seat = (engine.blackjack_chance(node), engine.split_bust_chance(pair, decisions))
    raw = float(engine.split_ev(pair, values, engine.pair_shoe(pair), seat)[up - 1])
    natural = float(engine.blackjack_chance(node)[up - 1])
    return raw / (1 - natural) if terms.peeked[up - 1] else raw


def split_rules(hands: int, *, peek: bool, takes: BlackjackTakes = BlackjackTakes.ALL) -> Ruleset:
    r = load_ruleset("casino")
    return dataclasses.replace(
        r, player=dataclasses.replace(r.player, max_hands=hands, double_after_split=False),
        dealer=dataclasses.replace(r.dealer, peek=frozenset({1, 10}) if peek else frozenset(),
                                   blackjack_takes=takes))


SPLITS = pytest.mark.xdist_group("strategy-reference-splits")
"""The split tests on one xdist worker (`--dist loadgroup`): the reference's split hands' play-outs
(`play_out`, `second_card_and_play`) are memoised across them, the same shoe and pair in each."""


@pytest.mark.parametrize(("hands", "peek", "up"), [(2, True, 10), (2, False, 6), (3, False, 10),
                                                   (4, True, 10)], ids=str)
@pytest.mark.slow
@SPLITS
def test_split_and_resplit_exact(hands: int, peek: bool, up: int) -> None:
    """Splitting 8s to `hands` hands: equal to 1e-12, which checks Farmer's identity and the claim
    that second cards may be thought of as dealt first."""
    ref = Reference(SPLIT_COUNTS, up, h17=False, peek=peek)
    expected = ref.split_ev(8, hands, hits_below_17)
    assert engine_split(split_rules(hands, peek=peek), 8, up) == pytest.approx(expected, abs=1e-12)


@SPLITS
def test_split_original_bets_only_is_the_one_approximation() -> None:
    """Without a peek and with `blackjack_takes = original`, a split seat's natural loss treats the
    hands' busts as independent: close (a few thousandths), not exact, as documented."""
    ref = Reference(SPLIT_COUNTS, 10, h17=False, peek=False, takes_all=False)
    expected = ref.split_ev(8, 2, hits_below_17)
    got = engine_split(split_rules(2, peek=False, takes=BlackjackTakes.ORIGINAL), 8, 10)
    assert got == pytest.approx(expected, abs=5e-3)
    assert got != pytest.approx(expected, abs=1e-9)
