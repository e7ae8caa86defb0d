"""The simulator's counting: integer true counts against `trainer.core.counting`, ramps and spreads,
index plays and mistakes compiled into tables, and the running count the engine bets by."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sim_support import RecordedShoes, custom, recorded_rounds

from trainer.core import InvalidInputError, find_ruleset, parse_card
from trainer.core.betting import BetRamp, check_ramp, default_ramp, parse_ramp, parse_spread
from trainer.core.counting import estimate_decks_left, find_system, true_count
from trainer.sim.count import CountPlan, TrueCounter, bet_function, whole_count
from trainer.sim.counter import (
    CHART_CELLS,
    ChartChange,
    Counter,
    Mistakes,
    charts_by_count,
    count_plan,
    mistaken,
    with_indices,
)
from trainer.sim.engine import Winnings, play_rounds
from trainer.sim.game import make_game
from trainer.sim.plays import (
    DOUBLE,
    HIT,
    LETTERS,
    SPLIT,
    STAND,
    Lookup,
    UpPlays,
    compile_charts,
    compile_plays,
)
from trainer.sim.textbook import textbook


@pytest.mark.parametrize("rounding", ["floor", "truncate", "round"])
@pytest.mark.parametrize("estimation", ["full", "half", "quarter", "exact"])
def test_true_count_matches_the_core_definition(estimation: str, rounding: str) -> None:
    counter = TrueCounter(estimation=estimation, rounding=rounding)
    fast = counter.table(416)
    for left in (1, 7, 13, 25, 26, 27, 51, 52, 77, 78, 130, 131, 200, 311, 312, 416):
        decks = estimate_decks_left(left, estimation)
        for running in range(-40, 41):
            expected = true_count(running, decks, rounding)
            assert counter(running, left) == expected == fast(running, left), (running, left)


def test_half_point_counts_divide_their_scale_out() -> None:
    """Wong Halves tags are kept doubled; the true count of 7.5 over 2.5 decks is still 3."""
    counter = TrueCounter(scale=2)
    assert counter(15, 130) == true_count(Fraction(15, 2), Fraction(5, 2)) == 3
    assert counter.table(416)(-15, 130) == -3


def test_whole_count_halves_go_away_from_zero() -> None:
    assert [whole_count(x, 2, "round") for x in (-5, -3, 3, 5)] == [-3, -2, 2, 3]


@pytest.mark.parametrize("text", ["12-1", "0-4", "abc", "1-12-3", "-1-4", ""])
def test_a_bad_spread_is_refused(text: str) -> None:
    with pytest.raises(InvalidInputError):
        parse_spread(text)


@pytest.mark.parametrize("text", ["1:1,2", "x:1", "1:0", "1:1,1:2", "", "2:3.5"])
def test_a_bad_ramp_is_refused(text: str) -> None:
    with pytest.raises(InvalidInputError):
        parse_ramp(text)


def test_a_ramp_outside_the_spread_or_falling_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="outside the spread"):
        check_ramp({1: 1, 2: 16}, (1, 12))
    with pytest.raises(InvalidInputError, match="must not fall"):
        check_ramp({1: 4, 2: 2}, (1, 12))
    check_ramp(default_ramp((2, 20)), (2, 20))


def test_the_bet_follows_the_ramp_step_at_or_below_the_count() -> None:
    bet_for = bet_function({2: 2, 4: 8, 6: 12}, (1, 12))
    assert [bet_for(tc) for tc in range(-3, 9)] == [1, 1, 1, 1, 1, 2, 2, 8, 8, 12, 12, 12]


def test_the_core_ramp_bets_what_the_simulator_bets() -> None:
    ramp = BetRamp.parse("2:2,4:8,6:12")
    bet_for = bet_function(dict(ramp.steps), ramp.spread)
    assert [ramp.units_at(tc) for tc in range(-3, 9)] == [bet_for(tc) for tc in range(-3, 9)]
    assert BetRamp.parse("1:2,3:6").units_at(0) == 1
    assert BetRamp.parse("1:2,3:6", low=2).units_at(0) == 2
    with pytest.raises(InvalidInputError, match="must not fall"):
        BetRamp.parse("1:4,2:2")


def test_index_plays_change_their_cell_from_the_index_up() -> None:
    plays = (ChartChange(kind="hard", number=16, up=10, index=0, at_or_above="S", below="H"),
             ChartChange(kind="pair", number=10, up=6, index=4, at_or_above="P", below="S"))
    assert with_indices(textbook, plays, -1)("hard", 16, 10) == "H"
    assert with_indices(textbook, plays, 0)("hard", 16, 10) == "S"
    assert with_indices(textbook, plays, 4)("pair", 10, 6) == "P"
    assert with_indices(textbook, plays, 3)("pair", 10, 6) == "S"
    assert with_indices(textbook, plays, 9)("hard", 12, 2) == textbook("hard", 12, 2)


def test_mistakes_are_the_usual_wrong_plays() -> None:
    wrong = mistaken(textbook)
    assert wrong("hard", 12, 2) == "S" and wrong("hard", 17, 10) == "H"
    assert wrong("soft", 18, 4) == "S"  # Ds: no double, stand
    assert wrong("pair", 8, 10) == textbook("hard", 16, 10)  # not splitting: the total
    assert wrong("pair", 10, 6) == "P" and wrong("pair", 1, 6) == "H"


def test_error_rates_are_probabilities() -> None:
    with pytest.raises(InvalidInputError):
        Mistakes(strategy=1.5)
    assert not Mistakes().any and Mistakes(count=0.01).any


@pytest.mark.parametrize("name", ["eight-deck", "chat-host"])
def test_counting_where_it_cannot_help_is_refused(name: str) -> None:
    rules = find_ruleset(name)
    counter = Counter(system=find_system("hi-lo"), spread=(1, 12), ramp=default_ramp((1, 12)))
    game = make_game(rules, counter.system.tag)
    with pytest.raises(InvalidInputError, match="counting cannot help"):
        count_plan(game, textbook, counter, Mistakes(), random.Random(1))


def test_the_plan_compiles_one_table_set_per_count_and_clamps_outside_them() -> None:
    """Below the lowest index every play reads `below`; above the highest, `at_or_above`."""
    rules = find_ruleset("casino")
    plays = (ChartChange(kind="hard", number=16, up=10, index=0, at_or_above="S", below="H"),
             ChartChange(kind="hard", number=10, up=10, index=4, at_or_above="Dh", below="H"))
    counter = Counter(system=find_system("hi-lo"), spread=(1, 12), ramp=default_ramp((1, 12)),
                      indices=plays, insurance_index=3)
    game = make_game(rules, counter.system.tag)
    plan = count_plan(game, textbook, counter, Mistakes(), random.Random(1))
    ten = game.codes.by_card[parse_card("T")]
    assert plan.plays_for(-20)[ten].first[16] == HIT and plan.plays_for(0)[ten].first[16] == STAND
    assert plan.plays_for(3)[ten].first[10] == HIT and plan.plays_for(40)[ten].first[10] == DOUBLE
    assert plan.insure_from == 3 and plan.bet_for(5) == 12


def test_burn_cards_are_counted_only_when_shown() -> None:
    plan = CountPlan(tag=(0, -1, 1, 1, 1, 1, 1, 0, 0, 0, -1), initial=0, burn_shown=False,
                     true_count=lambda r, n: r, bet_for=lambda c: 1, plays_for=lambda c: (), insure_from=3)
    assert plan.start_shoe([10, 2, 3], burn=1) == [0, 0, 1, 2]
    shown = CountPlan(**{**_fields(plan), "burn_shown": True, "initial": -4})
    assert shown.start_shoe([10, 2, 3], burn=1) == [-4, -5, -4, -3]


def _fields(plan: CountPlan) -> dict[str, object]:
    return {name: getattr(plan, name) for name in CountPlan.__dataclass_fields__}


@pytest.mark.parametrize("name", ["casino", "bicycle", "burn-three"])
def test_the_engine_bets_by_the_running_count_of_every_card_seen(name: str) -> None:
    """Each round's bet reads the Hi-Lo count of every card dealt since the shuffle, burn cards
    excepted, and the cards still in the shoe: checked against the core's count of the same shoe."""
    rules = custom("casino", shoe={"burn": 3}) if name == "burn-three" else find_ruleset(name)
    hi_lo = find_system("hi-lo")
    game = make_game(rules, hi_lo.tag)
    shoes, _ = recorded_rounds(rules, game.codes, textbook, random.Random(name), 600, insure=False)
    by_code = {code: c for c, code in game.codes.by_card.items() if c.suit is not None}
    seen: list[tuple[int, int]] = []
    calls = [0]

    def recording(running: int, left: int) -> int:
        calls[0] += 1
        if calls[0] % 2:  # the bet is read before the deal; the play after it
            seen.append((running, left))
        return 0

    plays = compile_plays(textbook, rules, game.codes)
    plan = CountPlan(tag=game.codes.tag, initial=0, burn_shown=False, true_count=recording,
                     bet_for=lambda c: 1, plays_for=lambda c: plays, insure_from=99)
    play_rounds(game, plays, RecordedShoes(shoes), 600, Winnings(), count=plan)
    shoe = -1
    last_left = 0
    for running, left in seen:
        if left > last_left:
            shoe += 1
        last_left = left
        cards, _, burn = shoes[shoe]
        dealt = [by_code[c] for c in cards[burn:len(cards) - left]]
        assert running == hi_lo.running_count(dealt, decks=rules.shoe.decks)
    assert shoe == len(shoes) - 1 and len(seen) == 600


