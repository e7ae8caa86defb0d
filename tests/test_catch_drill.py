"""`drill catch`: the dealer's realistic mistakes at the stated rate; catches, misses and false calls."""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal

import pytest

from drills.base import DrillOptions, Lines, Question
from drills.dealing.catch import ERRORS, CatchDrill
from trainer.core import load_ruleset
from trainer.core.errors import InvalidInputError
from trainer.practice.session import DrillRun, ListRecorder

CASINO = load_ruleset("casino")


@pytest.mark.parametrize("error", ERRORS)
def test_each_error_kind_is_dealt_where_it_belongs_and_caught_only_there(error: str) -> None:
    drill = CatchDrill(DrillOptions(seats=5))
    question = drill.ask(random.Random(3), CASINO, f"catch:{error}")
    assert question.item == f"catch:{error}" and question.expected.startswith("f ")
    where = question.expected.removeprefix("f ")
    calls = {c["where"]: c["says"] for c in question.data["calls"]}
    assert where in calls
    caught = drill.grade(question, drill.parse(question, question.expected))
    assert caught.correct and caught.verdict == "caught"
    missed = drill.grade(question, drill.parse(question, "ok"))
    assert not missed.correct and missed.verdict == "missed"
    other = next(p for p in calls if p != where)
    wrong = drill.grade(question, drill.parse(question, f"f {other}"))
    assert not wrong.correct and wrong.verdict.startswith("wrong place")


def test_dealer_errors_forge_the_dealer_call() -> None:
    drill = CatchDrill(DrillOptions(seats=3))
    soft = drill.ask(random.Random(1), CASINO, "catch:soft-counted-hard")
    says = soft.data["calls"][0]["says"]
    assert says.endswith("bust") and "A" in says.split(":")[0]
    many = drill.ask(random.Random(1), CASINO, "catch:many-card-16-as-17")
    says = many.data["calls"][0]["says"]
    assert says.endswith("17, stands") and len(says.split(":")[0].split()) >= 4


def test_a_clean_table_called_foul_is_a_false_call_and_the_rate_holds() -> None:
    drill = CatchDrill(DrillOptions(seats=3, extra={"rate": "0.3"}))
    rng = random.Random(9)
    kinds: Counter[str] = Counter()
    for _ in range(300):
        question = drill.ask(rng, CASINO)
        kinds["clean" if question.item == "catch:clean" else "error"] += 1
        if question.item == "catch:clean":
            false_call = drill.grade(question, drill.parse(question, "f 1"))
            assert not false_call.correct and false_call.verdict == "false call"
            assert drill.grade(question, drill.parse(question, "ok")).correct
    share = kinds["error"] / 300
    assert abs(share - 0.3) < 3 * (0.3 * 0.7 / 300) ** 0.5


def test_catches_and_false_calls_are_recorded_like_any_answer() -> None:
    recorder = ListRecorder()
    session = DrillRun(drill=CatchDrill(DrillOptions(extra={"rate": "0.5"})), ruleset=CASINO,
                      rng=random.Random(4), recorder=recorder)
    for _ in range(6):
        _, question = session.ask()
        session.answer(question, "f 1")
    assert len(recorder.attempts) == 6 and all(a.item.startswith("catch:") for a in recorder.attempts)
    summary = session.summary()
    assert any("caught" in line and "false calls" in line for line in summary)


def test_bad_calls_and_settings_are_refused() -> None:
    drill = CatchDrill()
    question = drill.ask(random.Random(2), CASINO)
    for bad in ("", "banana", "f 9", "f " + "1" * 60):
        with pytest.raises(InvalidInputError):
            drill.parse(question, bad)
    with pytest.raises(InvalidInputError, match="rate"):
        CatchDrill(DrillOptions(extra={"rate": "2"}))
    assert drill.cannot_ask("catch:insurance-short", load_ruleset("european")) is not None
    assert drill.cannot_ask("catch:nonsense", CASINO) is not None


# A pitch game (casino at one deck), stacked: seat 1 holds 9 4 against the dealer's ten, hits a K and busts;
# seat 2 holds 6 5 and doubles, getting a 9; seat 3 holds T 8 and stands; seat 4 holds A K. The dealer's
# T 9 stands on 19: seat 4's natural is paid at once, seat 2's 20 wins, seat 3's 18 loses.
PITCH_TABLE = "9 6 T A T  4 5 8 K 9  K 9"


