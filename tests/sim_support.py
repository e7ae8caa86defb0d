"""Helpers for the simulator tests: recorded shoes, and `Round` played by a strategy's letters.

The `Round` player here resolves chart letters against `Round.legal_actions()`, written apart from the
engine's compiled tables on purpose: the engine test compares two independent readings of one strategy.
"""

from __future__ import annotations

import functools
import random
from decimal import Decimal
from typing import Any

from stacking import custom

from trainer.core import Action, Round, Ruleset, Shoe, hand_total
from trainer.core.cards import Rank, card, full_deck
from trainer.core.errors import ShoeExhaustedError
from trainer.core.rules import Double, Reshuffle, Split
from trainer.sim.codes import CardCodes
from trainer.sim.plays import LETTERS, Lookup
from trainer.sim.shoes import ALWAYS

PLACED = 52
"""Cards drawn for a shoe reshuffled before every round: more than one seat's round deals."""

CUSTOM = {
    "late-surrender": custom("casino", player={"surrender": "late"}),
    "early-surrender": custom("casino", player={"surrender": "early"}),
    "early-surrender-no-peek": custom("european", player={"surrender": "early"}),
    "late-surrender-no-peek": custom("european", player={"surrender": "late"}),
    "original-bets": custom("european", dealer={"blackjack_takes": "original"},
                            player={"surrender": "late"}),
    "peek-ace-only": custom("casino", dealer={"peek": ["A"], "blackjack_takes": "all"}),
    "no-peek-insurance": custom("european", player={"insurance": True, "even_money": True}),
    "resplit-aces": custom("casino", player={"resplit_aces": True, "max_hands": 8}),
    "six-to-five-h17": custom("casino-h17", payouts={"blackjack": "6:5"}, player={"double": "10-11"}),
    "same-rank": custom("casino", player={"split": "same-rank", "max_hands": 3}),
    "no-splits": custom("casino", player={"max_hands": 1, "double": "none"}),
    "split-21-is-blackjack": custom("chat-host", payouts={"split_21_is_blackjack": True}),
    "host-naturals": custom("chat-host", dealer={"natural": True, "blackjack_takes": "original"},
                            player={"insurance": True, "surrender": "late"}),
    "split-aces-played-out": custom("casino", player={"split_aces_one_card": False}),
    "burn-three-hole-first": custom("casino", shoe={"burn": 3}, dealer={"hole_card_first": True}),
}


def scrambled(seed: int) -> Lookup:
    """A strategy that writes a random letter in every cell: it doubles, splits and surrenders where
    no sane chart would, so every path of both engines gets played. Each cell's letter depends only on
    the seed and the cell, so both engines read the same chart whatever order they ask in (and each
    cell's letter is drawn once: seeding a generator at every decision was an eighth of a recording)."""

    @functools.cache
    def lookup(kind: str, number: int, up: int) -> str:
        choices = LETTERS if kind == "pair" else tuple(x for x in LETTERS if x not in ("P", "Ph", "Rp"))
        return random.Random(f"{seed}:{kind}:{number}:{up}").choice(choices)

    return lookup


# --- shoes recorded from the core's Shoe, as card codes --------------------------------------------


class RecordedShoes:
    """A shoe source that replays shoes recorded from `trainer.core.shoe.Shoe`."""

    def __init__(self, shoes: list[tuple[list[int], int, int]]) -> None:
        self._shoes = list(reversed(shoes))

    def shuffle(self) -> tuple[list[int], int, int]:
        return self._shoes.pop()

    def run_out(self, cards: list[int], at: int) -> list[int]:
        raise AssertionError("a recorded shoe ran out mid-round")


def play_round(round_: Round, lookup: Lookup, *, insure: bool) -> None:
    """Play one seat's round to the end by the strategy's letters (insuring always, or never)."""
    while not round_.finished:
        legal = round_.legal_actions()
        if Action.DECLINE in legal:
            round_.act(_offer(round_, lookup, legal, insure))
        else:
            round_.act(decide(round_, lookup, legal))


def _offer(round_: Round, lookup: Lookup, legal: frozenset[Action], insure: bool) -> Action:
    """A seat answers one offer: early surrender where the chart surrenders, else insurance."""
    if Action.SURRENDER in legal:
        hand = round_.hands(round_.seat_in_turn)[0]
        rules = round_.ruleset
        action = resolve(lookup, rules, hand.cards, round_.up_card.value, can_double=True,
                         can_split=rules.player.max_hands >= 2, can_surrender=True, can_hit=True)
        if action is Action.SURRENDER:
            return Action.SURRENDER
    if insure and Action.EVEN_MONEY in legal:
        return Action.EVEN_MONEY
    if insure and Action.INSURE in legal:
        return Action.INSURE
    return Action.DECLINE


def decide(round_: Round, lookup: Lookup, legal: frozenset[Action]) -> Action:
    """The strategy's action for the hand in turn, made legal as the letters say."""
    hand = round_.hands(round_.seat_in_turn)[round_.hand_in_turn]
    return resolve(lookup, round_.ruleset, hand.cards, round_.up_card.value,
                   can_double=Action.DOUBLE in legal, can_split=Action.SPLIT in legal,
                   can_surrender=Action.SURRENDER in legal, can_hit=Action.HIT in legal)


