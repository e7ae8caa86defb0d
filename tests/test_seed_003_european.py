"""Seed 003 (European blackjack, in Finnish; English reading beside it), one test per rule statement.

Each test quotes the Finnish sentence it checks. A hole card but no peek: the dealer turns it only after
every player has played, and a dealer natural then beats every hand but a natural, doubles and splits
included (the rule set's reading of "each hand is compared separately").
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from stacking import deal, money, of_type, play

from trainer.core import DEALER, Action, Outcome, Shoe, load_ruleset
from trainer.core.events import DealerDrew, Dealt, Peeked, Settled

RULES = "european"


def test_kayta_6_tavallista_pakkaa() -> None:
    """'Käytä 6 tavallista pakkaa': six standard decks, and no other count."""
    rules = load_ruleset(RULES)
    assert Shoe.shuffled(rules, random.Random(1)).remaining == 312  # no burn card: the server's shuffle
    assert rules.shoe.decks_range == (6, 6)


def test_jakajalla_on_yksi_nakyva_ja_yksi_piilotettu_kortti() -> None:
    """'Jakajalla on yksi näkyvä ja yksi piilotettu kortti': one visible and one hidden dealer card."""
    round_ = deal(RULES, "9 7 8 T")
    dealer = [e.face_up for e in of_type(round_, Dealt) if e.seat == DEALER]
    assert dealer == [True, False] and round_.hole_card is None


@pytest.mark.parametrize(("cards", "natural"), [("A K", True), ("T A", True), ("A 9", False), ("7 7", False)])
def test_luonnollinen_blackjack_on_assa_ja_10_arvoinen_kortti(cards: str, natural: bool) -> None:
    """'Luonnollinen blackjack on ässä ja 10-arvoinen kortti kahdella ensimmäisellä kortilla'."""
    first, second = cards.split()
    round_ = deal(RULES, f"{first} 7 {second} 9 5 5")
    outcomes = [e.outcome for e in of_type(round_, Settled)]
    assert (outcomes == [Outcome.BLACKJACK]) is natural


def test_pelaajat_toimivat_jarjestyksessa() -> None:
    """'Pelaajat toimivat järjestyksessä': players act in order."""
    round_ = deal(RULES, "9 T 8 8 9 T", bets=[1, 1])
    assert round_.seat_in_turn == 0
    play(round_, "stand")
    assert round_.seat_in_turn == 1


def test_jakaja_kaantaa_piilokorttinsa_kun_kaikki_muut_ovat_pelanneet() -> None:
    """'Kun kaikki muut ovat pelanneet, jakaja kääntää piilokorttinsa': no peek, even under an ace."""
    round_ = deal(RULES, "9 A 8 K", bets=[1])
    assert not of_type(round_, Peeked) and not round_.finished
    assert round_.legal_actions() == {Action.HIT, Action.STAND, Action.DOUBLE}  # no insurance
    play(round_, "stand")
    assert round_.dealer_hand.is_natural and round_.results == money(-1)


def test_a_dealer_natural_found_after_play_takes_a_doubled_bet_whole() -> None:
    round_ = deal(RULES, "6 T 5 A 9", bets=[1])  # 6-5 doubles to 20; dealer T-A
    play(round_, "double")
    assert round_.results == money(-2)


def test_a_dealer_natural_found_after_play_takes_every_split_hand() -> None:
    round_ = deal(RULES, "8 A 8 K 3 2", bets=[1])
    play(round_, "split", "stand", "stand")
    assert [e.outcome for e in of_type(round_, Settled)] == [Outcome.DEALER_BLACKJACK] * 2
    assert round_.results == money(-2)


def test_jakaja_nostaa_17_aan_asti_ja_jaa_pehmeaan_17_aan() -> None:
    """'Jakaja ... nostaa 17:ään asti; hän jää kaikkien 17:n kohdalle, myös pehmeään 17:ään'."""
    soft = deal(RULES, "T 6 9 A", bets=[1])
    play(soft, "stand")
    assert soft.dealer_hand.total == 17 and not of_type(soft, DealerDrew)
    draws = deal(RULES, "T 6 9 T 3", bets=[1])
    play(draws, "stand")
    assert [str(e.card) for e in of_type(draws, DealerDrew)] == ["3"]


def test_jokainen_kasi_verrataan_erikseen_jakajan_kateen() -> None:
    """'Jokainen käsi verrataan erikseen jakajan käteen': each hand against the dealer on its own."""
    round_ = deal(RULES, "8 9 8 9 3 T T", bets=[1])  # split 8s: 8-3 hits T (21), 8-T (18); dealer 9-9
    play(round_, "split", "hit", "stand", "stand")
    assert [e.net for e in of_type(round_, Settled)] == [Decimal(1), Decimal(0)]


def test_kortin_ottaminen_on_sallittu_kun_kasi_ei_ole_ylittanyt_21() -> None:
    """'Kortin ottaminen on sallittu niin kauan kuin käsi ei ole ylittänyt 21:tä': even on 21."""
    round_ = deal(RULES, "5 9 6 8 T", bets=[1])
    play(round_, "hit")
    assert round_.hands(0)[0].total == 21 and round_.can_hit()


def test_pysy_heti_kasi_paattyy() -> None:
    """'Pysy heti. Käsi päättyy.': standing ends the hand."""
    round_ = deal(RULES, "T 9 8 8", bets=[1])
    play(round_, "stand")
    assert round_.finished


def test_tuplaaminen_vain_kahdella_ensimmaisella_kortilla_yksi_lisakortti() -> None:
    """'Tuplaaminen sallitaan vain kahdella ensimmäisellä kortilla; jaetaan vain yksi lisäkortti'."""
    round_ = deal(RULES, "5 9 4 8 2 T", bets=[1])
    assert round_.can_double()
    play(round_, "hit")
    assert not round_.can_double()
    doubled = deal(RULES, "5 9 4 8 2", bets=[1])
    play(doubled, "double")
    assert len(doubled.hands(0)[0].cards) == 3 and doubled.finished


@pytest.mark.parametrize(("pair", "may_split"), [("K Q", True), ("7 7", True), ("7 8", False)])
def test_jakaminen_kun_molemmilla_korteilla_on_sama_arvo(pair: str, may_split: bool) -> None:
    """'Jakaminen on sallittu, kun molemmilla korteilla on sama arvo'."""
    first, second = pair.split()
    round_ = deal(RULES, f"{first} 9 {second} 8", bets=[1])
    assert round_.can_split() is may_split


def test_enintaan_4_katta() -> None:
    """'enintään 4 kättä': at most four hands."""
    round_ = deal(RULES, "8 7 8 T 8 8 8", bets=[1])
    play(round_, "split", "split", "split")
    assert len(round_.hands(0)) == 4 and round_.hands(0)[0].is_pair
    assert not round_.can_split()  # a fourth pair of 8s, and no fifth hand


def test_assan_jakamisen_jalkeen_vain_yksi_kortti_eika_uusia_nostoja() -> None:
    """'Ässän jakamisen jälkeen jokaiseen käteen jaetaan vain yksi kortti eikä uusia nostoja sallita'."""
    round_ = deal(RULES, "A 9 A 8 5 6", bets=[1])
    play(round_, "split")
    assert round_.finished  # no hit, stand or double on a split ace
    assert [len(h.cards) for h in round_.hands(0)] == [2, 2]


def test_assat_voi_jakaa_vain_kerran() -> None:
    """'ässät voi jakaa vain kerran': aces split once only."""
    round_ = deal(RULES, "A 9 A 8 A 6", bets=[1])
    play(round_, "split")
    assert round_.finished and len(round_.hands(0)) == 2


def test_kasien_jakamisen_jalkeen_saatu_21_ei_ole_luonnollinen_blackjack() -> None:
    """'Käsien jakamisen jälkeen saatu 21 ei ole luonnollinen blackjack'."""
    round_ = deal(RULES, "A 9 A 8 K 6", bets=[2])
    play(round_, "split")
    first = of_type(round_, Settled)[0]
    assert (first.outcome, first.net) == (Outcome.WIN, Decimal(2))  # even money, not 1.5x


@pytest.mark.parametrize(("cards", "net"), [("T 9 9 8", 1), ("T 8 7 T", -1), ("T 8 8 T", 0)])
def test_voitto_plus_1_tappio_miinus_1_tasapeli_0(cards: str, net: int) -> None:
    """'Tavallinen voitto: +1 virtuaaliyksikkö; tappio: -1; tasapeli: 0'."""
    round_ = deal(RULES, cards, bets=[1])
    play(round_, "stand")
    assert round_.results == money(net)


def test_luonnollinen_blackjack_ei_luonnollista_jakajan_katta_vastaan_plus_1_5() -> None:
    """'Luonnollinen blackjack ei-luonnollista jakajan kättä vastaan: +1,5'."""
    round_ = deal(RULES, "A 9 T K 8 9", bets=[1, 1])  # seat 0 A-K; dealer T up may hide a natural
    assert not of_type(round_, Settled)  # so the natural waits for the hole card
    play(round_, "stand")  # seat 1: 9-8 against T-9
    assert round_.results == money("1.5", -1)
    paid_at_once = deal(RULES, "A 9 7 K 8 9", bets=[1, 1])  # a 7 up cannot make a natural
    assert of_type(paid_at_once, Settled)[0].net == Decimal("1.5") and not paid_at_once.finished


def test_jos_pelaaja_ylittaa_21_kasi_haviaa_heti_vaikka_jakaja_ylittaisi() -> None:
    """'Jos pelaaja ylittää 21, käsi häviää heti, vaikka jakaja ylittäisi myöhemmin 21:n'."""
    round_ = deal(RULES, "T 6 6 T T", bets=[1])
    play(round_, "hit")
    assert of_type(round_, Settled)[0].outcome is Outcome.BUST and round_.results == money(-1)


def test_assa_on_11_niin_kauan_kuin_se_ei_ylita_21() -> None:
    """'Ässä on 11 niin kauan kuin se ei ylitä 21:tä, muuten 1'."""
    round_ = deal(RULES, "A 9 5 8 9", bets=[1])
    assert round_.hands(0)[0].total == 16 and round_.hands(0)[0].is_soft
    play(round_, "hit")
    assert round_.hands(0)[0].total == 15 and not round_.hands(0)[0].is_soft


def test_jos_seka_pelaajalla_etta_jakajalla_on_luonnollinen_blackjack_tasapeli() -> None:
    """'Jos sekä pelaajalla että jakajalla on luonnollinen blackjack, tasapeli'."""
    round_ = deal(RULES, "A A K K", bets=[1])
    assert round_.finished and round_.results == money(0)


def test_viiden_kortin_saanto_vakuutus_luovutus_ja_sivupanokset_pois_kaytosta() -> None:
    """'Viiden kortin sääntö, vakuutus, luovutus ja sivupanokset ovat pois käytöstä'."""
    rules = load_ruleset(RULES)
    assert not rules.player.insurance and rules.player.surrender.value == "none"
    five_cards = deal(RULES, "2 T 3 T 2 3 A", bets=[1])  # 2-3 draws 2, 3, A: five cards, 21
    play(five_cards, "hit", "hit", "hit", "stand")
    assert len(five_cards.hands(0)[0].cards) == 5 and five_cards.results == money(1)  # 21 beats 20
    charlie = deal(RULES, "2 T 2 T 2 2 A", bets=[1])  # five cards totalling 19 v 20: no Charlie
    play(charlie, "hit", "hit", "hit", "stand")
    assert charlie.hands(0)[0].total == 19 and charlie.results == money(-1)


def test_double_after_split_is_allowed_in_the_rule_set_reading() -> None:
    round_ = deal(RULES, "8 9 8 8 3", bets=[1])
    play(round_, "split")
    assert round_.hands(0)[0].total == 11 and round_.can_double()
