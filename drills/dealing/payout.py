"""Dealer payout drills: pay blackjacks, insurance, even money, surrenders and split/doubled hands; colour up.

Every expected payout is what the `Round` engine settles on a stacked shoe (`drills.dealing.payout_rounds`),
so the drill and the engine cannot disagree. Bets are realistic stacks within the rule set's limits.
Situations follow the rule set: insurance only where it is offered, even money only where the rule
set offers it. Practice options, clearly labelled: `--set ratio=6:5` (a 6:5 table) and
`--set surrender=late` (late surrender), since no shipped rule set has either.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import ClassVar

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Lines, Question, Setting, refusal
from drills.dealing.payout_answers import (
    NOT_DEALER_CORRECT,
    expected_text,
    grade_payout,
    read_chip_setting,
    read_payout,
    realistic_bet,
)
from drills.dealing.payout_cases import (
    SMALL_UP_CARDS,
    Case,
    Situation,
    blackjack_case,
    even_money_case,
    insurance_case,
    settle_case,
    sidebet_case,
    surrender_case,
    winning_cards,
)
from drills.dealing.payout_rounds import (
    blackjack_payout,
    can_settle_double,
    can_settle_split,
    even_money_payout,
    insurance_payout,
    settle_seat,
    surrender_refund,
)
from drills.settings import check_settings, practice_table, read_late_surrender
from trainer.core.cards import TEN_RANKS, card
from trainer.core.chips import ChipSet, Stack, fewest_chips, stack_from_counts
from trainer.core.errors import InvalidInputError
from trainer.core.money import Money, Ratio, format_money
from trainer.core.rules import InsuranceBet, Ruleset, Surrender
from trainer.core.sidebets import SideBet, parse_sidebet_names

SITUATIONS = tuple(Situation)
TARGET_MS = {Situation.BLACKJACK: 3000, Situation.INSURANCE: 3000, Situation.EVEN_MONEY: 2000,
             Situation.SURRENDER: 2500, Situation.SETTLE: 7000, Situation.SIDEBET: 4000}
"""Dealer pace: how fast a trained dealer pays each situation."""
COLOR_UP_TARGET_MS = 8000
"""Dealer pace: how fast a trained dealer colours up a pile."""
_WEIGHTS = {Situation.BLACKJACK: 4, Situation.INSURANCE: 2, Situation.EVEN_MONEY: 1, Situation.SURRENDER: 2,
            Situation.SETTLE: 3, Situation.SIDEBET: 2}
_SETTINGS = ("ratio", "surrender", "situation", "chips", "sidebets")
CHIPS_SETTING = Setting(key="chips", example="white:1,red:5,green:25,black:100",
                help="the chip tray: colour:value pairs")


@dataclass(frozen=True, slots=True, kw_only=True)
class PayoutSettings:
    """The drill's `--set` options, read once."""

    ratio: Ratio | None
    """A practice blackjack ratio (`--set ratio=6:5`), or None for the rule set's own."""
    surrender: bool
    """Practice late surrender (`--set surrender=late`)."""
    situations: tuple[Situation, ...]
    chips: ChipSet
    in_chips: bool
    sidebets: tuple[SideBet, ...] = ()
    """Side bets the practice table offers (`--set sidebets=21+3,perfect-pairs`)."""

    def table(self, ruleset: Ruleset) -> Ruleset:
        """The rule set the questions are paid under: the session's, with any practice rule applied."""
        return practice_table(ruleset, self.surrender, self.ratio)


def read_settings(options: DrillOptions) -> PayoutSettings:
    """The payout drill's settings from `--chips` and `--set KEY=VALUE`."""
    extra = options.extra
    check_settings("payout", extra, _SETTINGS)
    ratio = Ratio.parse(extra["ratio"]) if extra.get("ratio") else None
    surrender = read_late_surrender("payout", extra)
    names = tuple(s.strip() for s in extra.get("situation", "").split(",") if s.strip())
    for name in names:
        if name not in SITUATIONS:
            raise InvalidInputError(f"situation={name!r}: expected some of {', '.join(SITUATIONS)}")
    wanted = tuple(Situation(name) for name in names)
    sidebets = parse_sidebet_names(extra["sidebets"]) if extra.get("sidebets") else ()
    return PayoutSettings(ratio=ratio, surrender=surrender, situations=wanted or SITUATIONS,
                          chips=read_chip_setting(extra), in_chips=options.chips, sidebets=sidebets)


