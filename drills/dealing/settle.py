"""Settle a whole table, as at a dealer audition: seat by seat from third base, take, push or pay.

Each question is one seat of a table dealt from a real shoe (`drills.dealing.settle_table`); the whole
table is shown with the seat to settle marked, in the dealer's order (third base to first base). The answer is
`take` (the seat's bets are collected; on a surrender `take 5`, the half collected), `push`, or the
amount paid (`pay 52.50`, `52.50`, or chips: `2 green 1 red`; with `--chips`, the fewest chips). A seat
that both loses something and wins something (a split hand lost, another won; insurance lost and the
hand won) is answered with what is paid: the losing bets are taken first, by this trainer's reading of
the usual house convention (take before pay), and the explanation says both.

The time for the whole table is graded against an audition pace: a target per seat by what the seat
needs (`SEAT_PACE_MS`, data in one table, named in the intro and the verdicts). Item keys name the kind
of settlement (`settle:split`, `settle:blackjack 6:5`, `settle:insurance`, `settle:sidebet 21+3`, ...), and
a review item is dealt again as a one-seat table until a seat of that kind comes up.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import ClassVar

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Lines, Question, Setting
from drills.dealing.payout import CHIPS_SETTING
from drills.dealing.payout_answers import expected_text, grade_payout, read_chip_setting, read_payout
from drills.dealing.settle_table import SeatHabits, SeatToSettle, TableToSettle, deal_table
from drills.settings import check_settings, practice_table, read_late_surrender
from trainer.core.chips import ChipSet
from trainer.core.errors import InvalidInputError
from trainer.core.money import Money, Ratio, format_money, parse_money
from trainer.core.rules import Double, Ruleset, Surrender
from trainer.core.shoe import Shoe
from trainer.core.sidebets import SideBet, SideBetKind, parse_sidebet_names

SEAT_PACE_MS = {"take": 1500, "push": 1500, "win": 2500, "blackjack": 3000, "double": 3000,
                "surrender": 2000, "even-money": 2000, "insurance": 3500, "split": 5000, "sidebet": 3500}
"""The audition pace: how long a trained dealer takes to settle a seat of each kind (this trainer's
targets; a table's pace is the sum over its seats)."""
KINDS = ("win", "lose", "push", "blackjack", "double", "split", "surrender", "insurance", "even-money")
_SETTINGS = ("ratio", "surrender", "sidebets", "chips")
MAX_LINE = 60
"""Answers longer than this are refused before they are read."""


def _pace_key(seat: SeatToSettle) -> str:
    kind = seat.kind
    if kind.startswith("sidebet"):
        return "sidebet"
    if kind == "lose":
        return "take"
    return kind


def pace_ms(seats: Sequence[SeatToSettle]) -> int:
    """The audition pace for a table: the sum of its seats' targets."""
    return sum(SEAT_PACE_MS[_pace_key(s)] for s in seats)


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.1f} s"


