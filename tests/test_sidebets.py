"""Side bets: pay tables as data, what a hand wins, and exact EVs checked against brute force."""

from __future__ import annotations

import functools
import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from trainer.cli import main
from trainer.core import load_ruleset
from trainer.core.cards import Card, Rank, Suit, card, parse_cards
from trainer.core.errors import InvalidInputError, RulesetError
from trainer.core.money import Money
from trainer.core.sidebets import SideBetKind, builtin_sidebets, find_sidebet, outcomes_of
from trainer.strategy.sidebets import shoe_composition, sidebet_ev

CASINO = load_ruleset("casino")


def physical_shoe(decks: int, removed: str = "") -> list[Card]:
    cards = [card(r, s) for _ in range(decks) for r in Rank for s in Suit]
    for gone in parse_cards(removed) if removed else ():
        cards.remove(gone)
    return cards


def brute_force(bet_name: str, cards: list[Card]) -> dict[str, Fraction]:
    """Every combination of physical cards, one by one: the chance of each paid outcome."""
    bet = find_sidebet(bet_name)
    tally: Counter[str] = Counter()
    combos = 0
    for combo in itertools.combinations(cards, bet.kind.cards_read):
        combos += 1
        outcome = bet.paid_outcome(combo)
        if outcome is not None:
            tally[outcome] += 1
    return {o: Fraction(n, combos) for o, n in tally.items()}


def test_one_deck_three_card_poker_counts_are_the_textbook_ones() -> None:
    """22,100 three-card hands from one deck: 48 straight flushes, 52 trips, 720 straights, 1,096 flushes."""
    deck = physical_shoe(1)
    tally: Counter[str] = Counter()
    for hand in itertools.combinations(deck, 3):
        for outcome in outcomes_of(SideBetKind.THREE_CARD_POKER, hand)[:1]:
            tally[outcome] += 1
    assert tally == {"straight-flush": 48, "three-of-a-kind": 52, "straight": 720, "flush": 1096}


@functools.cache
def every_three_cards(removed: str) -> tuple[Counter[tuple[str, ...]], int]:
    """Every combination of three physical cards of two decks less `removed`, one by one: how many make
    each list of poker outcomes (best first), and how many combinations there are. Both 21+3 pay
    tables read the same cards: their tests count them once."""
    tally: Counter[tuple[str, ...]] = Counter()
    combos = 0
    for combo in itertools.combinations(physical_shoe(2, removed), 3):
        combos += 1
        tally[tuple(outcomes_of(SideBetKind.THREE_CARD_POKER, combo))] += 1
    return tally, combos


@pytest.mark.parametrize("removed", ["", "Kh 5s 5d Ah 7c", "2h 3h 4h 5h 6h 7h 8h 9h"])
@pytest.mark.parametrize("name", ["21+3", "21+3-tiered"])
@pytest.mark.xdist_group("sidebets-every-three-cards")  # one worker counts each shoe's cards once
def test_21_plus_3_chances_equal_brute_force_over_every_three_cards(name: str, removed: str) -> None:
    shoe = physical_shoe(2, removed)
    counts = Counter((c.rank, c.suit) for c in shoe)
    bet = find_sidebet(name)
    exact = sidebet_ev(bet, counts)
    tally, combos = every_three_cards(removed)
    paid: Counter[str] = Counter()
    for found, n in tally.items():  # a hand is paid at the first of its outcomes the table lists
        outcome = next((o for o in found if bet.ratio(o) is not None), None)
        if outcome is not None:
            paid[outcome] += n
    assert dict(exact.chances) == {o: Fraction(n, combos) for o, n in paid.items()}


@pytest.mark.parametrize("removed", ["", "Qh Qh Kd As 9c"])
@pytest.mark.parametrize("name", ["perfect-pairs", "lucky-ladies"])
def test_two_card_chances_equal_brute_force(name: str, removed: str) -> None:
    shoe = physical_shoe(2, removed)
    counts = Counter((c.rank, c.suit) for c in shoe)
    exact = dict(sidebet_ev(find_sidebet(name), counts).chances)
    brute = brute_force(name, shoe)
    if name == "lucky-ladies" and brute.get("queen-hearts-pair"):
        # brute force of the top tier: the two queens, then the dealer's two cards from what is left
        rest = list(shoe)
        rest.remove(card(Rank.QUEEN, Suit.HEARTS))
        rest.remove(card(Rank.QUEEN, Suit.HEARTS))
        dealt = list(itertools.permutations(range(len(rest)), 2))
        blackjacks = sum(1 for i, j in dealt if (rest[i].is_ace and rest[j].is_ten)
                         or (rest[i].is_ten and rest[j].is_ace))
        share = Fraction(blackjacks, len(dealt))
        pair = brute.pop("queen-hearts-pair")
        brute["queen-hearts-pair-dealer-blackjack"] = pair * share
        brute["queen-hearts-pair"] = pair * (1 - share)
    assert exact == brute


def test_a_full_six_deck_shoe_gives_21_plus_3_its_well_known_edge() -> None:
    result = sidebet_ev(find_sidebet("21+3"), shoe_composition(CASINO))
    assert round(float(-result.ev) * 100, 2) == 3.24


def test_perfect_pairs_and_insurance_by_hand() -> None:
    eight = load_ruleset("eight-deck")
    pairs = sidebet_ev(find_sidebet("perfect-pairs"), shoe_composition(eight))
    # 416 cards: after the first, 7 of the same card, 8 same colour other suit, 16 other colour, of 415
    assert dict(pairs.chances) == {"perfect-pair": Fraction(7, 415), "coloured-pair": Fraction(8, 415),
                                   "mixed-pair": Fraction(16, 415)}
    insurance = sidebet_ev(find_sidebet("insurance"), shoe_composition(CASINO))
    assert insurance.ev == 3 * Fraction(96, 311) - 1  # 96 tens among the 311 cards behind the up ace


