"""The payouts a dealer makes, each as a `Case`: the amount (from the engine), the words, the facts.

`Case.data` becomes the question's machine-mode `data` (DESIGN §2): `situation`, `bet` and the other
amounts as decimal strings, `ratio` where one applies, and the cards. It holds the facts a program needs
to check the grade, never the answer itself.
"""

from __future__ import annotations

import enum
import functools
import itertools
import random
from dataclasses import dataclass

from drills.base import JSON
from drills.dealing.payout_rounds import (
    SettledSeat,
    deal_blackjack,
    deal_even_money,
    deal_insurance,
    deal_surrender,
)
from trainer.core.cards import Card, Rank, Suit, card, say_cards
from trainer.core.chips import Stack, fewest_chips
from trainer.core.errors import InvalidInputError
from trainer.core.money import Money, format_money
from trainer.core.rules import Ruleset
from trainer.core.sidebets import OUTCOME_WORDS, SideBet, SideBetKind, outcomes_of

SMALL_UP_CARDS = (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE)


class Situation(enum.StrEnum):
    """What a payout question asks a dealer to pay (`--set situation=...`, the `situation` of its data)."""

    BLACKJACK = "blackjack"
    INSURANCE = "insurance"
    EVEN_MONEY = "even-money"
    SURRENDER = "surrender"
    SETTLE = "settle"
    SIDEBET = "sidebet"


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    """One payout to make, before it becomes a `Question`."""

    situation: Situation
    item: str
    amount: Money
    prompt: str
    why: str
    data: dict[str, JSON]
    lines: tuple[str, ...]


def _money(amount: Money) -> str:
    return f"${format_money(amount)}"


def _bet_line(bet: Money, stack: Stack | None, more: str = "") -> str:
    """'Bet: $35 (1 green 2 red)': the amount and the chips the player pushed out."""
    shown = stack if stack is not None and stack.value == bet else fewest_chips(bet)
    chips = f" ({shown})" if shown is not None and shown.chip_count else ""
    return f"Bet: {_money(bet)}{chips}{more}"


def _facts(situation: Situation, bet: Money, stack: Stack | None, **more: JSON) -> dict[str, JSON]:
    facts: dict[str, JSON] = {"situation": situation.value, "bet": format_money(bet)}
    if stack is not None and stack.value == bet:
        facts["bet_chips"] = stack.as_dict()
    facts.update(more)
    return facts


_KING, _NINE = card(Rank.KING), card(Rank.NINE)


def _cards(cards: tuple[Card, ...]) -> list[JSON]:
    return [str(c) for c in cards]


def blackjack_case(table: Ruleset, bet: Money, stack: Stack | None = None, ten: Card = _KING,
                   up: Card = _NINE) -> Case:
    """A natural paid at the table's blackjack ratio."""
    ratio = table.payouts.blackjack
    paid = deal_blackjack(table, bet, ten=ten, up=up)
    why = f"Blackjack pays {ratio}: {_money(bet)} × {ratio.win} ÷ {ratio.stake} = {_money(paid.amount)}."
    return Case(situation=Situation.BLACKJACK, item=f"payout:bj {ratio}:{format_money(bet)}",
                amount=paid.amount,
                prompt=f"Blackjack on a {_money(bet)} bet (pays {ratio}).", why=why,
                data=_facts(Situation.BLACKJACK, bet, stack, ratio=str(ratio), cards=_cards(paid.player),
                            up=str(paid.up)),
                lines=(_bet_line(bet, stack), f"Player: {say_cards(paid.player)}  (blackjack)"
                       f"    Dealer: {say_cards((paid.up,))}"))