class SettleDrill(DrillBase):
    """Settle every seat of a table in the dealer's order, right and at audition pace."""

    name: ClassVar[str] = "settle"
    title: ClassVar[str] = "Settle a table"
    target_ms: ClassVar[int | None] = SEAT_PACE_MS["win"]
    reads: ClassVar[Mapping[str, str]] = {"seats": "Seats at each table (1-7).",
                                          "chips": "Pay in the fewest chips, e.g. '2 green 1 red'."}
    set_keys: ClassVar[tuple[Setting, ...]] = (
        Setting(key="ratio", values=("3:2", "6:5", "1:1"), help="practise another blackjack ratio"),
        Setting(key="surrender", values=("late", "none"), help="practise late surrender where there is none"),
        Setting(key="sidebets", example="21+3,perfect-pairs", help="side bets the table offers"),
        CHIPS_SETTING)

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        extra = self.options.extra
        check_settings(self.name, extra, _SETTINGS)
        self.chips: ChipSet = read_chip_setting(extra)
        self.in_chips = self.options.chips
        self.ratio = Ratio.parse(extra["ratio"]) if "ratio" in extra else None
        self.surrender = read_late_surrender(self.name, extra)
        self.sidebets: tuple[SideBet, ...] = (parse_sidebet_names(extra["sidebets"])
                                              if "sidebets" in extra else ())
        if any(bet.kind is SideBetKind.DEALER_BLACKJACK for bet in self.sidebets):
            raise InvalidInputError("sidebets: insurance is this table's own bet, offered under an ace and "
                                    "settled as insurance: name the other side bets")
        self._shoe: Shoe | None = None
        self._shoe_table: Ruleset | None = None
        self._queue: list[tuple[TableToSettle, SeatToSettle]] = []
        self._tables = 0
        self._table_ms: dict[int, int] = {}
        self._table_right: dict[int, int] = {}
        self._table_pace: dict[int, int] = {}

    def table(self, ruleset: Ruleset) -> Ruleset:
        return practice_table(ruleset, self.surrender, self.ratio)

    def intro(self, ruleset: Ruleset) -> list[str]:
        pace = ", ".join(f"{_seconds(ms)} {kind}" for kind, ms in SEAT_PACE_MS.items())
        lines = [
            f"Settle each table from third base (seat {self.options.seats}) to first base (seat 1): answer "
            "'take', 'push', or what you pay ('pay 35', '35'" + (", in the fewest chips" if self.in_chips
                                                              else ", or chips '1 green 2 red'") + ").",
            "House convention (this trainer's reading; houses differ): take the losing bets before paying "
            "the winners; a seat that loses one bet and wins another is answered with what you pay.",
            f"Audition pace per seat: {pace}.",
        ]
        table = self.table(ruleset)
        if table is not ruleset:
            lines.append(f"Practice rules: blackjack pays {table.payouts.blackjack}"
                         + (", late surrender" if self.surrender else "") + " (no built-in table has them).")
        if self.sidebets:
            lines.append("Side bets on this table: " + "; ".join(
                f"{b.name} (" + ", ".join(f"{o} {r}" for o, r in b.pays) + ")" for b in self.sidebets))
        return lines

    # --- dealing ------------------------------------------------------------------------------

    def _limits(self, table: Ruleset) -> tuple[Money, Money]:
        return table.table.min_bet, min(table.table.max_bet, max(table.table.bankroll, Decimal(500)))

    def _deal(self, rng: random.Random, table: Ruleset, seats: int, habits: SeatHabits) -> TableToSettle:
        if table.shoe.decks == 0 and self.sidebets:
            raise InvalidInputError(f"{table.name} deals an infinite deck with no suits: "
                                    "side bets cannot be paid")
        if self._shoe is None or self._shoe_table is not table:
            self._shoe, self._shoe_table = Shoe.shuffled(table, rng), table
        self._tables += 1
        return deal_table(rng, table, self._shoe, seats, self._tables, self.chips, self._limits(table),
                          self.sidebets, habits)

    def _check_kind(self, kind: str, table: Ruleset) -> None:
        """Refuse a kind of settlement the table cannot produce."""
        offered = {
            "insurance": table.player.insurance,
            "even-money": table.player.even_money,
            "surrender": table.player.surrender is not Surrender.NONE,
            "split": table.player.max_hands > 1,
            "double": table.player.double is not Double.NONE,
        }
        if kind.startswith("sidebet "):
            name = kind.removeprefix("sidebet ")
            if name not in {b.name for b in self.sidebets}:
                raise InvalidInputError(f"this table offers no {name} side bet (add --set sidebets={name})")
            return
        if kind.startswith("blackjack"):
            ratio = kind.removeprefix("blackjack").strip()
            if ratio and ratio != str(table.payouts.blackjack):
                raise InvalidInputError(f"{table.name} pays blackjack {table.payouts.blackjack}, not {ratio} "
                                        f"(practise it with --set ratio={ratio})")
            return
        if kind not in KINDS:
            raise InvalidInputError(f"{kind!r} is not a kind of settlement ({', '.join(KINDS)}, "
                                    "blackjack 3:2, sidebet NAME)")
        if not offered.get(kind, True):
            raise InvalidInputError(f"{table.name} has no {kind}")

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        try:
            self._check_kind(_kind_of(item), self.table(ruleset))
        except InvalidInputError as e:
            return str(e)
        return None

    def _seat_for(self, rng: random.Random, table: Ruleset, kind: str) -> tuple[TableToSettle, SeatToSettle]:
        """A one-seat table whose seat is of `kind` (dealt again until it is: every table is real)."""
        self._check_kind(kind, table)
        habits = SeatHabits(insure=1.0 if kind == "insurance" else 0.0,
                            even_money=1.0 if kind == "even-money" else 0.0,
                            sidebet=1.0 if kind.startswith("sidebet") else 0.0)
        for _ in range(20_000):
            dealt = self._deal(rng, table, 1, habits)
            if _item_kind(dealt.seats[0], table) == kind:
                return dealt, dealt.seats[0]
        raise InvalidInputError(f"no {kind} seat came up in 20,000 tables")

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        table = self.table(ruleset)
        if item:
            dealt, seat = self._seat_for(rng, table, _kind_of(item))
        else:
            if not self._queue:
                seats = min(self.options.seats, table.table.seats)
                dealt = self._deal(rng, table, seats, SeatHabits())
                self._queue = [(dealt, s) for s in dealt.order()]
                self._table_pace[dealt.number] = pace_ms(dealt.seats)
            dealt, seat = self._queue.pop(0)
        self._table_pace.setdefault(dealt.number, pace_ms(dealt.seats))
        return self._question(table, dealt, seat, last=not self._queue)

    def _question(self, table: Ruleset, dealt: TableToSettle, seat: SeatToSettle, last: bool) -> Question:
        lines = [f"Table {dealt.number} — {dealt.dealer_line()}"]
        for other in dealt.order():
            mark = "›" if other is seat else " "
            base = " (third base)" if other.seat == len(dealt.seats) and len(dealt.seats) > 1 else \
                " (first base)" if other.seat == 1 and len(dealt.seats) > 1 else ""
            lines.append(f"{mark} Seat {other.seat}{base}: {other.lines(self.in_chips)[0]}")
        expected = self.expected(seat)
        data: dict[str, JSON] = {
            "situation": "settle-table",
            "table": dealt.number,
            "seat": seat.seat,
            "order": [s.seat for s in dealt.order()],
            "last_seat": last,
            "dealer": {"cards": [str(c) for c in dealt.dealer], "total": dealt.dealer_total,
                       "blackjack": dealt.dealer_blackjack},
            "seats": [_seat_json(s) for s in dealt.seats],
            "blackjack_pays": str(table.payouts.blackjack),
            "answer_in": "chips" if self.in_chips else "amount",
            "pace_ms": SEAT_PACE_MS[_pace_key(seat)],
            "table_pace_ms": self._table_pace.get(dealt.number, pace_ms(dealt.seats)),
        }
        if self.in_chips:
            data["chips"] = self.chips.as_dict()
        return Question(
            drill=self.name, item=f"{self.name}:{_item_kind(seat, table)}",
            prompt=f"Seat {seat.seat}: take, push, or pay how much?", data=data, expected=expected,
            target_ms=SEAT_PACE_MS[_pace_key(seat)], show=(Lines(lines=tuple(lines)),),
            explanation=self._explanation(dealt, seat))

    def _explanation(self, dealt: TableToSettle, seat: SeatToSettle) -> str:
        why = seat.explanation(dealt.dealer_total, dealt.dealer_blackjack)
        if self.in_chips and seat.paid > 0:
            why += f" In chips: {expected_text(seat.paid, self.chips, True)}."
        return why

    def expected(self, seat: SeatToSettle) -> str:
        """What the dealer answers for this seat: the pay, "push", or what is taken."""
        if seat.paid > 0:
            return expected_text(seat.paid, self.chips, self.in_chips)
        if seat.taken == 0:
            return "push"
        if seat.surrendered:
            return f"take {format_money(seat.taken)}"
        return "take"

    # --- answers ------------------------------------------------------------------------------

    def parse(self, question: Question, text: str) -> Answer:
        cleaned = " ".join(text.strip().lower().split())
        if len(cleaned) > MAX_LINE:
            raise InvalidInputError(f"an answer here is 'take', 'push' or an amount, not {len(cleaned)} "
                                    "characters")
        if cleaned in ("push", "p"):
            return Answer(text=text, value={"kind": "push"})
        if cleaned in ("take", "t") or cleaned.startswith("take "):
            rest = cleaned.removeprefix("take").strip()
            amount = str(parse_money(rest.lstrip("$"))) if rest else None
            return Answer(text=text, value={"kind": "take", "amount": amount})
        if not cleaned:
            raise InvalidInputError("answer 'take', 'push', or what you pay, e.g. 'pay 35' or "
                                    "'1 green 2 red'")
        paid = read_payout(question, cleaned.removeprefix("pay").strip())
        return Answer(text=text, value={"kind": "pay", **paid.value})

    def grade(self, question: Question, answer: Answer) -> Grade:
        value = answer.value
        expected = question.expected
        table_no = int(question.data["table"])
        if value["kind"] == "pay":
            if expected in ("push", "take") or expected.startswith("take "):
                grade = Grade(correct=False, expected=expected, given=f"pay {value['amount']}",
                              explanation=question.explanation, verdict=f"nothing is paid here: {expected}")
            else:
                grade = grade_payout(question, Answer(text=answer.text, value={
                    "amount": value["amount"], "chips": value["chips"]}, latency_ms=answer.latency_ms))
                grade = Grade(correct=grade.correct, expected=expected, given=f"pay {grade.given}",
                              explanation=question.explanation, verdict=grade.verdict, detail=grade.detail)
        else:
            given = value["kind"] + (f" {format_money(Decimal(value['amount']))}"
                                     if value.get("amount") else "")
            if value["kind"] == "push":
                correct = expected == "push"
            elif expected.startswith("take "):
                correct = value.get("amount") is not None and \
                    Decimal(value["amount"]) == parse_money(expected.removeprefix("take "))
            else:
                correct = expected == "take" and (value.get("amount") is None or Decimal(value["amount"]) ==
                                                  _taken_of(question))
            grade = Grade(correct=correct, expected=expected, given=given, explanation=question.explanation)
        return self._time_table(question, answer, grade, table_no)

    def _time_table(self, question: Question, answer: Answer, grade: Grade, table_no: int) -> Grade:
        """Add this seat's time to its table's; on the table's last seat, the table against its pace."""
        self._table_ms[table_no] = self._table_ms.get(table_no, 0) + (answer.latency_ms or 0)
        self._table_right[table_no] = self._table_right.get(table_no, 0) + int(grade.correct)
        if not question.data.get("last_seat"):
            return grade
        spent, pace = self._table_ms[table_no], int(question.data["table_pace_ms"])
        seats = len(question.data["seats"])
        right = self._table_right[table_no]
        verdict = (f"table {table_no}: {right} of {seats} right in {_seconds(spent)}, audition pace "
                   f"{_seconds(pace)}: {'within it' if spent <= pace else 'too slow'}")  # fits 80 columns
        detail = {**grade.detail, "table_ms": spent, "table_pace_ms": pace, "table_right": right}
        return Grade(correct=grade.correct, expected=grade.expected, given=grade.given,
                     explanation=grade.explanation,
                     verdict="; ".join(v for v in (grade.verdict, verdict) if v), detail=detail)

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        lines = super().summary(grades)
        timed = [g.detail for g in grades if "table_ms" in g.detail]
        if timed:
            within = sum(int(d["table_ms"]) <= int(d["table_pace_ms"]) for d in timed)
            clean = sum(int(d["table_right"]) == n for d, n in zip(timed, self._seat_counts(grades),
                                                                  strict=False))
            tables = f"{len(timed)} table{'s' if len(timed) != 1 else ''}"
            lines.append(f"{tables} settled: {within} within audition pace, {clean} without a mistake")
        return lines

    def _seat_counts(self, grades: Sequence[Grade]) -> list[int]:
        """Seats per finished table, in order (a table's seats are its grades up to its timing)."""
        counts, run = [], 0
        for grade in grades:
            run += 1
            if "table_ms" in grade.detail:
                counts.append(run)
                run = 0
        return counts


