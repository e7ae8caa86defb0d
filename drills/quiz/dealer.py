"""Quiz questions on the shoe, the deal and the dealer's play, generated from a rule set's data."""

from __future__ import annotations

from drills.quiz.bank import Generator, QuizItem, choice, true_false
from trainer.core.rules import BlackjackTakes, Reshuffle, Ruleset


def dealer_word(ruleset: Ruleset) -> str:
    """'host' for seed 002's chat game (a tournament), else 'dealer'."""
    return "host" if ruleset.tournament is not None else "dealer"


_INFINITE = "none: every card is a d13 roll (an infinite deck)"


def decks(r: Ruleset) -> QuizItem:
    if r.infinite_deck:
        answer, why = _INFINITE, "The host rolls a 13-sided die for every card: there is no shoe to run out."
    else:
        answer = str(r.shoe.decks)
        lo, hi = r.shoe.decks_range
        more = f"; --decks may choose {lo} to {hi}" if lo != hi else ""
        why = f"{r.shoe.decks} decks of 52 cards, {52 * r.shoe.decks} cards in all{more}."
    return choice("decks", r, "How many decks does the game deal from?", answer,
                  ["1", "6", "8", "2", _INFINITE], why, "shoe.decks")  # with --decks, decks_range's basis


_RESHUFFLES = {
    "cut": "after the round in which the cut card comes out",
    "mid": "as soon as the cut card comes out, even in the middle of a round",
    "every": "after every round",
    "never": "never: each card is an independent d13 roll",
}


def reshuffle(r: Ruleset) -> QuizItem:
    if r.infinite_deck:
        key, why = "never", "A die has no memory: every card is a fresh roll, so nothing is ever reshuffled."
    elif r.shoe.reshuffle is Reshuffle.EVERY_ROUND:
        key, why = "every", "The cards are reshuffled after each round, so no count carries over."
    else:
        key = "cut"
        why = "When the cut card comes out the round is finished from the same shoe; the shuffle comes next."
    return choice("reshuffle", r, "When are the cards reshuffled?", _RESHUFFLES[key],
                  [v for k, v in _RESHUFFLES.items() if k != key], why,
                  "shoe.decks" if r.infinite_deck else "shoe.reshuffle")


def cut_card(r: Ruleset) -> QuizItem | None:
    if r.infinite_deck or r.shoe.reshuffle is not Reshuffle.CUT_CARD:
        return None
    lo, hi = r.shoe.cut_card_from_end
    answer = f"toward the back, so that the last {lo} to {hi} cards are not dealt"
    return choice("cut-card", r, "Where does the dealer place the cut card?", answer,
                  ["in the middle of the shoe", "at the very bottom: every card is dealt",
                   "on top, under the burn card"],
                  f"The cut card leaves {lo} to {hi} cards behind it, so the end of the shoe is never dealt.",
                  "shoe.cut_card_from_end")


def burn(r: Ruleset) -> QuizItem:
    answer = str(r.shoe.burn) if r.shoe.burn else "none"
    why = (f"{r.shoe.burn} card{'s are' if r.shoe.burn > 1 else ' is'} burned after each shuffle."
           if r.shoe.burn else "No card is burned after the shuffle.")
    return choice("burn", r, "How many cards are burned after each shuffle?", answer,
                  ["none", "1", "2", "3"], why, "shoe.burn")


def burn_shown(r: Ruleset) -> QuizItem | None:
    if not r.shoe.burn:
        return None
    why = ("The burn card is shown, so a counter counts it." if r.shoe.burn_shown
           else "The burn card goes out face down: a counter never sees it.")
    return true_false("burn-shown", r, "the burn card is shown to the players.", r.shoe.burn_shown, why,
                      "shoe.burn_shown")


def counting(r: Ruleset) -> QuizItem:
    if r.infinite_deck:
        why = "Every card is an independent roll, so cards seen say nothing about cards to come."
    elif r.shoe.reshuffle is Reshuffle.EVERY_ROUND:
        why = "The shoe is reshuffled after every round, so the count starts from zero each time."
    else:
        why = "The shoe is dealt down to the cut card, so the cards seen change what is left."
    return true_false("counting", r, "counting cards can help at this table.", r.counting_helps, why,
                      "shoe.decks" if r.infinite_deck else "shoe.reshuffle")


_DEAL_ORDERS = {
    "up-first": "one card to each player, the dealer's up card, a second card to each player, then the "
                "dealer's hole card face down",
    "hole-first": "one card to each player, the dealer's hole card face down, a second card to each "
                  "player, then the dealer's up card",
    "no-hole": "the {d}'s one card first, then two cards to each player; the {d}'s second card comes after "
               "everyone has played",
    "all-players-first": "two cards to each player, then two cards to the dealer",
}


def deal_order(r: Ruleset) -> QuizItem:
    d = dealer_word(r)
    orders = {k: v.format(d=d) for k, v in _DEAL_ORDERS.items()}
    key = "no-hole" if not r.dealer.hole_card else "hole-first" if r.dealer.hole_card_first else "up-first"
    keys = ("dealer.hole_card", "dealer.hole_card_first") if r.dealer.hole_card else ("dealer.hole_card",)
    return choice("deal-order", r, "In what order are the first cards dealt?", orders[key],
                  [v for k, v in orders.items() if k != key], "The table order of this game's deal.", *keys)


