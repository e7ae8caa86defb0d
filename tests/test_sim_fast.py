"""The compiled kernel (`trainer.sim.native`, with numba installed) against the Python engine.

`test_sim_engine.py` checks both engines against `Round` round by round for fixed strategies. Here the
kernel's counting is checked against the Python engine's on the same shoes, round by round and bet by
bet: every count system kind (balanced, unbalanced with its IRC, half points, colour-tagged cards),
every deck estimation and rounding, random index plays and insurance indices, on every rule set a
count can help. The learner's mistakes draw random numbers of their own in each engine, so they are
compared by what they cost over the same shoes, and both engines must see them cost the same. Without
numba these tests skip, and the Python engine plays every run.
"""

from __future__ import annotations

import functools
import math
import random

import pytest
from sim_support import CUSTOM

from trainer.core import Ruleset, builtin_rulesets
from trainer.core.betting import default_ramp, parse_ramp
from trainer.core.counting import CountSystem, find_system, parse_system
from trainer.core.rules import Reshuffle
from trainer.core.spots import Spots
from trainer.core.wonging import Wonging
from trainer.sim.counter import CHART_CELLS, ChartChange, Counter, Mistakes, count_plan, flat_plan
from trainer.sim.engine import Winnings, play_rounds
from trainer.sim.game import make_game
from trainer.sim.plays import LETTERS, compile_plays
from trainer.sim.shoes import shoe_source
from trainer.sim.textbook import textbook

pytest.importorskip("numba")

from trainer.sim.fast import native_seat  # after the skip: it needs numba

RULESETS = {name: rules for name, rules in {**builtin_rulesets(), **CUSTOM}.items() if rules.counting_helps}
SYSTEMS = ["hi-lo", "ko", "wong-halves", "red-7"]
ROUNDS = 4000


def _random_indices(rng: random.Random) -> tuple[ChartChange, ...]:
    """Thirty index plays in random cells with random letters: the tables change at every count."""
    plays = []
    for kind, number, up in rng.sample(CHART_CELLS, 30):
        choices = LETTERS if kind == "pair" else tuple(x for x in LETTERS if x not in ("P", "Ph", "Rp"))
        plays.append(ChartChange(kind=kind, number=number, up=up, index=rng.randrange(-4, 7),
                                 at_or_above=rng.choice(choices), below=rng.choice(choices)))
    return tuple(plays)


class _DealtShoes:
    """A shoe source of shuffled shoes, each with a cut in the rule set's range and its burn, that keeps
    the shoes it dealt: the Python engine plays them first, then the kernel replays the very same
    (`dealt`). Shuffled as they are asked for: 4,000 rounds take about 90 six-deck shoes, and shuffling
    the 500 that were once dealt up front was half of these tests' time. A kernel that asked for a shoe
    more than the Python engine did fails as the recorded shoes running out."""

    def __init__(self, rules: Ruleset, codes: list[int], rng: random.Random) -> None:
        self._rules, self._codes, self._rng = rules, codes, rng
        self.dealt: list[tuple[list[int], int, int]] = []

    def shuffle(self) -> tuple[list[int], int, int]:
        lo, hi = self._rules.shoe.cut_card_from_end
        cards = list(self._codes)
        self._rng.shuffle(cards)
        self.dealt.append((cards, self._rng.randint(lo, hi), self._rules.shoe.burn))
        return self.dealt[-1]

    def run_out(self, cards: list[int], at: int) -> list[int]:
        raise AssertionError("a recorded shoe ran out mid-round")


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("name", list(RULESETS))
def test_the_kernel_counts_bets_and_plays_the_indices_as_the_python_engine(name: str, system: str) -> None:
    _kernel_agrees(name, find_system(system))


HALVES_WITH_ACES = parse_system({
    "name": "halves-aces", "tags": {"A": 0, "2": 0.5, "3": 1, "4": 1, "5": 1.5, "6": 1, "7": 0.5, "8": 0,
                                    "9": -1.5, "T": -1},
    "side_count": {"ranks": ["A"], "adjustment": 1.5}}, where="halves-aces.toml")
