"""Tray resolution: each estimation setting at its boundaries, a finer last deck, and close calls with
the learner's allowed error, in the core and in the true-count and bet drills."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from drills.base import Answer, DrillOptions, Question
from drills.counting.bet import BetDrill
from drills.counting.count_drill import close_call
from drills.counting.true_count import TrueCountDrill
from trainer.core.counting import Estimation, estimate_decks_left, estimation_at, round_decks, true_count
from trainer.core.errors import InvalidInputError
from trainer.core.rulesfile import find_ruleset

CASINO = find_ruleset("casino")


def _answer(drill: TrueCountDrill | BetDrill, question: Question, text: str) -> Answer:
    return replace(drill.parse(question, text), latency_ms=1000, pace="learner")


# --- each setting at its boundaries -----------------------------------------------------------------


@pytest.mark.parametrize("cards, estimation, decks", [
    (78, "full", 2), (77, "full", 1), (26, "full", 1), (1, "full", 1),  # 1.5 decks ties up to 2
    (65, "half", Fraction(3, 2)), (64, "half", 1), (39, "half", 1), (38, "half", Fraction(1, 2)),
    (1, "half", Fraction(1, 2)),
    (59, "quarter", Fraction(5, 4)), (58, "quarter", 1),  # either side of 1.125 decks (58.5 cards)
    (6, "quarter", Fraction(1, 4)), (7, "quarter", Fraction(1, 4)), (19, "quarter", Fraction(1, 4)),
    (20, "quarter", Fraction(1, 2)),
    (51, "exact", Fraction(51, 52)),
])
def test_each_estimation_at_its_boundaries(cards: int, estimation: str, decks: Fraction) -> None:
    assert estimate_decks_left(cards, estimation) == decks


def test_the_quarter_deck_tie_goes_to_more_decks() -> None:
    # 1.125 decks (58.5 cards) is halfway between 1 and 1.25: the larger divisor, the smaller true count
    assert round_decks(Fraction(9, 8), "quarter") == Fraction(5, 4)
    assert round_decks(Fraction(9, 8) - Fraction(1, 1000), "quarter") == 1


# --- the last deck ----------------------------------------------------------------------------------


@pytest.mark.parametrize("cards, last_deck, decks", [
    (52, "quarter", 1), (51, "quarter", 1),  # continuous at the last deck's edge
    (45, "quarter", Fraction(3, 4)), (46, "quarter", 1),  # either side of 45.5 cards
    (45, None, 1),  # half decks throughout: 45 cards is 1 deck
    (33, "quarter", Fraction(3, 4)), (32, "quarter", Fraction(1, 2)), (19, "quarter", Fraction(1, 4)),
    (20, "quarter", Fraction(1, 2)), (3, "quarter", Fraction(1, 4)),
    (30, "exact", Fraction(30, 52)), (3, "exact", Fraction(3, 52)),
    (30, "half", Fraction(1, 2)),
])
def test_the_last_deck_is_read_by_its_own_unit(cards: int, last_deck: str | None, decks: Fraction) -> None:
    assert estimate_decks_left(cards, "half", last_deck) == decks


def test_the_last_deck_only_below_52_cards() -> None:
    assert estimation_at(52, "half", "quarter") is Estimation.HALF
    assert estimation_at(51, "half", "quarter") is Estimation.QUARTER
    assert estimate_decks_left(70, "half", "quarter") == estimate_decks_left(70, "half")
    # the same running count, one card either side of the edge: +3 / 1 deck, then +3 / 0.75 deck
    assert true_count(3, estimate_decks_left(52, "half", "quarter")) == 3
    assert true_count(3, estimate_decks_left(45, "half", "quarter")) == 4
    assert true_count(3, estimate_decks_left(45, "half")) == 3


def test_a_last_deck_coarser_than_the_shoe_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="more coarsely"):
        estimate_decks_left(30, "quarter", "half")
    with pytest.raises(InvalidInputError, match="more coarsely"):
        TrueCountDrill(DrillOptions(estimation="exact", last_deck="quarter"))
    with pytest.raises(InvalidInputError, match="not one of"):
        estimate_decks_left(30, "half", "eighth")


# --- close calls ------------------------------------------------------------------------------------


def test_close_calls_by_default_an_eighth_of_the_unit() -> None:
    # half decks: the line between 1.5 and 2 decks is at 91 cards; an eighth of 26 cards is 3.25
    assert close_call(91 + 3, Estimation.HALF) is not None
    assert close_call(91 + 4, Estimation.HALF) is None
    call = close_call(89, Estimation.HALF)
    assert call is not None and call.read == Fraction(3, 2) and call.other == 2
    assert "an eighth of the half deck" in call.words()


def test_the_learners_allowed_error_in_cards() -> None:
    wide = close_call(91 + 6, Estimation.HALF, within_cards=6.5 - 0.5)
    assert wide is None  # 6 cards away is not within 6
    wide = close_call(91 + 5, Estimation.HALF, within_cards=6)
    assert wide is not None and wide.within == 6 and "your allowed error" in wide.words()
    assert close_call(91, Estimation.HALF, within_cards=0) is None  # no close calls at all
    assert close_call(92, Estimation.HALF, within_cards=1.5) is not None
    assert close_call(93, Estimation.HALF, within_cards=1.5) is None


def test_close_calls_in_the_last_deck_use_its_unit() -> None:
    # quarter decks in the last deck: the line between 0.75 and 1 deck is at 45.5 cards (13 / 8 = 1.625)
    call = close_call(46, Estimation.HALF, last_deck="quarter")
    assert call is not None and call.read == 1 and call.other == Fraction(3, 4)
    assert call.unit is Estimation.QUARTER and call.within == Fraction(13, 8)
    assert close_call(48, Estimation.HALF, last_deck="quarter") is None
    assert close_call(46, Estimation.HALF, last_deck="exact") is None  # an exact count reads no tray
    assert close_call(46, Estimation.HALF) is None  # half decks: 46 cards is far from 39


def test_an_allowed_error_that_makes_every_tray_a_close_call_is_refused() -> None:
    with pytest.raises(InvalidInputError, match=r"under 6\.5 cards"):
        TrueCountDrill(DrillOptions(estimation="half", last_deck="quarter", close_call=6.5))
    with pytest.raises(InvalidInputError, match="under 13 cards"):
        BetDrill(DrillOptions(estimation="half", close_call=13))
    TrueCountDrill(DrillOptions(estimation="half", close_call=12))


# --- the drills -------------------------------------------------------------------------------------


def _last_deck_questions(drill: TrueCountDrill | BetDrill, n: int) -> list[Question]:
    rng, found = random.Random(7), []
    for _ in range(400):
        question = drill.ask(rng, find_ruleset("casino"))
        if question.data["cards_left"] < 52:
            found.append(question)
        if len(found) == n:
            break
    return found


def test_the_true_count_drill_reads_the_last_deck_finer_and_says_so() -> None:
    drill = TrueCountDrill(DrillOptions(decks=1, estimation="half", last_deck="quarter", close_call=1))
    questions = _last_deck_questions(drill, 10)
    assert len(questions) == 10
    for question in questions:
        data = question.data
        assert data["last_deck"] == "quarter" and data["estimation_applied"] == "quarter"
        assert data["close_call_cards"] == 1
        decks = estimate_decks_left(data["cards_left"], "half", "quarter")
        assert data["decks_left"] == float(decks)
        assert question.expected == str(true_count(data["running_count"], decks, data["rounding"]))
        assert "last deck" in question.prompt
        grade = drill.grade(question, _answer(drill, question, question.expected))
        assert grade.correct and "half decks, quarter decks in the last deck, floor" in grade.explanation


def test_the_true_count_drill_accepts_the_other_reading_within_the_allowed_error() -> None:
    drill = TrueCountDrill(DrillOptions(estimation="half", close_call=6))
    rng = random.Random(11)
    for _ in range(200):
        question = drill.ask(rng, CASINO)
        close = question.data.get("close_call")
        if isinstance(close, dict) and str(close["also_accepted"]) != question.expected:
            assert close["within_cards"] == 6 and close["cards_from_line"] < 6
            grade = drill.grade(question, _answer(drill, question, str(close["also_accepted"])))
            assert grade.correct and "your allowed error" in grade.verdict
            return
    pytest.fail("no close call with two true counts in 200 shoes")


def test_the_bet_drill_bets_by_the_last_deck_reading() -> None:
    drill = BetDrill(DrillOptions(decks=1, estimation="half", last_deck="quarter"))
    for question in _last_deck_questions(drill, 5):
        data = question.data
        decks = estimate_decks_left(data["cards_left"], "half", "quarter")
        assert data["true_count"] == true_count(data["running_count"], decks, data["rounding"])
        assert "to the quarter deck" in question.explanation


def test_the_drill_command_takes_the_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from trainer.cli import cli

    runner = CliRunner()
    ok = runner.invoke(cli, ["drill", "true-count", "--jsonl", "-n", "1", "--seed", "3", "--estimation",
                              "half", "--last-deck", "quarter", "--close-call", "2",
                              "--db", str(tmp_path / "p.db")],
                       input="0\n")
    assert ok.exit_code == 0, ok.output
    assert '"last_deck": "quarter"' in ok.output and '"close_call_cards": 2' in ok.output
    bad = runner.invoke(cli, ["drill", "true-count", "--last-deck", "eighth"])
    assert bad.exit_code == 2
    from trainer.cli import main

    assert main(["drill", "true-count", "--estimation", "quarter", "--last-deck", "full", "-n", "1",
                 "--db", str(tmp_path / "p.db")]) == 2
    err = capsys.readouterr().err
    assert "more coarsely" in err and "Traceback" not in err


# --- the table --------------------------------------------------------------------------------------


def test_the_table_counts_the_last_deck_finer() -> None:
    from trainer.core.cards import parse_cards
    from trainer.table.count_checks import CountKeeper

    keeper = CountKeeper(CASINO, "hi-lo", random.Random(1), estimation="half", last_deck="quarter")
    keeper.seen = list(parse_cards("2 3 4 5 6 2 3"))  # running count +7
    assert keeper.true_count(45) == (9, Fraction(3, 4))  # 7 / 0.75 = 9.33
    assert keeper.true_count(60) == (7, 1)  # above the last deck: half decks
    grade = keeper.grade_true("+9", 45)
    assert grade.correct and "to the quarter deck, the last deck" in grade.explanation
    plain = CountKeeper(CASINO, "hi-lo", random.Random(1), estimation="half")
    plain.seen = keeper.seen
    assert plain.true_count(45) == (7, 1)
    with pytest.raises(InvalidInputError, match="more coarsely"):
        CountKeeper(CASINO, "hi-lo", random.Random(1), estimation="half", last_deck="full")


def test_play_takes_the_last_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from trainer.cli import main

    assert main(["play", "--estimation", "quarter", "--last-deck", "half", "--rounds", "1", "--jsonl",
                 "--db", str(tmp_path / "p.db")]) == 2
    assert "more coarsely" in capsys.readouterr().err


# --- the simulator, indices and plan: the same conversion -------------------------------------------


@pytest.mark.parametrize("estimation, last_deck", [("half", "quarter"), ("full", "half"), ("half", "exact"),
                                                   ("quarter", None)])
@pytest.mark.parametrize("rounding", ["floor", "truncate", "round"])
def test_the_simulators_true_count_is_the_cores(estimation: str, last_deck: str | None, rounding: str) -> None:
    from trainer.sim.count import TrueCounter

    counter = TrueCounter(estimation=estimation, rounding=rounding, last_deck=last_deck)
    table = counter.table(312)
    for cards_left in range(1, 313):
        decks = estimate_decks_left(cards_left, estimation, last_deck)
        for running in (-13, -7, -1, 0, 2, 5, 11):
            want = true_count(running, decks, rounding)
            assert counter(running, cards_left) == table(running, cards_left) == want, (cards_left, running)


def test_a_last_deck_names_its_own_statistics_and_index_runs() -> None:
    from trainer.cli.indices import make_run
    from trainer.core.counting import find_system
    from trainer.sim.counter import Counter
    from trainer.sim.runner import Plan
    from trainer.statstore import game_key

    def key(last_deck: str | None) -> str:
        counter = Counter(system=find_system("hi-lo"), spread=(1, 8), ramp={1: 1}, last_deck=last_deck)
        return game_key(Plan(ruleset=CASINO, chart=None, counter=counter)).digest()

    assert key(None) == key("half") != key("quarter")
    plain = make_run(CASINO, "hi-lo").fingerprint()
    assert plain == make_run(CASINO, "hi-lo", last_deck="half").fingerprint()
    assert plain != make_run(CASINO, "hi-lo", last_deck="quarter").fingerprint()
    with pytest.raises(InvalidInputError, match="more coarsely"):
        make_run(CASINO, "hi-lo", estimation="quarter", last_deck="full")