def hole_card(r: Ruleset) -> QuizItem:
    d = dealer_word(r)
    why = (f"The {d} has one card up and one face down while the players act." if r.dealer.hole_card
           else f"The {d} takes only one card before the players act and the second after they have played.")
    return true_false("hole-card", r, f"the {d} takes a face-down hole card before the players act.",
                      r.dealer.hole_card, why, "dealer.hole_card")


def _peek(r: Ruleset, key: str, value: int, card: str) -> QuizItem | None:
    if not (r.dealer.hole_card and r.dealer.natural):
        return None
    peeks = value in r.dealer.peek
    why = (f"With {card} up the dealer looks at the hole card for a blackjack before anyone plays."
           if peeks else f"With {card} up the hole card stays down until every player has acted.")
    return true_false(key, r, f"with {card} up, the dealer checks for blackjack before anyone plays.", peeks,
                      why, "dealer.peek")


def peek_ace(r: Ruleset) -> QuizItem | None:
    return _peek(r, "peek-ace", 1, "an ace")


def peek_ten(r: Ruleset) -> QuizItem | None:
    return _peek(r, "peek-ten", 10, "a ten")


def blackjack_under_a_ten(r: Ruleset) -> QuizItem | None:
    if not (r.dealer.hole_card and r.dealer.natural):
        return None
    if 10 in r.dealer.peek:
        return choice(
            "blackjack-under-ten", r,
            "You hold 11 against a ten and want to double, but the dealer has an ace underneath. "
            "What happens?",
            "the dealer checks first, shows the blackjack and takes only your original bet",
            ["you double and lose both stakes", "you double, and push if you draw to 21",
             "the blackjack counts only after every hand is played"],
            "The dealer peeks under a ten before anyone plays, so nobody doubles into a blackjack.",
            "dealer.peek")
    takes_all = r.dealer.blackjack_takes is BlackjackTakes.ALL
    both, original = ("both stakes: the blackjack takes the doubled bet",
                      "only the original stake: the double comes back")
    why = ("Without a peek the blackjack shows after play and beats every hand that is not a blackjack, "
           "doubled stake included." if takes_all else
           "Without a peek the blackjack shows after play, but it takes only the original bets.")
    return choice("blackjack-under-ten", r,
                  "You double your 11 against a ten; after play the dealer turns an ace underneath. "
                  "What do you lose?", both if takes_all else original,
                  [original if takes_all else both, "nothing: it is a push", "only the doubled part"],
                  why, "dealer.peek", "dealer.blackjack_takes")


def host_has_no_blackjack(r: Ruleset) -> QuizItem | None:
    if r.dealer.natural:
        return None
    d = dealer_word(r)
    return true_false("no-dealer-blackjack", r, f"the {d}'s two-card 21 counts as a blackjack.", False,
                      f"Only players have blackjacks: the {d}'s two-card 21 is an ordinary 21, and a "
                      "player's blackjack beats it.", "dealer.natural")


def _soft_17(r: Ruleset, key: str, hand: str) -> QuizItem:
    d = dealer_word(r)
    hits = r.dealer.hits_soft_17
    why = (f"This {d} hits soft 17." if hits else
           f"This {d} stands on every 17, soft 17 included (the ace counts 11 when that makes 17 to 21).")
    return choice(key, r, f"The {d} holds {hand}: soft 17. Does the {d} hit or stand?",
                  "hit" if hits else "stand", ["stand" if hits else "hit"], why, "dealer.hits_soft_17")


def dealer_soft_17(r: Ruleset) -> QuizItem:
    return _soft_17(r, "dealer-soft-17", "A-6")


def dealer_drawn_soft_17(r: Ruleset) -> QuizItem:
    return _soft_17(r, "dealer-drawn-soft-17", "A-5 and draws an ace")


def dealer_16(r: Ruleset) -> QuizItem:
    d = dealer_word(r)
    return true_false("dealer-16", r, f"the {d} must hit a hard 16.", True,
                      f"The {d} draws until reaching 17 or more.", "dealer.hits_soft_17")


def dealer_hard_17(r: Ruleset) -> QuizItem:
    d = dealer_word(r)
    return true_false("dealer-hard-17", r, f"the {d} stands on a hard 17 such as 10-7.", True,
                      f"Every {d} stands on a hard 17; only soft 17 differs between games.",
                      "dealer.hits_soft_17")


def dealer_soft_18(r: Ruleset) -> QuizItem:
    d = dealer_word(r)
    return choice("dealer-soft-18", r, f"The {d} holds A-7. What does the {d} count, and do?",
                  "soft 18: stand", ["8: hit", "soft 18: hit", "8 or 18, whichever beats more players"],
                  f"The ace counts 11 when that makes 17 to 21, so A-7 is 18 and the {d} stands.",
                  "dealer.hits_soft_17")


def dealer_ignores_players(r: Ruleset) -> QuizItem:
    d = dealer_word(r)
    return true_false("dealer-ignores-players", r,
                      f"the {d} may stand on 16 when every player still in the hand has less.", False,
                      f"The {d}'s play is mechanical: it never depends on the players' hands.",
                      "dealer.hits_soft_17")


TABLE_QUESTIONS: tuple[Generator, ...] = (
    decks,
    reshuffle,
    cut_card,
    burn,
    burn_shown,
    counting,
    deal_order,
    hole_card,
    peek_ace,
    peek_ten,
    blackjack_under_a_ten,
    host_has_no_blackjack,
    dealer_soft_17,
    dealer_drawn_soft_17,
    dealer_16,
    dealer_hard_17,
    dealer_soft_18,
    dealer_ignores_players,
)
"""The questions on the shoe, the dealer and the table, in the order the quiz lists them."""
