"""Aces: an ace side count against the norm for the tray's depth, and the count a counter bets by.

An ace-neutral count (Hi-Opt I, Hi-Opt II, Omega II) leaves the aces out of its running count, which
then serves the play; for the bet the counter keeps the aces apart. The norm is 4 aces a deck of the
tray, read to the session's estimation (`--estimation`, half a deck by default; `--last-deck` below 52
cards left): the surplus is the norm less the aces seen (positive: the shoe left is ace-rich). The
betting count adds the system's adjustment per surplus ace to the running count (`[side_count]` in the
system's TOML; Hi-Opt I +1, Hi-Opt II and Omega II +2, our readings, derived from effects of removal:
see `count_systems.toml`), divided by the decks left and made whole by `--rounding`. An adjustment per
surplus ace on the running count is the same number per surplus ace per deck left on the true count
(the grade says both forms). The play stays by the plain count, and the grade says both counts.

One answer, two numbers: the surplus and the betting true count ('+2 +3'). Every question is a real
shoe at a round start of the table (`trainer.core.shoe_depths`). A review item names a surplus band
from -4 (or less) to +4 (or more); the drill deals shoes until one reaches it.

Machine mode (`data`): `system`, `running_count`, `aces_seen`, `decks_dealt` (the tray's reading),
`norm`, `surplus`, `adjustment`, `adjusted_running_count`, `decks_left`, `betting_true_count`,
`playing_true_count`, `cards_left`, `shoe_decks`, `estimation`, `last_deck`, `rounding`.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import ClassVar

from drills.base import Answer, DrillOptions, Grade, Lines, Question, Tray, refusal
from drills.counting.count_drill import QUICK_MS, CountDrill, count_json, off_words, setting_words
from trainer.core.counting import (
    CountSystem,
    Estimation,
    Rounding,
    adjusted_running_count,
    check_last_deck,
    estimate_decks_left,
    find_system,
    format_count,
    format_decks,
    parse_count,
    side_count_surplus,
    true_count,
)
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.core.shoe_depths import TRIES, ShoeMoment, draw_moment_where, practice_note, practice_rules

BANDS = (-4, 4)
"""Review items group surpluses from -4 (and below) to +4 (and above)."""
ACE_TARGET_MS = 2 * QUICK_MS
"""Two numbers, each a step of arithmetic: twice a true count's time."""
DEFAULT_SIDE_SYSTEM = "hi-opt-i"
"""The system the drill counts with when the session's has no side count and is the default Hi-Lo."""

_PAIR = re.compile(r"^\s*(\S+?)\s*(?:[,;/]\s*|\s+)(\S+)\s*$")


def _band(surplus: int) -> int:
    return min(max(surplus, BANDS[0]), BANDS[1])


def _aces(n: int | Fraction) -> str:
    return f"{format_count(n, signed=False)} ace{'' if n == 1 else 's'}"


