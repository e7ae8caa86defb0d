"""`cutcard play`'s table: seats, bets, the play checks (chart, index play, EV cost) and the count checks."""

from __future__ import annotations

import math
import random
from decimal import Decimal
from fractions import Fraction

import pytest

from trainer.core import (
    Action,
    Round,
    SeatView,
    Shoe,
    builtin_rulesets,
    load_ruleset,
    parse_card,
    parse_cards,
)
from trainer.core.betting import DEFAULT_RAMP, BetRamp
from trainer.core.counting import find_system
from trainer.core.errors import IllegalActionError, InvalidInputError
from trainer.core.events import Shuffled, seen_cards
from trainer.core.stakes import at_risk
from trainer.strategy import chart_for, hand_evs
from trainer.table.advice import judge_offer, judge_play, unseen_share_of_tens
from trainer.table.count_checks import CountKeeper, bet_ramp
from trainer.table.session import TableSession

CASINO = load_ruleset("casino")
HIT_STAND = frozenset({Action.HIT, Action.STAND, Action.DOUBLE})
LOW_CARDS = parse_cards(" ".join(["2", "3", "4", "5", "6"] * 8))


@pytest.fixture(scope="module")
def chart():
    return chart_for(CASINO)


def session(chart, seats: int = 3, cards: str | None = None, **kw: object) -> TableSession:
    table = TableSession(CASINO, chart, seats=seats, rng=random.Random(1), **kw)
    if cards is not None:
        table.shoe = Shoe.stacked(CASINO, cards)
    return table


def test_the_learner_sits_in_the_middle_among_easy_normal_and_hard_seats(chart) -> None:
    assert session(chart, 1).kinds == ["you"]
    assert session(chart, 3).kinds == ["easy", "you", "normal"]
    assert session(chart, 7).kinds == ["easy", "normal", "hard", "you", "easy", "normal", "hard"]
    assert session(chart, 3, learner_seat=0).kinds == ["you", "easy", "normal"]
    with pytest.raises(InvalidInputError, match="1 to 7 seats, not 8"):
        session(chart, 8)


def test_computer_seats_decide_from_their_seat_view_alone(chart) -> None:
    seen: list[object] = []

    class Spy:
        def decide(self, view: SeatView) -> Action:
            seen.append(view)
            return Action.STAND

    table = session(chart, 3, "T 9 T 6 7 8 5 9", learner_seat=2)
    table.deciders = {0: Spy(), 1: Spy()}
    table.start_round(10)
    assert [type(v) for v in seen] == [SeatView, SeatView] and [v.seat for v in seen] == [0, 1]
    assert table.learner_in_turn


def test_a_bet_outside_the_limits_is_refused_and_nothing_is_dealt(chart) -> None:
    table = session(chart)
    with pytest.raises(InvalidInputError, match=r"the bet is \$10 to \$500"):
        table.start_round(5)
    assert table.round is None and table.shoe.dealt == 1  # only the burn card is out


def test_a_double_or_split_needs_the_chips_to_cover_it(chart) -> None:
    table = session(chart, 1, "8 6 8 T")
    table.bankroll = Decimal(30)
    table.start_round(20)
    assert Action.SPLIT not in table.legal_actions() and Action.DOUBLE not in table.legal_actions()
    with pytest.raises(IllegalActionError, match="cannot split"):
        table.act(Action.SPLIT)


def test_a_play_off_the_chart_is_told_with_its_ev_cost(chart) -> None:
    table = session(chart, 1, "T T 6 7 5")
    table.start_round(10)
    verdict = table.act(Action.STAND)  # hard 16 against a ten: the 6-deck chart hits
    evs = hand_evs(CASINO, parse_cards("T 6"), parse_card("T"))
    assert not verdict.correct and verdict.chart is Action.HIT and verdict.hand == "hard 16 vs 10"
    assert verdict.cost == pytest.approx(evs.ev[Action.HIT] - evs.ev[Action.STAND])
    # Hi-Lo's 16 vs 10 index decides (stand from a true count of 0): at -2 the play is hit
    assert verdict.count_index is not None and verdict.expected is Action.HIT
    assert "16 vs 10 at true count -2: hit" in verdict.message()
    assert "stand gives up 0.6% of the bet" in verdict.message()
    assert table.end_round() == Decimal(-10) and table.bankroll == Decimal(490)
    assert table.tally.plays_right == 0 and table.tally.rounds == 1


def test_the_chart_play_is_right(chart) -> None:
    verdict = judge_play(CASINO, chart, parse_cards("T 6"), parse_card("T"), HIT_STAND, Action.HIT,
                         parse_cards("T 6 T"))
    assert verdict.correct and verdict.index is None and verdict.message() == "✓ hit (hard 16 vs 10)"


def test_an_index_play_for_the_cards_left_is_right_and_named(chart) -> None:
    seen = [*parse_cards("T 6 T"), *LOW_CARDS]  # forty low cards gone: a high count
    stand = judge_play(CASINO, chart, parse_cards("T 6"), parse_card("T"), HIT_STAND, Action.STAND, seen)
    assert stand.correct and stand.index is Action.STAND and stand.gain and stand.gain > 0
    assert "an index play" in stand.message()
    hit = judge_play(CASINO, chart, parse_cards("T 6"), parse_card("T"), HIT_STAND, Action.HIT, seen)
    assert hit.correct and "stand was better" in hit.message()


