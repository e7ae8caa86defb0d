"""The chat-host tournament (seed 002) with scripted dice: bets, the d13 deal, attacks, elimination, the end."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.core import Action, load_ruleset
from trainer.core.errors import IllegalActionError, InvalidInputError, RulesetError
from trainer.tournament.attacks import failed_attack_loss
from trainer.tournament.dice import ScriptedDice
from trainer.tournament.game import Entrant, Stage, Tournament

RULES = load_ruleset("chat-host")


class KeepOrder(random.Random):
    """A generator whose shuffle leaves the player list as it is, so tests know the dealing order."""

    def shuffle(self, x: list[object]) -> None:
        return None


def game(names: str, rolls: list[int], computers: str = "") -> tuple[Tournament, ScriptedDice]:
    dice = ScriptedDice(rolls)
    entrants = [Entrant(name=n, computer=n in computers.split()) for n in names.split()]
    return Tournament(RULES, entrants, rng=KeepOrder(0), dice=dice), dice


def bets(t: Tournament, **amounts: int) -> None:
    for name, amount in amounts.items():
        t.bet(name, amount)


def stand_all(t: Tournament) -> None:
    while t.in_turn is not None:
        t.act(Action.STAND)


# Round 1 of three players: host 10; A 10+9 = 19, B 10+7 = 17, C 10+8 = 18; everyone stands; the host
# draws a 7 and stands on 17. A wins $25 (-> 125), B pushes (100), C wins $10 (-> 110).
ROUND_1 = [10, 10, 9, 10, 7, 10, 8, 7]


def after_round_1(extra_rolls: list[int]) -> tuple[Tournament, ScriptedDice]:
    t, dice = game("A B C", ROUND_1 + extra_rolls)
    bets(t, A=25, B=10, C=10)
    stand_all(t)
    return t, dice


def test_everyone_starts_with_100_and_must_bet_at_least_the_10_minimum() -> None:
    t, _ = game("A B", [])
    assert t.cash("A") == t.cash("B") == Decimal(100)
    assert t.stage is Stage.BETTING and t.waiting_for_bets == ["A", "B"]
    with pytest.raises(InvalidInputError, match=r"A may bet \$10 to \$100, not \$5"):
        t.bet("A", 5)
    with pytest.raises(InvalidInputError, match=r"not \$101"):
        t.bet("A", 101)
    assert t.waiting_for_bets == ["A", "B"] and t.bets == {}


def test_a_player_who_does_not_bet_in_time_bets_the_minimum() -> None:
    t, _ = game("A B", [10, 10, 9, 10, 7])
    t.bet("A", 30)
    t.bet_missed("B")
    assert t.bets == {"A": Decimal(30), "B": Decimal(10)}
    assert "B: no bet in time, so bets $10" in t.transcript


def test_the_host_rolls_13_for_itself_then_2d13_for_each_player_in_the_shuffled_order() -> None:
    t, dice = after_round_1([])
    assert dice.asked[:4] == [(13, 1, "host"), (13, 2, "A"), (13, 2, "B"), (13, 2, "C")]
    assert dice.asked[4] == (13, 1, "host")  # the host's second card, after everyone played
    lines = t.transcript
    first = lines.index("Host: .roll 13 → 10")
    assert lines[first + 1] == "Dealing order: A, B, C"
    assert lines[first + 2] == "A: .roll 2d13 → 10, 9 = 19"
    assert "Host: .roll 13 → 7 = 17" in lines and "Host stands on 17" in lines
    assert "A wins: +$25 → $125" in lines and "B pushes: $0 → $100" in lines


def test_a_hit_is_one_roll_for_the_player_in_turn() -> None:
    t, dice = game("A B", [10, 2, 3, 10, 10, 13, 6, 9])
    bets(t, A=10, B=10)
    t.act(Action.HIT)  # A: 2 3 + K = 15
    assert dice.asked[-1] == (13, 1, "A") and "A hits: .roll 13 → 13 (K) = 15" in t.transcript
    stand_all(t)
    assert t.stage is Stage.BETTING  # two players left: no attack phase


def test_the_host_shuffles_the_player_list_every_round() -> None:
    entrants = [Entrant(name=n, computer=True) for n in "ABCDEF"]
    t = Tournament(RULES, entrants, rng=random.Random(5))
    orders = set()
    for _ in range(6):
        t.advance()
        orders.add(tuple(t.order))
    assert len(orders) > 1


def test_a_successful_attack_needs_a_strictly_higher_roll_and_eliminates_the_defender() -> None:
    t, dice = after_round_1([90, 40])
    assert t.stage is Stage.ATTACKS and t.attacker == "A" and t.targets() == ["B", "C"]
    result = t.attack("B")
    assert dice.asked[-2:] == [(125, 1, "A"), (100, 1, "B")]  # roll strength = cash in hand
    assert result.success and result.loss == 0
    assert "B" not in t.alive() and t.cash("A") == Decimal(125)
    assert "A attacks B: A .roll 1d125 → 90, B .roll 1d100 → 40. The attack succeeds." in t.transcript


def test_a_failed_attack_costs_half_the_cash_rounded_down_and_a_tie_fails() -> None:
    t, _ = after_round_1([60, 60])
    result = t.attack("B")
    assert not result.success and result.loss == Decimal(62)  # half of $125, rounded down
    assert t.cash("A") == Decimal(63) and t.alive() == ["A", "B", "C"]
    assert "The attack fails: A pays $62 (half, rounded down) to the bank → $63." in t.transcript[-1]


def test_the_half_loss_rounds_down_to_whole_dollars() -> None:
    assert failed_attack_loss(Decimal(125)) == Decimal(62)
    assert failed_attack_loss(Decimal("35.50")) == Decimal(17)
    assert failed_attack_loss(Decimal(1)) == Decimal(0)


def test_each_player_attacks_or_passes_once_in_dealing_order_then_the_next_round_begins() -> None:
    t, _ = after_round_1([60, 60, 50, 10])
    t.attack("B")  # fails: A 63
    assert t.attacker == "B"
    t.pass_attack()
    assert t.attacker == "C" and t.targets() == ["A", "B"]
    t.attack("A")  # C 110 rolls 50 against A's 10: A is out
    assert t.alive() == ["B", "C"] and t.stage is Stage.BETTING and t.round_number == 2
    with pytest.raises(IllegalActionError):
        t.pass_attack()


def test_an_eliminated_player_no_longer_attacks_in_that_phase() -> None:
    t, _ = after_round_1([90, 40])
    t.attack("B")  # B is out before its turn
    assert t.attacker == "C"


def test_with_two_players_left_at_the_start_of_an_attack_phase_there_are_no_attacks() -> None:
    # A bets everything and busts in round 1; B and C are left: no attack phase follows.
    t, _ = game("A B C", [10, 10, 6, 10, 7, 10, 8, 10, 7])
    bets(t, A=100, B=10, C=10)
    t.act(Action.HIT)  # A 16 + 10: bust
    stand_all(t)
    assert "A has no money left and is eliminated." in t.transcript
    assert "Two players are left: no attacks." in t.transcript
    assert t.stage is Stage.BETTING and t.attacker is None and t.round_number == 2


def test_a_player_at_0_is_out_and_the_last_player_left_wins() -> None:
    t, _ = game("A B", [10, 10, 6, 10, 10, 10, 8])
    bets(t, A=100, B=10)
    t.act(Action.HIT)  # A busts with all they had
    stand_all(t)  # B 20 against the host's 18
    assert t.stage is Stage.OVER and t.winner == "B" and t.cash("A") == 0
    assert t.transcript[-1] == "B wins the game with $110!"
    assert [s.name for s in t.standings()] == ["B", "A"] and t.standings()[1].out_round == 1


def test_a_player_under_the_minimum_must_still_bet_and_bets_everything() -> None:
    t, _ = game("A B", [10, 10, 6, 10, 7, 10, 7, 10, 9, 10, 8])
    bets(t, A=94, B=10)
    stand_all(t)  # host 10 + 7 = 17 beats A's 16; B 17 pushes
    assert t.cash("A") == Decimal(6) and "A" in t.alive()
    assert t.bet_bounds("A") == (Decimal(6), Decimal(6))
    t.bet_missed("A")
    assert t.bets["A"] == Decimal(6) and "A: no bet in time, so bets $6 (all in, under the minimum)" in t.transcript


def test_a_double_or_split_needs_the_cash_to_cover_it() -> None:
    t, _ = game("A B", [10, 8, 8, 10, 7])
    bets(t, A=60, B=10)
    assert Action.SPLIT not in t.legal_actions() and Action.DOUBLE not in t.legal_actions()
    with pytest.raises(IllegalActionError, match="has not the cash to cover a split"):
        t.act(Action.SPLIT)
    t2, _ = game("A B", [10, 8, 8, 10, 7])
    bets(t2, A=50, B=10)
    assert {Action.SPLIT, Action.DOUBLE} <= t2.legal_actions()


def test_if_the_last_players_go_out_together_the_one_who_began_the_round_richest_wins() -> None:
    # round 1: A wins $10 (110), B pushes (100); two players: no attacks. Round 2: both bet all, both bust.
    t, _ = game("A B", [10, 10, 9, 10, 7, 7, 10, 10, 6, 10, 6, 10, 10])
    bets(t, A=10, B=10)
    stand_all(t)
    bets(t, A=110, B=100)
    t.act(Action.HIT)
    t.act(Action.HIT)
    assert t.stage is Stage.OVER and t.alive() == [] and t.winner == "A"
    assert "Nobody is left. The last round began with A $110, B $100." in t.transcript


def test_a_tie_among_the_last_players_out_is_settled_by_a_roll_off() -> None:
    t, _ = game("A B", [10, 10, 6, 10, 6, 10, 10, 40, 40, 30, 70])
    bets(t, A=100, B=100)
    t.act(Action.HIT)
    t.act(Action.HIT)
    assert t.winner == "B"
    assert t.transcript[-3:-1] == ["Roll-off: A .roll 1d100 → 40, B .roll 1d100 → 40",
                                   "Roll-off: A .roll 1d100 → 30, B .roll 1d100 → 70"]


def test_the_wrong_rule_set_or_player_count_is_refused() -> None:
    with pytest.raises(RulesetError, match="not a chat-host tournament"):
        Tournament(load_ruleset("casino"), [Entrant(name="A", computer=False)] * 2, rng=random.Random(0))
    with pytest.raises(InvalidInputError, match="2 to 8 players, not 1"):
        Tournament(RULES, [Entrant(name="A", computer=False)], rng=random.Random(0))
    with pytest.raises(InvalidInputError, match="different, non-empty names"):
        Tournament(RULES, [Entrant(name="A", computer=False)] * 2, rng=random.Random(0))


def test_computer_players_bet_play_and_pass_by_the_stated_policy() -> None:
    # A and C are computers: each bets a fifth of $100; A stands on 19, C on 18; the host makes 17.
    t, _ = game("A B C", [10, 10, 9, 10, 7, 10, 8, 7], computers="A C")
    assert t.bets == {"A": Decimal(20), "C": Decimal(20)} and t.waiting_for_bets == ["B"]
    t.bet("B", 10)
    assert t.in_turn == "B" and "A stands on 19" in t.transcript
    t.act(Action.STAND)
    # A has 120 and would beat B (100) with chance 139/240 < 2/3: A passes; then B decides.
    assert "A passes." in t.transcript and t.attacker == "B"
    t.pass_attack()
    assert "C passes." in t.transcript and t.stage is Stage.BETTING


MAX_ROUNDS = 2_000


@settings(max_examples=50, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8))
def test_a_game_of_computer_players_always_ends_with_one_winner(seed: int, players: int) -> None:
    entrants = [Entrant(name=f"P{i}", computer=True) for i in range(players)]
    t = Tournament(RULES, entrants, rng=random.Random(seed))
    alive = players
    while t.stage is not Stage.OVER:
        assert t.round_number <= MAX_ROUNDS, "the game did not end"
        t.advance()
        assert all(t.cash(e.name) >= 0 for e in entrants)
        assert len(t.alive()) <= alive  # nobody comes back
        alive = len(t.alive())
    assert t.winner in {e.name for e in entrants} and len(t.alive()) <= 1
    assert t.transcript[-1].startswith(t.winner)