def _taken_of(question: Question) -> Decimal:
    seat = next(s for s in question.data["seats"] if s["seat"] == question.data["seat"])
    return Decimal(seat["taken"])


def _kind_of(item: str) -> str:
    drill, _, kind = item.partition(":")
    if drill != "settle" or not kind:
        raise InvalidInputError(f"{item!r} is not a settle item (e.g. settle:split, settle:blackjack 3:2)")
    return kind


def _item_kind(seat: SeatToSettle, table: Ruleset) -> str:
    kind = seat.kind
    return f"blackjack {table.payouts.blackjack}" if kind == "blackjack" else kind


def _seat_json(seat: SeatToSettle) -> dict[str, JSON]:
    data: dict[str, JSON] = {
        "seat": seat.seat,
        "bet": format_money(seat.bet),
        "bet_chips": seat.stack.as_dict(),
        "hands": [{"cards": [str(c) for c in h.cards], "bet": format_money(h.bet), "doubled": h.doubled,
                   "total": h.total, "outcome": h.outcome.value} for h in seat.hands],
        "surrendered": seat.surrendered,
        "taken": format_money(seat.taken),
    }
    if seat.insurance is not None:
        data["insurance"] = format_money(seat.insurance[0])
    if seat.even_money is not None:
        data["even_money"] = True
    if seat.sidebet is not None:
        data["sidebet"] = {"name": seat.sidebet.bet.name, "stake": format_money(seat.sidebet.stake),
                           "pays": {o: str(r) for o, r in seat.sidebet.bet.pays},
                           "cards": [str(c) for c in seat.sidebet.cards]}
    return data
