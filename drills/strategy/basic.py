"""The strategy drill: a hand against an up card under the session's rule set; the answer is the play.

Expected answers are the exact engine's chart (`trainer.strategy.chart_for`) read for the hand as a
player reads a strategy card (`chart_action`: Dh is double where allowed, else hit). Hands are two-card
hands, pairs and three-card hands of every chart cell, never a composition-dependent exception, so
the chart's play is also the best play for those exact cards. A wrong answer shows the right play and
what the mistake costs in EV (`hand_evs`). Cells are chosen by how often they come up at the table and
what a mistake costs, trivial rows rarely (`drills.strategy.cells`), and by an optional mapping of
item -> weight (the cells a learner gets wrong, supplied by the progress store). `--hands` narrows the
cells (hard, soft, pairs, close, missed); `--set cards=two-card|multi-card` the hands dealt for them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate, combinations_with_replacement
from typing import ClassVar

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Lines, Question, Setting
from drills.settings import check_settings
from drills.strategy.cells import HANDS, cell_weights, narrow
from trainer.core.actions import PLAY_ORDER, PLAY_WORDS, Action
from trainer.core.cards import TEN_RANKS, Card, Rank, card, card_of_value, parse_card, parse_cards, say_cards
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset, Split
from trainer.strategy import Chart, chart_action, chart_for, hand_evs, hand_row, legal_actions
from trainer.strategy.chart import parse_cell_key

CARDS = ("any", "two-card", "multi-card")
"""What `--set cards=` may ask for: any hand, two-card hands only, three-card hands where a cell has them."""
_LETTERS = {"H": "hit", "S": "stand", "Dh": "double, else hit", "Ds": "double, else stand", "P": "split",
            "Rh": "surrender, else hit", "Rs": "surrender, else stand", "Rp": "surrender, else split"}


def _category(values: tuple[int, ...]) -> tuple[str, int]:
    """A hand of values (ace = 1) read as a chart row, as the chart reads cards (`hand_row`)."""
    return hand_row([card(Rank(v)) for v in values])


Values = tuple[int, ...]


def hands_for(kind: str, number: int) -> tuple[list[Values], list[Values]]:
    """The two-card and three-card hands (card values, ace = 1) that fall in a chart row.

    >>> hands_for("hard", 12)[0], hands_for("soft", 21)[0], len(hands_for("hard", 20)[1])
    ([(2, 10), (3, 9), (4, 8), (5, 7)], [], 13)
    """
    twos, threes = _row_hands(kind, number)
    return list(twos), list(threes)


@functools.cache
def _row_hands(kind: str, number: int) -> tuple[tuple[Values, ...], tuple[Values, ...]]:
    """`hands_for`, worked out once per row: every question dealt reads it."""
    if kind == "pair":
        return ((number, number),), ()
    twos = tuple(h for h in combinations_with_replacement(range(1, 11), 2)
                 if _category(h) == (kind, number) and h != (1, 10))
    threes = tuple(h for h in combinations_with_replacement(range(1, 11), 3)
                   if sum(h) <= 21 and _category(h) == (kind, number))
    return twos, threes


def focus_weights(tallies: Iterable[tuple[str, int, int]]) -> dict[str, float]:
    """How much more often to ask each item, from its answers so far: (item, answers, right) -> weight.

    A miss counts three times as much as a right answer: a cell missed once comes up 4 times as often
    as one never answered, missed three times 10 times (the most); right answers bring it back down,
    and a cell always answered right comes up less (a quarter as often after nine), so the hands go
    where the mistakes are.

    >>> focus_weights([("a", 1, 0), ("b", 3, 0), ("c", 4, 3), ("d", 3, 3), ("e", 9, 9)])
    {'a': 4.0, 'b': 10.0, 'c': 2.0, 'd': 0.5, 'e': 0.25}
    """
    weights = {}
    for item, answers, right in tallies:
        wrong = answers - right
        weights[item] = min(10.0, max(0.25, (1 + 3 * wrong) / (1 + right / 3)))
    return weights


class StrategyDrill(DrillBase):
    """The exact basic-strategy play for a hand against an up card, with the EV a mistake costs."""

    name = "strategy"
    title = "Basic strategy"
    target_ms = 3000
    reads: ClassVar[Mapping[str, str]] = {"hands": "", "every_hand": ""}
    set_keys: ClassVar[tuple[Setting, ...]] = (
        Setting(key="cards", values=CARDS, help="the hands dealt: any, two cards only, or three cards"),)

    def __init__(self, options: DrillOptions | None = None,
                 weights: Mapping[str, float] | None = None) -> None:
        super().__init__(options)
        check_settings("strategy", self.options.extra, ("cards",))
        self.cards = self.options.extra.get("cards", "any").strip().lower() or "any"
        if self.cards not in CARDS:
            raise InvalidInputError(f"cards={self.cards!r}: expected {', '.join(CARDS)}")
        self.hands = self.options.hands.strip().lower() if self.options.hands else None
        if self.hands is not None and self.hands not in HANDS:
            raise InvalidInputError(f"--hands {self.hands!r}: expected one of {', '.join(HANDS)}")
        self.weights: dict[str, float] = dict(weights or {})
        """Item ('strategy:hard 16 vs 10') or cell -> how much more often to ask it (default 1)."""
        self._rulesets: dict[str, Ruleset] = {}
        self._weights: dict[str, dict[str, float]] = {}
        """Rule-set fingerprint -> cell -> how often to ask it before the learner's misses."""
        self._picks: dict[tuple[str, str | None], tuple[dict[str, float], list[str], list[float]]] = {}
        """(Rule-set fingerprint, `--hands`) -> the learner's weights they were worked out for, the cells
        to ask and their cumulative weights: worked out again only when those weights change."""
        self._pools: dict[tuple[str, str], tuple[list[Values], list[Values]]] = {}
        """(Rule-set fingerprint, cell) -> its two- and three-card hands that are not exceptions."""

    def set_weights(self, weights: Mapping[str, float]) -> None:
        """Weight the cells toward those the learner gets wrong (the progress store supplies them)."""
        self.weights = dict(weights)

    def items(self, ruleset: Ruleset) -> list[str]:
        """Every cell of the rule set's chart, as review items."""
        return [f"strategy:{cell}" for cell in chart_for(ruleset).cells]

    def intro(self, ruleset: Ruleset) -> list[str]:
        lines = [f"Basic strategy for {ruleset.name} from the exact engine's chart: hit, stand, double, "
                 "split or surrender (h, s, d, p, r)."]
        missed = sum(weight > 1 for weight in self.weights.values())
        if self.hands:
            lines.append({"hard": "Hard totals only.", "soft": "Soft totals only.", "pairs": "Pairs only.",
                          "close": "Close calls only: the best play beats the next by under 2% of the bet.",
                          "missed": "Only the hands you have missed."}[self.hands])
        elif not self.options.every_hand:
            lines.append("Hands come up as often as they are dealt and as much as a mistake costs; hands "
                         "played the same against every up card rarely (--all: as often as the others).")
        if missed:
            lines.append("The hand you have missed comes up more often." if missed == 1 else
                         f"The {missed} hands you have missed come up more often.")
        return lines

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        cell = item.removeprefix("strategy:")
        if cell in chart_for(ruleset).cells:
            return None
        return f"the {ruleset.name} chart has no cell {cell!r}"

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        self._rulesets[ruleset.name] = ruleset
        chart = chart_for(ruleset)
        cell = item.removeprefix("strategy:") if item else None
        if cell not in chart.cells:
            cell = self._pick_cell(rng, ruleset, chart)
        assert cell is not None
        cards, up = self._deal(rng, ruleset, chart, cell)
        legal = legal_actions(ruleset, cards)
        expected = chart_action(chart, cards, up, legal).value
        options = [a.value for a in PLAY_ORDER if a in legal]
        letter = chart.cells[cell].action
        shown = f"{say_cards(cards)} against {say_cards((up,))}"
        data: dict[str, JSON] = {"ruleset": ruleset.name, "cards": [str(c) for c in cards], "up": str(up),
                                 "cell": cell, "options": options}
        why = f"{cell}: the chart says {letter} ({_LETTERS[letter]})"
        if len(cards) > 2:
            why += "; with more than two cards only hit or stand are left"
        return Question(drill=self.name, item=f"strategy:{cell}",
                        prompt=f"{shown}. Your play? ({', '.join(options)})",
                        data=data, expected=expected, target_ms=self.target_ms,
                        show=(Lines(lines=(f"Player: {say_cards(cards)}    Dealer: {say_cards((up,))}",)),),
                        explanation=why + ".")

    def _pick_cell(self, rng: random.Random, ruleset: Ruleset, chart: Chart) -> str:
        """A cell drawn by its weight (how often it is dealt, what a mistake costs, the learner's misses)
        among those `--hands` leaves."""
        key = (ruleset.fingerprint, self.hands)
        kept = self._picks.get(key)
        if kept is None or kept[0] != self.weights:  # a dict compare: far cheaper than the weights below
            base = self._weights.get(ruleset.fingerprint)
            if base is None:
                base = self._weights[ruleset.fingerprint] = cell_weights(ruleset, chart,
                                                                         every=self.options.every_hand)
            cells = narrow(chart, self.hands, self.weights, ruleset.name)
            focus = self.weights
            weights = [base[cell] * max(focus.get(f"strategy:{cell}", focus.get(cell, 1.0)), 0.0)
                       for cell in cells]
            if not any(weights):
                weights = [1.0] * len(cells)
            kept = self._picks[key] = (dict(focus), cells, list(accumulate(weights)))
        return rng.choices(kept[1], cum_weights=kept[2])[0]  # as `weights=` would: it accumulates them

    def _deal(self, rng: random.Random, ruleset: Ruleset, chart: Chart,
              cell: str) -> tuple[tuple[Card, ...], Card]:
        """Cards for the cell that are not a composition-dependent exception (a pair is its own cell);
        three-card hands a quarter of the time, or as `--set cards=...` says."""
        kind, number, up_value = parse_cell_key(cell)
        pools = self._pools.get((ruleset.fingerprint, cell))
        if pools is None:
            twos, threes = hands_for(kind, number)
            exceptions = {(d.cards, d.up) for d in chart.exceptions}
            if kind != "pair":
                twos = [h for h in twos if (h, up_value) not in exceptions]
            threes = [h for h in threes if (h, up_value) not in exceptions]
            pools = self._pools[(ruleset.fingerprint, cell)] = (twos, threes)
        twos, threes = pools
        if self.cards == "multi-card":
            pool = threes or twos
        elif self.cards == "two-card" or not threes:
            pool = twos or threes
        else:
            pool = threes if not twos or rng.random() < 0.25 else twos
        if not pool:
            raise AssertionError(f"no hand for {cell} that the chart plays as its best")
        values = rng.choice(pool)
        up = card_of_value(up_value, rng)
        if kind == "pair" and number == 10 and ruleset.player.split is Split.SAME_RANK:
            rank = rng.choice(TEN_RANKS)
            return (card(rank), card(rank)), up
        cards = [card_of_value(v, rng) for v in values]
        rng.shuffle(cards)
        return tuple(cards), up

    def parse(self, question: Question, text: str) -> Answer:
        options = [str(o) for o in question.data["options"]]
        word = PLAY_WORDS.get(" ".join(text.strip().lower().split()))
        if word is None or word not in options:
            what = f"{text.strip()!r} is not" if word is None else f"{word} is not allowed here:"
            raise InvalidInputError(f"{what} one of {', '.join(options)} (h, s, d, p, r also work)")
        return Answer(text=text, value=word)

    def grade(self, question: Question, answer: Answer) -> Grade:
        data = question.data
        ruleset = self._rulesets[str(data["ruleset"])]  # the drill asked the question, under this rule set
        evs = hand_evs(ruleset, parse_cards([str(c) for c in data["cards"]]), parse_card(str(data["up"])))
        given = Action(answer.value)
        correct = answer.value == question.expected
        cost = evs.cost(given)
        shown = ", ".join(f"{a.value} {100 * v:+.2f}%" for a, v in evs.ev.items())
        why = f"{question.explanation} Exact EVs for these cards: {shown}."
        if not correct:
            why += f" {given.value.capitalize()} costs {100 * cost:.2f}% of the bet here."
        return Grade(correct=correct, expected=question.expected, given=given.value, explanation=why,
                     detail={"ev_cost": round(cost, 6), "cell": str(data["cell"]),
                             "ev": {a.value: round(v, 6) for a, v in evs.ev.items()}})

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        lines = super().summary(grades)
        lost = sum(float(g.detail.get("ev_cost", 0.0)) for g in grades)
        if lost:
            lines.append(f"mistakes cost {100 * lost:.2f}% of a bet in all")
        return lines
