"""The check on each of the learner's plays at the table: the chart's play, the index play, the EV cost.

The chart is the rule set's exact basic-strategy chart (`trainer.strategy.chart_for`). The index play is
what the exact engine finds best for the cards still in the shoe, as the learner knows them (every card
seen since the shuffle is out of it): where it differs from the chart, the count has changed the play.
A play is right when it is the chart's play or that index play; a wrong play is told at once with what
it gives up against the chart's play, per unit bet, over the full shoe.

Insurance and even money are read off the shoe exactly: insurance pays 2:1 on a ten in the hole, so it
is worth 3p - 1 per unit insured, p being the share of tens among the cards not yet seen.

Counting Hi-Lo in a shoe game, the index card decides instead (`count_index`): where one of the
Illustrious 18 or Fab 4 plays fits the hand (insurance at a true count of +3 among them), the right play
is that index's play at the learner's true count, exactly as the deviations drill grades it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from drills.strategy.index_plays import plays_for
from trainer.core.actions import Action
from trainer.core.cards import Card
from trainer.core.counting import format_count
from trainer.core.errors import TrainerError
from trainer.core.hands import hand_total
from trainer.core.rules import Ruleset
from trainer.strategy import StrategyTable, cell_key, chart_action, hand_evs, hand_row
from trainer.strategy.indexplay import IndexPlay

INDEX_MARGIN = 0.0005
"""An index play must gain at least this (0.05% of the bet) over the chart play to be mentioned."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """What the check found about one play."""

    action: Action
    chart: Action
    """The chart's play (for offers: decline insurance, take no even money)."""
    index: Action | None
    """The best play for the cards left, where it beats the chart's play; None otherwise."""
    hand: str
    """The chart cell, e.g. 'hard 16 vs 10', or 'insurance'."""
    cost: float | None = None
    """EV per unit bet the play gives up against the chart's play (full shoe); None when right."""
    gain: float | None = None
    """What the index play gains over the chart's play for the cards left (per unit bet)."""
    count_index: IndexPlay | None = None
    """The count's index play for this hand (Hi-Lo in a shoe game), which decides the right play."""
    true_count: int = 0
    """The learner's true count, where `count_index` applies."""
    offer: Action | None = None
    """For insurance and even money: the offer (INSURE or EVEN_MONEY)."""

    @property
    def expected(self) -> Action:
        """The play graded as right: the count index's at the true count, else the chart's (or the
        composition index play, when that is what was played)."""
        if self.count_index is not None:
            word = self.count_index.play_at(self.true_count)
            return self.offer if word == "insure" and self.offer is not None else Action(word)
        return self.action if self.index is not None and self.action == self.index else self.chart

    @property
    def correct(self) -> bool:
        if self.count_index is not None:
            return self.action == self.expected
        return self.action in (self.chart, self.index)

    def message(self) -> str:
        """One line for the learner."""
        if self.count_index is not None:
            play = self.count_index
            where = f"{play.name} at true count {format_count(self.true_count)}"
            rule = f"{play.title}: {play.rule()}"
            if self.correct:
                return f"✓ {self.action.value}: {where} ({rule})."
            cost = f"; {self.action.value} gives up {_pct(self.cost)} of the bet" \
                if self.cost is not None and self.expected == self.chart else ""
            return f"✗ {where}: {self.expected.value} ({rule}){cost}."
        if self.action == self.index:
            return (f"✓ {self.action.value}: an index play. The chart says {self.chart.value} for "
                    f"{self.hand}, but the cards seen since the shuffle make {self.action.value} better by "
                    f"{_pct(self.gain)} of the bet.")
        if self.action == self.chart:
            if self.index is not None and self.gain is None:
                return (f"~ {self.action.value} is the chart's play for {self.hand}, but at your true "
                        f"count the index says {self.index.value}.")
            if self.index is not None:
                return (f"~ {self.action.value} is the chart's play for {self.hand}, but with the cards seen "
                        f"since the shuffle {self.index.value} was better by {_pct(self.gain)} of the bet "
                        "(an index play).")
            return f"✓ {self.action.value} ({self.hand})"
        cost = f"; {self.action.value} gives up {_pct(self.cost)} of the bet" if self.cost is not None else ""
        return f"✗ the chart says {self.chart.value} for {self.hand}{cost}."


def _pct(value: float | None) -> str:
    return "?" if value is None else f"{100 * value:.1f}%"


def unseen_share_of_tens(ruleset: Ruleset, seen: Sequence[Card]) -> Fraction:
    """The share of tens among the cards the player has not seen (4/13 for the infinite deck)."""
    decks = ruleset.shoe.decks
    if decks == 0:
        return Fraction(4, 13)
    tens = 16 * decks - sum(1 for c in seen if c.value == 10)
    return Fraction(tens, 52 * decks - len(seen))