def insurance_case(table: Ruleset, bet: Money, stake: Money, stack: Stack | None = None) -> Case:
    """A winning insurance bet (full or partial) paid at the insurance ratio."""
    ratio = table.payouts.insurance
    paid = deal_insurance(table, bet, stake)
    part = "full" if stake == bet / 2 else "partial"
    why = (f"Insurance pays {ratio}: {_money(stake)} × {ratio.win} ÷ {ratio.stake} = {_money(paid.amount)}; "
           f"the {_money(bet)} bet itself loses to the blackjack.")
    return Case(situation=Situation.INSURANCE, amount=paid.amount,
                item=f"payout:insurance {ratio}:{format_money(bet)}:{format_money(stake)}",
                prompt=f"{_money(bet)} bet insured for {_money(stake)} ({part} insurance); the dealer turns "
                       f"a blackjack. Pay the insurance ({ratio}).",
                why=why,
                data=_facts(Situation.INSURANCE, bet, stack, ratio=str(ratio), insurance=format_money(stake),
                            cards=_cards(paid.player), up=str(paid.up), hole=str(paid.dealer[1])),
                lines=(_bet_line(bet, stack, f"    Insurance: {_money(stake)}"),
                       f"Player: {say_cards(paid.player)}    "
                       f"Dealer: {say_cards(paid.dealer)}  (blackjack)"))


def even_money_case(table: Ruleset, bet: Money, stack: Stack | None = None) -> Case:
    """A natural against an ace paid 1:1 at once because the player took even money."""
    paid = deal_even_money(table, bet)
    full = table.payouts.blackjack.pay(bet)
    why = (f"Even money pays the bet 1:1 at once: {_money(paid.amount)} (instead of {_money(full)} at "
           f"{table.payouts.blackjack} if the dealer turns no blackjack, or a push if the dealer does).")
    return Case(situation=Situation.EVEN_MONEY, item=f"payout:even-money {format_money(bet)}",
                amount=paid.amount,
                prompt=f"Blackjack on {_money(bet)} against an ace; the player takes even money.",
                why=why,
                data=_facts(Situation.EVEN_MONEY, bet, stack, ratio="1:1", cards=_cards(paid.player),
                                     up=str(paid.up)),
                lines=(_bet_line(bet, stack), f"Player: {say_cards(paid.player)}  (blackjack)"
                       f"    Dealer: {say_cards((paid.up,))}"))


def surrender_case(table: Ruleset, bet: Money, stack: Stack | None = None) -> Case:
    """A late surrender: half the bet goes back to the player."""
    paid = deal_surrender(table, bet)
    back = paid.amount
    why = (f"A surrender gives up half the bet: {_money(back)} goes back to the player and the house "
           f"keeps {_money(bet - back)}.")
    return Case(situation=Situation.SURRENDER, item=f"payout:surrender {format_money(bet)}", amount=back,
                prompt=f"The player surrenders a {_money(bet)} bet. How much goes back to them?",
                why=why,
                data=_facts(Situation.SURRENDER, bet, stack, cards=_cards(paid.player), up=str(paid.up)),
                lines=(_bet_line(bet, stack), f"Player: {say_cards(paid.player)}  (surrenders)"
                       f"    Dealer: {say_cards((paid.up,))}"))


def settle_case(seat: SettledSeat, how: str) -> Case:
    """Split or doubled hands settled together against one dealer result: the total paid out."""
    dealer = seat.dealer_total
    dealer_says = f"busts with {dealer}" if dealer > 21 else f"has {dealer}"
    lines = [f"Dealer: {say_cards(seat.dealer)}  ({dealer_says})"]
    reasons = []
    hands: list[JSON] = []
    for number, hand in enumerate(seat.hands, start=1):
        doubled = ", doubled" if hand.doubled else ""
        lines.append(f"Hand {number}: {say_cards(hand.cards)}  ({hand.total}{doubled})"
                     f"  bet {_money(hand.bet)}")
        reasons.append(f"hand {number} {_verdict(hand.outcome, hand.total, dealer, hand.net)}")
        hands.append({"cards": [str(c) for c in hand.cards], "bet": format_money(hand.bet),
                      "doubled": hand.doubled, "total": hand.total})
    why = (f"Pay each winning hand its bet and take each losing one: {'; '.join(reasons)}. "
           f"In all: pay {_money(seat.paid)}, take {_money(seat.taken)}.")
    data = _facts(Situation.SETTLE, seat.bet, None, hands=hands,
                  dealer={"cards": [str(c) for c in seat.dealer], "total": dealer})
    return Case(situation=Situation.SETTLE, item=f"payout:settle {how}", amount=seat.paid,
                prompt="Settle this seat: take the losing bets and pay the winners. How much do you pay?",
                why=why, data=data, lines=tuple(lines))


