"""Rule sets in plain words: the sentences of a rule card (`cutcard rules show`).

Each sentence names the rule keys it says ('dealer.peek', ...), so that the card can mark the ones that
rest on this trainer's reading of the seed rather than on the seed's words (`trainer.core.basis`).
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.core.basis import Basis, combined
from trainer.core.money import format_money
from trainer.core.rules import (
    BlackjackTakes,
    Double,
    InsuranceBet,
    PlayerCards,
    Reshuffle,
    Ruleset,
    Split,
    Surrender,
)

_DOUBLE = {
    Double.ANY_TWO: "Double down on any first two cards.",
    Double.NINE_TO_ELEVEN: "Double down only on a first-two-card total of 9, 10 or 11 (hard).",
    Double.TEN_OR_ELEVEN: "Double down only on a first-two-card total of 10 or 11 (hard).",
    Double.NONE: "No doubling down.",
}


def _up_words(values: frozenset[int] | set[int]) -> str:
    if values == {1, 10}:
        return "an ace or a ten"
    return "an ace" if values == {1} else "a ten"


@dataclass(frozen=True, slots=True)
class Said:
    """One sentence of a rule card and the rule keys it says."""

    text: str
    keys: tuple[str, ...] = ()

    def basis(self, ruleset: Ruleset) -> Basis | None:
        """What the sentence rests on (a reading if any of its keys is one); None for no rule key."""
        return combined(ruleset.basis_of(key) for key in self.keys)


class _Sentences(list[Said]):
    def append_said(self, text: str, *keys: str) -> None:
        self.append(Said(text, keys))


def rule_card(ruleset: Ruleset) -> list[tuple[str, list[Said]]]:
    """The sections of a rule card, each sentence with the rule keys it says."""
    shoe, dealer, player, pay, table = (
        ruleset.shoe, ruleset.dealer, ruleset.player, ruleset.payouts, ruleset.table)
    cards = _Sentences()
    if shoe.decks == 0:
        cards.append_said("Infinite deck: every card is an independent roll of a d13 "
                          "(1 = ace, 11-13 = jack, queen, king).", "shoe.decks")
    else:
        lo, hi = shoe.decks_range
        more = f"; {lo} to {hi} decks with --decks" if lo != hi else ""
        cards.append_said(f"{shoe.decks} deck{'s' if shoe.decks > 1 else ''} of 52 cards"
                          f" ({52 * shoe.decks} cards){more}.", "shoe.decks", "shoe.decks_range")
        if shoe.reshuffle is Reshuffle.EVERY_ROUND:
            cards.append_said("Reshuffled after every round: the count never carries over.", "shoe.reshuffle")
        else:
            lo_cut, hi_cut = shoe.cut_card_from_end
            cards.append_said(f"A cut card leaves the last {lo_cut} to {hi_cut} cards undealt.",
                              "shoe.cut_card_from_end")
            cards.append_said("The reshuffle comes after the round in which the cut card appears.",
                              "shoe.reshuffle")
        if shoe.burn:
            shown = "shown" if shoe.burn_shown else "face down, not shown"
            cards.append_said(f"{shoe.burn} burn card{'s' if shoe.burn > 1 else ''} after each shuffle "
                              f"({shown}).", "shoe.burn", "shoe.burn_shown")
        else:
            cards.append_said("No burn card.", "shoe.burn")

    dealing = _Sentences()
    if not dealer.hole_card:
        dealing.append_said("The dealer takes one card first, then each player gets two; the dealer's "
                            "second card comes after every player has played.", "dealer.hole_card")
    elif dealer.hole_card_first:
        dealing.append_said("One card to each player, the dealer's first card face down (the hole card), a "
                            "second card to each player, then the dealer's up card.",
                            "dealer.hole_card", "dealer.hole_card_first")
    else:
        players = "face down" if ruleset.players_face_down else "face up"
        dealing.append_said(f"One card {players} to each player, one face up to the dealer, a second card to "
                            "each player, and the dealer's hole card face down.",
                            "dealer.hole_card", "dealer.hole_card_first")
    held = ("face down, held by the players (a pitch game): another seat's cards are seen only when they "
            "bust, double, split, make a blackjack or are turned at the settlement")
    if dealer.player_cards is PlayerCards.FACE_DOWN_HAND_HELD and ruleset.shoe.decks:
        dealing.append_said(f"The players' cards: at 1 or 2 decks, dealt from the hand, {held}; from a "
                            "shoe, face up and never touched.", "dealer.player_cards")
    elif dealer.player_cards is PlayerCards.FACE_DOWN:
        dealing.append_said(f"The players' cards: {held}.", "dealer.player_cards")
    if dealer.hole_card and dealer.natural:
        if dealer.peek:
            dealing.append_said(f"The dealer checks for blackjack with {_up_words(dealer.peek)} up, "
                                "before anyone plays.", "dealer.peek")
        unpeeked = {1, 10} - dealer.peek
        if unpeeked:
            takes = ("takes every bet, doubles and splits included"
                     if dealer.blackjack_takes is BlackjackTakes.ALL else "takes only the original bets")
            when = "No peek: the" if not dealer.peek else f"With {_up_words(unpeeked)} up the"
            dealing.append_said(f"{when} hole card is turned after all players have acted; a dealer "
                                f"blackjack then {takes}.", "dealer.peek", "dealer.blackjack_takes")
    soft = "hits soft 17" if dealer.hits_soft_17 else "stands on all 17s, soft 17 included"
    dealing.append_said(f"The dealer draws to 17 and {soft}.", "dealer.hits_soft_17")
    if dealer.hole_card:
        dealing.append_said("When every player hand is already settled (busted, or paid), the dealer turns "
                            "the hole card and draws nothing.", "dealer.draws_when_settled")
    else:
        dealing.append_said("When every player hand is already settled (busted, or paid), the dealer takes "
                            "no second card.", "dealer.draws_when_settled")
    if not dealer.natural:
        dealing.append_said("The dealer has no blackjack: a two-card 21 is an ordinary 21.", "dealer.natural")

    playing = _Sentences()
    playing.append_said(_DOUBLE[player.double], "player.double")
    if player.double is not Double.NONE and player.max_hands > 1:
        playing.append_said("Double after split allowed." if player.double_after_split
                            else "No doubling after a split.", "player.double_after_split")
    if player.max_hands == 1:
        playing.append_said("No splitting.", "player.max_hands")
    else:
        pairs = "two cards of the same rank (K-K, not K-Q)" if player.split is Split.SAME_RANK \
            else "two cards of the same value (K-Q is a pair)"
        times = "once (two hands)" if player.max_hands == 2 else f"up to {player.max_hands} hands"
        playing.append_said(f"Split {pairs}, {times}.", "player.split", "player.max_hands")
        aces = "Split aces get one card each." if player.split_aces_one_card \
            else "Split aces are played like any other hand."
        keys = ["player.split_aces_one_card"]
        if player.resplit_aces:
            aces += " Aces may be resplit."
            keys.append("player.resplit_aces")
        elif player.max_hands > 2:
            aces += " Aces may be split only once."
            keys.append("player.resplit_aces")
        playing.append_said(aces, *keys)
    playing.append_said({
        Surrender.NONE: "No surrender.",
        Surrender.LATE: "Late surrender: give up half the bet after the dealer checks for blackjack.",
        Surrender.EARLY: "Early surrender: give up half the bet before the dealer checks for blackjack.",
    }[player.surrender], "player.surrender")
    playing.append_said("A player who busts loses at once, even if the dealer busts later.")

    paying = _Sentences()
    if dealer.natural:
        paying.append_said(f"Blackjack pays {pay.blackjack}; a blackjack and a dealer blackjack push.",
                           "payouts.blackjack", "dealer.natural")
    else:
        paying.append_said(f"Blackjack pays {pay.blackjack} and beats every other hand, the dealer's "
                           "two-card 21 included.", "payouts.blackjack", "dealer.natural")
    paying.append_said("A hand that ties the dealer's total pushes: the bet comes back.", "payouts.push")
    paying.append_said("A two-card 21 after a split counts as blackjack." if pay.split_21_is_blackjack
                       else "A two-card 21 after a split is not a blackjack: it pays even money.",
                       "payouts.split_21_is_blackjack")
    if player.insurance:
        amount = ("exactly half the bet" if player.insurance_bet is InsuranceBet.HALF
                  else "up to half the bet")
        paying.append_said(f"Insurance ({amount}) is offered under an ace and pays {pay.insurance}.",
                           "player.insurance", "player.insurance_bet", "payouts.insurance")
    else:
        paying.append_said("No insurance.", "player.insurance")
    if player.even_money:
        paying.append_said("Even money: a blackjack against an ace may be paid 1:1 at once.",
                           "player.even_money")

    limits = _Sentences()
    if ruleset.tournament is not None:
        limits.append_said(f"Minimum bet {format_money(table.min_bet)}.", "table.min_bet")
        limits.append_said("No maximum bet but the cash in hand.", "table.max_bet")
    else:
        limit_keys = ("table.min_bet", "table.max_bet")
        practice = all(ruleset.basis_of(k).is_reading for k in limit_keys)
        bets = f"ets from {format_money(table.min_bet)} to {format_money(table.max_bet)}."
        limits.append_said(f"Practice limits: b{bets}" if practice else f"B{bets}", *limit_keys)
    limits.append_said(f"{table.seats} seats.", "table.seats")
    if ruleset.tournament is not None:
        t = ruleset.tournament
        limits.append_said(f"Tournament: {t.players[0]}-{t.players[1]} players start with "
                           f"${format_money(table.bankroll)}; bets within a "
                           f"{t.bet_timer[0]}-{t.bet_timer[1]} s timer.",
                           "tournament.players", "table.bankroll", "tournament.bet_timer")
        if t.attacks:
            limits.append_said("After each round, attacks: both roll 1..their cash; a successful attack "
                               "eliminates the defender, a failed attacker loses half their cash (rounded "
                               "down).", "tournament.attacks")
            limits.append_said("An attack succeeds only with a strictly higher attacker roll: a tie fails.",
                               "tournament.attack_ties")
    else:
        limits.append_said(f"`play` seats you with {format_money(table.bankroll)} in chips.",
                           "table.bankroll")

    return [("Cards", cards), ("Deal", dealing), ("Play", playing), ("Payouts", paying),
            ("Table", limits)]


CHART_KEYS = ("shoe.decks", "dealer.hits_soft_17", "dealer.peek", "dealer.hole_card",
              "dealer.blackjack_takes", "dealer.natural", "player.double", "player.double_after_split",
              "player.max_hands", "player.split", "player.split_aces_one_card", "player.resplit_aces",
              "player.surrender", "payouts.blackjack", "payouts.split_21_is_blackjack", "payouts.push")
"""The rule keys a basic-strategy chart and its house edge depend on (it never insures)."""


def chart_readings(ruleset: Ruleset) -> list[tuple[str, Basis]]:
    """The rules a strategy chart rests on that are this trainer's readings of the seed, not its words
    (moot ones left out: they change nothing the chart plays)."""
    found = []
    for key in CHART_KEYS:
        basis = ruleset.basis_of(key)
        if basis.is_reading and not basis.why.startswith("moot"):
            found.append((key, basis))
    return found