"""Half-point tags and a half-point ace adjustment: the kernel's scaled side-count arithmetic."""
SIDE_COUNTED = {"hi-opt-i": find_system("hi-opt-i"), "omega-ii": find_system("omega-ii"),
                "halves-aces": HALVES_WITH_ACES}


@pytest.mark.parametrize(("name", "system"), [("bicycle", "omega-ii"), ("burn-three-hole-first", "hi-opt-i"),
                                              ("casino", "halves-aces")])
def test_the_kernel_bets_a_side_count_s_adjusted_count_as_the_python_engine(name: str, system: str) -> None:
    """Ace side counts: the bets and the per-count sums by the adjusted count, the plays by the plain
    one, bet by bet and round by round alike (an unshown burn's aces uncounted in both)."""
    _kernel_agrees(name, SIDE_COUNTED[system])


def _kernel_agrees(name: str, system: CountSystem) -> None:
    rules = RULESETS[name]
    rng = random.Random(f"{name}:{system.name}")
    counter = Counter(system=system, spread=(1, 12), ramp=parse_ramp("-1:2,1:3,2:5,4:8,6:12"),
                      estimation=rng.choice(["full", "half", "quarter", "exact"]),
                      rounding=rng.choice(["floor", "truncate", "round"]),
                      indices=_random_indices(rng), insurance_index=rng.randrange(-2, 4))
    game = make_game(rules, counter.system.tag)
    shoes = _DealtShoes(rules, game.codes.deck(rules.shoe.decks), rng)
    plays = compile_plays(textbook, rules, game.codes)

    python_record: list[int] = []
    python = Winnings()
    plan = count_plan(game, textbook, counter, Mistakes(), random.Random(0))
    play_rounds(game, plays, shoes, ROUNDS, python, count=plan, record=python_record)

    kernel_record: list[int] = []
    kernel = Winnings()
    seat = native_seat(game, textbook, counter, Mistakes(), random.Random(0), random.Random(1),
                       recorded=shoes.dealt)
    seat.play_rounds(ROUNDS, kernel, record=kernel_record)

    for i, (mine, theirs) in enumerate(zip(kernel_record, python_record, strict=True)):
        assert mine == theirs, f"round {i}: kernel {mine}, Python engine {theirs}"
    assert kernel == python and len(python.bets) > 2  # every bet of every round, and the ramp was used
    assert len(python.by_count) > 5  # and the per-count sums of every true count alike


def _played(rules: Ruleset, counter: Counter | None, mistakes: Mistakes, native: bool, seed: int,
            rounds: int) -> tuple[list[int], float]:
    """Each round's result and the average bet, played by one engine on the shoe stream of `seed`."""
    if counter is None and not mistakes.any:
        return _flat_without_mistakes(rules, native, seed, rounds)
    return _play(rules, counter, mistakes, native, seed, rounds)


@functools.cache
def _flat_without_mistakes(rules: Ruleset, native: bool, seed: int, rounds: int) -> tuple[list[int], float]:
    """The flat bettor's rounds without mistakes, played once for both flat cases (the same engine,
    shoes and rounds: a sixth of the Python engine's rounds of these tests)."""
    return _play(rules, None, Mistakes(), native, seed, rounds)


def _play(rules: Ruleset, counter: Counter | None, mistakes: Mistakes, native: bool, seed: int,
          rounds: int) -> tuple[list[int], float]:
    game = make_game(rules, counter.system.tag if counter else None)
    record: list[int] = []
    tally = Winnings()
    if native:
        seat = native_seat(game, textbook, counter, mistakes, random.Random(seed + 1), random.Random(seed))
        seat.play_rounds(rounds, tally, record=record)
    else:
        plays = compile_plays(textbook, rules, game.codes)
        plan = (count_plan(game, textbook, counter, mistakes, random.Random(seed + 1)) if counter
                else flat_plan(game, textbook, mistakes, random.Random(seed + 1)))
        play_rounds(game, plays, shoe_source(rules, game.codes, random.Random(seed)), rounds, tally,
                    count=plan, record=record)
    return record, tally.wagered / tally.rounds