def _verdict(outcome: str, total: int, dealer: int, net: Money) -> str:
    amount = _money(abs(net))
    if outcome == "bust":
        return f"busted with {total}: take {amount}"
    if outcome == "push":
        return f"{total} ties {dealer}: push"
    if net > 0:
        beaten = "the dealer's bust" if dealer > 21 else str(dealer)
        return f"{total} beats {beaten}: pay {amount}"
    return f"{total} loses to {dealer}: take {amount}"


def sidebet_case(bet: SideBet, outcome: str, stake: Money, cards: tuple[Card, ...],
                 stack: Stack | None = None, *, dealer_blackjack: bool = False) -> Case:
    """A winning side bet to pay from its table: which line the cards make, and what it pays.

    Every card the line depends on is shown with its suit, and whether the dealer has a blackjack
    where a line depends on it (Lucky Ladies' top tier)."""
    ratio = bet.ratio(outcome)
    assert ratio is not None
    assert bet.paid_outcome(cards, dealer_blackjack=dealer_blackjack) == outcome
    amount = ratio.pay(stake)
    reads = read_cards(bet, cards, dealer_blackjack=dealer_blackjack)
    why = (f"{reads}: a {OUTCOME_WORDS[outcome]}, which {bet.name} pays {ratio}: "
           f"{_money(stake)} × {ratio.win}/{ratio.stake} = {_money(amount)}.")
    table = ", ".join(f"{OUTCOME_WORDS[o]} {r}" for o, r in bet.pays)
    item = f"payout:sidebet {bet.name}:{outcome}:{format_money(stake)}"
    facts = _facts(Situation.SIDEBET, stake, stack, sidebet=bet.name, cards=_cards(cards),
                   pays={o: str(r) for o, r in bet.pays})
    if _dealer_matters(bet):
        facts["dealer_blackjack"] = dealer_blackjack
    return Case(situation=Situation.SIDEBET, item=item,
                amount=amount, prompt=f"The {bet.name} side bet wins. How much do you pay?", why=why,
                data=facts, lines=(_bet_line(stake, stack, f" on {bet.name}"), f"Cards: {reads}",
                                   f"Pay table: {table}"))


def _dealer_matters(bet: SideBet) -> bool:
    """Whether a line of this table pays on the dealer's blackjack beside the player's cards."""
    return bet.kind is SideBetKind.TWENTY and bet.ratio(DEALER_BLACKJACK_TIER) is not None


DEALER_BLACKJACK_TIER = "queen-hearts-pair-dealer-blackjack"
"""Lucky Ladies' top line: it (and so the line below it) depends on the dealer's hand too."""


def read_cards(bet: SideBet, cards: tuple[Card, ...], *, dealer_blackjack: bool = False) -> str:
    """The cards a side bet reads, said as whose they are, each with its suit.

    >>> from trainer.core.cards import parse_cards
    >>> from trainer.core.sidebets import find_sidebet
    >>> read_cards(find_sidebet("21+3"), parse_cards("2h 8h 9h"))
    'player 2♥ 8♥, dealer shows 9♥'
    >>> read_cards(find_sidebet("lucky-ladies"), parse_cards("Qh Qh"), dealer_blackjack=True)
    'player Q♥ Q♥, and the dealer has blackjack'
    >>> read_cards(find_sidebet("insurance"), parse_cards("As Kd"))
    'dealer A♠ up, K♦ in the hole'
    """
    said = [c.pretty() for c in cards]
    if bet.kind is SideBetKind.THREE_CARD_POKER:
        return f"player {said[0]} {said[1]}, dealer shows {said[2]}"
    if bet.kind is SideBetKind.DEALER_BLACKJACK:
        return f"dealer {said[0]} up, {said[1]} in the hole"
    dealer = ""
    if _dealer_matters(bet):
        dealer = ", and the dealer has blackjack" if dealer_blackjack else ", and the dealer has no blackjack"
    return "player " + " ".join(said) + dealer


