"""The simulator's ace side count: a side-counted system (Hi-Opt I) bets by the ace-adjusted true count,
as `play` grades a bet, and plays by the plain one; both engines alike on a stacked shoe; the betting
count in integers against the core's definition; a system without a side count unchanged; the
statistics store's key; what `sim --json` and `plan` say (`sim --json` from its report: a CLI run
computes the chart, a second's work for one key)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from sim_support import RecordedShoes
from stacking import custom

from trainer.cli import cli
from trainer.core import InvalidInputError, find_ruleset
from trainer.core.betting import parse_ramp
from trainer.core.counting import (
    adjusted_running_count,
    estimate_decks_left,
    find_system,
    side_count_surplus,
    true_count,
)
from trainer.sim.count import SideCounter, TrueCounter, bet_count_name, bet_count_words
from trainer.sim.counter import ChartChange, Counter, Mistakes, count_plan
from trainer.sim.engine import Winnings, play_rounds
from trainer.sim.game import make_game
from trainer.sim.plays import compile_plays
from trainer.sim.report import SimReport
from trainer.sim.results import summarize
from trainer.sim.runner import Plan, letters_of
from trainer.sim.shoes import shoe_source
from trainer.sim.textbook import textbook
from trainer.statstore import game_key

ADJUSTMENTS = [(1, Fraction(1)), (1, Fraction(2)), (2, Fraction(3, 2))]
"""(tag scale, adjustment): Hi-Opt I's, Hi-Opt II's, and a half-point count's half-point adjustment."""


@pytest.mark.parametrize("rounding", ["floor", "truncate", "round"])
@pytest.mark.parametrize(("estimation", "last_deck"),
                         [("full", None), ("half", None), ("quarter", None), ("exact", None), ("half", "quarter")])
def test_the_betting_count_is_play_s_adjusted_true_count(estimation: str, last_deck: str | None,
                                                         rounding: str) -> None:
    """`play` bets by adjusted_running_count(running, the surplus over the decks dealt as estimated)
    over the decks left as estimated (`trainer.table.bets.betting_running_count`); so does the sim."""
    decks = 6
    for scale, adjustment in ADJUSTMENTS:
        counter = SideCounter(true_counter=TrueCounter(estimation=estimation, rounding=rounding, scale=scale,
                                                       last_deck=last_deck),
                              decks=decks, per_deck=4, ranks=(1,), adjustment=adjustment)
        fast = counter.table(52 * decks)
        for left in (5, 40, 51, 52, 130, 131, 290):
            decks_left = estimate_decks_left(left, estimation, last_deck)
            for seen in (0, 3, 17):
                surplus = side_count_surplus(seen, decks - decks_left, 4)
                for running in (-13, -1, 0, 5, 12):
                    expected = true_count(adjusted_running_count(Fraction(running, scale), surplus, adjustment),
                                          decks_left, rounding)
                    assert fast(running, seen, left) == expected, (scale, adjustment, running, seen, left)
        assert counter(7, 2, 130) == fast(7, 2, 130)


ONE_DECK = custom("casino", shoe={"decks": 1})
STACK = [1, 4, 9, 3, 1,  # round 1: A 9 (soft 20) stands against 4 3 A (soft 18): two aces in five cards
         10, 10, 6, 7, 4]  # round 2: T 6 against T 7; a hit would draw the 4 (20 wins), a stand loses
"""Hi-Opt I (aces 0, 3-6 +1, tens -1) after round 1: running +2, 47 cards left, two aces seen. By exact
decks: plain true count 2 x 52/47 -> +2; adjusted, the norm 5/52 x 4 less 2 seen is -84/52 surplus
aces, +1 each: 20/52 over 47/52 -> 0. At round 2's deal the plain count is +1 over 43/52 decks -> +1,
and the adjusted one -16/52 over 43/52 -> -1."""


def _stacked_counter() -> Counter:
    """Hi-Opt I betting 4 units from +2 (1 below) and standing on 16 against a ten from +1 (hitting
    below): the plain count bets 4 and stands, the adjusted one bets 1 and hits."""
    return Counter(system=find_system("hi-opt-i"), spread=(1, 4), ramp=parse_ramp("2:4"), estimation="exact",
                   indices=(ChartChange(kind="hard", number=16, up=10, index=1, at_or_above="S", below="H"),))


