"""`cutcard play --dealer-errors`: the dealer's mistakes at the table, at the stated rate, each kind on a
stacked shoe, and the learner's catches, misses and false calls graded and recorded as the catch drill's."""

from __future__ import annotations

import json
import random
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from drills.dealing.catch import CatchDrill
from trainer.cli import cli
from trainer.core import Shoe, load_ruleset
from trainer.core.dealer_errors import ERRORS
from trainer.core.errors import InvalidInputError
from trainer.core.events import DealerStood
from trainer.core.hands import hand_total
from trainer.core.rules import Ruleset
from trainer.practice.session import ListRecorder
from trainer.strategy import chart_for
from trainer.table.session import TableSession

CASINO = load_ruleset("casino")
PAD = " 9" * 300

# One seat (the learner's), so that exactly one kind of mistake fits each round:
STACKS = {
    "pays-a-loser": ("T T 7 9", ["stand"], "1"),         # 17 loses to 19: the dealer pays it
    "short-blackjack": ("A 9 T 7", [], "1"),             # a natural against a 9: paid 1:1 or 6:5
    "takes-a-push": ("T T 8 8", ["stand"], "1"),         # 18 ties 18: the dealer takes it
    "insurance-short": ("T A T T", ["insure"], "1"),     # insured against an ace, the dealer has it
    "soft-counted-hard": ("T 5 8 A K 7", ["stand"], "dealer"),  # 5 A K is 16, called 26
    "many-card-16-as-17": ("T 2 8 3 4 7 T", ["stand"], "dealer"),  # 2 3 4 7 is 16, stood as 17
}


@pytest.fixture(scope="module")
def chart():
    return chart_for(CASINO)


def table(chart, cards: str | None = None, *, rate: float = 1.0, seats: int = 1,
          seed: int = 1) -> tuple[TableSession, ListRecorder]:
    recorder = ListRecorder()
    t = TableSession(CASINO, chart, seats=seats, rng=random.Random(seed), dealer_errors=rate, recorder=recorder)
    if cards is not None:
        t.shoe = Shoe.stacked(CASINO, cards + PAD)
    return t, recorder


def deal(t: TableSession, plays: list[str]) -> None:
    t.answer(t.decision(), "10")
    for play in plays:
        t.answer(t.decision(), play)
    assert t.round is not None and t.round.finished


def auto_round(t: TableSession) -> None:
    """A round played by the chart (insurance declined), counted when asked."""
    if t.broke:
        t.bankroll += 1000
    t.answer(t.decision(), "10")
    while t.learner_in_turn:
        decision = t.decision()
        t.answer(decision, decision.question.expected)
    t.end_round()
    if t.count_check_due():
        t.answer(t.count_decision("running count"), str(t.keeper.running_count()))


def test_the_catch_drill_and_the_table_share_one_list_of_mistakes() -> None:
    import drills.dealing.catch as catch

    assert catch.ERRORS is ERRORS


@pytest.mark.parametrize("error", ERRORS)
def test_each_mistake_on_a_stacked_shoe_is_shown_as_the_dealer_made_it_and_caught(chart, error: str) -> None:
    cards, plays, where = STACKS[error]
    t, recorder = table(chart, cards)
    deal(t, plays)
    slip = t.fouls.slip
    assert slip is not None and slip.error == error and slip.where == where
    assert t.round is not None
    shown, true = t.shown_events(), list(t.round.events)
    assert shown != true
    if where == "dealer":  # the dealer stopped too soon: its last cards are not shown, and its total is wrong
        assert len(t.dealer_cards_shown()) < len(t.round.dealer_hand.cards)
        stood = next(e for e in shown if isinstance(e, DealerStood))
        assert stood.total != hand_total(t.dealer_cards_shown())[0]
    t.end_round()
    grade = t.call_foul(f"f {where}")
    assert grade is not None and grade.correct and grade.verdict == "caught"
    assert t.shown_events() == true  # the floor fixed it
    assert t.bankroll == CASINO.table.bankroll + t.round.results[0]
    (attempt,) = recorder.attempts[-1:]
    assert (attempt.drill, attempt.item, attempt.source, attempt.correct) == ("catch", f"catch:{error}", "play", True)
    assert attempt.data["round"] == 1 and attempt.data["error"] == error and attempt.data["where"] == where
    assert CatchDrill().cannot_ask(attempt.item, CASINO) is None  # review asks it back in the catch drill