def _pitch_question(monkeypatch: pytest.MonkeyPatch, item: str) -> tuple[CatchDrill, Question, list[str]]:
    from trainer.core import Shoe
    from trainer.core.rules import Ruleset

    def stacked(cls: type[Shoe], ruleset: Ruleset, rng: random.Random | None = None) -> Shoe:
        return Shoe.stacked(ruleset, PITCH_TABLE + " 9" * 30)

    monkeypatch.setattr(Shoe, "shuffled", classmethod(stacked))
    drill = CatchDrill(DrillOptions(seats=4, decks=1))
    question = drill.ask(random.Random(1), CASINO, item)
    assert question.data["pitch"] is True
    lines = [line for shown in question.show if isinstance(shown, Lines) for line in shown.lines]
    return drill, question, lines


def test_a_pitch_game_is_called_as_it_is_dealt_and_settled_third_base_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    drill, question, lines = _pitch_question(monkeypatch, "catch:clean")
    bets = {s["seat"]: s["bet"] for s in question.data["seats"]}
    assert lines[1:6] == [f"Seat {n}: bet ${bets[n]}; ▒▒ ▒▒" for n in (4, 3, 2, 1)] + ["Dealer: 10 ▒▒"]
    doubled = f"{2 * Decimal(bets[2]):f}".removesuffix(".00")
    blackjack = f"{Decimal(bets[4]) * 3 / 2:.2f}".removesuffix(".00")
    calls = [(c["where"], c["says"]) for c in question.data["calls"]]
    assert calls == [
        ("4", f"turns up A K, blackjack: pays ${blackjack}"),     # a natural paid after the peek
        ("1", f"hits K, turns up 9 4, busts: takes ${bets[1]}"),  # a bust is taken at once
        ("2", f"turns up 6 5, doubles to ${doubled}, gets 9"),    # a double is turned up first
        ("3", "stands"),                                           # held: the table does not know its total
        ("dealer", "10 9: 19, stands"),
        ("3", f"turns up 10 8: takes ${bets[3]}"),                # turned at the settlement, third base first
        ("2", f"pays ${doubled}"),
    ]
    assert drill.grade(question, drill.parse(question, "ok")).correct


def test_a_pitch_game_dealer_pays_a_loser_only_where_it_settles_one(monkeypatch: pytest.MonkeyPatch) -> None:
    _, question, _ = _pitch_question(monkeypatch, "catch:pays-a-loser")
    assert question.expected == "f 3"  # the bust at seat 1 was taken when it busted: no loser to pay there
    bets = {s["seat"]: s["bet"] for s in question.data["seats"]}
    calls = [(c["where"], c["says"]) for c in question.data["calls"]]
    assert ("3", f"turns up 10 8: pays ${bets[3]}") in calls
    assert calls[1] == ("1", f"hits K, turns up 9 4, busts: takes ${bets[1]}")


def test_at_a_pitch_game_no_mistake_pays_a_bust_and_every_held_hand_is_turned() -> None:
    drill = CatchDrill(DrillOptions(seats=5, decks=1, extra={"rate": "1"}))
    rng = random.Random(8)
    for _ in range(40):
        question = drill.ask(rng, CASINO)
        assert question.item != "catch:clean"
        calls = question.data["calls"]
        assert isinstance(calls, list)
        dealer = next(n for n, c in enumerate(calls) if c["where"] == "dealer")
        for call in calls[:dealer]:
            if "busts:" in call["says"]:
                assert "busts: takes $" in call["says"]  # taken at once, whatever the dealer's total
        late = [c["where"] for c in calls[dealer + 1:]]
        assert late == sorted(late, reverse=True)  # third base first
        for seat in question.data["seats"]:
            held = [h for h in seat["hands"] if h["outcome"] not in ("bust", "blackjack", "surrender",
                                                                    "even-money")]
            turned_before = any("turns up" in c["says"] for c in calls[:dealer] if c["where"] == str(seat["seat"]))
            if held and not turned_before:
                says = next(c["says"] for c in calls[dealer + 1:] if c["where"] == str(seat["seat"]))
                assert says.startswith("turns up ")
