"""Quiz questions on the player's options and on payouts, generated from a rule set's data."""

from __future__ import annotations

from decimal import Decimal

from drills.quiz.bank import Generator, QuizItem, choice, true_false
from drills.quiz.dealer import dealer_word
from trainer.core.cards import parse_cards
from trainer.core.legal import may_double
from trainer.core.money import format_money
from trainer.core.rules import Double, InsuranceBet, Ruleset, Split, Surrender

_DOUBLES = {
    Double.ANY_TWO: "any first two cards",
    Double.NINE_TO_ELEVEN: "only a first-two-card hard 9, 10 or 11",
    Double.TEN_OR_ELEVEN: "only a first-two-card hard 10 or 11",
    Double.NONE: "none: doubling is not allowed",
}


def _doubles(r: Ruleset, hand: str) -> bool:
    """Whether the table lets a player double these first two cards (the engine's own rule)."""
    return may_double(r, parse_cards(hand), from_split=False, split_aces=False)


def _splits(r: Ruleset) -> bool:
    return r.player.max_hands > 1


def _if_doubling(generator: Generator) -> Generator:
    """A question asked only at a table where a player may double at all."""

    def asked(r: Ruleset) -> QuizItem | None:
        return None if r.player.double is Double.NONE else generator(r)

    asked.__name__ = asked.__qualname__ = generator.__name__
    return asked


def double_rule(r: Ruleset) -> QuizItem:
    answer = _DOUBLES[r.player.double]
    return choice("double-rule", r, "Which hands may you double down on?", answer,
                  [v for v in _DOUBLES.values() if v != answer], f"This game doubles on {answer}.",
                  "player.double")


@_if_doubling
def double_soft_18(r: Ruleset) -> QuizItem | None:
    allowed = _doubles(r, "A 7")
    return true_false("double-soft-18", r, "you hold A-7 (soft 18) against a 5: you may double.", allowed,
                      f"The double rule here is {_DOUBLES[r.player.double]}; A-7 totals 18.", "player.double")


@_if_doubling
def double_8(r: Ruleset) -> QuizItem | None:
    allowed = _doubles(r, "5 3")
    return true_false("double-8", r, "you hold 5-3 (hard 8) against a 6: you may double.", allowed,
                      f"The double rule here is {_DOUBLES[r.player.double]}.", "player.double")


@_if_doubling
def double_one_card(r: Ruleset) -> QuizItem | None:
    return choice("double-one-card", r, "When you double down, how many more cards do you get?",
                  "exactly one", ["as many as you like", "two", "none"],
                  "A double matches the bet for exactly one more card.", "player.double")


def double_win(r: Ruleset) -> QuizItem | None:
    if not _doubles(r, "6 5"):
        return None
    return choice("double-win", r, "You double a $25 bet on 11 and win. What are you paid?", "$50",
                  ["$25", "$37.50", "$75"], "The doubled bet is $50 and a win pays it even money.",
                  "player.double")


def double_after_split(r: Ruleset) -> QuizItem | None:
    if not (_splits(r) and _doubles(r, "8 3")):
        return None
    das = r.player.double_after_split
    why = ("Doubling after a split is allowed: each hand has its own first two cards." if das
           else "No doubling after a split: only an unsplit hand may double.")
    return true_false("double-after-split", r, "you split 8s and draw a 3 to the first (11): you may "
                      "double that hand.", das, why, "player.double_after_split")


_HANDS = {1: "one: no splitting", 2: "two (one split)", 3: "up to three", 4: "up to four"}


def split_hands(r: Ruleset) -> QuizItem:
    most = r.player.max_hands
    answer = _HANDS.get(most, f"up to {most}")
    return choice("split-hands", r, "Into how many hands may you split?", answer,
                  [v for k, v in _HANDS.items() if k != most],
                  f"Splitting makes at most {most} hand{'s' if most > 1 else ''}.", "player.max_hands")


def resplit(r: Ruleset) -> QuizItem | None:
    if not _splits(r):
        return None
    again = r.player.max_hands > 2
    return true_false("resplit", r, "you split 8s and draw another 8: you may split again.", again,
                      f"A seat may have at most {r.player.max_hands} hands.", "player.max_hands")


def split_king_queen(r: Ruleset) -> QuizItem | None:
    if not _splits(r):
        return None
    by_value = r.player.split is Split.SAME_VALUE
    why = ("Any two cards of the same value are a pair: a king and a queen are both 10." if by_value
           else "A pair is two cards of the same rank: a king and a queen are not a pair.")
    return true_false("split-king-queen", r, "a king and a queen are a pair you may split.", by_value, why,
                      "player.split")


def split_aces_draw(r: Ruleset) -> QuizItem | None:
    if not _splits(r):
        return None
    more = not r.player.split_aces_one_card
    why = ("Split aces are played like any other hand." if more
           else "Each split ace gets exactly one card and no more.")
    return true_false("split-aces-draw", r, "after splitting aces you may draw more than one card to each "
                      "ace.", more, why, "player.split_aces_one_card")