def test_the_words_of_a_short_paid_blackjack_are_the_dealers(chart) -> None:
    t, _ = table(chart, STACKS["short-blackjack"][0])
    deal(t, [])
    grade = t.call_foul("f 1")
    assert grade is not None
    assert "your blackjack was paid $12; 3:2 pays $15" in grade.explanation  # 6:5 at a 3:2 table
    assert "pays you $3" in grade.explanation


def test_a_miss_keeps_the_money_as_the_dealer_paid_it_and_is_recorded_when_the_next_round_is_dealt(chart) -> None:
    t, recorder = table(chart, STACKS["pays-a-loser"][0] + " T T 9 8")
    deal(t, ["stand"])
    assert t.end_round() == Decimal(10)  # paid a losing hand: +$10, not -$10
    assert t.bankroll == CASINO.table.bankroll + 10
    t.answer(t.decision(), "10")  # the next round is dealt with the error uncalled
    missed = [a for a in recorder.attempts if a.drill == "catch"]
    assert [(a.item, a.correct, a.verdict, a.given, a.expected) for a in missed] == [
        ("catch:pays-a-loser", False, "missed", "ok", "f 1")]
    assert missed[0].data["round"] == 1
    assert t.bankroll == CASINO.table.bankroll + 10  # the reading: the table does not go back


def test_a_false_call_is_graded_recorded_and_may_be_followed_by_the_catch(chart) -> None:
    t, recorder = table(chart, STACKS["takes-a-push"][0])
    deal(t, ["stand"])
    t.end_round()
    false = t.call_foul("f dealer")
    assert false is not None and not false.correct and false.verdict == "false call"
    assert "error" not in false.detail  # a false call does not give the error away
    with pytest.raises(InvalidInputError, match="already"):
        t.call_foul("f d")
    before = len(recorder.attempts)
    for bad in ("f 9", "foul at nowhere", "maybe"):
        with pytest.raises(InvalidInputError):
            t.call_foul(bad)
    assert len(recorder.attempts) == before  # nothing recorded for a malformed call
    caught = t.call_foul("foul seat 1")
    assert caught is not None and caught.correct
    assert t.bankroll == CASINO.table.bankroll  # a push: the $10 taken comes back
    assert [(a.item, a.correct) for a in recorder.attempts if a.drill == "catch"] == [
        ("catch:clean", False), ("catch:takes-a-push", True)]
    assert t.close_calls() is None  # nothing is left to miss


def test_a_clean_round_closed_without_a_call_records_nothing(chart) -> None:
    t, recorder = table(chart, "T T 9 7", rate=0.0)  # 19 beats 17: nothing to get wrong, errors off
    deal(t, ["stand"])
    with pytest.raises(InvalidInputError, match="no mistakes"):
        t.call_foul("f 1")
    t.end_round()
    assert t.close_calls() is None and not [a for a in recorder.attempts if a.drill == "catch"]


def test_a_catch_in_the_dealers_hand_shows_the_cards_it_should_have_drawn_and_counts_them(chart) -> None:
    t, _ = table(chart, STACKS["soft-counted-hard"][0])
    deal(t, ["stand"])
    t.end_round()
    seen = len(t.keeper.seen)
    grade = t.call_foul("f dealer")
    assert grade is not None and "the dealer's 5 A K is 16, not 26" in grade.explanation  # stacked: no suits
    assert len(t.keeper.seen) == seen + 1  # the 7 the dealer must draw is now seen


