"""Rule sets in plain words: the sentences of a rule card (`cutcard rules show`)."""

from __future__ import annotations

from trainer.core.money import format_money
from trainer.core.rules import BlackjackTakes, Double, Reshuffle, Ruleset, Split, Surrender

_DOUBLE = {
    Double.ANY_TWO: "Double down on any first two cards.",
    Double.NINE_TO_ELEVEN: "Double down only on a first-two-card total of 9, 10 or 11 (hard).",
    Double.TEN_OR_ELEVEN: "Double down only on a first-two-card total of 10 or 11 (hard).",
    Double.NONE: "No doubling down.",
}


def _peek_words(ruleset: Ruleset) -> str:
    peek = ruleset.dealer.peek
    if peek == {1, 10}:
        return "an ace or a ten"
    return "an ace" if peek == {1} else "a ten"


def describe_ruleset(ruleset: Ruleset) -> list[tuple[str, list[str]]]:
    """The rule set as sections of sentences a dealer would say at the table."""
    shoe, dealer, player, pay, table = (
        ruleset.shoe, ruleset.dealer, ruleset.player, ruleset.payouts, ruleset.table)
    cards: list[str] = []
    if shoe.decks == 0:
        cards.append("Infinite deck: every card is an independent roll of a d13 "
                     "(1 = ace, 11-13 = jack, queen, king).")
    else:
        lo, hi = shoe.decks_range
        more = f"; {lo} to {hi} decks with --decks" if lo != hi else ""
        cards.append(f"{shoe.decks} deck{'s' if shoe.decks > 1 else ''} of 52 cards"
                     f" ({52 * shoe.decks} cards){more}.")
        if shoe.reshuffle is Reshuffle.EVERY_ROUND:
            cards.append("Reshuffled after every round: the count never carries over.")
        else:
            lo_cut, hi_cut = shoe.cut_card_from_end
            cards.append(f"A cut card leaves the last {lo_cut} to {hi_cut} cards undealt; the reshuffle "
                         "comes after the round in which it appears.")
        if shoe.burn:
            shown = "shown" if shoe.burn_shown else "face down, not shown"
            cards.append(f"{shoe.burn} burn card{'s' if shoe.burn > 1 else ''} after each shuffle ({shown}).")
        else:
            cards.append("No burn card.")

    dealing: list[str] = []
    if not dealer.hole_card:
        dealing.append("The dealer takes one card first, then each player gets two; the dealer's second "
                       "card comes after every player has played.")
    elif dealer.hole_card_first:
        dealing.append("The dealer's first card is dealt face down (the hole card), the second face up.")
    else:
        dealing.append("One card face up to each player, one face up to the dealer, a second card to each "
                       "player, and the dealer's hole card face down.")
    if dealer.peek:
        dealing.append(f"The dealer checks for blackjack with {_peek_words(ruleset)} up, "
                       "before anyone plays.")
    elif dealer.hole_card and dealer.natural:
        takes = ("takes every bet, doubles and splits included"
                 if dealer.blackjack_takes is BlackjackTakes.ALL else "takes only the original bets")
        dealing.append(f"No peek: the hole card is turned after all players have acted; a dealer "
                       f"blackjack then {takes}.")
    soft = "hits soft 17" if dealer.hits_soft_17 else "stands on all 17s, soft 17 included"
    dealing.append(f"The dealer draws to 17 and {soft}.")
    if not dealer.natural:
        dealing.append("The dealer has no blackjack: a two-card 21 is an ordinary 21.")

    playing: list[str] = [_DOUBLE[player.double]]
    if player.double is not Double.NONE and player.max_hands > 1:
        playing.append("Double after split allowed." if player.double_after_split
                       else "No doubling after a split.")
    if player.max_hands == 1:
        playing.append("No splitting.")
    else:
        pairs = "two cards of the same rank (K-K, not K-Q)" if player.split is Split.SAME_RANK \
            else "two cards of the same value (K-Q is a pair)"
        times = "once (two hands)" if player.max_hands == 2 else f"up to {player.max_hands} hands"
        playing.append(f"Split {pairs}, {times}.")
        aces = "Split aces get one card each." if player.split_aces_one_card \
            else "Split aces are played like any other hand."
        if player.resplit_aces:
            aces += " Aces may be resplit."
        elif player.max_hands > 2:
            aces += " Aces may be split only once."
        playing.append(aces)
    playing.append({
        Surrender.NONE: "No surrender.",
        Surrender.LATE: "Late surrender: give up half the bet after the dealer checks for blackjack.",
        Surrender.EARLY: "Early surrender: give up half the bet before the dealer checks for blackjack.",
    }[player.surrender])
    playing.append("A player who busts loses at once, even if the dealer busts later.")

    paying: list[str] = [f"Blackjack pays {pay.blackjack}; a blackjack and a dealer blackjack push."]
    paying.append("A two-card 21 after a split counts as blackjack." if pay.split_21_is_blackjack
                  else "A two-card 21 after a split is not a blackjack: it pays even money.")
    if player.insurance:
        paying.append(f"Insurance (up to half the bet) is offered under an ace and pays {pay.insurance}.")
    else:
        paying.append("No insurance.")
    if player.even_money:
        paying.append("Even money: a blackjack against an ace may be paid 1:1 at once.")

    limits = [f"Bets from {format_money(table.min_bet)} to {format_money(table.max_bet)}; "
              f"{table.seats} seats."]
    if ruleset.tournament is not None:
        t = ruleset.tournament
        limits.append(f"Tournament: {t.players[0]}-{t.players[1]} players start with "
                      f"${format_money(table.bankroll)}; bets within a "
                      f"{t.bet_timer[0]}-{t.bet_timer[1]} s timer.")
        if t.attacks:
            limits.append("After each round, attacks: both roll 1..their cash; a higher attacker roll "
                          "eliminates the defender, a failed attacker loses half their cash (rounded down).")

    return [("Cards", cards), ("Deal", dealing), ("Play", playing), ("Payouts", paying),
            ("Table", limits)]
