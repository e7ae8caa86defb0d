"""The side count at the table, on stacked shoes: asked at checkpoints after the running count with a
count that keeps one, as the surplus against the norm for the tray's depth, graded and recorded under the
aces drill's item; the bet by the adjusted count, the play by the plain one."""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction

import pytest

from trainer.core import Shoe, load_ruleset, parse_cards
from trainer.core.actions import Action
from trainer.core.betting import BetRamp
from trainer.core.deal import TableDeal
from trainer.practice.session import ListRecorder
from trainer.strategy import chart_for
from trainer.strategy.indexplay import IndexPlay
from trainer.table.count_checks import side_count_reading
from trainer.table.session import TableSession

CASINO = load_ruleset("casino")
RAMP = BetRamp.parse("1:1,2:2,3:4,4:8,5:12")
SIXTEEN_VS_TEN = IndexPlay(kind="hard", total=16, up_value=10, index=1, above=Action.STAND, below=Action.HIT,
                           basic=Action.HIT, source="a test card")
"""An index play at +1: the plain true count (0) hits, the ace-adjusted one (+2) would stand."""


@pytest.fixture(scope="module")
def chart():
    return chart_for(CASINO)


def table_at(chart, seen: str, cards_left: int, *, estimation: str = "half",
             last_deck: str | None = None, top: list[str] | None = None,
             system: str = "hi-opt-i") -> tuple[TableSession, ListRecorder]:
    """A one-seat Hi-Opt I table: `seen` since the shuffle, `cards_left` in the shoe (`top` dealt first)."""
    recorder = ListRecorder()
    table = TableSession(CASINO, chart, seats=1, rng=random.Random(1), ramp=RAMP, estimation=estimation,
                         last_deck=last_deck, system=system, recorder=recorder,
                         index_plays=(SIXTEEN_VS_TEN,))
    first = [*parse_cards(" ".join(top))] if top else []
    table.shoe = Shoe.stacked(CASINO, [*first, *parse_cards("9 " * (cards_left - len(first)))])
    table.keeper.seen = list(parse_cards(seen)) if seen else []
    return table, recorder


@pytest.mark.parametrize("seen, cards_left, estimation, last_deck, dealt, norm, surplus", [
    ("A A A 3 T", 234, "half", None, Fraction(3, 2), 6, 3),  # 4.5 decks left: 1.5 dealt, norm 6
    ("A " * 9, 234, "half", None, Fraction(3, 2), 6, -3),
    ("A A", 240, "half", None, Fraction(3, 2), 6, 4),  # 4.6 decks left read as 4.5
    ("A A", 240, "full", None, 1, 4, 2),  # read as 5: one deck dealt
    ("A A", 243, "quarter", None, Fraction(5, 4), 5, 3),  # 4.67 decks left read as 4.75
    ("A " * 20, 45, "half", "quarter", Fraction(21, 4), 21, 1),  # the last deck by its own unit: 0.75 left
    ("A " * 20, 45, "half", None, 5, 20, 0),  # without it: a whole deck left
])
def test_the_norm_is_four_aces_a_deck_of_the_tray(chart, seen: str, cards_left: int, estimation: str,
                                                  last_deck: str | None, dealt: Fraction, norm: int,
                                                  surplus: int) -> None:
    table, recorder = table_at(chart, seen, cards_left, estimation=estimation, last_deck=last_deck)
    reading = side_count_reading(table.view())
    assert (reading.decks_dealt, reading.norm, reading.surplus) == (dealt, norm, surplus)
    decision = table.count_decision("side count")
    assert decision.kind == "side-count" and decision.question.expected == str(surplus)
    assert decision.question.item == f"aces:hi-opt-i:{max(min(surplus, 4), -4):+d}"
    assert decision.question.data["decks_dealt"] == float(dealt)
    assert "running_count" not in decision.question.data  # the question gives no count away
    grade = table.answer(decision, f"{surplus:+d}")
    assert grade is not None and grade.correct
    (attempt,) = recorder.attempts
    assert (attempt.drill, attempt.item, attempt.source) == ("aces", decision.question.item, "play")
    assert table.tally.counts[-1].question == "side count"


def test_a_wrong_side_count_is_told_with_the_norm_and_what_the_bet_counts_by(chart) -> None:
    table, _ = table_at(chart, "A A A 3 3 3 3 T", 234)  # Hi-Opt I running +3, surplus +3
    grade = table.answer(table.count_decision("side count"), "+2")
    assert grade is not None and not grade.correct and grade.expected == "3"
    assert "aces: 3 seen against a norm of 6 for 1.5 decks dealt (to the half deck, 4 a deck): surplus +3" \
        in grade.explanation
    assert "your bets count +3 + 1 x +3 = +6, your plays the plain +3" in grade.explanation