def test_a_miss_in_the_dealers_hand_leaves_the_cards_it_never_drew_unseen(chart) -> None:
    t, _ = table(chart, STACKS["many-card-16-as-17"][0])
    deal(t, ["stand"])
    t.end_round()
    assert t.close_calls() is not None
    assert t.round is not None
    unseen = t.round.dealer_hand.cards[len(t.dealer_cards_shown()):]
    assert [str(c) for c in unseen] == ["T"] and t.keeper.seen[-1] == t.dealer_cards_shown()[-1]


def test_off_by_default_and_the_table_is_dealt_alike_without_it(chart) -> None:
    on, _ = table(chart, rate=0.0, seats=3, seed=4)
    off = TableSession(CASINO, chart, seats=3, rng=random.Random(4))
    for t in (on, off):
        for _ in range(5):
            auto_round(t)
    assert on.fouls.slips == off.fouls.slips == 0
    assert on.keeper.seen == off.keeper.seen


def _rounds(rate: float, rounds: int, *, seats: int, seed: int, insure: bool = False,
            until: set[str] | None = None) -> Counter[str]:
    """The dealer's mistakes over `rounds` rounds of computer seats (Easy; insuring every offer if
    `insure`), looked at as the table does: after the deal and after each play (stopping early once
    every kind in `until` has come up)."""
    from trainer.core import Action, Round
    from trainer.core.seats import EasySeat
    from trainer.table.fouls import DealerErrors

    errors = DealerErrors(rate, random.Random(seed))
    shoe = Shoe.shuffled(CASINO, random.Random(seed))
    made: Counter[str] = Counter()
    for _ in range(rounds):
        errors.start_round()
        r = Round.start(CASINO, shoe, [10] * seats)
        errors.look(r)
        while not r.finished:
            legal = r.legal_actions()
            r.act(Action.INSURE if insure and Action.INSURE in legal else EasySeat().decide(r.view(r.seat_in_turn)))
            errors.look(r)
        if errors.slip is not None:
            made[errors.slip.error] += 1
            assert errors.slip.shown(r.events) != list(r.events)
            if until is not None and until <= set(made):
                break
    return made


@pytest.mark.parametrize(("rate", "seats"), [(0.2, 5), (0.5, 3), (0.1, 1)])
def test_the_mistakes_come_at_the_stated_rate_in_a_seeded_run(rate: float, seats: int) -> None:
    rounds = 3000
    made = _rounds(rate, rounds, seats=seats, seed=9)
    assert abs(sum(made.values()) / rounds - rate) < 0.02, made


def test_every_kind_comes_up_at_a_full_table() -> None:
    made = _rounds(1.0, 3000, seats=7, seed=3, insure=True, until=set(ERRORS))
    assert set(made) == set(ERRORS), made


# --- machine mode --------------------------------------------------------------------------------


def _expected_net(hand: dict[str, object], dealer: list[str], rules: Ruleset) -> Decimal:
    """A hand's net from its cards and the dealer's, as a program checking the dealer would work it out."""
    from trainer.core.cards import parse_cards

    cards = parse_cards(" ".join(str(c) for c in hand["cards"]))
    dealt = parse_cards(" ".join(dealer))
    bet = Decimal(str(hand["bet"]))
    me, them = hand_total(cards)[0], hand_total(dealt)[0]
    natural, dealer_natural = len(cards) == 2 and me == 21, len(dealt) == 2 and them == 21
    if me > 21:
        return -bet
    if natural and not dealer_natural:
        return rules.payouts.blackjack.pay(bet)
    if dealer_natural:
        return Decimal(0) if natural else -bet
    if them > 21 or me > them:
        return bet
    return Decimal(0) if me == them else -bet


def _find_the_foul(data: dict[str, object], rules: Ruleset) -> str | None:
    """Where the dealer went wrong, from a `foul` decision's data alone (None: nowhere)."""
    from trainer.core.cards import parse_cards

    dealer = [str(c) for c in data["dealer"]]
    if data["dealer_total"] is not None and len(dealer) > 2 \
            and hand_total(parse_cards(" ".join(dealer)))[0] != data["dealer_total"]:
        return "dealer"
    for seat in data["seats"]:
        insurance = seat["insurance"]
        if insurance is not None and Decimal(insurance["net"]) > 0 \
                and Decimal(insurance["net"]) != rules.payouts.insurance.pay(Decimal(insurance["stake"])):
            return str(seat["seat"])
        hands = seat["hands"]
        if len(hands) != 1 or hands[0]["outcome"] in ("surrender", "even-money") or insurance is not None:
            continue
        if Decimal(hands[0]["net"]) != _expected_net(hands[0], dealer, rules):
            return str(seat["seat"])
    return None