def resplit_aces(r: Ruleset) -> QuizItem | None:
    if r.player.max_hands <= 2:
        return None
    return true_false("resplit-aces", r, "you split aces and draw another ace: you may split the aces again.",
                      r.player.resplit_aces,
                      "Aces may be resplit." if r.player.resplit_aces else "Aces may be split only once.",
                      "player.resplit_aces")


def split_ace_ten(r: Ruleset) -> QuizItem | None:
    if not _splits(r):
        return None
    ratio = r.payouts.blackjack
    natural = f"{ratio}: it counts as a blackjack"
    plain = "even money: it is 21, not a blackjack"
    counts = r.payouts.split_21_is_blackjack
    why = ("Here a two-card 21 after a split is paid as a blackjack." if counts
           else "A 21 made after a split is an ordinary 21, so it wins even money.")
    return choice("split-ace-ten", r, "You split aces and draw a ten to one of them. If that hand wins, "
                  "what is it paid?", natural if counts else plain,
                  [plain if counts else natural, "2:1", "nothing: it pushes against any 21"], why,
                  "payouts.split_21_is_blackjack")


def split_bet(r: Ruleset) -> QuizItem | None:
    if not _splits(r):
        return None
    return choice("split-bet", r, "You split a pair on a $25 bet. What do you put up for the second hand?",
                  "$25: a bet equal to the first", ["nothing: the second hand rides free", "$12.50", "$50"],
                  "Each hand of a split carries the original bet.", "player.max_hands")


def surrender(r: Ruleset) -> QuizItem:
    offered = r.player.surrender is not Surrender.NONE
    why = {Surrender.NONE: "This game offers no surrender.",
           Surrender.LATE: "Late surrender: half the bet, after the dealer checks for blackjack.",
           Surrender.EARLY: "Early surrender: half the bet, before the dealer checks for blackjack."}
    return true_false("surrender", r, "you may give up your hand for half your bet (surrender).", offered,
                      why[r.player.surrender], "player.surrender")


def blackjack_ratio(r: Ruleset) -> QuizItem:
    ratio = str(r.payouts.blackjack)
    return choice("blackjack-ratio", r, "A blackjack pays:", ratio, ["3:2", "6:5", "1:1", "2:1"],
                  f"A natural is paid {ratio}.", "payouts.blackjack")


def blackjack_amount(r: Ruleset) -> QuizItem:
    ratio = r.payouts.blackjack
    pay = f"${format_money(ratio.pay(Decimal(20)))}"
    return choice("blackjack-amount", r, f"You bet $20 and are dealt a blackjack; the {dealer_word(r)} has "
                  "none. What are you paid?", pay, ["$20", "$24", "$30", "$40"],
                  f"{ratio} on $20 is {pay}.", "payouts.blackjack")


def both_naturals(r: Ruleset) -> QuizItem | None:
    if not r.dealer.natural:
        return None
    return choice("both-blackjacks", r, "You and the dealer both have blackjack. What happens?",
                  "a push: you keep your bet",
                  [f"you are paid {r.payouts.blackjack}", "you lose your bet", "you are paid even money"],
                  "Two naturals tie.", "dealer.natural")


def blackjack_beats_21(r: Ruleset) -> QuizItem:
    d = dealer_word(r)
    ratio = r.payouts.blackjack
    return choice("blackjack-beats-21", r, f"You have blackjack; the {d} has no blackjack but draws to 21. "
                  "What happens?", f"you are paid {ratio}: a blackjack beats any other 21",
                  ["a push", "you lose your bet", "you are paid even money"],
                  f"A natural beats every hand but a natural, so it is paid {ratio}.", "payouts.blackjack")


def dealer_blackjack_collects(r: Ruleset) -> QuizItem | None:
    if not (r.dealer.natural and r.dealer.hole_card):
        return None
    return choice("dealer-blackjack-collects", r, "The dealer has blackjack and you hold 20. What happens to "
                  "your bet?", "it loses", ["it pushes", "half of it comes back", "you may still draw to 21"],
                  "A dealer natural beats every hand that is not a natural.", "dealer.natural")


def insurance_offered(r: Ruleset) -> QuizItem:
    offered = r.player.insurance
    half = "exactly half" if r.player.insurance_bet is InsuranceBet.HALF else "up to half"
    why = (f"Under an ace each player may insure for {half} the bet." if offered
           else "No insurance is offered at this table.")
    return true_false("insurance-offered", r, "insurance is offered when the dealer shows an ace.", offered,
                      why, "player.insurance")


def insurance_ratio(r: Ruleset) -> QuizItem | None:
    if not r.player.insurance:
        return None
    ratio = str(r.payouts.insurance)
    return choice("insurance-ratio", r, "A winning insurance bet pays:", ratio, ["2:1", "3:2", "1:1", "6:5"],
                  f"Insurance pays {ratio}.", "payouts.insurance")


def insurance_most(r: Ruleset) -> QuizItem | None:
    if not r.player.insurance:
        return None
    if r.player.insurance_bet is InsuranceBet.HALF:
        return choice("insurance-exactly-half", r, "How much may you insure a $50 bet for?",
                      "$25 exactly: insurance is half the original bet",
                      ["any amount up to $25", "$50, the whole bet", "$10"],
                      "Insurance is a second bet of exactly half the original bet: no more, no less.",
                      "player.insurance_bet")
    return choice("insurance-most", r, "What is the most you may insure a $50 bet for?", "$25, half the bet",
                  ["$50, the whole bet", "$10", "$12.50"], "Insurance is at most half the original bet.",
                  "player.insurance_bet")


