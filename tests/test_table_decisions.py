"""Each decision at the table on its own: a type over a frozen `TableView`, built here by hand, with no
session; `grade` returns an outcome value and changes nothing."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from drills.base import Answer
from trainer.core import Action, Round, Shoe, load_ruleset, parse_cards
from trainer.core.betting import BetRamp
from trainer.core.cards import Card
from trainer.core.counting import load_system
from trainer.core.errors import InvalidInputError
from trainer.core.events import cards_since_shuffle
from trainer.core.rules import Ruleset
from trainer.strategy import chart_for
from trainer.table.bets import BetDecision, BetPlaced
from trainer.table.count_checks import CountDecision, CountGiven
from trainer.table.decisions import RoundFacts, TableView
from trainer.table.foul_calls import FoulCall, FoulCalled
from trainer.table.fouls import CallWindow, seat_slips
from trainer.table.plays import PlayDecision, PlayMade

CASINO = load_ruleset("casino")
RAMP = BetRamp.parse("1:1,2:2,3:4,4:8,5:12")
NO_CALLS = CallWindow(on=False, open=False, fixed=False, called=frozenset(), slip=None)


@pytest.fixture(scope="module")
def chart():
    return chart_for(CASINO)


def view(chart, *, rules: Ruleset = CASINO, seen: str = "", cards_left: int = 234,
         round_: Round | None = None, calls: CallWindow = NO_CALLS, bankroll: Decimal = Decimal(500),
         settled: bool = False, system: str = "hi-lo") -> TableView:
    """A one-seat table's view: `seen` cards counted before this round, `cards_left` in the shoe."""
    before: tuple[Card, ...] = tuple(parse_cards(seen)) if seen else ()
    facts = None
    now = before
    legal: frozenset[Action] = frozenset()
    if round_ is not None:
        facts = RoundFacts(seats=tuple(round_.view(i) for i in range(round_.seat_count)),
                           events=tuple(round_.events), phase=round_.phase, up_card=round_.up_card,
                           dealer_cards=round_.dealer_hand.cards, dealer_natural=round_.dealer_natural,
                           finished=round_.finished)
        now = tuple(cards_since_shuffle(round_.events, before=list(before), burn_shown=False))
        legal = round_.legal_actions()
    return TableView(ruleset=rules, chart=chart, index_plays=None, system=load_system(system),
                     estimation="half", rounding="floor", ramp=RAMP, bankroll=bankroll,
                     min_bet=rules.table.min_bet, max_bet=min(rules.table.max_bet, bankroll),
                     seat_names=("you",), learner=0, rounds=0, settled=settled, seen=before, seen_now=now,
                     cards_left=cards_left, needs_shuffle=False, legal=legal, round=facts, calls=calls)


def dealt(cards: str) -> Round:
    """A one-seat casino round from a stacked shoe (player, up, player, hole, then the draws)."""
    return Round.start(CASINO, Shoe.stacked(CASINO, parse_cards(cards)), [10])


def test_a_bet_is_graded_against_the_ramp_at_the_true_count(chart) -> None:
    # nine low cards seen, 234 cards (4.5 decks) left: true count +2, the ramp's 2 units
    bet = BetDecision(view=view(chart, seen="2 3 4 5 6 2 3 4 5"))
    decision = bet.ask()
    assert decision.graded and decision.question.expected == "20" and decision.question.item == "bet:hi-lo:tc+2"
    right = bet.grade(bet.parse("$20"))
    assert isinstance(right, BetPlaced) and right.bet == 20 and right.grade is not None and right.grade.correct
    wrong = bet.grade(bet.parse("10"))
    assert wrong.grade is not None and not wrong.grade.correct and wrong.check is not None
    assert wrong.check.message.startswith("✗ $10, not the ramp's bet: true count +2")
    with pytest.raises(InvalidInputError, match=r"the bet is \$10 to \$500, not \$600"):
        bet.parse("600")


def test_a_bet_where_counting_cannot_help_is_taken_ungraded(chart) -> None:
    eight = load_ruleset("eight-deck")
    bet = BetDecision(view=view(chart, rules=eight))
    assert not bet.ask().graded
    placed = bet.grade(bet.parse(str(eight.table.min_bet)))
    assert placed.grade is None and placed.check is None and placed.bet == eight.table.min_bet


def test_a_play_is_checked_against_the_chart_and_carried_out_by_the_outcome(chart) -> None:
    round_ = dealt("T 7 6 9")  # the learner's T 6 against a 7 (the dealer's 9 in the hole)
    play = PlayDecision(view=view(chart, round_=round_))
    decision = play.ask()
    assert decision.kind == "action" and decision.question.item == "strategy:hard 16 vs 7"
    assert decision.question.expected == "hit" and "stand" in (decision.question.choices or ())
    outcome = play.grade(play.parse("s"))
    assert isinstance(outcome, PlayMade) and outcome.verdict.action is Action.STAND
    assert outcome.grade is not None and not outcome.grade.correct and outcome.grade.expected == "hit"
    assert not round_.finished  # grading changed nothing: the session applies the outcome
    with pytest.raises(InvalidInputError, match="'x' is not one of"):
        play.parse("x")