class _Program:
    """A program at the other end of `play --jsonl`: it answers each decision line as it is written."""

    def __init__(self) -> None:
        self.lines: list[dict[str, object]] = []
        self._buffer = ""

    def write(self, text: str) -> int:
        self._buffer += text
        while "\n" in self._buffer:
            line, self._buffer = self._buffer.split("\n", 1)
            self.lines.append(json.loads(line))
        return len(text)

    def flush(self) -> None:
        pass

    def readline(self) -> str:
        d = self.lines[-1]
        kind = d["kind"]
        if kind == "foul":
            data = d["data"]
            place = _find_the_foul(data, CASINO)
            called = data["called"]
            return "ok\n" if place is None or place in called else f"f {place}\n"
        answer = {"count": "0", "true-count": "0", "bet": "10", "insurance": "decline",
                  "even-money": "decline"}.get(str(kind), "stand")
        return answer + "\n"


def test_play_jsonl_carries_the_dealers_mistake_so_a_program_finds_every_one_and_nothing_else(chart) -> None:
    from trainer.table.machine import TableMachine

    t, recorder = table(chart, rate=0.5, seats=4, seed=5)
    program = _Program()
    TableMachine(t, program, program).run(40)
    out = program.lines
    grades = [g for g in out if g.get("verdict") in ("caught", "missed", "false call")]
    rounds = [r for r in out if "round" in r and "net" in r]
    errors = [r["dealer_error"] for r in rounds if r["dealer_error"]]
    assert len(rounds) == 40 and 10 <= len(errors) <= 30
    assert [g["verdict"] for g in grades] == ["caught"] * len(errors)
    assert all(e["outcome"] == "caught" for e in errors)
    assert {g["detail"]["error"] for g in grades} <= set(ERRORS)
    fouls = [d for d in out if d.get("kind") == "foul"]
    assert all(d["data"]["round"] == n for d, n in zip(fouls, range(1, 41), strict=False))
    assert len([a for a in recorder.attempts if a.drill == "catch"]) == len(errors)


def test_play_jsonl_without_a_call_grades_the_miss_and_says_so_on_the_round_line(tmp_path: Path) -> None:
    answers = ["10", "stand", "stand", "ok"] * 3
    out = CliRunner().invoke(cli, ["--db", str(tmp_path / "p.db"), "play", "--jsonl", "--seed", "2",
                                   "--seats", "1", "--dealer-errors", "1", "--rounds", "3"],
                             input="".join(f"{a}\n" for a in answers * 3))
    assert out.exit_code == 0, out.output
    lines = [json.loads(line) for line in out.output.splitlines()]
    rounds = [r for r in lines if "round" in r and "net" in r]
    assert rounds and all("dealer_error" in r for r in rounds)
    missed = [g for g in lines if g.get("verdict") == "missed"]
    with_error = [r for r in rounds if r["dealer_error"]]
    assert len(missed) == len(with_error) >= 1
    assert all(r["dealer_error"]["outcome"] == "missed" for r in with_error)
    assert all(g["expected"].startswith("f ") and g["given"] == "ok" for g in missed)


def test_play_refuses_a_rate_outside_0_to_1(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["--db", str(tmp_path / "p.db"), "play", "--jsonl", "--dealer-errors", "2"])
    assert out.exit_code != 0 and "0<=x<=1" in out.output.replace(" ", "")


# --- at the terminal and in the REPL's settings --------------------------------------------------


