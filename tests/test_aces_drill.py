"""The ace side count: side counts in count-system TOML, the norm for the tray's depth, the surplus, the
betting count by the adjusted running count and the play by the plain one, on stacked shoes."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from drills.base import DrillOptions
from drills.counting.aces import AcesDrill, seen_of
from trainer.core.cards import full_deck
from trainer.core.count_systems import find_system, load_system
from trainer.core.counting import (
    adjusted_running_count,
    estimate_decks_left,
    format_count,
    side_count_norm,
    side_count_surplus,
    true_count,
)
from trainer.core.errors import InvalidInputError
from trainer.core.rulesfile import find_ruleset
from trainer.core.shoe_depths import ShoeMoment
from trainer.progress.items import item_name

CASINO = find_ruleset("casino")


def stacked(decks: int, dealt: int, values: list[int]) -> ShoeMoment:
    """A shoe of `decks` decks with `dealt` cards in the tray, the cards seen of the blackjack values
    given (1: ace, 10: a ten-valued card), taken from the unshuffled shoe."""
    shoe = full_deck() * decks
    free = {v: [i for i, c in enumerate(shoe) if c.value == v] for v in range(1, 11)}
    positions = tuple(free[v].pop() for v in values)
    return ShoeMoment(decks=decks, dealt=dealt, deepest=decks * 52, cards_behind_cut=decks * 52 - dealt,
                      positions=positions, seen=True)


# --- the arithmetic ---------------------------------------------------------------------------------


def test_the_norm_is_four_aces_a_deck_of_the_tray() -> None:
    assert side_count_norm(Fraction(5, 2), 4) == 10
    assert side_count_norm(Fraction(3, 4), 4) == 3
    assert side_count_norm(0, 4) == 0
    assert side_count_surplus(7, Fraction(5, 2), 4) == 3  # 3 aces more left than the norm
    assert side_count_surplus(12, Fraction(5, 2), 4) == -2
    assert adjusted_running_count(4, 3, 1) == 7
    assert adjusted_running_count(-2, -2, 2) == -6
    with pytest.raises(InvalidInputError):
        side_count_norm(-1, 4)


def test_the_shipped_adjustments_follow_from_the_effects_of_removal() -> None:
    # Griffin's effects of removal (single deck, % of edge per card removed), A, 2..9, T
    eor = {1: -0.61, 2: 0.38, 3: 0.44, 4: 0.55, 5: 0.69, 6: 0.46, 7: 0.28, 8: 0.0, 9: -0.18, 10: -0.51}
    for name, want in (("hi-opt-i", 1), ("hi-opt-ii", 2), ("omega-ii", 2)):
        system = find_system(name)
        side = system.side_count
        assert side is not None and side.ranks == (1,) and side.per_deck == 4
        tags = {v: float(system.tags[v - 1]) * (4 if v != 10 else 16) for v in range(1, 11)}
        per_point = sum(tags[v] * eor[v] for v in eor) / sum(
            float(system.tags[v - 1]) ** 2 * (4 if v != 10 else 16) for v in eor)
        assert round(-eor[1] / per_point) == want == side.adjustment, name
        assert "our reading" in side.source
    assert find_system("hi-lo").side_count is None  # Hi-Lo counts its aces in the main count


def test_a_side_count_in_a_users_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\ntags = { A = 0, 2 = 0, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, '
                    'T = -1 }\n[side_count]\nranks = ["A", "9"]\nadjustment = 1.5\n', encoding="utf-8")
    side = load_system(str(path)).side_count
    assert side is not None and side.ranks == (1, 9) and side.per_deck == 8
    assert side.adjustment == Fraction(3, 2) and side.names == "aces and 9s"
    for bad, match in (('ranks = ["A", "A"]\nadjustment = 1', "different ranks"),
                       ('ranks = ["X"]\nadjustment = 1', "different ranks"),
                       ('ranks = ["A"]', "missing key side_count.adjustment"),
                       ('ranks = ["A"]\nadjustment = 9', "adjustment = 9"),
                       ('ranks = ["A"]\nadjustment = 1\nper_ace = 2', "unknown key side_count.per_ace")):
        path.write_text('name = "mine"\ntags = { A = 0, 2 = 0, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, '
                        f'9 = 0, T = -1 }}\n[side_count]\n{bad}\n', encoding="utf-8")
        with pytest.raises(InvalidInputError, match=match):
            load_system(str(path))


# --- stacked shoes ----------------------------------------------------------------------------------


def test_a_stacked_six_deck_shoe_ace_rich() -> None:
    # 130 cards in the tray (2.5 decks to the half deck): 7 aces seen against a norm of 10, running +4
    cards = [1] * 7 + [2, 7, 8, 9] * 23 + [2, 7, 8] + [5] * 16 + [10] * 12
    moment = stacked(6, 130, cards)
    assert len(cards) == 130 and seen_of(moment, (1,)) == 7
    drill = AcesDrill(DrillOptions(system="hi-opt-i"))
    r = drill.reading(drill.system, moment)
    assert r["running"] == 4 and r["decks_left"] == Fraction(7, 2) and r["decks_dealt"] == Fraction(5, 2)
    assert r["norm"] == 10 and r["surplus"] == 3
    assert r["adjusted"] == 7  # +4 and +1 for each of 3 surplus aces
    assert r["betting"] == 2  # 7 / 3.5 = 2.0: the bet by the adjusted count
    assert r["playing"] == 1  # 4 / 3.5 = 1.14: the play by the plain count
    two = AcesDrill(DrillOptions(system="hi-opt-ii"))
    r2 = two.reading(two.system, moment)
    assert r2["running"] == 24 + 24 + 2 * 16 - 2 * 12  # Hi-Opt II: 2s and 7s +1, 5s +2, tens -2
    assert r2["adjusted"] == r2["running"] + 2 * 3


def test_a_stacked_shoe_ace_poor_bets_below_its_play() -> None:
    # 2 decks, 52 cards dealt (1 deck to the half deck): 8 aces seen against a norm of 4, running +6
    cards = [1] * 8 + [5] * 6 + [2, 7, 8, 9] * 8 + [3] * 3 + [10] * 3
    moment = stacked(2, 52, cards)
    drill = AcesDrill(DrillOptions(system="hi-opt-i"))
    r = drill.reading(drill.system, moment)
    assert r["norm"] == 4 and r["surplus"] == -4 and r["running"] == 6
    assert r["betting"] == 2 and r["playing"] == 6  # (6 - 4) / 1 against 6 / 1


def test_the_norm_in_the_last_deck_by_its_own_unit() -> None:
    # one deck, 40 cards dealt (some burnt face down), 12 left: half decks read 0.5 left (norm 2);
    # quarter decks 0.25 (norm 3)
    cards = [1, 1, 1] + [2, 7, 8, 9] * 4
    moment = stacked(1, 40, cards)
    half = AcesDrill(DrillOptions(system="hi-opt-i", estimation="half"))
    quarter = AcesDrill(DrillOptions(system="hi-opt-i", estimation="half", last_deck="quarter"))
    assert half.reading(half.system, moment)["norm"] == 2
    assert half.reading(half.system, moment)["surplus"] == -1
    r = quarter.reading(quarter.system, moment)
    assert r["decks_left"] == Fraction(1, 4) and r["norm"] == 3 and r["surplus"] == 0
    full = AcesDrill(DrillOptions(system="hi-opt-i", estimation="full"))
    assert full.reading(full.system, stacked(6, 100, [1] * 4))["norm"] == 8  # 100 cards: 2 decks dealt


# --- the drill --------------------------------------------------------------------------------------


def test_questions_on_real_shoes_are_checkable_from_their_data() -> None:
    drill = AcesDrill(DrillOptions(system="omega-ii", rounding="round"))
    rng = random.Random(4)
    for _ in range(30):
        question = drill.ask(rng, CASINO)
        d = question.data
        decks_left = estimate_decks_left(d["cards_left"], "half")
        assert d["decks_left"] == float(decks_left) and d["decks_dealt"] == 6 - float(decks_left)
        assert d["norm"] == 4 * d["decks_dealt"] and d["surplus"] == d["norm"] - d["aces_seen"]
        assert d["adjusted_running_count"] == d["running_count"] + 2 * d["surplus"]
        assert d["betting_true_count"] == true_count(d["adjusted_running_count"], decks_left, "round")
        assert d["playing_true_count"] == true_count(d["running_count"], decks_left, "round")
        assert question.expected == f"{format_count(d['surplus'])} {format_count(d['betting_true_count'])}"
        answer = replace(drill.parse(question, question.expected), latency_ms=1500, pace="learner")
        assert drill.grade(question, answer).correct


def test_grading_says_which_part_was_off() -> None:
    drill = AcesDrill(DrillOptions(system="hi-opt-i"))
    question = drill.ask(random.Random(9), CASINO, item="aces:hi-opt-i:+2")
    assert question.data["surplus"] == 2 and question.item == "aces:hi-opt-i:+2"
    bet = question.data["betting_true_count"]
    wrong = drill.grade(question, drill.parse(question, f"+3, {bet + 2}"))
    assert not wrong.correct and wrong.verdict == "surplus 1 too high, betting count 2 too high"
    assert "Playing by the plain count" in wrong.explanation and "(half decks, floor)" in wrong.explanation
    for text in ("+2", "two three", "+2 +1.5"):
        with pytest.raises(InvalidInputError):
            drill.parse(question, text)
    assert item_name("aces:hi-opt-i:+4") == "ace side count, surplus +4 or more, Hi-Opt I"


def test_a_count_without_a_side_count_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="keeps no side count"):
        AcesDrill(DrillOptions(system="zen"))
    with pytest.raises(InvalidInputError, match="full, half or quarter"):
        AcesDrill(DrillOptions(system="hi-opt-i", estimation="exact"))
    assert AcesDrill().system.name == "hi-opt-i"  # the default Hi-Lo counts its aces: Hi-Opt I here


def test_the_command_in_machine_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from trainer.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("+1 +2\n"))
    assert main(["drill", "aces", "--jsonl", "-n", "1", "--seed", "2", "--db", str(tmp_path / "p.db")]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    asked = next(line for line in lines if "data" in line and "surplus" in line["data"])
    assert asked["data"]["system"] == "hi-opt-i" and "betting_true_count" in asked["data"]
    assert main(["drill", "aces", "--system", "zen", "-n", "1", "--db", str(tmp_path / "p.db")]) == 2
    assert "keeps no side count" in capsys.readouterr().err