def practice_notes(ruleset: Ruleset, table: Ruleset) -> list[str]:
    """Say plainly which rules of the `table` paid at are practice, not the rule set's."""
    notes = []
    ratio = table.payouts.blackjack
    if ratio != ruleset.payouts.blackjack:
        notes.append(f"Practice: blackjack pays {ratio} here, as on a {ratio} table; "
                     f"{ruleset.name} itself pays {ruleset.payouts.blackjack}.")
    if table.player.surrender is not Surrender.NONE and ruleset.player.surrender is Surrender.NONE:
        notes.append(f"Practice: late surrender (half the bet back); {ruleset.name} offers no surrender.")
    return notes


def _offers(table: Ruleset, situation: Situation) -> bool:
    """True when a dealer meets the situation at this table."""
    if situation is Situation.INSURANCE:
        return table.player.insurance and 1 in table.dealer.peek
    if situation is Situation.EVEN_MONEY:
        return table.player.insurance and table.player.even_money
    if situation is Situation.SURRENDER:
        return table.player.surrender is not Surrender.NONE
    if situation is Situation.SETTLE:
        return can_settle_split(table) or can_settle_double(table)
    return True


def offered(ruleset: Ruleset, settings: PayoutSettings) -> tuple[Situation, ...]:
    """The situations a dealer meets at this table (with the practice rules)."""
    table = settings.table(ruleset)
    found = [name for name in settings.situations
             if (bool(settings.sidebets) if name is Situation.SIDEBET else _offers(table, name))]
    if not found:
        hints = []
        if Situation.SIDEBET in settings.situations:
            hints.append("side bets need --set sidebets=21+3 (or another side bet)")
        if Situation.SURRENDER in settings.situations:
            hints.append("surrender can be practised with --set surrender=late")
        hint = "; ".join(hints) or "insurance, even money and surrender are not offered everywhere"
        raise InvalidInputError(f"{ruleset.name} has none of the situations {', '.join(settings.situations)} "
                                f"({hint})")
    return tuple(found)


def _bet_limits(ruleset: Ruleset) -> tuple[Money, Money]:
    """The bets to draw from: the table limits, capped at what a player at this table really bets."""
    table = ruleset.table
    return table.min_bet, min(table.max_bet, max(table.bankroll, Decimal(500)))


class PayoutDrill(DrillBase):
    """Pay it as a dealer does: the right amount, at dealer pace, and in chip mode with the fewest chips."""

    name = "payout"
    title = "Dealer payouts"
    target_ms = TARGET_MS[Situation.BLACKJACK]
    reads: ClassVar[Mapping[str, str]] = {"chips": ""}
    set_keys: ClassVar[tuple[Setting, ...]] = (
        Setting(key="situation", values=SITUATIONS, help="the situations to pay, comma-separated"),
        Setting(key="ratio", values=("3:2", "6:5", "1:1"), help="practise another blackjack ratio"),
        Setting(key="surrender", values=("late", "none"), help="practise late surrender where there is none"),
        Setting(key="sidebets", example="21+3,perfect-pairs",
                help="winning side bets to pay from their tables"),
        CHIPS_SETTING)

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        self.settings = read_settings(self.options)

    def intro(self, ruleset: Ruleset) -> list[str]:
        names = ", ".join(offered(ruleset, self.settings))
        how = ("in chips, fewest first: e.g. '2 green 1 red 1 pink'" if self.settings.in_chips
               else "as an amount (52.50) or in chips")
        return [f"Pay at {ruleset.name}: {names}. Answer {how}.",
                *practice_notes(ruleset, self.settings.table(ruleset))]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: _case_for_item(random.Random(0), ruleset, self.settings, item))

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        if item:
            table, case = _case_for_item(rng, ruleset, self.settings, item)
        else:
            table = self.settings.table(ruleset)
            situations = offered(ruleset, self.settings)
            situation = rng.choices(situations, weights=[_WEIGHTS[s] for s in situations])[0]
            case = _new_case(rng, table, self.settings, situation)
        data = dict(case.data)
        data["answer_in"] = "chips" if self.settings.in_chips else "amount"
        if self.settings.in_chips:
            data["chips"] = self.settings.chips.as_dict()
        notes = practice_notes(ruleset, table)
        if notes:
            data["practice"] = notes
        how = "Answer in chips:" if self.settings.in_chips else "Amount:"
        return Question(drill=self.name, item=case.item, prompt=f"{case.prompt} {how}", data=data,
                        expected=expected_text(case.amount, self.settings.chips, self.settings.in_chips),
                        target_ms=TARGET_MS[case.situation], show=(Lines(lines=case.lines),),
                        explanation=case.why)

    def parse(self, question: Question, text: str) -> Answer:
        return read_payout(question, text)

    def grade(self, question: Question, answer: Answer) -> Grade:
        return grade_payout(question, answer)

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        lines = super().summary(grades)
        wasteful = sum(g.verdict == NOT_DEALER_CORRECT for g in grades)
        if wasteful:
            lines.append(f"{wasteful} paid the right amount in more chips than needed")
        return lines