def test_insurance_is_right_only_when_more_than_a_third_of_the_unseen_cards_are_tens() -> None:
    fresh = parse_cards("T 6 A")
    assert unseen_share_of_tens(CASINO, fresh) == Fraction(95, 309)
    wrong = judge_offer(CASINO, fresh, Action.INSURE, Action.INSURE)
    assert not wrong.correct and wrong.cost == pytest.approx(-(3 * 95 / 309 - 1) / 2)
    assert judge_offer(CASINO, fresh, Action.INSURE, Action.DECLINE).correct
    rich = [*fresh, *LOW_CARDS]
    assert judge_offer(CASINO, rich, Action.INSURE, Action.INSURE).correct
    assert judge_offer(CASINO, rich, Action.EVEN_MONEY, Action.EVEN_MONEY).index is Action.EVEN_MONEY


def test_the_count_takes_the_cards_shown_and_the_turned_hole_card_but_not_the_burn_card() -> None:
    keeper = CountKeeper(CASINO, "hi-lo", random.Random(0))
    shoe = Shoe.shuffled(CASINO, random.Random(3))
    round_ = Round.start(CASINO, shoe, [10])
    while not round_.finished:
        round_.act(Action.DECLINE if round_.can_decline() else Action.STAND)
    keeper.end_round(round_.events)
    on_table = round_.table_cards()  # the hole card included: it was turned
    assert sorted(map(str, keeper.seen)) == sorted(map(str, on_table))
    assert len(shoe.burned) == 1 and shoe.dealt == len(on_table) + 1  # the burn card is out, unseen
    hi_lo = find_system("hi-lo")
    assert keeper.running_count() == sum(hi_lo.tag(c) for c in on_table)


def test_a_shuffle_starts_the_count_again() -> None:
    rules = load_ruleset("casino")
    keeper = CountKeeper(rules, "hi-lo", random.Random(0))
    keeper.seen = list(parse_cards("2 3 4"))
    shoe = Shoe.shuffled(rules, random.Random(2))
    shoe.cards_behind_cut = 400  # the cut card is out: the next round starts with a shuffle
    round_ = Round.start(rules, shoe, [10])
    assert isinstance(round_.events[0], Shuffled)
    keeper.end_round(round_.events)
    assert keeper.seen == seen_cards(round_.events[1:])  # only this round's cards, not 2 3 4


def test_a_mid_round_reshuffle_keeps_the_cards_of_that_round_seen_before_it() -> None:
    """The discards are shuffled when the shoe runs out mid-round; this round's cards already dealt are on
    the table, not in the new pack, so the count after the round is every card of the round."""
    rules = load_ruleset("casino").with_decks(1)  # seven seats can outrun one deck's cut card
    keeper = CountKeeper(rules, "hi-lo", random.Random(0))
    shoe = Shoe.shuffled(rules, random.Random(1))
    for _ in range(200):
        table = Round.start(rules, shoe, [10] * 7)
        while not table.finished:
            table.act(Action.DECLINE if table.can_decline() else Action.STAND)
        keeper.end_round(table.events)
        if any(isinstance(e, Shuffled) for e in table.events[1:]):
            break
    else:
        raise AssertionError("no round ran out of cards")
    mid = next(i for i, e in enumerate(table.events) if isinstance(e, Shuffled) and i > 0)
    assert seen_cards(table.events[:mid])  # cards were seen before the reshuffle ...
    assert keeper.seen == seen_cards(table.events)  # the round's every card, none of the earlier rounds
    hi_lo = find_system("hi-lo")
    assert keeper.running_count() == sum(hi_lo.tag(c) for c in keeper.seen)  # ... and they count


def test_count_checks_come_at_random_checkpoints_and_at_every_reshuffle() -> None:
    keeper = CountKeeper(CASINO, "hi-lo", random.Random(0))
    gaps, since = [], 0
    for _ in range(60):
        keeper.end_round([])
        since += 1
        if keeper.check_due(needs_shuffle=False) == "checkpoint":
            gaps.append(since)
            since = 0
    assert gaps and all(3 <= g <= 7 for g in gaps)
    assert keeper.check_due(needs_shuffle=True) == "reshuffle"
    no_count = CountKeeper(load_ruleset("eight-deck"), "hi-lo", random.Random(0))
    assert no_count.check_due(needs_shuffle=True) is None


