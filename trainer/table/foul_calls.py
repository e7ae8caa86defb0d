"""The learner's foul calls at the table: `f 3` (seat 3) or `f dealer`, graded in dealer words and
recorded under the catch drill's items.

The call window of a round opens when the dealer has settled it and closes when the next round is dealt
(or the session ends). Within it:

- a call at the place of the dealer's error is a catch (`catch:<error>`, right): the floor fixes it,
  and the money is settled as it should have been;
- a call anywhere else is a false call (`catch:clean`, wrong); the learner may call again;
- an error not called when the window closes is a miss (`catch:<error>`, wrong). The money then stays
  as the dealer paid it. This is this trainer's reading, not a seed's rule: once the next round is
  dealt the table does not go back, so a player keeps what the dealer overpaid and loses what it
  short-paid (a casino may review the tape later; the trainer does not). The cards the dealer should
  have drawn are not shown: they go to the discards face down, and the count does not include them.

A clean round closed without a call records nothing. Each call's attempt carries the round's number,
the error (or none), where it was, what the dealer did and what was right (`data`). `FoulCall` is the
decision (`decisions.DecisionCheck`); the session applies its outcome: the place called, and after a
catch the floor's fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from drills.base import JSON, Answer, Grade, Question
from trainer.core.bounds import check_length
from trainer.core.cards import Card
from trainer.core.dealer_errors import DRILL, ERROR_WORDS, catch_item, short_ratio
from trainer.core.errors import InvalidInputError
from trainer.core.events import DealerStood, Event, InsuranceSettled, Settled, seen_cards
from trainer.core.hands import hand_total
from trainer.core.money import Money, dollars, format_money, signed_dollars
from trainer.table.decisions import Answered, Decision, RoundFacts, TableView, question
from trainer.table.fouls import DealerMistake

CALL_PROMPT = "ok, or call a foul: f SEAT (f 3) or f dealer?"
MISS_READING = ("the money stays as the dealer paid it (this trainer's reading: once the next round is "
                "dealt, the table does not go back)")
CALL_WORDS = ("f", "foul")
OK_WORDS = ("ok", "o", "no", "n", "clean", "none")


@dataclass(frozen=True, slots=True, kw_only=True)
class FoulCalled(Answered):
    """A call made (`where`), or the round's calls closed (`where` None)."""

    where: str | None
    caught: bool = False
    """The call found the dealer's mistake: the floor fixes it."""
    correction: Money = Decimal(0)
    """What the floor takes back from the learner after a catch (negative: pays them)."""
    revealed: tuple[Card, ...] = field(default=())
    """The cards the dealer should have drawn, shown when the floor has it draw on."""


def parse_call(text: str, seats: int) -> str | None:
    """'f 3', 'f3', 'foul seat 3', 'f d', 'f dealer' -> '3' or 'dealer'; 'ok' -> None (no call)."""
    words = " ".join(text.strip().lower().split())
    if words in OK_WORDS:
        return None
    head = next((w for w in sorted(CALL_WORDS, key=len, reverse=True) if words.startswith(w)), None)
    places = ", ".join(str(s) for s in range(1, seats + 1))
    if head is None or len(words) > 20:
        raise InvalidInputError(f"{text.strip()[:20]!r}: answer ok, or call a foul: f SEAT ({places}) or "
                                "f dealer")
    where = words[len(head):].strip().removeprefix("seat").strip()
    if where in ("d", "dealer"):
        return "dealer"
    if where.isdecimal() and 1 <= int(where) <= seats:
        return str(int(where))
    raise InvalidInputError(f"name where the foul is: a seat ({places}) or dealer, e.g. f 3")


def seat_words(view: TableView, seat: int) -> str:
    """'seat 3', or 'your seat (2)'."""
    return f"your seat ({seat + 1})" if seat == view.learner else f"seat {seat + 1}"


def whose(view: TableView, seat: int) -> str:
    """"seat 3's", or 'your' for the learner's seat."""
    return "your" if seat == view.learner else f"seat {seat + 1}'s"


def _dealt(view: TableView) -> RoundFacts:
    if view.round is None:
        raise InvalidInputError("nothing to call yet: the first round is not dealt")
    return view.round