def insurance_wins(r: Ruleset) -> QuizItem | None:
    if not r.player.insurance:
        return None
    return choice("insurance-wins", r, "When does an insurance bet win?",
                  "when the dealer has blackjack: a ten-card under the ace",
                  ["when your hand beats the dealer", "when the dealer busts", "when you have blackjack"],
                  "Insurance is a side bet that the hole card under the ace is a ten.", "player.insurance")


def insurance_net(r: Ruleset) -> QuizItem | None:
    if not r.player.insurance or r.payouts.insurance.win != 2 * r.payouts.insurance.stake:
        return None
    return choice("insurance-net", r, "You bet $20 on 10-9 against an ace, insure for $10, and the dealer "
                  "turns a blackjack. What is your net for the round?",
                  "$0: the insurance wins $20 and the hand loses $20", ["+$20", "-$10", "-$30"],
                  "Full insurance at 2:1 wins exactly what the blackjack takes from the bet.",
                  "payouts.insurance")


def even_money_offered(r: Ruleset) -> QuizItem | None:
    if not (r.player.insurance and r.dealer.natural):
        return None
    offered = r.player.even_money
    why = ("Even money is offered: the blackjack is paid 1:1 at once." if offered else
           "There is no separate even-money call; insuring the blackjack for half the bet comes to the same.")
    return true_false("even-money-offered", r, "with a blackjack against an ace you are offered even money.",
                      offered, why, "player.even_money")


def even_money_net(r: Ruleset) -> QuizItem | None:
    two_to_one = r.payouts.insurance.win == 2 * r.payouts.insurance.stake
    three_to_two = r.payouts.blackjack.win * 2 == 3 * r.payouts.blackjack.stake
    if not (r.player.insurance and r.dealer.natural and two_to_one and three_to_two):
        return None
    if r.player.even_money:
        prompt = ("You take even money on a $20 blackjack against an ace. What do you win, whatever the "
                  "hole card?")
    else:
        prompt = ("You insure your $20 blackjack against an ace for $10. What do you net, whatever the hole "
                  "card?")
    return choice("even-money-net", r, prompt, "$20, exactly even money",
                  ["$30", "$0 if the dealer has blackjack", "$10"],
                  "Insuring a blackjack for half the bet at 2:1 nets the bet whatever the hole card: a ten "
                  "means +$20 insurance and a push; anything else -$10 insurance and +$30 for the blackjack.",
                  "player.even_money", "payouts.insurance")


def even_money_declined(r: Ruleset) -> QuizItem | None:
    if not (r.player.insurance and r.player.even_money):
        return None
    return choice("even-money-declined", r, "You decline even money and the dealer turns a blackjack. What "
                  "happens to your blackjack?", "it pushes",
                  [f"it is paid {r.payouts.blackjack}", "it loses", "it is paid even money"],
                  "Two blackjacks tie; even money would have paid 1:1 whatever the hole card.",
                  "player.even_money")


def _dollars(amount: Decimal) -> str:
    return f"${format_money(amount)}"


def _practice_limit(r: Ruleset, key: str) -> bool:
    """A table limit no seed names is a practice limit: something to play with, not a rule to learn."""
    return r.basis_of(key).is_reading


def min_bet(r: Ruleset) -> QuizItem | None:
    if _practice_limit(r, "table.min_bet"):
        return None
    answer = _dollars(r.table.min_bet)
    return choice("min-bet", r, "What is the minimum bet?", answer,
                  [_dollars(Decimal(v)) for v in (1, 2, 5, 10, 25)], f"Bets start at {answer}.",
                  "table.min_bet")


def max_bet(r: Ruleset) -> QuizItem | None:
    if r.tournament is not None or _practice_limit(r, "table.max_bet"):  # the chat game: the cash in hand
        return None
    answer = _dollars(r.table.max_bet)
    return choice("max-bet", r, "What is the maximum bet?", answer,
                  [_dollars(Decimal(v)) for v in (100, 500, 1000, 5000)], f"Bets go up to {answer}.",
                  "table.max_bet")


PLAYER_QUESTIONS: tuple[Generator, ...] = (
    double_rule,
    double_soft_18,
    double_8,
    double_one_card,
    double_win,
    double_after_split,
    split_hands,
    resplit,
    split_king_queen,
    split_aces_draw,
    resplit_aces,
    split_ace_ten,
    split_bet,
    surrender,
    blackjack_ratio,
    blackjack_amount,
    both_naturals,
    blackjack_beats_21,
    dealer_blackjack_collects,
    insurance_offered,
    insurance_ratio,
    insurance_most,
    insurance_wins,
    insurance_net,
    even_money_offered,
    even_money_net,
    even_money_declined,
    min_bet,
    max_bet,
)
"""The questions on the player's options and the payouts, in the order the quiz lists them."""