def _payable(settings: PayoutSettings, pay: Money) -> bool:
    return not settings.in_chips or fewest_chips(pay, settings.chips) is not None


def _pays_out(settings: PayoutSettings, pay: Callable[[], Money]) -> bool:
    """`_payable` of a payout the engine deals (`pay()`), dealt only where chips must make it: an
    amount answer takes any payout, so the round need not be played to find it."""
    return not settings.in_chips or _payable(settings, pay())


def _new_case(rng: random.Random, table: Ruleset, settings: PayoutSettings, situation: Situation) -> Case:
    lowest, highest = _bet_limits(table)

    def bet_paying(pay: Callable[[Money], Money], low: Money = lowest, high: Money = highest) -> Stack:
        return realistic_bet(rng, low, high, settings.chips,
                             lambda bet: _pays_out(settings, partial(pay, bet)))

    if situation is Situation.BLACKJACK:
        ratio = table.payouts.blackjack
        ten, up = card(rng.choice(TEN_RANKS)), card(rng.choice(SMALL_UP_CARDS))
        in_fives = ratio.stake == 5 and rng.random() < 0.85  # 6:5 tables take bets in fives
        stack = realistic_bet(rng, lowest, highest, settings.chips, lambda bet: (
            not (in_fives and bet % 5) and _pays_out(settings, partial(blackjack_payout, table, bet))))
        return blackjack_case(table, stack.value, stack, ten, up)
    if situation is Situation.INSURANCE:
        stack = bet_paying(lambda bet: insurance_payout(table, bet, bet / 2), low=max(lowest, Decimal(2)))
        bet, stake = stack.value, stack.value / 2
        partial_taken = table.player.insurance_bet is InsuranceBet.UP_TO_HALF  # not where it is exactly half
        if partial_taken and rng.random() < 0.4:  # partial insurance: whole dollars under half the bet
            under = [Decimal(n) for n in range(1, int(bet / 2) + 1) if Decimal(n) < bet / 2]
            payable = [s for s in under if _pays_out(settings, partial(insurance_payout, table, bet, s))]
            stake = rng.choice(payable) if payable else stake
        return insurance_case(table, bet, stake, stack)
    if situation is Situation.EVEN_MONEY:
        stack = bet_paying(lambda bet: even_money_payout(table, bet))
        return even_money_case(table, stack.value, stack)
    if situation is Situation.SURRENDER:
        stack = bet_paying(lambda bet: surrender_refund(table, bet))
        return surrender_case(table, stack.value, stack)
    if situation is Situation.SIDEBET:
        side = rng.choice(settings.sidebets)
        outcomes = [o for o, _ in side.pays]
        outcome = rng.choices(outcomes, weights=[1 + i for i in range(len(outcomes))])[0]  # common lines more
        pays = side.ratio(outcome)
        assert pays is not None
        stack = bet_paying(pays.pay, high=min(highest, lowest * 5))
        cards, dealer_blackjack = winning_cards(rng, side, outcome)
        return sidebet_case(side, outcome, stack.value, cards, stack, dealer_blackjack=dealer_blackjack)
    split = can_settle_split(table) and (not can_settle_double(table) or rng.random() < 0.7)
    return _settle_case(rng, table, settings, split)