def test_running_and_true_counts_are_graded_by_the_half_deck_estimate() -> None:
    keeper = CountKeeper(CASINO, "hi-lo", random.Random(0))
    keeper.seen = list(parse_cards("2 3 4 5 6 5 T"))  # +5
    assert keeper.grade_running("+5").correct and not keeper.grade_running("4").correct
    with pytest.raises(InvalidInputError):
        keeper.grade_running("lots")
    # 130 cards left: 2.5 decks by the half-deck estimate -> +5 / 2.5 = +2
    grade = keeper.grade_true("2", 130)
    assert grade.correct and grade.expected == "+2" and "/ 2.5 decks" in grade.explanation
    assert not keeper.grade_true("1", 130).correct
    # 211 cards left is 4.06 decks, read as 4: +4 / 4 = +1 (not +4 / 4.06 = 0.98, floored to 0)
    keeper.seen = list(parse_cards("2 3 4 5"))
    assert keeper.grade_true("1", 211).correct and not keeper.grade_true("0", 211).correct


def test_the_bet_ramp_is_the_learners_own_in_units_of_the_table_minimum() -> None:
    ramp = BetRamp.parse(DEFAULT_RAMP)
    lines = bet_ramp(CASINO, "hi-lo", ramp)
    assert "1:1,2:2,3:4,4:8,5:12 (the default) (a 1-12 spread, one unit = $10)" in lines[0]
    assert "≤ +1: $10" in lines[0] and "+3: $40" in lines[0] and "+5+: $120" in lines[0]
    assert "set ramp" in lines[1] and len(lines) == 2
    mine = bet_ramp(CASINO, "hi-lo", BetRamp.parse("2:2,4:6"))
    assert "≤ +2: $20" not in mine[0] and "below +2: $10" in mine[0] and "+4+: $60" in mine[0]
    assert any("key count" in line for line in bet_ramp(CASINO, "ko", ramp))
    assert any("cannot help" in line for line in bet_ramp(load_ruleset("eight-deck"), "hi-lo", ramp))


def test_insurance_is_offered_with_single_keys_and_declining_it_is_the_chart_play(chart) -> None:
    table = session(chart, 1, "T A 6 7 9")  # you T 6, the dealer's ace up, a 7 in the hole
    table.start_round(10)
    assert table.legal_actions() == {Action.INSURE, Action.DECLINE}
    verdict = table.act(Action.DECLINE)
    assert verdict.correct and verdict.hand.startswith("insurance")
    assert table.legal_actions() >= {Action.HIT, Action.STAND}


def test_insurance_stays_on_the_table_so_a_double_needs_the_cash_left_after_it(chart) -> None:
    table = session(chart, 1, "6 A 5 7 T 9")  # you 6 5 = 11, the dealer's ace up, a 7 in the hole
    table.bankroll = Decimal(100)
    table.start_round(50)
    table.act(Action.INSURE)  # $25 more on the table: $25 left, not the $50 a double needs
    assert Action.DOUBLE not in table.legal_actions() and Action.HIT in table.legal_actions()
    while table.learner_in_turn:
        table.act(Action.STAND)
    table.end_round()
    assert table.bankroll >= 0


def test_a_resplit_costs_the_bet_of_the_hand_split_not_the_first_hands(chart) -> None:
    # you 8 8 against a 6 (hole T); split: 8 3, double it with a T; the second hand 8 8 again
    table = session(chart, 1, "8 6 8 T 3 T 8 2 9 5 4 T T")
    table.bankroll = Decimal(90)
    table.start_round(20)
    table.act(Action.SPLIT)
    table.act(Action.DOUBLE)  # $60 on the table (40 + 20), $30 left: enough for another $20 hand
    view = table.round.view(table.learner)
    assert view.bets == (Decimal(40), Decimal(20)) and view.hands[1].is_pair
    assert Action.SPLIT in table.legal_actions() and Action.DOUBLE in table.legal_actions()
    table.act(Action.SPLIT)
    assert Action.DOUBLE not in table.legal_actions()  # $80 on the table, $10 left


SHOE_RULESETS = sorted(r.name for r in builtin_rulesets().values() if r.tournament is None)
ROUNDS = 80


@pytest.mark.parametrize("name", SHOE_RULESETS)
def test_random_legal_play_at_every_table_never_stakes_more_than_the_bankroll(name: str) -> None:
    """Bets of a quarter, a half or all of the bankroll, and a player who insures, doubles and splits
    whenever allowed: what is on the table never exceeds the bankroll, so it never goes below $0."""
    rules = load_ruleset(name)
    rng = random.Random(5)
    table = TableSession(rules, chart_for(rules), seats=2, rng=rng)
    start = table.bankroll
    costly = (Action.INSURE, Action.DOUBLE, Action.SPLIT)
    for _ in range(ROUNDS):
        lo, hi = table.bet_bounds()
        table.start_round(max(lo, math.floor(hi * rng.choice([1, 2, 2, 4]) / 4)))
        while table.learner_in_turn:
            legal = table.legal_actions()
            wanted = [a for a in costly if a in legal]
            table.act(wanted[0] if wanted and rng.random() < 0.8 else rng.choice(sorted(legal)))
            assert at_risk(table.round, table.learner) <= table.bankroll
        before = table.bankroll
        net = table.end_round()
        assert table.bankroll == before + net >= 0
        table.count_check_due()
        if table.broke:
            table.bankroll = start  # buy in again
    assert table.tally.rounds == ROUNDS
    assert all(v.chart in (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER,
                           Action.DECLINE) for v in table.tally.plays)