def announced(view: TableView) -> dict[str, JSON]:
    """The round as the dealer settled it (what a player saw): the dealer's cards and called total, and
    each seat's hands with what the dealer paid (+) or took (-) on each, and insurance."""
    facts = _dealt(view)
    shown = view.calls.shown(facts.events)
    paid: dict[tuple[int, int], Settled] = {(e.seat, e.hand): e for e in shown if isinstance(e, Settled)}
    insured = {e.seat: e.net for e in shown if isinstance(e, InsuranceSettled)}
    stood = next((e for e in shown if isinstance(e, DealerStood)), None)
    seats: list[JSON] = []
    for i, seat in enumerate(facts.seats):
        hands: list[JSON] = []
        for j, (hand, bet) in enumerate(zip(seat.hands, seat.bets, strict=True)):
            settled = paid.get((i, j))
            hands.append({"cards": [str(c) for c in hand.cards], "bet": format_money(bet),
                          "outcome": settled.outcome.value if settled else None,
                          "net": format_money(settled.net) if settled else None})
        insurance: JSON = None
        if seat.insurance:
            net = insured.get(i, Decimal(0))
            insurance = {"stake": format_money(seat.insurance), "net": format_money(net)}
        seats.append({"seat": i + 1, "who": view.seat_names[i], "hands": hands, "insurance": insurance})
    return {"dealer": [str(c) for c in view.calls.dealer_cards(facts.dealer_cards)],
            "dealer_total": stood.total if stood else None, "dealer_bust": stood.bust if stood else None,
            "seats": seats}


def what_went_wrong(view: TableView, slip: DealerMistake) -> str:
    """The dealer's mistake in the dealer's words: "seat 3's blackjack was paid $10; 3:2 pays $15"."""
    facts = _dealt(view)
    if slip.seat is None:
        cards = " ".join(c.pretty() for c in slip.called_at)
        hard = sum(c.value for c in slip.called_at)
        if slip.error == "soft-counted-hard":
            return (f"the dealer's {cards} is {hard}, not {slip.called_total}: the ace counts 1 here, "
                    "and the dealer must hit")
        return f"the dealer's {cards} is 16, not 17: the dealer must hit"
    seat = facts.seats[slip.seat]
    who = whose(view, slip.seat)
    bet = seat.bets[0]
    total = hand_total(seat.hands[0].cards)[0]
    dealer = "blackjack" if facts.dealer_natural else str(hand_total(facts.dealer_cards)[0])
    if slip.error == "pays-a-loser":
        return (f"{who} {total} lost to the dealer's {dealer} and was paid {dollars(bet)}: "
                f"take {dollars(bet)}")
    if slip.error == "short-blackjack":
        ratio = view.ruleset.payouts.blackjack
        short = short_ratio(ratio, bet).pay(bet)
        return f"{who} blackjack was paid {dollars(short)}; {ratio} pays {dollars(ratio.pay(bet))}"
    if slip.error == "insurance-short":
        ratio = view.ruleset.payouts.insurance
        stake = seat.insurance
        return (f"{who} {dollars(stake)} insurance was paid {dollars(stake)}; insurance pays {ratio}, "
                f"{dollars(ratio.pay(stake))}")
    return f"{who} {total} ties the dealer's {dealer} and {dollars(bet)} was taken: a push, the bet stays"


def money_words(view: TableView, slip: DealerMistake, *, caught: bool) -> str:
    """What happens to the learner's money: the floor's correction after a catch, or the miss's reading."""
    events = _dealt(view).events
    delta = slip.delta(events, view.learner)
    if not delta:
        if not caught:
            return f"Missed: {MISS_READING}."
        if slip.seat is None:
            return "The floor has the dealer draw on and settles the table again."
        true = slip.settled(events, slip.seat)
        paid = true + slip.delta(events, slip.seat)
        return (f"The floor fixes it: {seat_words(view, slip.seat)} is settled at {signed_dollars(true)}, "
                f"not {signed_dollars(paid)}.")
    if caught:
        give = "takes back" if delta > 0 else "pays you"
        return f"The floor fixes it and {give} {dollars(abs(delta))}."
    keep = f"you keep the {dollars(delta)} overpaid" if delta > 0 else f"you lose the {dollars(-delta)} short"
    return f"Missed: {MISS_READING}; {keep}."


