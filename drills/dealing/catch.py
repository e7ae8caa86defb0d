"""Catch the dealer's mistakes: a table settled out loud, sometimes with one realistic error in it.

A counter gains from catching dealer mistakes, and a dealer trainee learns what the floor looks for.
Each question is a real table (`drills.dealing.settle_table`) that the computer dealer plays out and settles
seat by seat, aloud; at the drill's error rate (`--set rate=0.3`, the share of tables with an error) one
realistic mistake is slipped in: paying a losing hand, short-paying a blackjack (1:1, or 6:5 at a 3:2
table), paying insurance 1:1, taking a push, busting a soft hand counted hard (A 5 K called 26), or
standing a many-card 16 as 17. The learner answers `ok`, or calls a foul naming where it is: `f 3`
(seat 3) or `f dealer` (the dealer's own hand). A catch names the right place; calling a foul on a clean
table is a false call; both are graded, recorded and reviewed (`catch:<error>`, `catch:clean`). The
error kinds are `trainer.core.dealer_errors`'s, which `cutcard play --dealer-errors` slips in too.

The dealer settles from third base to first base, one seat at a time (take-and-pay, as `drill settle`
and `cutcard play` do). At a pitch game (`casino --decks 1`, `Ruleset.players_face_down`) the table is
narrated as it is dealt: the players hold their first two cards face down, and the dealer calls each
hand's play as the round's events show it: a bust turned up and taken at once, a double or a split
turned up first, a natural turned and paid when it is paid; then the dealer's hand, then every hand
still held is turned up and settled, third base first. A mistake is slipped in only where a pitch-game
dealer makes that call (a bust is never paid at the settlement: it was taken when it busted).
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Lines, Question, Setting
from drills.dealing.settle_table import SeatHabits, SeatToSettle, TableToSettle, deal_table
from drills.settings import check_settings
from trainer.core.cards import Card, say_cards
from trainer.core.chips import DEFAULT_CHIPS
from trainer.core.dealer_errors import (
    ERROR_WORDS,
    ERRORS,
    dealer_slip_point,
    forged_net,
    short_ratio,
)
from trainer.core.errors import InvalidInputError
from trainer.core.events import (
    CardsTurned,
    DealerStood,
    Dealt,
    Doubled,
    Hit,
    Insured,
    Outcome,
    Settled,
    SplitHand,
    Stood,
    Surrendered,
    TookEvenMoney,
)
from trainer.core.hands import hand_total
from trainer.core.money import Money, Ratio, format_money
from trainer.core.rules import Ruleset
from trainer.core.shoe import Shoe

DEFAULT_RATE = 0.3
TARGET_MS = 8000
MAX_LINE = 40


@dataclass(frozen=True, slots=True, kw_only=True)
class Call:
    """What the dealer says at one place: the dealer's hand, or a seat's settlement."""

    where: str
    """'dealer' or the seat number as text."""
    says: str
    name: str = ""
    """How the call names its place on the screen, where not `where` ('2 hand 1': a split seat's hand)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableMistake:
    """The error slipped into a table (or none), and where it is."""

    error: str | None
    where: str | None
    truth: str
    """What the dealer should have done there."""


def _dealer_call(cards: Sequence[Card]) -> str:
    total, soft = hand_total(cards)
    if total > 21:
        return f"{say_cards(cards)}: {total}, bust"
    return f"{say_cards(cards)}: {'soft ' if soft else ''}{total}, stands"


def _seat_call(seat: SeatToSettle) -> str:
    if seat.paid > 0 and seat.taken > 0:
        return f"takes ${format_money(seat.taken)}, pays ${format_money(seat.paid)}"
    if seat.paid > 0:
        return f"pays ${format_money(seat.paid)}"
    if seat.taken > 0:
        return f"takes ${format_money(seat.taken)}"
    return "push"


HELD = "▒▒ ▒▒"
"""A pitch game's two held cards, as `cutcard play` shows them."""


def _fitted(lines: list[str]) -> list[str]:
    """Each line wrapped at word boundaries to the 80-column screen, its next lines indented."""
    return [part for line in lines
            for part in textwrap.wrap(line, 80, subsequent_indent="      ", break_long_words=False)]


def _seat_lines(table: TableToSettle) -> list[str]:
    return [f"Seat {s.seat}: {s.lines(False)[0]}" for s in table.order()]


def _pitch_lines(table: TableToSettle) -> list[str]:
    """A pitch game's table as dealt: every seat's bet over two held cards, the dealer's up card."""
    return [*(f"Seat {s.seat}: bet ${format_money(s.bet)}; {HELD}" for s in table.order()),
            f"Dealer: {say_cards(table.dealer[:1])} ▒▒"]


def _early_hands(table: TableToSettle) -> set[tuple[int, int]]:
    """(seat number, hand) of each hand settled before the dealer's turn: a bust, a natural paid at once,
    a surrender, even money."""
    early: set[tuple[int, int]] = set()
    for event in table.events:
        if isinstance(event, DealerStood):
            break
        if isinstance(event, Settled):
            early.add((event.seat + 1, event.hand))
    return early


def _money_call(paid: Money, taken: Money) -> str:
    if paid and taken:
        return f"takes ${format_money(taken)}, pays ${format_money(paid)}"
    return f"pays ${format_money(paid)}" if paid else f"takes ${format_money(taken)}" if taken else "push"


def _late_call(seat: SeatToSettle, early: set[tuple[int, int]], nets: Sequence[Money] | None = None) -> str:
    """What the dealer does at the seat at the settlement: its hands not settled before, and insurance
    (`nets`: each hand's net as the dealer pays it, the true ones if None)."""
    paid, taken = Decimal(0), Decimal(0)
    for number, hand in enumerate(seat.hands):
        net = hand.net if nets is None else nets[number]
        if (seat.seat, number) not in early:
            paid, taken = (paid + net, taken) if net > 0 else (paid, taken - net)
    if seat.insurance is not None:
        stake, net = seat.insurance
        paid, taken = (paid + net, taken) if net > 0 else (paid, taken + stake)
    return _money_call(paid, taken)


def _pitch_calls(table: TableToSettle, dealer: Call, says: Mapping[int, str],
                 late: Mapping[int, str]) -> list[Call]:
    """A pitch game called as it is dealt: each hand's play (a hand settled before the dealer's turn is
    called there, `says` for a one-hand seat), the dealer's hand, then the settlement third base first."""
    seats = {s.seat: s for s in table.seats}
    early = _early_hands(table)
    parts: dict[tuple[int, int], list[str]] = {}
    turned_late: dict[int, str] = {}
    for event in table.events:
        if isinstance(event, DealerStood):
            break
        key, part = _play_part(event, seats, says)
        if part is not None:
            parts.setdefault(key, []).append(part)
    for event in table.events[table.events.index(_dealer_stood(table)):]:
        if isinstance(event, CardsTurned):
            turned_late[event.seat + 1] = (turned_late.get(event.seat + 1, "") +
                                            f"turns up {say_cards(event.cards)}: ")
    calls = []
    for (number, hand), words in parts.items():
        name = f"{number} hand {hand + 1}" if len(seats[number].hands) > 1 and hand >= 0 else str(number)
        calls.append(Call(where=str(number), says=", ".join(words), name=name))
    calls.append(dealer)
    for seat in table.order():
        settled = all((seat.seat, n) in early for n in range(len(seat.hands)))
        if settled and seat.insurance is None:
            continue  # taken or paid when it happened
        what = "insurance: " if settled else turned_late.get(seat.seat, "")
        calls.append(Call(where=str(seat.seat), says=what + late[seat.seat]))
    return calls


def _play_part(event: object, seats: Mapping[int, SeatToSettle],
               says: Mapping[int, str]) -> tuple[tuple[int, int], str | None]:
    """(seat number, hand) and what the dealer calls for one event of the play (None: nothing to call)."""
    match event:
        case Insured():
            return (event.seat + 1, -1), f"insures ${format_money(event.amount)}"  # a line of the offers
        case TookEvenMoney():
            return (event.seat + 1, 0), "takes even money"
        case Surrendered():
            return (event.seat + 1, event.hand), "surrenders"
        case CardsTurned():
            return (event.seat + 1, event.hand), f"turns up {say_cards(event.cards)}"
        case Hit():
            return (event.seat + 1, event.hand), f"hits {say_cards([event.card])}"
        case Doubled():
            return (event.seat + 1, event.hand), (f"doubles to ${format_money(event.bet)}, "
                                                   f"gets {say_cards([event.card])}")
        case SplitHand():
            return (event.seat + 1, event.hand), f"splits, gets {say_cards([event.card])}"
        case Dealt() if event.hand > 0:
            return (event.seat + 1, event.hand), f"gets {say_cards([event.card])}"
        case Stood():
            return (event.seat + 1, event.hand), "stands"
        case Settled():
            seat = seats[event.seat + 1]
            net = seat.hands[event.hand].net
            call = (says[seat.seat] if len(seat.hands) == 1 and seat.insurance is None
                    else _money_call(max(net, Decimal(0)), max(-net, Decimal(0))))
            word = {Outcome.BUST: "busts", Outcome.BLACKJACK: "blackjack"}.get(event.outcome)
            return (event.seat + 1, event.hand), f"{word}: {call}" if word else call
    return (0, 0), None


def _dealer_stood(table: TableToSettle) -> DealerStood:
    return next(e for e in table.events if isinstance(e, DealerStood))


class CatchDrill(DrillBase):
    """Watch the dealer play and settle; call a foul where the dealer got it wrong, and only there."""

    name: ClassVar[str] = "catch"
    title: ClassVar[str] = "Catch dealer errors"
    target_ms: ClassVar[int | None] = TARGET_MS
    reads: ClassVar[Mapping[str, str]] = {
        "seats": "Seats at each table (1-7).",
        "decks": "Deal from this many decks (casino at 1 or 2: a pitch game, the players' cards face down)."}
    set_keys: ClassVar[tuple[Setting, ...]] = (
        Setting(key="rate", example="0.3", help="the share of tables with a dealer error, 0 to 1"),)

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        check_settings(self.name, self.options.extra, ("rate",))
        text = self.options.extra.get("rate", str(DEFAULT_RATE))
        try:
            self.rate = float(text) if len(text) < 10 else -1.0
        except ValueError:
            self.rate = -1.0
        if not 0 <= self.rate <= 1:
            raise InvalidInputError(f"catch: rate={text!r}: expected the share of tables with an error, "
                                    "0 to 1")
        self._shoe: Shoe | None = None
        self._tables = 0
        self._shown = 0

    def _table(self, ruleset: Ruleset) -> Ruleset:
        decks = self.options.decks
        return ruleset.with_decks(decks) if decks else ruleset

    def intro(self, ruleset: Ruleset) -> list[str]:
        ruleset = self._table(ruleset)
        return [f"The dealer plays and settles each table aloud; about {self.rate:.0%} of tables have one "
                "mistake. Answer 'ok', or call the foul where it is: 'f 3' (seat 3) or 'f dealer'.",
                "Mistakes dealers make: " + "; ".join(ERROR_WORDS.values()) + ".",
                *(["A pitch game: the players hold their cards face down. The dealer takes a bust at once, "
                   "turns up a double or a split first, and turns every held hand at the settlement, third "
                   "base first."] if ruleset.players_face_down else [])]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        kind = item.removeprefix("catch:")
        if not item.startswith("catch:") or kind not in (*ERRORS, "clean"):
            return f"{item!r} is not a catch item (catch:clean or catch:{'|'.join(ERRORS)})"
        if kind == "insurance-short" and not ruleset.player.insurance:
            return f"{ruleset.name} offers no insurance"
        if kind == "short-blackjack" and ruleset.payouts.blackjack not in (Ratio(3, 2), Ratio(6, 5)):
            return f"{ruleset.name} pays blackjack {ruleset.payouts.blackjack}"
        return None

    def _deal(self, rng: random.Random, ruleset: Ruleset, seats: int, habits: SeatHabits) -> TableToSettle:
        if self._shoe is None:
            self._shoe = Shoe.shuffled(ruleset, rng)
        self._tables += 1
        top = min(ruleset.table.max_bet, max(ruleset.table.bankroll, Decimal(500)))
        limits = (ruleset.table.min_bet, top)
        return deal_table(rng, ruleset, self._shoe, seats, self._tables, DEFAULT_CHIPS, limits, (), habits)

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        ruleset = self._table(ruleset)
        if item:
            reason = self.cannot_ask(item, ruleset)
            if reason:
                raise InvalidInputError(reason)
            wanted: str | None = item.removeprefix("catch:")
        else:
            # only a mistake this table can have (no insurance short-paid where none is offered)
            possible = [e for e in ERRORS if self.cannot_ask(f"catch:{e}", ruleset) is None]
            wanted = rng.choice(possible) if rng.random() < self.rate else "clean"
        seats = min(self.options.seats, ruleset.table.seats)
        habits = SeatHabits(insure=1.0 if wanted == "insurance-short" else 0.3)
        for _ in range(5000):
            table = self._deal(rng, ruleset, seats, habits)
            made = _slip(rng, table, ruleset, None if wanted == "clean" else wanted)
            if made is not None:
                calls, slip = made
                break
        else:
            raise InvalidInputError(f"no table with a {wanted} came up in 5,000 deals")
        self._shown += 1
        pitch = ruleset.players_face_down
        at_seats = _pitch_lines(table) if pitch else _seat_lines(table)
        called = [f"Dealer: {c.says}" if c.where == "dealer" else f"  seat {c.name or c.where}: {c.says}"
                  for c in calls]
        # a seat's or a play's line can run long (a split seat's hands, many hits): wrapped to 80 columns
        lines = [f"Table {self._shown}" + (" (a pitch game: the players hold their cards)" if pitch else ""),
                 *_fitted(at_seats), "", *_fitted(called)]
        data: dict[str, JSON] = {
            "situation": "catch", "table": self._shown,
            "seats": [{"seat": s.seat, "bet": format_money(s.bet),
                       "hands": [{"cards": [str(c) for c in h.cards], "bet": format_money(h.bet),
                                  "outcome": h.outcome.value} for h in s.hands],
                       "insurance": format_money(s.insurance[0]) if s.insurance else None}
                      for s in table.seats],
            "calls": [{"where": c.where, "says": c.says} for c in calls],
            "pitch": pitch,
            "blackjack_pays": str(ruleset.payouts.blackjack),
        }
        expected = "ok" if slip.where is None else f"f {slip.where}"
        why = ("Clean: every call was right." if slip.error is None else
               f"The dealer {ERROR_WORDS[slip.error]} at {_place(slip.where)}: {slip.truth}.")
        return Question(drill=self.name, item=f"catch:{slip.error or 'clean'}",
                        prompt="ok, or f SEAT / f dealer?", data=data, expected=expected,
                        target_ms=TARGET_MS, show=(Lines(lines=tuple(lines)),), explanation=why)

    def parse(self, question: Question, text: str) -> Answer:
        words = " ".join(text.strip().lower().split())
        if len(words) > MAX_LINE:
            raise InvalidInputError("answer 'ok', or 'f 3' / 'f dealer'")
        if words in ("ok", "o", "clean", "no", ""):
            if not words:
                raise InvalidInputError("answer 'ok', or call the foul: 'f 3' (seat 3) or 'f dealer'")
            return Answer(text=text, value={"call": None})
        head, _, where = words.partition(" ")
        if head not in ("f", "foul"):
            raise InvalidInputError(f"{text.strip()!r}: answer 'ok', or 'f 3' (seat 3) or 'f dealer'")
        where = where.removeprefix("seat").strip()
        places = {"dealer", *(str(s["seat"]) for s in question.data["seats"])}
        if where in ("d", "dealer"):
            where = "dealer"
        if where not in places:
            seats = ", ".join(sorted(places - {"dealer"}))
            raise InvalidInputError(f"name where the foul is: a seat ({seats}) or 'dealer'")
        return Answer(text=text, value={"call": where})

    def grade(self, question: Question, answer: Answer) -> Grade:
        call = answer.value["call"]
        expected = question.expected
        truth = None if expected == "ok" else expected.removeprefix("f ")
        given = "ok" if call is None else f"f {call}"
        if truth is None:
            verdict = "clean table" if call is None else "false call"
        elif call is None:
            verdict = "missed"
        else:
            verdict = "caught" if call == truth else f"wrong place (the foul was at {_place(truth)})"
        return Grade(correct=call == truth, expected=expected, given=given, explanation=question.explanation,
                     verdict=verdict, detail={"outcome": verdict.split(" (")[0]})

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        lines = super().summary(grades)
        outcomes = [str(g.detail.get("outcome", "")) for g in grades]
        if grades:
            lines.append(f"{outcomes.count('caught')} caught, {outcomes.count('missed')} missed, "
                         f"{outcomes.count('false call')} false calls")
        return lines


def _place(where: str | None) -> str:
    return "the dealer's hand" if where == "dealer" else f"seat {where}"


def _slip(rng: random.Random, table: TableToSettle, ruleset: Ruleset,
          error: str | None) -> tuple[list[Call], TableMistake] | None:
    """The dealer's calls for this table with `error` slipped in, or None if the table cannot have it."""
    dealer = Call(where="dealer", says=_dealer_call(table.dealer))
    seat_calls = {s.seat: _seat_call(s) for s in table.seats}
    pitch = ruleset.players_face_down
    early = _early_hands(table) if pitch else set()
    late = {s.seat: _late_call(s, early) for s in table.seats}
    slip = TableMistake(error=None, where=None, truth="")
    if error in ("soft-counted-hard", "many-card-16-as-17"):
        made = _dealer_slip(table, error)
        if made is None:
            return None
        dealer, forged, truth = made
        for seat in table.seats:  # the dealer settles by the total it called
            seat_calls[seat.seat] = _settle_against(seat, forged)
            late[seat.seat] = _late_call(seat, early, [
                forged_net(h.total, h.bet, h.outcome, h.net, forged) for h in seat.hands])
        slip = TableMistake(error=error, where="dealer", truth=truth)
    elif error is not None:
        candidates = [s for s in table.seats if _fits(s, error, ruleset)
                      and not (error == "insurance-short" and (s.seat, 0) in early)]
        if not candidates:
            return None
        seat = rng.choice(candidates)
        seat_calls[seat.seat], truth = _seat_slip(seat, error, ruleset)
        late[seat.seat] = seat_calls[seat.seat]
        slip = TableMistake(error=error, where=str(seat.seat), truth=truth)
    if pitch:
        return _pitch_calls(table, dealer, seat_calls, late), slip
    return [dealer, *(Call(where=str(s.seat), says=seat_calls[s.seat]) for s in table.order())], slip


def _dealer_slip(table: TableToSettle, error: str) -> tuple[Call, int, str] | None:
    """A point in the dealer's draw where the mistake fits; the call, the total it forged, the truth."""
    cards = table.dealer
    point = dealer_slip_point(cards, error)
    if point is None:
        return None
    end, forged = point
    prefix = cards[:end]
    if error == "soft-counted-hard":
        says, truth = f"{say_cards(prefix)}: {forged}, bust", f"{say_cards(prefix)} is {forged - 10}"
        return Call(where="dealer", says=says), forged, f"{truth}: the dealer must hit"
    says = f"{say_cards(prefix)}: 17, stands"
    return Call(where="dealer", says=says), 17, f"{say_cards(prefix)} is 16: the dealer must hit"


def _settle_against(seat: SeatToSettle, dealer: int) -> str:
    """What a dealer who believes its total is `dealer` does at this seat (naturals and surrenders stand)."""
    paid, taken = Decimal(0), Decimal(0)
    for hand in seat.hands:
        net = forged_net(hand.total, hand.bet, hand.outcome, hand.net, dealer)
        paid, taken = (paid + net, taken) if net > 0 else (paid, taken - net)
    if seat.insurance is not None:
        stake, net = seat.insurance
        paid, taken = (paid + net, taken) if net > 0 else (paid, taken + stake)
    if paid and taken:
        return f"takes ${format_money(taken)}, pays ${format_money(paid)}"
    return f"pays ${format_money(paid)}" if paid else f"takes ${format_money(taken)}" if taken else "push"


def _fits(seat: SeatToSettle, error: str, ruleset: Ruleset) -> bool:
    single = len(seat.hands) == 1 and seat.insurance is None and seat.sidebet is None and not seat.surrendered
    outcome = seat.hands[0].outcome
    if error == "pays-a-loser":
        return single and outcome is Outcome.LOSE
    if error == "short-blackjack":
        return single and outcome is Outcome.BLACKJACK
    if error == "insurance-short":
        return seat.insurance is not None and seat.insurance[1] > 0 and len(seat.hands) == 1
    if error == "takes-a-push":
        return single and outcome is Outcome.PUSH
    return False


def _seat_slip(seat: SeatToSettle, error: str, ruleset: Ruleset) -> tuple[str, str]:
    """The wrong call at this seat, and what was right."""
    bet: Money = seat.bet
    right = _seat_call(seat)
    if error == "pays-a-loser":
        return f"pays ${format_money(bet)}", f"the hand lost: take ${format_money(bet)}"
    if error == "short-blackjack":
        ratio = ruleset.payouts.blackjack
        short = short_ratio(ratio, bet)
        return (f"pays ${format_money(short.pay(bet))}",
                f"blackjack pays {ratio}: ${format_money(ratio.pay(bet))}")
    if error == "insurance-short":
        assert seat.insurance is not None
        stake, net = seat.insurance
        wrong_paid = seat.paid - net + stake
        return (f"takes ${format_money(seat.taken)}, pays ${format_money(wrong_paid)}",
                f"insurance ${format_money(stake)} pays 2:1, ${format_money(net)}: {right}")
    return f"takes ${format_money(bet)}", "a tie is a push: the bet stays"