class AcesDrill(CountDrill):
    """Running count, aces seen and discard tray in; the ace surplus and the betting true count out."""

    name: ClassVar[str] = "aces"
    title: ClassVar[str] = "ace side count"
    target_ms: ClassVar[int | None] = ACE_TARGET_MS
    reads: ClassVar[Mapping[str, str]] = {
        "system": "A count with an ace side count (hi-opt-i, the default here; hi-opt-ii, omega-ii), "
                  "or a TOML file with [side_count]",
        "decks": "Decks in the shoe (default: the rule set's).", "estimation": "", "last_deck": "",
        "rounding": ""}

    def __init__(self, options: DrillOptions | None = None) -> None:
        options = options or DrillOptions()
        self.substituted = False
        if options.system.strip().lower() in ("hi-lo", "hilo"):  # Hi-Lo counts its aces: the default here
            options = dataclasses.replace(options, system=DEFAULT_SIDE_SYSTEM)
            self.substituted = True
        super().__init__(options)
        if self.system.side_count is None or not self.system.balanced:
            with_side = ", ".join(s for s in ("hi-opt-i", "hi-opt-ii", "omega-ii")
                                  if find_system(s).side_count is not None)
            raise InvalidInputError(f"{self.system.title} keeps no side count: pick one that does "
                                    f"(--system {with_side}, or a TOML file with [side_count])")
        self.estimation = Estimation(self.options.estimation)
        if self.estimation is Estimation.EXACT:
            raise InvalidInputError("the ace norm is read from the discard tray: --estimation full, half or "
                                    "quarter (the last deck may be exact)")
        self.rounding = Rounding(self.options.rounding)
        last = check_last_deck(self.estimation.value, self.options.last_deck)
        self.last_deck = None if last is None or last is self.estimation else last

    def intro(self, ruleset: Ruleset) -> list[str]:
        side = self.system.side_count
        assert side is not None
        note = (f"Hi-Lo counts its aces in the running count, so this drill counts with {self.system.title}. "
                if self.substituted else "")
        conversion = setting_words(self.estimation, self.last_deck, self.rounding.value)
        lines = [*super().intro(ruleset),
                 f"{note}Keep the {side.names} apart: the norm is {side.per_deck} a deck of the tray "
                 f"(read to the {self.estimation.value} deck); the surplus is the norm less those seen "
                 "(+: the shoe left is rich in them).",
                 f"Betting count = running count {format_count(side.adjustment)} per surplus card, / decks "
                 f"left ({conversion}): {side.adjustment_words} (our reading). The play stays by the plain "
                 "count.",
                 "Answer both: the surplus, then the betting true count (e.g. +2 +3)."]
        extra = practice_note(ruleset)
        return [*lines, extra] if extra else lines

    def items(self, ruleset: Ruleset) -> list[str]:
        return [f"{self.name}:{self.system.name}:{band:+d}" for band in range(BANDS[0], BANDS[1] + 1)]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: self._item(item))

    def _item(self, item: str) -> tuple[CountSystem, int]:
        """What a review item asks: 'aces:hi-opt-i:+2' (the system and the surplus band)."""
        match = re.fullmatch(r"aces:([\w.-]+):([+-]?\d)", item.strip())
        if match is None or not BANDS[0] <= int(match.group(2)) <= BANDS[1]:
            raise InvalidInputError(f"{item!r} is not an aces item (e.g. aces:hi-opt-i:+2)")
        system = self.system_named(match.group(1))
        if system.side_count is None:
            raise InvalidInputError(f"{system.title} keeps no side count")
        return system, int(match.group(2))

    def reading(self, system: CountSystem, moment: ShoeMoment) -> dict[str, Fraction]:
        """Every figure of a moment: the tray's reading, the norm, the surplus and both true counts."""
        side = system.side_count
        assert side is not None
        last = self.last_deck.value if self.last_deck is not None else None
        decks_left = estimate_decks_left(moment.cards_left, self.estimation.value, last)
        decks_dealt = moment.decks - decks_left
        seen = seen_of(moment, side.ranks)
        surplus = side_count_surplus(seen, decks_dealt, side.per_deck)
        running = Fraction(moment.running_count(system))
        adjusted = adjusted_running_count(running, surplus, side.adjustment)
        return {"running": running, "seen": Fraction(seen), "decks_dealt": decks_dealt,
                "norm": decks_dealt * side.per_deck,
                "surplus": surplus, "adjusted": adjusted, "decks_left": decks_left,
                "betting": Fraction(true_count(adjusted, decks_left, self.rounding.value)),
                "playing": Fraction(true_count(running, decks_left, self.rounding.value))}

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        rules = practice_rules(ruleset, self.options.decks)
        system, target = self.system, None
        if item:
            system, target = self._item(item)

        def miss(moment: ShoeMoment) -> float:
            if target is None:
                return 0
            return abs(_band(int(self.reading(system, moment)["surplus"])) - target)

        moment, _ = draw_moment_where(rules, rng, miss)
        r = self.reading(system, moment)
        side = system.side_count
        assert side is not None
        surplus, betting = int(r["surplus"]), int(r["betting"])
        rare = ""
        if target is not None and _band(surplus) != target:
            rare = f"No shoe of {TRIES} dealt here reached that surplus; this is the closest. "
        rich = "rich" if surplus > 0 else "poor"
        norm_words = (f"The tray holds {format_decks(r['decks_dealt'])} decks: the norm is "
                      f"{_aces(r['norm'])}, {_aces(r['seen'])} seen, so the shoe left is "
                      + (f"{_aces(abs(surplus))} {rich} (surplus {format_count(surplus)})" if surplus else
                         "at the norm (surplus 0)"))
        adjustment = format_count(side.adjustment, signed=False)
        ratio = float(r["adjusted"] / r["decks_left"])
        bet_words = (f"Betting: {format_count(r['running'])} + {adjustment} x {format_count(surplus)} = "
                     f"{format_count(r['adjusted'])}, / {format_decks(r['decks_left'])} decks left = "
                     f"{ratio:+.2f}, {self.rounding.value} {format_count(betting)}. Playing by the plain "
                     f"count: {format_count(r['running'])} / {format_decks(r['decks_left'])} = "
                     f"{format_count(r['playing'])}. The adjustment: {side.adjustment_words} (our reading, "
                     "from effects of removal)")
        return Question(
            drill=self.name,
            item=item or f"{self.name}:{system.name}:{_band(surplus):+d}",
            prompt="Surplus aces, betting true count? (e.g. +2 +3)",
            data={
                "system": system.name, "running_count": count_json(r["running"]),
                "aces_seen": int(r["seen"]),
                "decks_dealt": float(r["decks_dealt"]), "norm": count_json(r["norm"]), "surplus": surplus,
                "adjustment": count_json(side.adjustment),
                "adjusted_running_count": count_json(r["adjusted"]),
                "decks_left": float(r["decks_left"]), "betting_true_count": betting,
                "playing_true_count": int(r["playing"]), "cards_left": moment.cards_left,
                "shoe_decks": moment.decks, "estimation": self.estimation.value,
                "last_deck": self.last_deck.value if self.last_deck is not None else None,
                "rounding": self.rounding.value,
            },
            expected=f"{format_count(surplus)} {format_count(betting)}",
            target_ms=ACE_TARGET_MS,
            show=(Lines(lines=(f"Running count {format_count(r['running'])} ({system.title})",
                               f"{side.names.capitalize()} seen: {r['seen']}")),
                  Tray(discarded=moment.dealt, shoe_cards=moment.shoe_cards)),
            explanation=f"{rare}{norm_words}. {bet_words}",
        )

    def parse(self, question: Question, text: str) -> Answer:
        match = _PAIR.match(text)
        if match is None:
            raise InvalidInputError("type two numbers: the surplus, then the betting true count (e.g. +2 +3)")
        try:
            surplus, betting = parse_count(match.group(1)), parse_count(match.group(2))
        except InvalidInputError as e:
            raise InvalidInputError(f"{e}: type e.g. +2 +3") from None
        if surplus.denominator != 1 or betting.denominator != 1:
            raise InvalidInputError("both are whole numbers here: type e.g. +2 +3")
        return Answer(text=text.strip(), value=f"{int(surplus):+d} {int(betting):+d}")

    def grade(self, question: Question, answer: Answer) -> Grade:
        want_surplus, want_bet = (int(question.data[k]) for k in ("surplus", "betting_true_count"))
        given_surplus, given_bet = (int(x) for x in str(answer.value).split())
        wrong = []
        if given_surplus != want_surplus:
            wrong.append(f"surplus {off_words(given_surplus - want_surplus)}")
        if given_bet != want_bet:
            wrong.append(f"betting count {off_words(given_bet - want_bet)}")
        slow = (not wrong and answer.latency_ms is not None and answer.latency_ms > ACE_TARGET_MS)
        verdict = ", ".join(wrong) if wrong else \
            (f"slow: the target is {ACE_TARGET_MS / 1000:g} s" if slow else "")
        setting = setting_words(Estimation(str(question.data["estimation"])),
                                Estimation(str(question.data["last_deck"])) if question.data["last_deck"]
                                else None, str(question.data["rounding"]))
        said = (f"The answer is {question.expected}; you said {format_count(given_surplus)} "
                f"{format_count(given_bet)}. " if wrong else "")
        return Grade(correct=not wrong, expected=question.expected,
                     given=f"{format_count(given_surplus)} {format_count(given_bet)}",
                     explanation=f"{said}{question.explanation} ({setting}).", verdict=verdict,
                     detail={"surplus": given_surplus - want_surplus, "betting": given_bet - want_bet})


def seen_of(moment: ShoeMoment, ranks: tuple[int, ...]) -> int:
    """Cards of `ranks` (by blackjack value: 1 the ace) a player has seen since the shuffle; face-down
    burn cards are not seen."""
    in_cards = sum(1 for card in moment.cards if card.value in ranks)
    if moment.seen:
        return in_cards
    return sum(16 * moment.decks if r == 10 else 4 * moment.decks for r in ranks) - in_cards