def count_index(ruleset: Ruleset, system: str, cards: Sequence[Card] | None, up: Card,
                legal: frozenset[Action], *, plays: Sequence[IndexPlay] | None = None) -> IndexPlay | None:
    """The index play that decides this hand (None: the chart decides).

    `plays` are the learner's list (published or computed for their game and count, `cutcard indices`);
    without one, the published Hi-Lo lists for a Hi-Lo counter. Only where counting helps; `cards` None
    means the insurance offer. A play fits when its hand matches (a hard or soft total, not a pair that
    may be split; a pair that may be) and both of its plays are legal now (a double index needs a hand
    that may double).
    """
    if not ruleset.counting_helps or (plays is None and system != "hi-lo"):
        return None
    listed = plays_for(ruleset) if plays is None else plays
    for play in listed:
        if cards is None:
            if play.kind == "insurance" and up.is_ace:
                return play
            continue
        if play.kind == "insurance" or play.up_value != up.value or not legal >= {play.above, play.below}:
            continue
        pair = len(cards) == 2 and cards[0].value == cards[1].value
        if play.kind == "pair":
            if pair and cards[0].value == play.total:
                return play
            continue
        total, soft = hand_total(cards)
        if pair and Action.SPLIT in legal:
            continue
        if total == play.total and soft == (play.kind == "soft"):
            return play
    return None


def judge_offer(ruleset: Ruleset, seen: Sequence[Card], offer: Action, action: Action, *,
                index_play: IndexPlay | None = None, true_count: int = 0) -> Verdict:
    """Taking or declining the `offer` (insurance or even money): right when the bet's exact EV says so,
    or, with `index_play` (Hi-Lo's insurance at +3), when the true count says so."""
    p = unseen_share_of_tens(ruleset, seen)
    worth = float(3 * p - 1)
    took = action is offer
    index = offer if worth > INDEX_MARGIN else None
    hand = "even money" if offer is Action.EVEN_MONEY else "insurance"
    cost = None
    if took and index is None:
        cost = -worth / 2  # insurance is half the bet: the loss per unit of the original bet
    if index_play is not None:
        return Verdict(action=action, chart=Action.DECLINE, index=None, hand=hand,
                       cost=cost if took else None, count_index=index_play, true_count=true_count,
                       offer=offer)
    return Verdict(action=action, chart=Action.DECLINE, index=index,
                   hand=f"{hand} ({100 * float(p):.1f}% of the unseen cards are tens)",
                   cost=cost, gain=worth / 2 if index is not None else None, offer=offer)


def judge_play(ruleset: Ruleset, chart: StrategyTable, cards: Sequence[Card], up: Card,
               legal: frozenset[Action], action: Action, seen: Sequence[Card], *,
               composition: bool = True, index_play: IndexPlay | None = None,
               true_count: int = 0) -> Verdict:
    """Check one play of a hand against the chart and, with `composition`, against the cards left; with
    `index_play`, against that count index at `true_count` instead.

    `seen` is every card seen since the shuffle, the hand and the up card included.
    """
    chart_play = chart_action(chart, cards, up, legal, double_after_split=ruleset.player.double_after_split)
    kind, number = hand_row(cards)
    hand = cell_key(kind, number, up.value)
    index, gain = None, None
    if index_play is not None:
        cost = None if action == chart_play else _cost(ruleset, cards, up, chart_play, action)
        return Verdict(action=action, chart=chart_play, index=None, hand=hand, cost=cost,
                       count_index=index_play, true_count=true_count)
    if composition:
        index, gain = _index_play(ruleset, cards, up, legal, chart_play, seen)
    cost = None
    if action not in (chart_play, index):
        cost = _cost(ruleset, cards, up, chart_play, action)
    return Verdict(action=action, chart=chart_play, index=index, hand=hand, cost=cost, gain=gain)


def _without(seen: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    """`seen` less one of each of `cards` (the hand and the up card are passed to the engine apart)."""
    left = Counter(cards)
    out = []
    for c in seen:
        if left[c]:
            left[c] -= 1
        else:
            out.append(c)
    return out


def _index_play(ruleset: Ruleset, cards: Sequence[Card], up: Card, legal: frozenset[Action],
                chart_play: Action, seen: Sequence[Card]) -> tuple[Action | None, float | None]:
    try:
        evs = hand_evs(ruleset, cards, up, removed=_without(seen, (*cards, up)))
    except TrainerError:  # a hand the engine does not evaluate (e.g. more cards than the shoe holds)
        return None, None
    options = {a: ev for a, ev in evs.ev.items() if a in legal}
    if chart_play not in options or not options:
        return None, None
    best = max(options, key=lambda a: options[a])
    gain = options[best] - options[chart_play]
    return (best, gain) if best != chart_play and gain > INDEX_MARGIN else (None, None)


def _cost(ruleset: Ruleset, cards: Sequence[Card], up: Card, chart_play: Action,
          action: Action) -> float | None:
    try:
        evs = hand_evs(ruleset, cards, up)
    except TrainerError:
        return None
    if chart_play not in evs.ev or action not in evs.ev:
        return None
    return max(0.0, evs.ev[chart_play] - evs.ev[action])

