"""Every card a side bet's grade depends on is shown with what the grade needs: its suit, and the
dealer's blackjack where a line pays on it (settle, payout)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from drills.base import DrillOptions, Lines, Question
from drills.dealing.payout import PayoutDrill
from drills.dealing.payout_cases import _winning_triple_kinds, winning_cards
from drills.dealing.settle import SettleDrill
from trainer.cli import cli
from trainer.core import load_ruleset
from trainer.core.cards import parse_card
from trainer.core.errors import InvalidInputError
from trainer.core.sidebets import builtin_sidebets, find_sidebet

CASINO = load_ruleset("casino")
SUITED = re.compile(r"^(10|[2-9AJQK])[♣♦♥♠]$")


def shown(question: Question) -> list[str]:
    return [line for display in question.show if isinstance(display, Lines) for line in display.lines]


def test_settle_with_21_3_shows_the_suits_of_the_flush_it_grades(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "p.db"), "drill", "settle", "--seed", "5", "--set",
                                      "sidebets=21+3", "-n", "8"], input="0\n" * 8)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Table 3 — Dealer: 9♥ Q♥  (has 19)" in out
    assert "› Seat 2: bet $10; 2♥ 8♥ 4♣ (14, doubled to $20); 21+3 $10" in out
    assert "21+3 $10 has a flush (2♥ 8♥ 9♥), 9:1: pay $90" in out


@pytest.mark.parametrize("name", sorted(set(builtin_sidebets()) - {"insurance"}))
def test_every_seat_with_a_side_bet_shows_each_card_it_reads_with_its_suit(name: str) -> None:
    drill = SettleDrill(DrillOptions(extra={"sidebets": name}, seats=7))
    rng = random.Random(11)
    checked = 0
    for _ in range(150):
        question = drill.ask(rng, CASINO)
        lines = shown(question)
        dealer_words = lines[0].split("Dealer: ")[1].split("  (")[0].split()
        for seat in question.data["seats"]:
            side = seat.get("sidebet")
            if side is None:
                continue
            line = next(li for li in lines if f"Seat {seat['seat']}" in li.split(":")[0])
            read = [parse_card(c) for c in side["cards"]]
            for c in read[:2]:
                assert c.pretty() in line, (c, line)
            if len(read) == 3:  # 21+3 reads the dealer's up card: shown with its suit
                assert dealer_words[0] == read[2].pretty(), (lines[0], read)
            words = line.split("; ")[1].split(" (")[0].split()
            assert all(SUITED.match(w) for w in words), line
            checked += 1
    assert checked > 20


def test_settle_refuses_insurance_as_a_side_bet_it_settles_as_insurance() -> None:
    with pytest.raises(InvalidInputError, match="insurance is this table's own bet"):
        SettleDrill(DrillOptions(extra={"sidebets": "21+3,insurance"}))


def test_a_seat_without_a_side_bet_keeps_the_plain_cards_a_dealer_reads() -> None:
    question = SettleDrill(DrillOptions(seats=3)).ask(random.Random(2), CASINO)
    assert not any(g in line for line in shown(question) for g in "♣♦♥♠")


@pytest.mark.parametrize("seed", range(1, 11))
def test_lucky_ladies_top_line_shows_the_dealer_blackjack_it_pays_on(seed: int) -> None:
    drill = PayoutDrill(DrillOptions(extra={"situation": "sidebet", "sidebets": "lucky-ladies"}))
    rng = random.Random(seed)
    for _ in range(60):
        question = drill.ask(rng, CASINO)
        cards_line = next(line for line in shown(question) if line.startswith("Cards: "))
        dealer = question.data["dealer_blackjack"]
        assert cards_line.endswith("the dealer has blackjack" if dealer else "the dealer has no blackjack")
        assert all(SUITED.match(c.pretty()) for c in map(parse_card, question.data["cards"]))


def test_an_insurance_side_bet_says_whose_cards_it_reads() -> None:
    drill = PayoutDrill(DrillOptions(extra={"situation": "sidebet", "sidebets": "insurance"}))
    question = drill.ask(random.Random(1), CASINO)
    cards_line = next(line for line in shown(question) if line.startswith("Cards: "))
    assert re.fullmatch(r"Cards: dealer A[♣♦♥♠] up, (10|[JQK])[♣♦♥♠] in the hole", cards_line), cards_line


def test_21_3_hands_are_drawn_with_the_chances_of_three_cards_drawn_at_random() -> None:
    """Triples of 52 suited cards drawn with replacement: 13 x 4 suited trips, 12 straights x 6 orders x 4
    suits of straight flush, 13 x 60 plain trips, 72 x 60 plain straights, 2,112 other ranks x 4 flushes."""
    bet = find_sidebet("21+3")
    weights = {o: sum(w for _, w in _winning_triple_kinds(bet, o)) for o, _ in bet.pays}
    assert weights == {"suited-trips": 52, "straight-flush": 288, "three-of-a-kind": 780, "straight": 4320,
                       "flush": 8448}
    rng = random.Random(4)
    for outcome in weights:
        for _ in range(50):
            cards, dealer = winning_cards(rng, bet, outcome)
            assert bet.paid_outcome(cards) == outcome and not dealer
