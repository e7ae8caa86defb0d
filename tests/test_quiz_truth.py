"""Every quiz question of every shipped rule set is true for that rule set.

Rule questions are checked against the round engine: each key has a verifier that plays its scenario on
a stacked shoe (or deals a real shoe) and asserts the item's answer. Seed questions are checked against
the seed's own text (tests/data/seeds) and, where the engine can show it, against a round too. A new
question key without a verifier fails `test_every_question_key_has_a_verifier`.
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from stacking import stacked_table as stacked

from drills.base import DrillOptions, Lines
from drills.counting.table import TableDrill
from drills.dealing.payout_rounds import blackjack_payout, insurance_payout
from drills.quiz.bank import QuizItem
from drills.quiz.drill import quiz_items
from trainer.core import (
    DEALER,
    Action,
    Ratio,
    Round,
    Ruleset,
    Shoe,
    builtin_rulesets,
    hand_total,
    parse_cards,
)
from trainer.core.errors import IllegalActionError, InvalidInputError
from trainer.core.events import DealerStood, Dealt, HoleCardTurned, InsuranceSettled, Peeked, Settled
from trainer.strategy import GENERIC_CHART
from trainer.table.session import TableSession

RULESETS = list(builtin_rulesets().values())
SEEDS = Path(__file__).parent / "data" / "seeds"
RULESET_FILES = Path(__file__).parent.parent / "rulesets"
Policy = Callable[[Round], Action | None]


def play(r: Ruleset, seats: list[str], up: str, hole: str, draws: str = "", dealer: str = "", *,
         bets: list[int] | None = None, policy: Policy | None = None,
         until: Callable[[Round], bool] | None = None) -> Round:
    """Deal and play: offers declined and hands stood unless `policy` says otherwise; stop at `until`."""
    round_ = Round.start(r, stacked(r, seats, up, hole, draws, dealer), bets=bets or [10] * len(seats))
    while not round_.finished and not (until and until(round_)):
        action = policy(round_) if policy else None
        if action is None:
            action = Action.DECLINE if Action.DECLINE in round_.legal_actions() else Action.STAND
        round_.act(action)
    return round_


def first(action: Action, *, seat: int = 0, once: bool = True) -> Policy:
    """A policy that takes `action` for `seat` when legal (once, or every time)."""
    taken: list[bool] = []

    def decide(round_: Round) -> Action | None:
        if round_.seat_in_turn == seat and action in round_.legal_actions() and not (once and taken):
            taken.append(True)
            return action
        return None

    return decide


def truth(item: QuizItem) -> bool:
    return item.answer == "true"


def _dealer_drew(round_: Round) -> int:
    return len(round_.dealer_hand.cards) - 2


# --- the shoe and the deal -----------------------------------------------------------------------


def v_decks(r: Ruleset, item: QuizItem) -> None:
    shoe = Shoe.shuffled(r, random.Random(1))
    if r.infinite_deck:
        assert shoe.infinite and item.answer.startswith("none")
    else:
        assert shoe.remaining + len(shoe.burned) == 52 * int(item.answer)


def v_reshuffle(r: Ruleset, item: QuizItem) -> None:
    shoe = Shoe.shuffled(r, random.Random(3))
    if shoe.infinite:
        assert item.answer.startswith("never")
        return
    round_ = Round.start(r, shoe, bets=[10])
    while not round_.finished:
        round_.act(Action.DECLINE if Action.DECLINE in round_.legal_actions() else Action.STAND)
    if shoe.needs_shuffle:  # after one round: a shoe reshuffled every round
        assert item.answer == "after every round"
        return
    while not shoe.needs_shuffle:
        shoe.draw()
    shuffles = shoe.shuffles
    shoe.draw()  # the cut card is out, yet the round in progress goes on from the same shoe
    assert shoe.shuffles == shuffles and item.answer == "after the round in which the cut card comes out"
    Round.start(r, shoe, bets=[10])
    assert shoe.shuffles == shuffles + 1


def v_cut_card(r: Ruleset, item: QuizItem) -> None:
    match = re.search(r"last (\d+) to (\d+) cards", item.answer)
    assert match is not None
    lo, hi = int(match.group(1)), int(match.group(2))
    behind = {Shoe.shuffled(r, random.Random(n)).cards_behind_cut for n in range(60)}
    assert min(behind) >= lo and max(behind) <= hi and len(behind) > 1


def v_burn(r: Ruleset, item: QuizItem) -> None:
    burned = len(Shoe.shuffled(r, random.Random(2)).burned)
    assert burned == (0 if item.answer == "none" else int(item.answer))


def _toml_value(r: Ruleset, section: str, key: str) -> object:
    """A key as the rule set's own TOML file writes it (or the file it is based on): the text, not the
    `Ruleset` built from it."""
    data = tomllib.loads((RULESET_FILES / f"{r.name}.toml").read_text(encoding="utf-8"))
    while key not in data.get(section, {}):
        data = tomllib.loads((RULESET_FILES / f"{data['base']}.toml").read_text(encoding="utf-8"))
    return data[section][key]


def v_burn_shown(r: Ruleset, item: QuizItem) -> None:
    assert truth(item) == _toml_value(r, "shoe", "burn_shown")
    drill = TableDrill(DrillOptions(seats=1))  # deal a shoe out: what does a player see at the reshuffle?
    rng = random.Random(5)
    for _ in range(200):
        question = drill.ask(rng, r)
        lines = next(s for s in question.show if isinstance(s, Lines)).lines
        shuffle = next((line for line in lines if "shuffles a new shoe" in line), None)
        if shuffle is not None:
            break
    assert shuffle is not None and drill.shoe is not None and drill.shoe.burned
    burned = [str(c) for c in drill.shoe.burned]
    if truth(item):
        assert "shown" in shuffle and question.data["cards"][:len(burned)] == burned
    else:
        assert "face down" in shuffle


def v_counting(r: Ruleset, item: QuizItem) -> None:
    shoe = Shoe.shuffled(r, random.Random(4))
    round_ = Round.start(r, shoe, bets=[10])
    while not round_.finished:
        round_.act(Action.DECLINE if Action.DECLINE in round_.legal_actions() else Action.STAND)
    carries_over = not shoe.infinite and not shoe.needs_shuffle
    assert truth(item) == carries_over


def v_deal_order(r: Ruleset, item: QuizItem) -> None:
    round_ = Round.start(r, stacked(r, ["2 3", "4 5"], "6", "7"), bets=[10, 10])
    dealt = [(e.seat, e.face_up) for e in round_.events if isinstance(e, Dealt)][:6]
    patterns = {
        "one card to each player, the dealer's up card": [(0, True), (1, True), (DEALER, True), (0, True),
                                                          (1, True), (DEALER, False)],
        "one card to each player, the dealer's hole card": [(0, True), (1, True), (DEALER, False), (0, True),
                                                            (1, True), (DEALER, True)],
        "the host's one card first": [(DEALER, True), (0, True), (0, True), (1, True), (1, True)],
        "the dealer's one card first": [(DEALER, True), (0, True), (0, True), (1, True), (1, True)],
    }
    matching = [p for start, p in patterns.items() if item.answer.startswith(start)]
    assert matching and dealt[:len(matching[0])] == matching[0]


def v_hole_card(r: Ruleset, item: QuizItem) -> None:
    round_ = Round.start(r, stacked(r, ["T 7"], "9", "8"), bets=[10])
    face_down = any(isinstance(e, Dealt) and e.seat == DEALER and not e.face_up for e in round_.events)
    assert truth(item) == face_down


def _peeked(r: Ruleset, up: str) -> bool:
    round_ = play(r, ["T 7"], up, "5")
    return any(isinstance(e, Peeked) for e in round_.events)


def v_peek_ace(r: Ruleset, item: QuizItem) -> None:
    assert truth(item) == _peeked(r, "A")


def v_peek_ten(r: Ruleset, item: QuizItem) -> None:
    assert truth(item) == _peeked(r, "T")


def v_blackjack_under_ten(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["6 5"], "T", "A", "9", policy=first(Action.DOUBLE))
    doubled = round_.hands(0)[0].cards
    if item.answer.startswith("the dealer checks first"):
        assert len(doubled) == 2 and round_.results == (Decimal(-10),)
    elif item.answer.startswith("both stakes"):
        assert len(doubled) == 3 and round_.results == (Decimal(-20),)
    else:
        assert item.answer.startswith("only the original") and round_.results == (Decimal(-10),)


def v_no_dealer_blackjack(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["A K", "T 9"], "A", "K")
    assert hand_total(round_.dealer_hand.cards) == (21, True) and len(round_.dealer_hand.cards) == 2
    assert not any(isinstance(e, DealerStood) and e.natural for e in round_.events)
    assert round_.results == (Decimal(15), Decimal(-10)) and item.answer == "false"


# --- the dealer's play ---------------------------------------------------------------------------


def _hit_or_stand(item: QuizItem, drew: bool) -> None:
    assert item.answer == ("hit" if drew else "stand")


def v_dealer_soft_17(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["T T"], "A", "6", dealer="2")
    _hit_or_stand(item, _dealer_drew(round_) > 0)


def v_dealer_drawn_soft_17(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["T T"], "A", "5", dealer="A 2")
    assert _dealer_drew(round_) in (1, 2)
    _hit_or_stand(item, _dealer_drew(round_) == 2)


def v_dealer_16(r: Ruleset, item: QuizItem) -> None:
    assert truth(item) == (_dealer_drew(play(r, ["T 8"], "T", "6", dealer="5")) > 0)


def v_dealer_hard_17(r: Ruleset, item: QuizItem) -> None:
    assert truth(item) == (_dealer_drew(play(r, ["T 8"], "T", "7", dealer="5")) == 0)


def v_dealer_soft_18(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["T 9"], "A", "7", dealer="2")
    assert _dealer_drew(round_) == 0 and hand_total(round_.dealer_hand.cards) == (18, True)
    assert item.answer == "soft 18: stand"


def v_dealer_ignores_players(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["T 3"], "T", "6", dealer="5")  # the player stands on 13; the dealer still draws to 16
    assert _dealer_drew(round_) > 0 and item.answer == "false"


# --- the player's options ------------------------------------------------------------------------


def _can(r: Ruleset, hand: str, up: str, action: Action) -> bool:
    round_ = play(r, [hand], up, "7", until=lambda rd: rd.phase == "play")
    return not round_.finished and action in round_.legal_actions()


def v_double_rule(r: Ruleset, item: QuizItem) -> None:
    doubles = {name for name, hand in (("8", "5 3"), ("9", "5 4"), ("10", "6 4"), ("11", "6 5"),
                                       ("soft 18", "A 7")) if _can(r, hand, "6", Action.DOUBLE)}
    expected = {"any first two cards": {"8", "9", "10", "11", "soft 18"},
                "only a first-two-card hard 9, 10 or 11": {"9", "10", "11"},
                "only a first-two-card hard 10 or 11": {"10", "11"},
                "none: doubling is not allowed": set()}
    assert expected[item.answer] == doubles


def v_double_soft_18(r: Ruleset, item: QuizItem) -> None:
    assert truth(item) == _can(r, "A 7", "5", Action.DOUBLE)


def v_double_8(r: Ruleset, item: QuizItem) -> None:
    assert truth(item) == _can(r, "5 3", "6", Action.DOUBLE)


def v_double_one_card(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["6 5", "T 8"], "6", "T", "2", policy=first(Action.DOUBLE),
                  until=lambda rd: rd.seat_in_turn == 1)
    assert len(round_.hands(0)[0].cards) == 3 and round_.seat_in_turn == 1  # the double took one card
    assert item.answer == "exactly one"


def v_double_win(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["6 5"], "9", "8", "T", bets=[25], policy=first(Action.DOUBLE))
    assert round_.results == (Decimal(50),) and item.answer == "$50"


def _split_then(r: Ruleset, hand: str, draws: str) -> Round:
    """Split the pair once and stop at the first decision after it."""
    round_ = play(r, [hand], "6", "7", draws, until=lambda rd: rd.phase == "play")
    round_.act(Action.SPLIT)
    return round_


def v_double_after_split(r: Ruleset, item: QuizItem) -> None:
    round_ = _split_then(r, "8 8", "3 T")
    assert round_.hand_in_turn == 0 and truth(item) == (Action.DOUBLE in round_.legal_actions())


def v_split_hands(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["8 8"], "6", "7", "8 8 8 8 8 8 8 T T T T T", policy=first(Action.SPLIT, once=False))
    names = {1: "one: no splitting", 2: "two (one split)", 3: "up to three", 4: "up to four"}
    assert names[len(round_.hands(0))] == item.answer


def v_resplit(r: Ruleset, item: QuizItem) -> None:
    round_ = _split_then(r, "8 8", "8 T T")
    assert truth(item) == (Action.SPLIT in round_.legal_actions())


def v_split_king_queen(r: Ruleset, item: QuizItem) -> None:
    assert truth(item) == _can(r, "K Q", "6", Action.SPLIT)


def v_split_aces_draw(r: Ruleset, item: QuizItem) -> None:
    round_ = _split_then(r, "A A", "5 6")
    still_on_first = not round_.finished and round_.hand_in_turn == 0
    assert truth(item) == (still_on_first and Action.HIT in round_.legal_actions())


def v_resplit_aces(r: Ruleset, item: QuizItem) -> None:
    round_ = _split_then(r, "A A", "A 5 6")
    still_on_first = not round_.finished and round_.hand_in_turn == 0
    assert truth(item) == (still_on_first and Action.SPLIT in round_.legal_actions())


def v_split_ace_ten(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["A A"], "9", "9", "K 7", policy=first(Action.SPLIT))
    net = next(e.net for e in round_.events if isinstance(e, Settled) and e.hand == 0)
    ratio = re.match(r"(\d+:\d+): it counts as a blackjack", item.answer)
    if ratio is None:
        assert item.answer == "even money: it is 21, not a blackjack" and net == 10
    else:
        assert net == Ratio.parse(ratio.group(1)).pay(Decimal(10))


def v_split_bet(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["8 8"], "6", "7", "T T", bets=[25], until=lambda rd: rd.phase == "play")
    round_.act(Action.SPLIT)
    assert round_.view(0).bets == (Decimal(25), Decimal(25)) and item.answer.startswith("$25")


def v_surrender(r: Ruleset, item: QuizItem) -> None:
    assert truth(item) == _can(r, "T 6", "9", Action.SURRENDER)


def v_bust_first(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["T 6", "T 9"], "6", "T", "K", dealer="9", policy=first(Action.HIT))
    assert hand_total(round_.dealer_hand.cards)[0] > 21 and round_.results[0] == -10
    assert item.answer == "false"


# --- naturals and payouts --------------------------------------------------------------------------


def v_blackjack_ratio(r: Ruleset, item: QuizItem) -> None:
    assert blackjack_payout(r, Decimal(10)) == Ratio.parse(item.answer).pay(Decimal(10))


def v_blackjack_amount(r: Ruleset, item: QuizItem) -> None:
    assert blackjack_payout(r, Decimal(20)) == Decimal(item.answer.lstrip("$"))


def v_both_blackjacks(r: Ruleset, item: QuizItem) -> None:
    assert play(r, ["A K"], "T", "A").results == (Decimal(0),) and item.answer.startswith("a push")


def v_blackjack_beats_21(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["A K", "T 2"], "6", "5", dealer="T")
    assert hand_total(round_.dealer_hand.cards)[0] == 21 and len(round_.dealer_hand.cards) == 3
    assert item.answer == f"you are paid {r.payouts.blackjack}: a blackjack beats any other 21"
    assert round_.results[0] == r.payouts.blackjack.pay(Decimal(10))


def v_dealer_blackjack_collects(r: Ruleset, item: QuizItem) -> None:
    assert play(r, ["T T"], "A", "K").results == (Decimal(-10),) and item.answer == "it loses"


def v_insurance_offered(r: Ruleset, item: QuizItem) -> None:
    assert truth(item) == _offered(r, "T 7", Action.INSURE)


def _offered(r: Ruleset, hand: str, action: Action) -> bool:
    return action in Round.start(r, stacked(r, [hand], "A", "5"), bets=[10]).legal_actions()


def v_insurance_ratio(r: Ruleset, item: QuizItem) -> None:
    assert insurance_payout(r, Decimal(20), Decimal(10)) == Ratio.parse(item.answer).pay(Decimal(10))


def v_insurance_most(r: Ruleset, item: QuizItem) -> None:
    assert insurance_payout(r, Decimal(50), Decimal(25)) > 0
    with pytest.raises(InvalidInputError):
        insurance_payout(r, Decimal(50), Decimal("25.01"))
    assert item.answer == "$25, half the bet"


def v_insurance_exactly_half(r: Ruleset, item: QuizItem) -> None:
    assert insurance_payout(r, Decimal(50), Decimal(25)) == Decimal(50)
    for partial in ("10", "24.99", "25.01"):
        with pytest.raises((IllegalActionError, InvalidInputError)):
            insurance_payout(r, Decimal(50), Decimal(partial))
    assert item.answer.startswith("$25 exactly")


def v_insurance_wins(r: Ruleset, item: QuizItem) -> None:
    def insured(hole: str) -> Decimal:
        round_ = play(r, ["T 7"], "A", hole, policy=first(Action.INSURE))
        return sum((e.net for e in round_.events if isinstance(e, InsuranceSettled) and e.seat == 0), Decimal(0))

    assert insured("K") > 0 > insured("7") and item.answer.startswith("when the dealer has blackjack")


def v_insurance_net(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["T 9"], "A", "K", bets=[20], policy=first(Action.INSURE))
    assert round_.results == (Decimal(0),) and item.answer.startswith("$0")


def v_even_money_offered(r: Ruleset, item: QuizItem) -> None:
    assert truth(item) == _offered(r, "A K", Action.EVEN_MONEY)


def v_even_money_net(r: Ruleset, item: QuizItem) -> None:
    action = Action.EVEN_MONEY if r.player.even_money else Action.INSURE
    for hole in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]:
        round_ = play(r, ["A K"], "A", hole, bets=[20], policy=first(action))
        assert round_.results == (Decimal(20),), hole
    assert item.answer == "$20, exactly even money"


def v_even_money_declined(r: Ruleset, item: QuizItem) -> None:
    assert play(r, ["A K"], "A", "K").results == (Decimal(0),) and item.answer == "it pushes"


def v_min_bet(r: Ruleset, item: QuizItem) -> None:
    assert Decimal(item.answer.lstrip("$")) == r.table.min_bet
    assert play(r, ["T 9"], "9", "8", bets=[int(r.table.min_bet)]).finished


def v_max_bet(r: Ruleset, item: QuizItem) -> None:
    most = Decimal(item.answer.lstrip("$"))
    assert most == Decimal(str(_toml_value(r, "table", "max_bet")))
    table = TableSession(r, GENERIC_CHART, seats=1, rng=random.Random(1))  # the table you sit at
    table.bankroll = 10 * most  # so that only the table's limit holds the bet back
    with pytest.raises(InvalidInputError, match=r"the bet is \$"):
        table.start_round(most + 1)
    assert table.start_round(most).view(0).bets == (most,)


VERIFIERS: dict[str, Callable[[Ruleset, QuizItem], None]] = {
    "decks": v_decks, "reshuffle": v_reshuffle, "cut-card": v_cut_card, "burn": v_burn,
    "burn-shown": v_burn_shown, "counting": v_counting, "deal-order": v_deal_order, "hole-card": v_hole_card,
    "peek-ace": v_peek_ace, "peek-ten": v_peek_ten, "blackjack-under-ten": v_blackjack_under_ten,
    "no-dealer-blackjack": v_no_dealer_blackjack, "dealer-soft-17": v_dealer_soft_17,
    "dealer-drawn-soft-17": v_dealer_drawn_soft_17, "dealer-16": v_dealer_16,
    "dealer-hard-17": v_dealer_hard_17, "dealer-soft-18": v_dealer_soft_18,
    "dealer-ignores-players": v_dealer_ignores_players, "double-rule": v_double_rule,
    "double-soft-18": v_double_soft_18, "double-8": v_double_8, "double-one-card": v_double_one_card,
    "double-win": v_double_win, "double-after-split": v_double_after_split, "split-hands": v_split_hands,
    "resplit": v_resplit, "split-king-queen": v_split_king_queen, "split-aces-draw": v_split_aces_draw,
    "resplit-aces": v_resplit_aces, "split-ace-ten": v_split_ace_ten, "split-bet": v_split_bet,
    "surrender": v_surrender, "blackjack-ratio": v_blackjack_ratio,
    "blackjack-amount": v_blackjack_amount, "both-blackjacks": v_both_blackjacks,
    "blackjack-beats-21": v_blackjack_beats_21, "dealer-blackjack-collects": v_dealer_blackjack_collects,
    "insurance-offered": v_insurance_offered, "insurance-ratio": v_insurance_ratio,
    "insurance-most": v_insurance_most, "insurance-exactly-half": v_insurance_exactly_half,
    "insurance-wins": v_insurance_wins, "insurance-net": v_insurance_net,
    "even-money-offered": v_even_money_offered, "even-money-net": v_even_money_net,
    "even-money-declined": v_even_money_declined, "min-bet": v_min_bet, "max-bet": v_max_bet,
}
"""Rule-question key -> a check of its answer on the engine."""


# --- the seeds' procedures, where a round can show them ------------------------------------------


def s_natural_paid_when(r: Ruleset, item: QuizItem) -> None:
    round_ = Round.start(r, stacked(r, ["A K", "T 6"], "9", "7"), bets=[10, 10])
    assert not round_.finished and round_.seat_in_turn == 1  # seat 2 still to play ...
    assert any(isinstance(e, Settled) and e.seat == 0 and e.net == 15 for e in round_.events)  # ... paid


def s_bust_collected(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["T 6", "T 9"], "9", "7", "K", policy=first(Action.HIT))
    events = round_.events
    bust = next(i for i, e in enumerate(events) if isinstance(e, Settled) and e.seat == 0)
    turned = next(i for i, e in enumerate(events) if isinstance(e, HoleCardTurned))
    assert bust < turned and truth(item)


def s_ace_eight(r: Ruleset, item: QuizItem) -> None:
    values = re.fullmatch(r"a hard (\d+) and a soft (\d+)", item.answer)
    assert values is not None, item.answer
    hard, soft = int(values.group(1)), int(values.group(2))
    ace_eight = parse_cards("A 8")
    assert hand_total(ace_eight) == (soft, True) and sum(c.value for c in ace_eight) == hard


def s_double_on_blackjack(r: Ruleset, item: QuizItem) -> None:
    round_ = Round.start(r, stacked(r, ["A K", "T 6"], "9", "7"), bets=[10, 10])
    assert round_.seat_in_turn == 1 and not truth(item)  # the blackjack is paid; no decision for it


def s_blackjack_highest(r: Ruleset, item: QuizItem) -> None:
    v_blackjack_beats_21(r, next(i for i in quiz_items(r) if i.key == "blackjack-beats-21"))


def s_split_match(r: Ruleset, item: QuizItem) -> None:
    v_split_bet(r, next(i for i in quiz_items(r) if i.key == "split-bet"))


def s_each_hand(r: Ruleset, item: QuizItem) -> None:
    round_ = play(r, ["8 8"], "T", "8", "T 5", dealer="", policy=first(Action.SPLIT))  # 18 and 13 vs 18
    nets = sorted(e.net for e in round_.events if isinstance(e, Settled))
    assert nets == [Decimal(-10), Decimal(0)]


SEED_CHECKS: dict[str, Callable[[Ruleset, QuizItem], None]] = {
    "natural-paid-when": s_natural_paid_when, "bust-collected": s_bust_collected, "ace-eight": s_ace_eight,
    "double-on-blackjack": s_double_on_blackjack, "blackjack-highest": s_blackjack_highest,
    "split-match": s_split_match, "each-hand": s_each_hand, "bust-first": v_bust_first,
}


# --- the tests -------------------------------------------------------------------------------------


def _is_procedure(item: QuizItem) -> bool:
    """A question on the seed's procedure (it quotes the seed), not on a rule-set key."""
    return "quote" in item.rule


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_question_is_true_for_its_rule_set(ruleset: Ruleset) -> None:
    for item in quiz_items(ruleset):
        if _is_procedure(item):
            seed = str(item.rule["seed"])
            assert seed == ruleset.source and seed in item.source
            text = " ".join((SEEDS / seed).read_text(encoding="utf-8").split())
            assert " ".join(str(item.rule["quote"]).split()) in text, item.key
            if item.key in SEED_CHECKS:
                SEED_CHECKS[item.key](ruleset, item)
        else:
            assert str(item.rule["rule_set"]).startswith(f"{ruleset.name}: ")
            VERIFIERS[item.key](ruleset, item)