def resolve(lookup: Lookup, rules: Ruleset, cards: tuple[Any, ...], up: int, *, can_double: bool,
            can_split: bool, can_surrender: bool, can_hit: bool) -> Action:
    das = rules.player.double_after_split and rules.player.double is not Double.NONE
    same = (cards[0].rank == cards[1].rank if rules.player.split is Split.SAME_RANK
            else cards[0].value == cards[1].value) if len(cards) == 2 else False
    action: Action | None = None
    if same:
        action = _read(lookup("pair", cards[0].value, up), can_double, can_split, can_surrender, das)
    if action is None:
        total, soft = hand_total(cards)
        if total > 21:
            return Action.STAND
        if (soft and total < 13) or (not soft and total < 5):
            action = Action.HIT
        else:
            action = _read(lookup("soft" if soft else "hard", total, up), can_double, False,
                           can_surrender, das) or Action.HIT
    if action is Action.HIT and not can_hit:
        return Action.STAND
    return action


def _read(letter: str, can_double: bool, can_split: bool, can_surrender: bool, das: bool) -> Action | None:
    if letter in ("Rh", "Rs", "Rp") and can_surrender:
        return Action.SURRENDER
    if letter in ("Dh", "Ds") and can_double:
        return Action.DOUBLE
    if letter in ("P", "Rp"):
        return Action.SPLIT if can_split else None
    if letter == "Ph":
        return (Action.SPLIT if das else Action.HIT) if can_split else None
    return Action.HIT if letter in ("H", "Dh", "Rh") else Action.STAND


def recorded_rounds(rules: Ruleset, codes: CardCodes, lookup: Lookup, rng: random.Random, rounds: int,
                    *, insure: bool, dealt_only: bool = False
                    ) -> tuple[list[tuple[list[int], int, int]], list[Decimal]]:
    """Play `rounds` rounds of `Round` on real shoes; the shoes dealt (as codes) and each result.

    With `dealt_only`, a shoe that is reshuffled after its one round (every round, and the infinite
    deck's rolls) is recorded only as far as that round dealt: no engine may read the cards behind them
    before the reshuffle, so an engine that deals what `Round` dealt sees the very same cards, and one
    that deals a card more runs out of the recorded shoe and fails loudly. Encoding the 300-odd cards
    nobody reads was a third of such a recording. Such a shoe is dealt from a random sample of the
    cards (`random.Random.sample`: its first cards are distributed as a uniform shuffle's) as far as a
    round reads it, and the infinite deck rolls only the cards a round takes.
    """
    shoes: list[tuple[list[int], int, int]] = []
    results: list[Decimal] = []
    as_codes = codes.by_card
    if rules.infinite_deck:
        rolls = [card(Rank(n + 1)) for n in range(13)]  # a die roll of n is this card
        codes_of_rolls = [as_codes[c] for c in rolls]
        for _ in range(rounds):
            drawn = [rng.randrange(13) for _ in range(16 if dealt_only else 80)]
            while True:
                shoe = Shoe.stacked(rules, [rolls[n] for n in drawn])
                try:
                    round_ = Round.start(rules, shoe, bets=[1])
                    play_round(round_, lookup, insure=insure)
                    break
                except ShoeExhaustedError:
                    if not dealt_only:
                        raise
                # more rolls, and the round again from the start: its play is a function of the cards
                # dealt, so it deals the same cards up to here and goes on with the new ones
                drawn += [rng.randrange(13) for _ in range(16)]
            shoes.append(([codes_of_rolls[n] for n in drawn[:shoe.dealt if dealt_only else None]], ALWAYS, 0))
            results.append(round_.results[0])
        return shoes, results
    every_round = rules.shoe.reshuffle is Reshuffle.EVERY_ROUND
    if every_round and dealt_only:
        deck, burn = full_deck() * rules.shoe.decks, rules.shoe.burn
        for _ in range(rounds):
            drawn = rng.sample(deck, burn + PLACED)
            shoe = Shoe.stacked(rules, drawn[burn:])  # a round dealing past them runs out and fails
            round_ = Round.start(rules, shoe, bets=[1])
            play_round(round_, lookup, insure=insure)
            shoes.append(([as_codes[c] for c in drawn[:burn + shoe.dealt]], ALWAYS, burn))
            results.append(round_.results[0])
        return shoes, results
    shoe = Shoe.shuffled(rules, rng)
    while len(results) < rounds:
        if every_round:
            shoe.shuffle()
        recording = every_round or not shoes or shoe.needs_shuffle
        if recording:
            if shoe.needs_shuffle:
                shoe.shuffle()
            burned, remaining = list(shoe.burned), shoe.remaining_cards()
            cut = ALWAYS if every_round else shoe.cards_behind_cut
        shuffles = shoe.shuffles
        round_ = Round.start(rules, shoe, bets=[1])
        play_round(round_, lookup, insure=insure)
        assert shoe.shuffles == shuffles, "Round reshuffled on its own"
        if recording:
            shoes.append(([as_codes[c] for c in (*burned, *remaining)], cut, len(burned)))
        results.append(round_.results[0])
    return shoes, results