def test_the_insurance_offer_is_a_play_decision_of_its_own_kind(chart) -> None:
    round_ = dealt("T A 9 5")  # T 9 against an ace: insurance offered
    play = PlayDecision(view=view(chart, round_=round_))
    decision = play.ask()
    assert decision.kind == "insurance" and decision.question.item == "deviations:s17:insurance"
    assert play.grade(play.parse("n")).grade.correct  # true count 0: decline


def test_a_count_check_reads_the_cards_seen_since_the_shuffle(chart) -> None:
    table = view(chart, seen="2 3 4 5 6 5 T", cards_left=130)  # running +5, 2.5 decks left
    running = CountDecision(view=table, asked="running count")
    assert running.ask().question.expected == "5"
    given = running.grade(running.parse("+5"))
    assert isinstance(given, CountGiven) and given.count.correct and given.grade is not None
    true = CountDecision(view=table, asked="true count")
    assert true.ask().kind == "true-count" and true.ask().question.expected == "2"
    assert not true.grade(true.parse("1")).count.correct
    with pytest.raises(InvalidInputError):
        running.parse("lots")


def test_a_foul_call_is_read_and_graded_from_the_call_window(chart) -> None:
    round_ = dealt("T 7 6 T")  # the learner's 16 stands against the dealer's 17: a loss of $10
    round_.stand()
    [slip] = seat_slips(round_, range(len(round_.events)))  # the dealer pays the loser $10 instead
    assert slip.error == "pays-a-loser" and slip.delta(round_.events, 0) == 20
    calls = CallWindow(on=True, open=True, fixed=False, called=frozenset(), slip=slip)
    call = FoulCall(view=view(chart, round_=round_, calls=calls, settled=True))
    assert call.ask().question.data["seats"][0]["hands"][0]["net"] == "10"  # as paid
    assert call.parse("f 1").value == "1" and call.parse("ok").value is None
    caught = call.grade(call.parse("f 1"))
    assert isinstance(caught, FoulCalled) and caught.caught and caught.correction == 20
    assert caught.grade is not None and caught.grade.verdict == "caught" and caught.recorded is not None
    assert "takes back $20" in caught.grade.explanation
    false = call.grade(call.parse("f dealer"))
    assert not false.caught and false.grade is not None and false.grade.verdict == "false call"
    missed = call.grade(call.parse("ok"))
    assert missed.where is None and missed.grade is not None and missed.grade.verdict == "missed"
    with pytest.raises(InvalidInputError, match="called seat 1 already"):
        FoulCall(view=view(chart, round_=round_, calls=dataclasses.replace(calls, called=frozenset({"1"})))
                 ).parse("f 1")
    with pytest.raises(InvalidInputError, match="too late"):
        FoulCall(view=view(chart, round_=round_, calls=dataclasses.replace(calls, open=False))).parse("f 1")
    with pytest.raises(InvalidInputError, match="no mistakes at this table"):
        FoulCall(view=view(chart, round_=round_)).parse("f 1")
    clean = FoulCall(view=view(chart, round_=round_, calls=dataclasses.replace(calls, slip=None)))
    assert clean.grade(Answer(text="ok", value=None)).grade is None  # a clean round closed: nothing graded


def test_every_kind_of_the_contract_has_its_type_registered() -> None:
    from trainer.table.decisions import KINDS
    from trainer.table.session import CHECKS

    assert set(CHECKS) == set(KINDS)  # a new kind: its type, and one line in CHECKS


def test_a_side_count_system_bets_by_the_ace_adjusted_count(chart) -> None:
    # Hi-Opt I, 1.5 decks in the tray (234 cards left, 4.5 decks): the norm is 6 aces
    rich = BetDecision(view=view(chart, seen="5 5 5 5 7 8 9 2", system="hi-opt-i"))
    # no ace seen: 6 surplus, +4 + 6 = +10 over 4.5 decks, true count +2 for the bet (the plain count's +0)
    asked = rich.ask()
    assert asked.question.expected == "20" and asked.question.data["betting_running_count"] == 10
    graded = rich.grade(rich.parse("20"))
    assert graded.grade is not None and graded.grade.correct and graded.check is not None
    assert "aces 0 seen against a norm of 6, surplus +6 x 1: betting count +10" in graded.check.why  # a right bet shows the counts only on request
    poor = BetDecision(view=view(chart, seen="5 5 5 5 A A A A A A A A", system="hi-opt-i"))
    assert poor.ask().question.expected == "10"  # 8 aces seen: -2 surplus, +2 over 4.5 decks: +0
    plain = BetDecision(view=view(chart, seen="5 5 5 5 7 8 9 2", system="hi-lo"))
    assert "betting_running_count" not in plain.ask().question.data
