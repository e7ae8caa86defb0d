"""The bet at the table, graded against the learner's own ramp (one unit = the table minimum).

The right bet is the ramp's units at the true count the learner should have had when betting: the
running count of every card seen since the shuffle over the decks left (the shoe's undealt cards, read
to the session's estimation and rounding). When the cut card is out, the dealer shuffles before the
deal, so the bet is a fresh shoe's: the initial running count over the full shoe. The bet is capped by
the table's limits and the learner's chips. A wrong bet is told at once with the right one and why:
"true count +2 (running +9, 4.5 decks left; half decks, floor): your ramp bets 2 units ($20)", the
conversion named. A right bet is told without the counts ("your ramp bets 2 units"), which would give
the next count check away; `why` keeps them for a learner who wants them shown always.

With a count that keeps a side count (Hi-Opt I's aces), the bet is by the adjusted running count: the
system's adjustment for every card of its ranks left above the norm for the tray (4 aces a deck of the
tray, read to the session's estimation); the play stays by the plain count.

Where counting cannot help (a reshuffle every round, an infinite deck) or the count is unbalanced (it has
no true count), the bet is taken and not graded, and the table says why once.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from drills.base import Answer, Grade
from drills.counting.count_drill import setting_words
from trainer.core.betting import bet_item
from trainer.core.bounds import check_length
from trainer.core.counting import (
    CountSystem,
    Estimation,
    adjusted_running_count,
    format_count,
    format_decks,
    side_count_norm,
    side_count_surplus,
    true_count,
)
from trainer.core.errors import InvalidInputError, TrainerError
from trainer.core.money import Money, format_money, parse_money
from trainer.core.rules import Ruleset
from trainer.table.decisions import Answered, Decision, TableView, count_json, question


@dataclass(frozen=True, slots=True, kw_only=True)
class BetCheck:
    """One graded bet."""

    bet: Money
    expected: Money
    true_count: int
    correct: bool
    message: str
    why: str = ""
    """The counts the right bet rests on ("true count +2 (running +9, 4.5 decks left)")."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BetPlaced(Answered):
    """A bet taken: the round is dealt with it (`check` None when bets are not graded here)."""

    bet: Money
    check: BetCheck | None


def ungraded_reason(ruleset: Ruleset, system: CountSystem) -> str | None:
    """Why bets are not graded at this table, or None when they are."""
    if not ruleset.counting_helps:
        why = "an infinite deck" if ruleset.infinite_deck else "a reshuffle after every round"
        return f"Counting cannot help at {ruleset.name} ({why}): bets are not graded; bet what you like."
    if not system.balanced:
        return (f"{system.short_title} is unbalanced: your ramp is by true count, which it does not "
                "convert to, so bets are not graded.")
    return None


def bet_count(view: TableView) -> tuple[int | Fraction, int]:
    """(running count, cards left) the bet is made at: a fresh shoe's when the dealer shuffles first."""
    rules = view.ruleset
    if view.needs_shuffle:
        decks = rules.shoe.decks
        return view.system.initial_running_count(decks), decks * 52 - rules.shoe.burn
    return view.running_count(view.seen), view.cards_left


def betting_running_count(view: TableView, running: int | Fraction, cards_left: int
                          ) -> tuple[int | Fraction, str]:
    """The running count the bet is made by, and how it came (''): the plain count, or with a side
    count the count adjusted for the surplus of its ranks left (none in a fresh shoe)."""
    side = view.system.side_count
    if side is None or view.needs_shuffle:
        return running, ""
    decks_dealt = view.ruleset.shoe.decks - view.decks_left(cards_left)
    seen = sum(1 for card in view.seen if card.value in side.ranks)
    surplus = side_count_surplus(seen, decks_dealt, side.per_deck)
    adjusted = adjusted_running_count(running, surplus, side.adjustment)
    plain = int(adjusted) if adjusted.denominator == 1 else adjusted
    norm = format_count(side_count_norm(decks_dealt, side.per_deck), signed=False)
    return plain, (f"{side.names} {seen} seen against a norm of {norm}, "
                   f"surplus {format_count(surplus)} x {format_count(side.adjustment, signed=False)}: "
                   f"betting count {format_count(adjusted)}, ")


def conversion_words(view: TableView) -> str:
    """The conversion the session's true counts use, as a grade says it: 'half decks, floor'."""
    last = Estimation(view.last_deck) if view.last_deck else None
    return setting_words(Estimation(view.estimation), last, view.rounding)