def test_under_exact_estimation_the_nearest_whole_ace_is_right(chart) -> None:
    table, _ = table_at(chart, "A A", 241, estimation="exact")  # 71 cards dealt: norm 71/13 = 5.46
    reading = side_count_reading(table.view())
    assert reading.norm == Fraction(71, 13) and reading.whole == 3  # surplus 3.46
    assert table.answer(table.count_decision("side count"), "+3").correct
    assert not table.answer(table.count_decision("side count"), "+4").correct
    assert not table.answer(table.count_decision("side count"), "3.5").correct


def test_the_bet_goes_by_the_adjusted_count_and_the_play_by_the_plain_one(chart) -> None:
    # Hi-Opt I running +4 with no ace seen; 238 cards left (4.5 decks read, 1.5 dealt: norm 6, surplus +6)
    deal = TableDeal(seats=[parse_cards("T 6")], up=parse_cards("T")[0], hole=parse_cards("7")[0],
                     draws=(), dealer_draws=())
    top = [str(card) for card in deal.order(CASINO)]
    table, recorder = table_at(chart, "3 3 3 3", 238, top=top)
    bet = table.decision()
    assert bet.kind == "bet" and bet.question.data["betting_running_count"] == 10  # +4 + 1 x 6
    assert bet.question.expected == "20"  # 10 / 4.5 = +2: two units; the plain +4 / 4.5 = 0 bets one
    grade = table.answer(bet, "20")
    assert grade is not None and grade.correct
    # the round: T 6 against a ten; seen now T 6 T (Hi-Opt I -1): plain +3 / 4.5 = 0, adjusted +9 / 4.5 = +2
    assert table.learner_in_turn and table.view().true_count_now() == 0
    assert table.judge(Action.HIT).correct and not table.judge(Action.STAND).correct
    assert [a.drill for a in recorder.attempts] == ["bet"]


class _Answers(io.StringIO):
    """A learner's side of `play --jsonl`: each answer read off the last decision line written."""

    def __init__(self, out: io.StringIO, answers: dict[str, str]) -> None:
        super().__init__()
        self.out, self.answers = out, answers

    def readline(self, size: int | None = -1) -> str:
        lines = [json.loads(line) for line in self.out.getvalue().splitlines()]
        kind = next(line["kind"] for line in reversed(lines) if "kind" in line)
        return self.answers[kind] + "\n"


@pytest.mark.parametrize("system, asked", [("hi-opt-i", True), ("hi-lo", False)])
def test_machine_mode_asks_the_side_count_after_the_running_count_at_a_checkpoint(
        chart, system: str, asked: bool) -> None:
    from trainer.table.machine import TableMachine

    table = TableSession(CASINO, chart, seats=1, rng=random.Random(3), ramp=RAMP, system=system,
                         recorder=ListRecorder())
    out = io.StringIO()
    answers = {"bet": "10", "action": "stand", "insurance": "decline", "even-money": "decline",
               "count": "0", "side-count": "0", "true-count": "0"}
    TableMachine(table, _Answers(out, answers), out).run(rounds=8)
    kinds = [json.loads(line).get("kind") for line in out.getvalue().splitlines()]
    checks = [k for k in kinds if k in ("count", "side-count", "true-count")]
    assert checks[:3] == (["count", "side-count", "true-count"] if asked else ["count", "true-count"])[:3]
    side = [json.loads(line) for line in out.getvalue().splitlines() if '"side-count"' in line]
    assert bool(side) is asked
    if asked:
        data = side[0]["data"]
        assert data["ranks"] == "aces" and data["per_deck"] == 4 and data["adjustment"] == 1


def test_the_edge_line_reads_the_statistics_at_the_count_bets_go_by(chart) -> None:
    """The per-count statistics of a side-counted game are keyed by the adjusted count, so the edge line
    looks its count up there: 3 aces seen of a norm of 6 at 4.5 decks left adds 3 to the running count."""
    table, _ = table_at(chart, "A A A 3 T", 234)
    assert table.true_count_now() == 0  # Hi-Opt I: 3 +1, T -1, aces 0: running +0
    assert table.betting_true_count_now() == 0  # (+0 + 3) / 4.5 decks = 0.67, floored
    table, _ = table_at(chart, "A 3 4 5 6 3 4 5 6 T", 234)  # 1 ace of 6: surplus +5, running +7
    assert table.true_count_now() == 1  # +7 / 4.5
    assert table.betting_true_count_now() == 2  # (+7 + 5) / 4.5 = 2.67, floored