def test_every_question_key_has_a_verifier() -> None:
    rule_keys = {i.key for r in RULESETS for i in quiz_items(r) if not _is_procedure(i)}
    assert rule_keys == set(VERIFIERS)
    seed_keys = {i.key for r in RULESETS for i in quiz_items(r) if _is_procedure(i)}
    assert set(SEED_CHECKS) <= seed_keys


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_at_least_25_distinct_questions_per_rule_set(ruleset: Ruleset) -> None:
    items = quiz_items(ruleset)
    assert len({i.key for i in items}) == len(items) >= 25
    assert len({i.prompt for i in items}) == len(items)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_question_explains_names_its_source_and_has_sound_choices(ruleset: Ruleset) -> None:
    for item in quiz_items(ruleset):
        assert item.explanation and item.source and item.rule
        if item.kind == "true-false":
            assert item.answer in ("true", "false") and item.prompt.startswith("True or false: ")
        else:
            assert 1 <= len(item.wrong) <= 3 and item.answer not in item.wrong
            assert len(set(item.wrong)) == len(item.wrong)


def test_the_issues_scenarios_are_asked() -> None:
    h17 = {i.key: i for i in quiz_items(builtin_rulesets()["casino-h17"])}
    assert h17["dealer-soft-17"].prompt.startswith("The dealer holds A-6")
    assert h17["dealer-soft-17"].answer == "hit"
    casino = {i.key: i for i in quiz_items(builtin_rulesets()["casino"])}
    assert casino["dealer-soft-17"].answer == "stand"
    assert casino["split-ace-ten"].answer == "even money: it is 21, not a blackjack"
    assert casino["pit-boss"].answer.startswith("the pit boss")