def _stacked_shoe() -> tuple[list[int], int, int]:
    return STACK + [8] * (52 - len(STACK)), 20, 0


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_on_a_stacked_shoe_the_bet_follows_the_adjusted_count_and_the_play_the_plain_one(engine: str) -> None:
    counter = _stacked_counter()
    game = make_game(ONE_DECK, counter.system.tag)
    tally, record = Winnings(), []
    if engine == "python":
        plan = count_plan(game, textbook, counter, Mistakes(), random.Random(0))
        play_rounds(game, compile_plays(textbook, ONE_DECK, game.codes), RecordedShoes([_stacked_shoe()]), 2,
                    tally, count=plan, record=record)
    else:
        fast = pytest.importorskip("trainer.sim.fast")
        if not fast.available():
            pytest.skip("no compiled kernel here")
        seat = fast.native_seat(game, textbook, counter, Mistakes(), random.Random(0), random.Random(1),
                                recorded=[_stacked_shoe()])
        seat.play_rounds(2, tally, record=record)
    scale = game.scale
    assert record == [scale, -scale]  # round 1 won; round 2's 16 stood (plain +1) and lost, at 1 unit
    assert tally.bets == {1: 2}  # round 2 bet 1 unit: the adjusted count 0, not the plain +2
    assert {tc: sums[0] for tc, sums in tally.by_count.items()} == {0: 2}  # keyed by the betting count
    assert tally.net == 0


def test_a_system_without_a_side_count_plays_the_shoe_by_its_plain_count() -> None:
    """The same stack and counter, the side count taken away: round 2 bets 4 units at +2."""
    counter = dataclasses.replace(_stacked_counter(), system=dataclasses.replace(find_system("hi-opt-i"),
                                                                                  side_count=None))
    game = make_game(ONE_DECK, counter.system.tag)
    tally, record = Winnings(), []
    plan = count_plan(game, textbook, counter, Mistakes(), random.Random(0))
    play_rounds(game, compile_plays(textbook, ONE_DECK, game.codes), RecordedShoes([_stacked_shoe()]), 2, tally,
                count=plan, record=record)
    assert record == [game.scale, -game.scale] and tally.bets == {1: 1, 4: 1}
    assert sorted(tally.by_count) == [0, 2]


PINNED = {  # Hi-Lo, 6,000 rounds of casino, seeds 8 and 9: the figures before the side count came in
    ("python", False): (-641, 295487, 14550, "2787346863eff493"),
    ("python", True): (-733, 302157, 14783, "701d8418e32ed800"),
    ("compiled", False): (-312, 398762, 16763, "f30179f7b278105b"),
    ("compiled", True): (-465, 398013, 16815, "5dd1d003f951454f"),
}


@pytest.mark.parametrize(("engine", "mistaken"), list(PINNED))
def test_a_system_without_a_side_count_gives_the_same_figures_as_before(engine: str, mistaken: bool) -> None:
    rules = find_ruleset("casino")
    counter = Counter(system=find_system("hi-lo"), spread=(1, 12), ramp=parse_ramp("-1:2,1:3,2:5,4:8,6:12"),
                      indices=(ChartChange(kind="hard", number=16, up=10, index=0, at_or_above="S", below="H"),
                               ChartChange(kind="hard", number=12, up=3, index=2, at_or_above="S", below="H")),
                      insurance_index=3)
    mistakes = Mistakes(count=0.01, true_count=0.05, bet=0.05) if mistaken else Mistakes()
    game = make_game(rules, counter.system.tag)
    tally = Winnings()
    if engine == "compiled":
        fast = pytest.importorskip("trainer.sim.fast")
        if not fast.available():
            pytest.skip("no compiled kernel here")
        fast.native_seat(game, textbook, counter, mistakes, random.Random(8), random.Random(9)).play_rounds(
            6000, tally)
    else:
        plan = count_plan(game, textbook, counter, mistakes, random.Random(8))
        play_rounds(game, compile_plays(textbook, rules, game.codes),
                    shoe_source(rules, game.codes, random.Random(9)), 6000, tally, count=plan)
    figures = (tally.net, tally.net_squares, tally.wagered, sorted(tally.bets.items()),
               sorted((k, tuple(v)) for k, v in tally.by_count.items()))
    digest = hashlib.sha256(repr(figures).encode()).hexdigest()[:16]
    assert (*figures[:3], digest) == PINNED[(engine, mistaken)]


def test_an_unbalanced_count_with_a_side_count_is_refused() -> None:
    ko = find_system("ko")
    side = find_system("hi-opt-i").side_count
    counter = Counter(system=dataclasses.replace(ko, side_count=side), spread=(1, 8), ramp={1: 2})
    game = make_game(find_ruleset("casino"), counter.system.tag)
    with pytest.raises(InvalidInputError, match="unbalanced"):
        count_plan(game, textbook, counter, Mistakes(), random.Random(0))