def ramp_bet(view: TableView, units: int) -> Money:
    """`units` of the table minimum, within the table's limits and the learner's chips."""
    return max(view.min_bet, min(view.max_bet, view.ruleset.table.min_bet * units))


@dataclass(frozen=True, slots=True, kw_only=True)
class BetDecision:
    """The bet the learner owes before the next deal (`DecisionCheck`)."""

    view: TableView

    def ask(self) -> Decision:
        """The bet, with the facts a counter bets from."""
        view = self.view
        lo, hi = view.min_bet, view.max_bet
        running, cards_left = bet_count(view)
        reason = ungraded_reason(view.ruleset, view.system)
        data: dict[str, object] = {
            "kind": "bet", "ruleset": view.ruleset.name, "system": view.system.name,
            "min_bet": format_money(lo), "max_bet": format_money(hi),
            "unit": format_money(view.ruleset.table.min_bet),
            "bankroll": format_money(view.bankroll), "ramp": view.ramp.text,
            "running_count": count_json(running), "cards_left": cards_left, "estimation": view.estimation,
            "last_deck": view.last_deck, "rounding": view.rounding,
            "counting_helps": view.ruleset.counting_helps,
            "graded": reason is None,
        }
        item, expected = "", ""
        if reason is None:
            decks_left = view.decks_left(cards_left)
            betting, _ = betting_running_count(view, running, cards_left)
            tc = true_count(betting, decks_left, view.rounding)
            data["decks_left"] = float(decks_left)
            if view.system.side_count is not None:
                data["betting_running_count"] = count_json(betting)
            item = bet_item(view.system.name, tc)
            expected = format_money(ramp_bet(view, view.ramp.units_at(tc)))
        prompt = f"Your bet (${format_money(lo)}-${format_money(hi)})?"
        q = question(drill="bet", item=item, prompt=prompt, data=data, expected=expected)
        return Decision(kind="bet", question=q, graded=reason is None)

    def parse(self, text: str) -> Answer:
        """A bet in dollars ('20', '$20'), within the table's limits and the learner's chips."""
        lo, hi = self.view.min_bet, self.view.max_bet
        check_length(text.strip(), "an answer")
        try:
            bet = parse_money(text.strip().lstrip("$"))
        except TrainerError as e:
            raise InvalidInputError(str(e)) from None
        if not lo <= bet <= hi:
            raise InvalidInputError(f"the bet is ${format_money(lo)} to ${format_money(hi)}, "
                                    f"not ${format_money(bet)}")
        return Answer(text=text.strip(), value=format_money(bet))

    def grade(self, answer: Answer) -> BetPlaced:
        """The bet against the ramp at the learner's true count (taken ungraded where counting cannot
        help or the count has no true count)."""
        view = self.view
        bet = parse_money(str(answer.value))
        if ungraded_reason(view.ruleset, view.system) is not None:
            return BetPlaced(grade=None, bet=bet, check=None)
        running, cards_left = bet_count(view)
        decks_left = view.decks_left(cards_left)
        betting, side_words = betting_running_count(view, running, cards_left)
        tc = true_count(betting, decks_left, view.rounding)
        units = view.ramp.units_at(tc)
        expected = ramp_bet(view, units)
        correct = bet == expected
        unit = view.ruleset.table.min_bet
        capped = "" if expected == unit * units else " (as near as the limits and your chips allow)"
        shuffle = "a fresh shoe, " if view.needs_shuffle else ""
        counts = (f"true count {format_count(tc)} ({shuffle}running {format_count(running)}, {side_words}"
                  f"{format_decks(decks_left)} decks left; {conversion_words(view)})")
        ramp = f"your ramp bets {units} unit{'s' if units != 1 else ''} (${format_money(expected)}){capped}"
        why = f"{counts}: {ramp}"
        given = f"${format_money(bet)}"
        # a right bet's grade leaves the counts out, so that it does not give the next count check away
        message = f"✓ {given}: {ramp}" if correct else f"✗ {given}, not the ramp's bet: {why}"
        check = BetCheck(bet=bet, expected=expected, true_count=tc, correct=correct, message=message,
                         why=counts)
        detail = {"true_count": tc, "units": units, "units_given": float(bet / unit)}
        grade = Grade(correct=correct, expected=format_money(expected), given=format_money(bet),
                      explanation=why, detail=detail)
        return BetPlaced(grade=grade, bet=bet, check=check)