def _settle_case(rng: random.Random, table: Ruleset, settings: PayoutSettings, split: bool) -> Case:
    lowest, highest = _bet_limits(table)
    bet = realistic_bet(rng, lowest, max(lowest, min(highest, Decimal(200))), settings.chips,
                        lambda b: _payable(settings, b) and _payable(settings, 2 * b)).value
    seat = settle_seat(rng, table, bet, split=split)
    for _ in range(30):  # a seat with something to pay is the interesting one
        if seat.paid > 0 and _payable(settings, seat.paid):
            break
        seat = settle_seat(rng, table, bet, split=split)
    return settle_case(seat, "split" if split else "double")


def _case_for_item(rng: random.Random, ruleset: Ruleset, settings: PayoutSettings,
                   item: str) -> tuple[Ruleset, Case]:
    """The table and the question a review item names ('payout:bj 6:5:35', 'payout:surrender 25').

    The item's own practice rule applies whatever the session's: a 6:5 blackjack is paid at 6:5, a
    surrender gets late surrender where the rule set has none. `InvalidInputError` says why an item
    cannot be asked here (insurance at a table without it, a malformed item, chips that cannot pay it).
    """
    kind, _, rest = item.removeprefix("payout:").partition(" ")
    if kind == "sidebet":
        return ruleset, _sidebet_for_item(rng, settings, rest, item)
    parts = rest.split(":")
    ratio = settings.ratio
    amounts: list[Money] = []
    try:
        if kind == "settle":
            if rest not in ("split", "double"):
                raise ValueError(rest)
        elif len(parts) != {"bj": 3, "insurance": 4, "even-money": 1, "surrender": 1}[kind]:
            raise ValueError(rest)
        else:
            amounts = [Decimal(p) for p in (parts[2:] if kind in ("bj", "insurance") else parts)]
            if kind == "bj":
                ratio = Ratio.parse(":".join(parts[:2]))
    except (KeyError, ValueError, ArithmeticError):  # InvalidInputError is a ValueError too
        raise InvalidInputError(f"{item!r} is not a payout item (e.g. payout:bj 3:2:35)") from None
    situation = Situation.BLACKJACK if kind == "bj" else Situation(kind)
    surrender = settings.surrender or kind == "surrender"
    table = practice_table(ruleset, surrender, ratio)
    if not _offers(table, situation):
        raise InvalidInputError(f"{ruleset.name} has no {situation} to pay")
    if kind == "bj":
        case = blackjack_case(table, amounts[0])
    elif kind == "insurance":
        if ":".join(parts[:2]) != str(table.payouts.insurance):
            raise InvalidInputError(f"insurance pays {table.payouts.insurance} at {ruleset.name}, "
                                    f"not {':'.join(parts[:2])}")
        if table.player.insurance_bet is InsuranceBet.HALF and amounts[1] != amounts[0] / 2:
            raise InvalidInputError(f"insurance at {ruleset.name} is exactly half the bet: no partial "
                                    "insurance to pay")
        case = insurance_case(table, amounts[0], amounts[1])
    elif kind == "even-money":
        case = even_money_case(table, amounts[0])
    elif kind == "surrender":
        case = surrender_case(table, amounts[0])
    else:
        split = rest == "split"
        if not (can_settle_split(table) if split else can_settle_double(table)):
            raise InvalidInputError(f"{ruleset.name} allows no {'split' if split else 'double'} to settle")
        case = _settle_case(rng, table, settings, split)
    if not _payable(settings, case.amount):
        raise InvalidInputError(f"{format_money(case.amount)} cannot be paid in {settings.chips.describe()}")
    return table, case


def _sidebet_for_item(rng: random.Random, settings: PayoutSettings, rest: str, item: str) -> Case:
    """'payout:sidebet 21+3:flush:5': that side bet's line paid on that stake (any side bet by name)."""
    name, _, tail = rest.partition(":")
    outcome, _, amount = tail.partition(":")
    try:
        side = parse_sidebet_names(name)[0]
        stake = Decimal(amount)
    except (IndexError, ArithmeticError):
        raise InvalidInputError(f"{item!r} is not a side-bet item "
                                "(e.g. payout:sidebet 21+3:flush:5)") from None
    if side.ratio(outcome) is None:
        raise InvalidInputError(f"{side.name} pays nothing on {outcome!r}")
    cards, dealer_blackjack = winning_cards(rng, side, outcome)
    case = sidebet_case(side, outcome, stake, cards, dealer_blackjack=dealer_blackjack)
    if not _payable(settings, case.amount):
        raise InvalidInputError(f"{format_money(case.amount)} cannot be paid in {settings.chips.describe()}")
    return case