def test_strategy_tables_compile_the_splits_a_count_reads() -> None:
    rules = find_ruleset("casino")
    game = make_game(rules)
    plays = compile_plays(with_indices(textbook, (ChartChange(kind="pair", number=10, up=5, index=5,
                                                             at_or_above="P", below="S"),), 5),
                          rules, game.codes)
    assert plays[5].pair[10] == SPLIT and plays[6].pair[10] == STAND


@given(st.integers(-400, 400), st.integers(1, 416), st.sampled_from(["floor", "truncate", "round"]))
def test_the_simulators_integer_true_count_agrees_with_the_cores(running: int, decks: int, rounding: str) -> None:
    """`whole_count` is the hot loop's integer form of `trainer.core.counting.true_count`."""
    from trainer.core.counting import true_count
    from trainer.sim.count import whole_count

    assert whole_count(running, decks, rounding) == true_count(running, decks, rounding=rounding)


@pytest.mark.parametrize("name", ["casino", "bicycle", "european", "eight-deck"])
def test_charts_compiled_together_are_each_chart_compiled_alone(name: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Charts share the tables of up cards whose letters agree (`trainer.sim.plays._tables` remembers
    them): every chart's tables are still exactly those built for it alone, without that memo, for
    random index plays in random cells (and the mistaken chart)."""
    from trainer.sim import plays as tables

    def alone(chart: Lookup) -> tuple[UpPlays, ...]:
        with monkeypatch.context() as patch:
            patch.setattr(tables, "_tables", tables._tables.__wrapped__)
            return compile_plays(chart, rules, game.codes)

    rules = find_ruleset(name)
    game = make_game(rules)
    rng = random.Random(name)
    for _ in range(3):
        plays = []
        for kind, number, up in rng.sample(CHART_CELLS, 25):
            choices = LETTERS if kind == "pair" else tuple(x for x in LETTERS if x not in ("P", "Ph", "Rp"))
            plays.append(ChartChange(kind=kind, number=number, up=up, index=rng.randrange(-3, 5),
                                     at_or_above=rng.choice(choices), below=rng.choice(choices)))
        counter = Counter(system=find_system("hi-lo"), spread=(1, 8), ramp=default_ramp((1, 8)),
                          indices=tuple(plays))
        _, charts = charts_by_count(textbook, counter)
        charts = [*charts, mistaken(textbook)]
        assert compile_charts(charts, rules, game.codes) == [alone(c) for c in charts]