def test_at_the_terminal_a_false_call_and_a_catch_at_the_bet_prompt(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    monkeypatch.setenv("COLUMNS", "200")
    args = ["--db", str(tmp_path / "p.db"), "play", "--ruleset", "casino", "--seats", "1", "--seed", "2",
            "--dealer-errors", "1"]
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("\r" + "s" + "f d\r" + "f\r1\r" + "f 1\r" + "q\r")
        out = CliRunner().invoke(cli, args).output
    assert "Dealer errors on: in about 100% of rounds" in out
    assert "you win +$10" in out and "dealer       10♦ 10♣  20" in out  # 18 against 20, paid as a win
    assert "✗ False call: the dealer's hand was played and settled right." in out
    assert "✓ Caught: your 18 lost to the dealer's 20 and was paid $10: take $10." in out
    assert "The floor fixes it and takes back $20." in out and "(bankroll $490)" in out
    assert "you called seat 1 already this round" in out
    assert "dealer errors: 1 caught, 0 missed, 1 false call (1 made by the dealer)" in out
    assert "Traceback" not in out


def test_set_dealer_errors_is_plays_default_and_a_bad_share_changes_nothing(tmp_path: Path) -> None:
    from trainer.repl import prefs

    chosen = prefs.change(prefs.Prefs(), "dealer-errors", "0.2")
    prefs.save_prefs(tmp_path, chosen)
    assert prefs.load_prefs(tmp_path) == (chosen, None)
    assert chosen.dealer_errors == 0.2 and chosen.shown("dealer-errors") == "0.2"
    assert chosen.default_map()["play"]["dealer_errors"] == 0.2
    assert prefs.change(chosen, "dealer-errors", "off").dealer_errors is None
    assert prefs.Prefs().shown("dealer-errors") == "0, off (default)"
    assert prefs.change(prefs.Prefs(), "dealer-errors", "25%").dealer_errors == 0.25
    for bad in ("lots", "1.5", "-0.1"):
        with pytest.raises(InvalidInputError, match="dealer-errors"):
            prefs.change(chosen, "dealer-errors", bad)


def test_a_natural_short_paid_at_once_can_be_called_before_the_round_is_over(
        chart, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("trainer.table.fouls.EARLY_SHARE", 1.0)
    t, recorder = table(chart, "A T 9 T 7 7", seats=2)  # seat 1: A T against a 9, paid at once; you: T 7
    t.answer(t.decision(), "10")
    assert t.learner_in_turn and t.fouls.slip is not None and t.fouls.slip.error == "short-blackjack"
    with pytest.raises(InvalidInputError, match="has not played"):
        t.call_foul("f dealer")
    grade = t.call_foul("f 1")
    assert grade is not None and grade.correct and "seat 1's blackjack was paid $12; 3:2 pays $15" in grade.explanation
    t.answer(t.decision(), "stand")
    t.end_round()
    assert t.close_calls() is None  # caught: nothing left to miss
    assert [(a.item, a.correct) for a in recorder.attempts if a.drill == "catch"] == [("catch:short-blackjack", True)]


def test_dealer_errors_typed_for_the_chat_host_tournament_are_refused_and_a_saved_setting_left_aside(
        tmp_path: Path) -> None:
    """The chat host's dealer is a bot that settles by its rules: `--dealer-errors` typed there is a
    one-line error that plays nothing; the REPL's saved `set dealer-errors` (a default) does not stop it."""
    db = str(tmp_path / "p.db")
    typed = CliRunner().invoke(cli, ["--db", db, "play", "--ruleset", "chat-host", "--dealer-errors", "0.2"])
    assert isinstance(typed.exception, InvalidInputError)  # the CLI's entry point prints it in one line
    assert "--dealer-errors is for a table with a dealer" in str(typed.exception)
    assert not (tmp_path / "p.db").exists()
    saved = CliRunner().invoke(cli, ["--db", db, "play", "--ruleset", "chat-host", "--rounds", "1", "--seed", "1"],
                               default_map={"play": {"dealer_errors": 0.2}}, input="\n" * 40)
    assert saved.exit_code == 0 and "still in" in saved.output, saved.output