# --- colour up ---------------------------------------------------------------------------------


class ColorUpDrill(DrillBase):
    """Colour up: exchange a pile of small chips for the fewest chips of the same value."""

    name = "color-up"
    title = "Colour up"
    target_ms = COLOR_UP_TARGET_MS
    set_keys: ClassVar[tuple[Setting, ...]] = (CHIPS_SETTING,)

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        check_settings("color-up", self.options.extra, ("chips",))
        self.chips = read_chip_setting(self.options.extra)

    def intro(self, ruleset: Ruleset) -> list[str]:
        return [f"Colour up each pile into the fewest chips ({self.chips.describe()}). "
                "Answer like '3 green 2 red 1 pink'."]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: _item_amount(item, self.chips))

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        pile = _pile(rng, self.chips, _item_amount(item, self.chips) if item else None)
        amount = pile.value
        best = fewest_chips(amount, self.chips)
        if best is None:  # a pile is made of the tray's chips, so the tray can always pay it
            raise AssertionError(f"cannot colour up {pile}")
        data: dict[str, JSON] = {"situation": "color-up", "pile": pile.as_dict(), "answer_in": "chips",
                                 "chips": self.chips.as_dict()}
        why = (f"The pile is worth ${format_money(amount)}; the fewest chips are {best} "
               f"({best.chip_count} instead of {pile.chip_count}).")
        return Question(drill=self.name, item=f"color-up:{format_money(amount)}",
                        prompt="Colour up this pile. Which chips do you give?", data=data, expected=str(best),
                        target_ms=self.target_ms, show=(Lines(lines=(f"Pile: {pile}",)),), explanation=why)

    def parse(self, question: Question, text: str) -> Answer:
        return read_payout(question, text)

    def grade(self, question: Question, answer: Answer) -> Grade:
        return grade_payout(question, answer)


def _item_amount(item: str, chips: ChipSet) -> Money:
    """The value of the pile a review item names ('color-up:137.50'), if these chips can colour it up."""
    text = item.removeprefix("color-up:")
    try:
        amount = Decimal(text)
    except ArithmeticError:
        amount = Decimal(0)
    if not item.startswith("color-up:") or amount <= 0 or format_money(amount) != text:
        raise InvalidInputError(f"{item!r} is not a color-up item (e.g. color-up:137.50)")
    if fewest_chips(amount, chips) is None:
        raise InvalidInputError(f"a ${text} pile cannot be coloured up with {chips.describe()}")
    return amount


def _pile(rng: random.Random, chips: ChipSet, amount: Money | None) -> Stack:
    """A messy pile of the three smallest chips (sometimes a few of the fourth) that colours up smaller.

    For a review item the pile is made for its amount by breaking the fewest-chip stack into small chips.
    """
    small = list(reversed(chips.chips))[:4]
    if amount is not None:
        best = fewest_chips(amount, chips)
        if best is None:  # `_item_amount` lets through only amounts the chips can make
            raise AssertionError(f"no chips make {amount}")
        return _break_up(rng, best, chips)
    for _ in range(1000):
        counts = {c.colour: rng.randint(0, 12) for c in small[:3]}
        if len(small) > 3 and rng.random() < 0.3:
            counts[small[3].colour] = rng.randint(1, 3)
        pile = stack_from_counts(counts, chips)
        best = fewest_chips(pile.value, chips)
        if pile.chip_count >= 6 and best is not None and best.chip_count < pile.chip_count:
            return pile
    raise InvalidInputError(f"no pile of small chips colours up with {chips.describe()}")


def _break_up(rng: random.Random, stack: Stack, chips: ChipSet) -> Stack:
    """Change chips of `stack` for smaller ones until the pile is messy (8 chips or more)."""
    pile = dict(stack.counts)
    for _ in range(200):
        if sum(pile.values()) >= 8:
            break
        chip = rng.choice([c for c, n in pile.items() if n])
        smaller = [c for c in chips.chips if c.value < chip.value]
        change = fewest_chips(chip.value, ChipSet(tuple(smaller))) if smaller else None
        if change is None:
            continue
        pile[chip] -= 1
        for small_chip, count in change.counts:
            pile[small_chip] = pile.get(small_chip, 0) + count
    return Stack.of(pile.items())