def test_which_count_bets_in_words() -> None:
    assert bet_count_name(find_system("hi-lo")) == "plain" and bet_count_words(find_system("hi-lo")) == ""
    assert bet_count_name(find_system("omega-ii")) == "ace-adjusted"
    assert bet_count_words(find_system("hi-opt-i")) == (
        "bets follow the ace-adjusted count (+1 per surplus ace), plays the plain one")


def _key(system: str, side: bool = True) -> dict[str, object]:
    chosen = find_system(system)
    if not side:
        chosen = dataclasses.replace(chosen, side_count=None)
    plan = Plan(ruleset=find_ruleset("casino"), chart=letters_of(textbook),
                counter=Counter(system=chosen, spread=(1, 12), ramp={1: 2}))
    return game_key(plan).to_json()


def test_the_store_keys_a_side_counted_game_by_its_bet_count() -> None:
    assert _key("hi-opt-i")["bet_count"] == "ace-adjusted: 1 x 1 per deck of 4"
    assert _key("hi-opt-ii")["bet_count"] == "ace-adjusted: 1 x 2 per deck of 4"
    assert "bet_count" not in _key("hi-opt-i", side=False)  # the old meaning: another key
    assert "bet_count" not in _key("hi-lo")  # a plain count's stored statistics keep their key


@pytest.mark.parametrize(("system", "bet_count"), [("hi-opt-i", "ace-adjusted"), ("hi-lo", "plain")])
def test_sim_json_says_which_count_bets(system: str, bet_count: str) -> None:
    tally = Winnings(rounds=2, net_squares=8, wagered=2, bets={1: 2}, by_count={0: [2, 0, 8]})
    report = SimReport(ruleset=find_ruleset("casino"), seed=1, jobs=1, seconds=1.0, summary=summarize(tally, 2),
                       chart_ev=0.0, counter=Counter(system=find_system(system), spread=(1, 4), ramp={2: 4}))
    assert report.to_json()["counting"]["bet_count"] == bet_count


@pytest.mark.parametrize(("bet_count", "line"), [("ace-adjusted", True), ("plain", False)])
def test_plan_says_in_one_line_that_bets_follow_the_ace_adjusted_count(tmp_path: Path, bet_count: str,
                                                                       line: bool) -> None:
    rows = [{"true_count": tc, "rounds": 100_000, "mean": 0.005 * tc - 0.005, "second_moment": 1.3}
            for tc in range(-3, 7)]
    document = tmp_path / "sim.json"
    document.write_text(json.dumps({"ruleset": "casino", "counting": {"system": "hi-opt-i", "bet_count": bet_count},
                                    "per_count": rows}))
    result = CliRunner().invoke(cli, ["plan", "--stats", str(document)], catch_exceptions=False)
    assert result.exit_code == 0, result.stdout
    said = [s for s in result.stdout.splitlines() if "bets follow" in s]
    assert said == (["bets follow the ace-adjusted count, plays the plain one, as the file says"] if line else [])


def test_a_saved_plan_keeps_which_count_bets_through_its_json_and_a_replan_from_it(tmp_path: Path,
                                                                                  cutcard_home: Path) -> None:
    """`plan --json` and the saved `plan.json` carry `bet_count` as `sim --json` does; a plan made from
    the saved plan (`--stats plan.json`) still says the ramp is by the ace-adjusted count; a document
    that does not say gives no key."""
    rows = [{"true_count": tc, "rounds": 100_000, "mean": 0.005 * tc - 0.005, "second_moment": 1.3}
            for tc in range(-3, 7)]
    document = tmp_path / "sim.json"
    document.write_text(json.dumps({"ruleset": "casino", "counting": {"system": "hi-opt-i",
                                                                      "bet_count": "ace-adjusted"},
                                    "per_count": rows}))
    planned = CliRunner().invoke(cli, ["plan", "--stats", str(document), "--json", "--save"],
                                 catch_exceptions=False)
    assert json.loads(planned.stdout)["bet_count"] == "ace-adjusted"
    saved = cutcard_home / "plan.json"
    assert json.loads(saved.read_text())["bet_count"] == "ace-adjusted"
    again = CliRunner().invoke(cli, ["plan", "--stats", str(saved)], catch_exceptions=False)
    assert again.exit_code == 0, again.stdout
    assert "bets follow the ace-adjusted count, plays the plain one, as the file says" in again.stdout
    document.write_text(json.dumps({"ruleset": "casino", "per_count": rows}))
    silent = CliRunner().invoke(cli, ["plan", "--stats", str(document), "--json"], catch_exceptions=False)
    assert "bet_count" not in json.loads(silent.stdout)