def judge_call(view: TableView, where: str | None) -> tuple[Question, Grade] | None:
    """The recorded question and grade of a call (`where`) or of the window closing (None); None when
    nothing is to be graded (a clean or fixed round closed without a call)."""
    slip = view.calls.shows
    if where is None and slip is None:
        return None
    data: dict[str, JSON] = {"kind": "foul", "round": view.round_number, **announced(view),
                             "error": slip.error if slip else None, "where": slip.where if slip else None,
                             "call": where}
    wrong = what_went_wrong(view, slip) if slip else ""
    if slip is not None and where == slip.where:
        outcome, item, correct = "caught", catch_item(slip.error), True
        why = f"Caught: {wrong}. {money_words(view, slip, caught=True)}"
    elif where is None:
        assert slip is not None
        outcome, item, correct = "missed", catch_item(slip.error), False
        why = f"The dealer {ERROR_WORDS[slip.error]}: {wrong}. {money_words(view, slip, caught=False)}"
    else:
        outcome, item, correct = "false call", catch_item(None), False
        place = "the dealer's hand" if where == "dealer" else seat_words(view, int(where) - 1)
        why = f"False call: {place} was played and settled right."
    data["truth"] = wrong or None
    expected = f"f {where}" if correct else ("ok" if where is not None else f"f {slip.where if slip else ''}")
    given = "ok" if where is None else f"f {where}"
    q = question(drill=DRILL, item=item, prompt=CALL_PROMPT, data=data, expected=expected, explanation=why)
    detail: dict[str, JSON] = {"outcome": outcome}
    if slip is not None and outcome != "false call":  # a false call does not give away the error left
        detail.update(error=slip.error, where=slip.where,
                      your_difference=format_money(slip.delta(_dealt(view).events, view.learner)))
    return q, Grade(correct=correct, expected=expected, given=given, explanation=why, verdict=outcome,
                    detail=detail)


def corrections(view: TableView) -> list[Event]:
    """The true events the floor puts in place of the dealer's after a catch."""
    slip = view.calls.slip
    return [] if view.round is None or slip is None else slip.corrections(view.round.events)


@dataclass(frozen=True, slots=True, kw_only=True)
class FoulCall:
    """The call the learner may make on the round in play or just settled (`DecisionCheck`): 'f 3',
    'f dealer', or 'ok', which closes the round's calls. A seat may be called as soon as it is paid (a
    natural paid at once), the dealer's hand once it has played. A catch has the floor fix the dealer's
    mistake, money and count included."""

    view: TableView

    def ask(self) -> Decision:
        """Machine mode asks it after every round's settlement."""
        view = self.view
        data: dict[str, JSON] = {"kind": "foul", "round": view.round_number, **announced(view),
                                 "called": sorted(view.calls.called)}
        q = question(drill=DRILL, item=catch_item(None), prompt=CALL_PROMPT, data=data, expected="ok",
                     choices=())
        return Decision(kind="foul", question=q)

    def parse(self, text: str) -> Answer:
        """The place called ('3', 'dealer'; None for ok). A malformed call, a call on the dealer's hand
        before it has played or a second call on one place raises `InvalidInputError`."""
        view, calls = self.view, self.view.calls
        if not calls.on:
            raise InvalidInputError("the dealer makes no mistakes at this table (play --dealer-errors RATE)")
        facts = _dealt(view)
        if facts.finished and not calls.open:
            raise InvalidInputError("too late: the calls on that round closed when the next bet was placed")
        where = parse_call(text, view.seats)
        if where in (None, "dealer") and not facts.finished:
            raise InvalidInputError("nothing to call there yet: the dealer has not played its hand")
        if where is not None:
            if where in calls.called:
                place = "the dealer" if where == "dealer" else f"seat {where}"
                raise InvalidInputError(f"you called {place} already this round")
            check_length(text.strip(), "an answer")
        return Answer(text=text.strip(), value=where)

    def grade(self, answer: Answer) -> FoulCalled:
        where = None if answer.value is None else str(answer.value)
        if where is None:
            return self.close()
        judged = judge_call(self.view, where)
        assert judged is not None
        q, grade = judged
        slip = self.view.calls.slip
        if not grade.correct or slip is None:
            return FoulCalled(grade=grade, recorded=q, where=where)
        events = _dealt(self.view).events
        return FoulCalled(grade=grade, recorded=q, where=where, caught=True,
                          correction=slip.delta(events, self.view.learner),
                          revealed=tuple(seen_cards([events[i] for i in sorted(slip.hidden)])))

    def close(self) -> FoulCalled:
        """The round's calls closed: an error not called is graded missed (the money stays as the dealer
        paid it); nothing is graded on a clean or fixed round."""
        judged = judge_call(self.view, None)
        if judged is None:
            return FoulCalled(grade=None, where=None)
        q, grade = judged
        return FoulCalled(grade=grade, recorded=q, where=None)