def _paired_cost(rules: Ruleset, counter: Counter | None, mistakes: Mistakes, native: bool, seed: int,
                 rounds: int) -> tuple[float, float, float]:
    """What the mistakes cost per round (mean, its standard error), and the average bet with them,
    played by one engine on one shoe stream with and without them (a mistake that draws a card changes
    the rest of its shoe, so the two runs are not paired round by round)."""
    right, _ = _played(rules, counter, Mistakes(), native, seed, rounds)
    slipping, average_bet = _played(rules, counter, mistakes, native, seed, rounds)
    differences = [b - a for a, b in zip(right, slipping, strict=True)]
    # the mean and the standard deviation from exact integer sums (`statistics.stdev` sums the squares
    # as fractions: a tenth of a second for each 250,000 rounds)
    n, total = len(differences), sum(differences)
    squares = sum(d * d for d in differences)
    sd = math.sqrt((n * squares - total * total) / (n * (n - 1)))
    scale = make_game(rules).scale
    return total / n / scale, sd / math.sqrt(rounds) / scale, average_bet


CASES = {
    "strategy-flat": (None, Mistakes(strategy=0.3)),
    "cells-flat": (None, Mistakes(cells={("hard", total, up): 0.9 for total in range(12, 17)
                                         for up in (7, 8, 9, 10, 1)} | {("pair", 8, 10): 0.6},
                                  wrong={("pair", 8, 10): "Rh"})),
    "counting": ("hi-lo", Mistakes(count=0.05, true_count=0.3, strategy=0.2, bet=0.4)),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.xdist_group("sim-fast-mistakes")  # one worker: the flat cases share their rounds without mistakes
def test_the_kernel_s_mistakes_cost_what_the_python_engine_s_cost(case: str) -> None:
    system, mistakes = CASES[case]
    rules = builtin_rulesets()["casino"]
    counter = None if system is None else Counter(
        system=find_system(system), spread=(1, 12), ramp=default_ramp((1, 12)), indices=_random_indices(
            random.Random(case)), insurance_index=3)
    rounds = 250_000 if case == "cells-flat" else 150_000  # each cost over 10 SE from nothing; cells' 6
    py_cost, py_se, py_bet = _paired_cost(rules, counter, mistakes, False, 11, rounds)
    k_cost, k_se, k_bet = _paired_cost(rules, counter, mistakes, True, 12, rounds)
    assert py_cost < -4 * py_se and k_cost < -4 * k_se  # the mistakes cost money, surely
    assert abs(py_cost - k_cost) < 4 * math.hypot(py_se, k_se), (py_cost, py_se, k_cost, k_se)
    if counter is not None:  # mis-bets move the average bet alike (about 0.5% of it, 4 SE and more)
        assert abs(py_bet - k_bet) < 0.03 * py_bet


def test_the_kernel_deals_shoes_of_every_kind_fairly() -> None:
    """Cut-card, reshuffled-every-round and infinite-deck shoes dealt by the kernel's own shuffles: the
    exact chart's EV within 4 standard errors over 1.5 M rounds (a biased shuffle, a wrong cut or a
    missing face moves it by more)."""
    from trainer.strategy import chart_for

    for name in ("bicycle", "european", "chat-host"):
        rules = builtin_rulesets()[name]
        kind = ("infinite" if rules.infinite_deck else
                "every-round" if rules.shoe.reshuffle is Reshuffle.EVERY_ROUND else "cut-card")
        chart = chart_for(rules)
        game = make_game(rules)
        seat = native_seat(game, chart.lookup, None, Mistakes(), random.Random(name), random.Random(0))
        tally = Winnings()
        seat.play_rounds(1_500_000, tally)
        mean = tally.net / tally.rounds / game.scale
        sd = math.sqrt(tally.net_squares / tally.rounds / game.scale**2 - mean**2)
        se = sd / math.sqrt(tally.rounds)
        assert abs(mean - chart.ev) < 4 * se, f"{name} ({kind}): {mean:+.4%} ± {se:.4%}, exact {chart.ev:+.4%}"


def test_a_compiled_run_s_figures_do_not_depend_on_its_job_count() -> None:
    """The compiled engine hands out numbered segments, each with streams of its own, to whichever
    thread is free: one job and two (whoever played which segment) give the very same tally, with a
    count and mistakes too; another seed gives another."""
    from trainer.sim.runner import SEGMENT_ROUNDS, Plan, letters_of, play_job, simulate

    rules = builtin_rulesets()["casino"]
    counter = Counter(system=find_system("hi-lo"), spread=(1, 12), ramp=default_ramp((1, 12)),
                      insurance_index=3)
    hands = 3 * SEGMENT_ROUNDS + 1234  # a short last segment
    for plan in (Plan(ruleset=rules, chart=letters_of(textbook)),
                 Plan(ruleset=rules, chart=letters_of(textbook), counter=counter,
                      mistakes=Mistakes(strategy=0.1, count=0.01, bet=0.05))):
        one = simulate(plan, hands, seed=7, jobs=1)
        assert one.rounds == hands
        assert simulate(plan, hands, seed=7, jobs=2) == one == play_job(plan, hands, 7, 0)
        assert simulate(plan, hands, seed=8, jobs=2) != one


def test_a_reseeded_seat_plays_as_a_new_one_whatever_it_played_before() -> None:
    """`reseed` puts the deck back in order: a seat's rounds depend on its streams, not its history;
    a twin shares the tables and plays the same."""
    rules = builtin_rulesets()["casino"]
    game = make_game(rules)
    seat = native_seat(game, textbook, None, Mistakes(), random.Random(1), random.Random(2))
    fresh, after, twin = Winnings(), Winnings(), Winnings()
    seat.reseed(random.Random(5), random.Random(6))
    seat.play_rounds(3000, fresh)
    seat.play_rounds(5000, Winnings())
    copy = seat.twin()
    seat.reseed(random.Random(5), random.Random(6))
    seat.play_rounds(3000, after)
    copy.reseed(random.Random(5), random.Random(6))
    copy.play_rounds(3000, twin)
    assert fresh == after == twin and fresh.rounds == 3000


@pytest.mark.parametrize("rounding", ["floor", "truncate", "round"])
@pytest.mark.parametrize("estimation", ["full", "half", "quarter", "exact"])
def test_the_kernel_s_true_count_table_holds_the_true_count(estimation: str, rounding: str) -> None:
    """The kernel looks true counts up: each entry is `TrueCounter`'s (half points kept doubled), or
    OFF_TABLE where an int8 cannot hold it (the kernel then divides)."""
    from trainer.sim.count import TrueCounter
    from trainer.sim.fast import counting_for, true_count_table
    from trainer.sim.layout import OFF_TABLE

    rules = builtin_rulesets()["casino"]
    counter = Counter(system=find_system("wong-halves"), spread=(1, 8), ramp=default_ramp((1, 8)),
                      estimation=estimation, rounding=rounding)
    counting = counting_for(make_game(rules, counter.system.tag), counter)
    reach = 60
    table = true_count_table(counting, reach)
    true = TrueCounter(estimation=estimation, rounding=rounding, scale=counting.tag_scale)
    assert table.shape == (len(counting.mults), 2 * reach)
    for left in [*range(0, 60), *range(60, len(counting.mults), 7), len(counting.mults) - 1]:
        for running in range(-reach, reach):
            value = true(running, left)
            assert table[left, running + reach] == (value if abs(value) < -OFF_TABLE else OFF_TABLE)


@pytest.mark.parametrize("system", ["hi-lo", "wong-halves"])
def test_the_kernel_divides_beyond_its_true_count_table(system: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Running counts off the table (here all but -2 to 1 points) are divided out, bet for bet and
    round for round as the Python engine counts them."""
    from trainer.sim import fast

    monkeypatch.setattr(fast, "TABLE_RUNNING", 2)
    test_the_kernel_counts_bets_and_plays_the_indices_as_the_python_engine("bicycle", system)


WONGING = {"entry only": Wonging(entry=1), "entry and exit": Wonging(entry=2, exit=0),
           "exit only": Wonging(exit=-1)}


@pytest.mark.parametrize("system", ["hi-lo", "ko"])
@pytest.mark.parametrize("policy", list(WONGING))
def test_the_kernel_back_counts_round_by_round_as_the_python_engine(policy: str, system: str) -> None:
    rules = RULESETS["casino"]
    wonging = WONGING[policy]
    if system == "ko":  # KO enters and leaves by its running count, about 4 points above its pivot's 0
        wonging = Wonging(entry=None if wonging.entry is None else wonging.entry + 4,
                          exit=None if wonging.exit is None else wonging.exit + 4)
    counter = Counter(system=find_system(system), spread=(1, 12), ramp=parse_ramp("1:2,2:4,4:8"),
                      wonging=wonging)
    game = make_game(rules, counter.system.tag)
    shoes = _DealtShoes(rules, game.codes.deck(rules.shoe.decks), random.Random(policy))
    plays = compile_plays(textbook, rules, game.codes)
    python = Winnings()
    play_rounds(game, plays, shoes, ROUNDS, python, count=count_plan(game, textbook, counter, Mistakes(),
                                                                     random.Random(0)))
    kernel = Winnings()
    native_seat(game, textbook, counter, Mistakes(), random.Random(0), random.Random(1),
                recorded=shoes.dealt).play_rounds(ROUNDS, kernel)
    assert kernel == python
    assert 0 < python.watched < python.rounds
    assert sum(python.bets.values()) == python.rounds - python.watched  # only played rounds bet
    at_or_above = sum(n for tc, (n, _, _) in python.by_count.items()
                      if wonging.entry is not None and tc >= wonging.entry)
    if not wonging.by_path:  # entry only: exactly the rounds that start at the entry count or above
        assert python.rounds - python.watched == at_or_above
    else:  # an exit policy plays only from its exit count up: the per-count sums are the rounds played
        assert sum(n for n, _, _ in python.by_count.values()) == python.rounds - python.watched
        if wonging.entry is not None:  # (without one, the first round of a shoe is played at any count)
            assert min(python.by_count) >= (wonging.exit if wonging.exit is not None else -99)


@pytest.mark.parametrize("name", ["casino", "burn-three-hole-first", "early-surrender", "late-surrender",
                                  "resplit-aces", "six-to-five-h17", "peek-ace-only"])
def test_the_kernel_plays_several_spots_hand_by_hand_as_the_python_engine(name: str) -> None:
    rules = RULESETS[name]
    rng = random.Random(f"spots:{name}")
    counter = Counter(system=find_system("hi-lo"), spread=(1, 12), ramp=parse_ramp("1:2,2:4,4:8"),
                      indices=_random_indices(rng), insurance_index=rng.randrange(-2, 4),
                      spots=Spots.parse("-1:2,1:3,3:4"))
    game = make_game(rules, counter.system.tag)
    shoes = _DealtShoes(rules, game.codes.deck(rules.shoe.decks), rng)
    plays = compile_plays(textbook, rules, game.codes)
    python_record: list[int] = []
    python = Winnings()
    play_rounds(game, plays, shoes, ROUNDS, python, count=count_plan(game, textbook, counter, Mistakes(),
                                                                     random.Random(0)), record=python_record)
    kernel_record: list[int] = []
    kernel = Winnings()
    native_seat(game, textbook, counter, Mistakes(), random.Random(0), random.Random(1),
                recorded=shoes.dealt).play_rounds(ROUNDS, kernel, record=kernel_record)
    for i, (mine, theirs) in enumerate(zip(kernel_record, python_record, strict=True)):
        assert mine == theirs, f"round {i}: kernel {mine}, Python engine {theirs}"
    assert kernel == python and python.pair_rounds > ROUNDS // 4 and python.spot_hands > ROUNDS