def winning_cards(rng: random.Random, bet: SideBet, outcome: str) -> tuple[tuple[Card, ...], bool]:
    """Cards that make `outcome` on `bet`, with the chances of cards drawn at random from a full deck
    of suited cards until they do, and whether the dealer has a blackjack (drawn too where a line
    depends on it, else False).

    Drawn from the winning hands at once, not by redrawing until one wins: Lucky Ladies' top line came
    once in some 5,400 draws, 21+3's suited trips once in 2,700."""
    if bet.kind.cards_read == 2:
        return rng.choice(_winning_pairs(bet, outcome))
    kinds = _winning_triple_kinds(bet, outcome)
    (ranks, suits), = rng.choices([k for k, _ in kinds], weights=[w for _, w in kinds])
    rank_triple, suit_triple = rng.choice(_rank_triples()[ranks]), rng.choice(_suit_triples()[suits])
    return tuple(card(r, s) for r, s in zip(rank_triple, suit_triple, strict=True)), False


@functools.cache
def _rank_triples() -> dict[tuple[str, ...], list[tuple[Rank, ...]]]:
    """Every ordered triple of ranks by what its ranks make at three-card poker (trips, a straight),
    read with three different suits."""
    found: dict[tuple[str, ...], list[tuple[Rank, ...]]] = {}
    odd_suits = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
    for ranks in itertools.product(Rank, repeat=3):
        cards = [card(r, s) for r, s in zip(ranks, odd_suits, strict=True)]
        made = outcomes_of(SideBetKind.THREE_CARD_POKER, cards)
        found.setdefault(tuple(made), []).append(ranks)
    return found


@functools.cache
def _suit_triples() -> dict[bool, list[tuple[Suit, ...]]]:
    """Every ordered triple of suits, by whether it is a flush."""
    found: dict[bool, list[tuple[Suit, ...]]] = {True: [], False: []}
    for suits in itertools.product(Suit, repeat=3):
        found[len(set(suits)) == 1].append(suits)
    return found


@functools.cache
def _winning_triple_kinds(bet: SideBet, outcome: str) -> tuple[tuple[tuple[tuple[str, ...], bool], int], ...]:
    """The (ranks' kind, flush) pairs that `bet` pays `outcome` on, each weighed by its triples."""
    kinds = []
    for ranks, rank_triples in _rank_triples().items():
        for flush, suit_triples in _suit_triples().items():
            sample = [card(r, s) for r, s in zip(rank_triples[0], suit_triples[0], strict=True)]
            if bet.paid_outcome(sample) == outcome:
                kinds.append(((ranks, flush), len(rank_triples) * len(suit_triples)))
    if not kinds:
        raise InvalidInputError(f"no cards make a {outcome} on {bet.name}")
    return tuple(kinds)


_DECK = tuple(card(rank, suit) for rank in Rank for suit in Suit)


@functools.cache
def _winning_pairs(bet: SideBet, outcome: str) -> tuple[tuple[tuple[Card, ...], bool], ...]:
    """Every (two cards, dealer blackjack) that `bet` pays `outcome` on, the up card an ace for insurance."""
    flags = (False, True) if _dealer_matters(bet) else (False,)
    firsts = [c for c in _DECK if c.is_ace] if bet.kind is SideBetKind.DEALER_BLACKJACK else _DECK
    found = tuple(((a, b), flag) for a in firsts for b in _DECK for flag in flags
                  if bet.paid_outcome((a, b), dealer_blackjack=flag) == outcome)
    if not found:
        raise InvalidInputError(f"no cards make a {outcome} on {bet.name}")
    return found