def test_a_rich_shoe_turns_insurance_positive_and_rank_only_removal_is_enough_for_it() -> None:
    low = "2 3 4 5 6 " * 6
    result = sidebet_ev(find_sidebet("insurance"),
                        shoe_composition(CASINO, parse_cards(low), needs_suits=False))
    assert result.ev == 3 * Fraction(96, 311 - 30) - 1 and result.ev > 0
    with pytest.raises(InvalidInputError, match="name it"):
        shoe_composition(CASINO, parse_cards("5"))


def test_a_hand_is_paid_at_the_best_line_its_table_lists() -> None:
    classic, tiered = find_sidebet("21+3"), find_sidebet("21+3-tiered")
    trips = parse_cards("7h 7h 7h")
    assert tiered.paid_outcome(trips) == "suited-trips" and tiered.settle(Money(5), trips) == Money(500)
    assert classic.settle(Money(5), parse_cards("Qh Kh Ah")) == Money(45)
    assert classic.settle(Money(5), parse_cards("Kh Ah 2h")) == Money(45)  # a flush, not a straight
    assert outcomes_of(SideBetKind.THREE_CARD_POKER, parse_cards("Kc Ah 2d")) == []
    assert classic.settle(Money(5), parse_cards("2c 9h 9d")) == Money(-5)
    ladies = find_sidebet("lucky-ladies")
    assert ladies.paid_outcome(parse_cards("Qh Qh"), dealer_blackjack=True) == "queen-hearts-pair-dealer-blackjack"
    assert ladies.paid_outcome(parse_cards("As 9s")) == "suited-20"
    assert ladies.paid_outcome(parse_cards("Ks Qd")) == "any-20"


def test_every_builtin_pay_table_loads_and_orders_its_lines_best_first() -> None:
    bets = builtin_sidebets()
    assert set(bets) == {"21+3", "21+3-tiered", "perfect-pairs", "lucky-ladies", "insurance"}
    assert find_sidebet("ladies") is bets["lucky-ladies"]


@pytest.mark.parametrize(("text", "message"), [
    ('name = "x"\ntitle = "x"\nkind = "three-card-poker"\n[pays]\nflush = "lots"\n', r"\[pays\] flush = 'lots'"),
    ('name = "x"\ntitle = "x"\nkind = "three-card-poker"\n[pays]\nfull-house = "9:1"\n', "full-house is not an outcome"),
    ('name = "x"\ntitle = "x"\nkind = "roulette"\n[pays]\nflush = "9:1"\n', "kind = 'roulette'"),
    ('name = "x"\ntitle = "x"\nkind = "pair"\ncolour = 1\n[pays]\nmixed-pair = "5:1"\n', "unknown key 'colour'"),
    ('name = "x"\nkind = "pair"\n[pays]\nmixed-pair = "5:1"\n', "missing key 'title'"),
])
def test_a_bad_pay_table_names_the_file_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError, match=message) as info:
        find_sidebet(str(path))
    assert str(info.value).startswith("mine.toml: ")


def test_cutcard_ev_sidebet_json_and_its_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ev", "--sidebet", "21+3", "--removed", "Kh 5s", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["cards_left"] == 310 and doc["sidebet"] == "21+3"
    counts = shoe_composition(CASINO, parse_cards("Kh 5s"))
    assert doc["ev"] == float(sidebet_ev(find_sidebet("21+3"), counts).ev)
    assert main(["ev", "--sidebet", "21+3", "--ruleset", "chat-host"]) == 1
    err = capsys.readouterr().err
    assert "no suits" in err and len(err.strip().splitlines()) == 1
    assert main(["ev", "10,6", "vs", "10", "--sidebet", "21+3"]) == 1
    assert "takes no hand" in capsys.readouterr().err


def test_cutcard_ev_sidebet_shows_the_pay_table_with_chances(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ev", "--sidebet", "perfect-pairs"]) == 0
    out = capsys.readouterr().out
    assert "perfect pair" in out and "25:1" in out and "house edge 6.1093%" in out


def test_the_payout_drill_pays_side_bets_from_their_tables() -> None:
    from drills.base import DrillOptions
    from drills.dealing.payout import PayoutDrill

    drill = PayoutDrill(DrillOptions(extra={"sidebets": "21+3,perfect-pairs", "situation": "sidebet"}))
    rng = __import__("random").Random(5)
    for _ in range(30):
        question = drill.ask(rng, CASINO)
        bet = find_sidebet(str(question.data["sidebet"]))
        cards = parse_cards(" ".join(question.data["cards"]))
        outcome = bet.paid_outcome(cards)
        assert outcome is not None
        assert Money(question.expected) == bet.settle(Money(str(question.data["bet"])), cards)
        assert drill.grade(question, drill.parse(question, question.expected)).correct
    item = drill.ask(rng, CASINO, "payout:sidebet 21+3:flush:5")
    assert item.expected == "45" and item.item == "payout:sidebet 21+3:flush:5"
    assert drill.cannot_ask("payout:sidebet 21+3:mixed-pair:5", CASINO) is not None
    plain = PayoutDrill(DrillOptions())
    assert all(plain.ask(rng, CASINO).data["situation"] != "sidebet" for _ in range(40))
