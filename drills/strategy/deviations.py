"""The deviations drill: a hand, an up card and a Hi-Lo true count; the index play
(`drills.strategy.index_plays`).

The table's rules pick the index card (S17 or H17) and which plays can arise; true counts cluster at
each play's index and just below it, where the decision flips (on purpose: far more often than a table
deals them), and each comes from a real shoe (`trainer.core.shoe_depths`) dealt until it reaches that
count, shown with its running count and decks left (`--estimation`, `--rounding`). The options offered
for a hand are the ones the `Round` engine allows at this table. `--set surrender=late` practises the
Fab 4 for a late-surrender table (no shipped rule set offers surrender).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Lines, Question, Setting, refusal
from drills.counting.count_drill import setting_words, true_count_at
from drills.settings import check_settings, practice_table, read_late_surrender
from drills.strategy.index_plays import boundary_count, deal_hand, game_of, plays_for, source
from trainer.core.actions import PLAY_ORDER, PLAY_WORDS, Action
from trainer.core.basis import titled
from trainer.core.cards import Card, Rank, card, say_cards
from trainer.core.counting import (
    CountSystem,
    Estimation,
    Rounding,
    check_last_deck,
    estimate_decks_left,
    find_system,
    format_count,
    format_decks,
    load_system,
)
from trainer.core.deal import TableDeal
from trainer.core.errors import InvalidInputError
from trainer.core.round import Phase, Round
from trainer.core.rules import Ruleset, Surrender
from trainer.core.shoe import Shoe
from trainer.core.shoe_depths import TRIES, ShoeMoment, draw_moment_where, practice_rules
from trainer.strategy.indexplay import IndexPlay

HI_LO = find_system("hi-lo")
"""The published index plays are Hi-Lo's."""

_WORDS = {
    **PLAY_WORDS,
    "insure": "insure", "insurance": "insure", "i": "insure", "take insurance": "insure",
    "even money": "even-money", "even-money": "even-money", "e": "even-money",
    "decline": "decline", "no insurance": "decline", "no": "decline", "n": "decline",
}
_YES = ("yes", "y", "take it", "take")


@functools.lru_cache(maxsize=2048)
def offered_plays(table: Ruleset, cards: tuple[Card, Card], up: Card, *, insurance: bool = False
                  ) -> tuple[str, ...]:
    """The plays the engine allows this hand against this up card at this table, as answer words.

    With `insurance`, the offer under an ace (insurance, or even money to a natural); otherwise the
    hand's own choices once any offer is declined. Kept: the engine's round (~0.1 ms) was a good part
    of a question, and a table has a few hundred (hand, up card) pairs.
    """
    hole = card(Rank.FIVE) if up.value in (1, 10) else card(Rank.SEVEN)  # never a dealer natural
    deal = TableDeal(seats=[cards], up=up, hole=hole if table.dealer.hole_card else None,
                     draws=[card(Rank.TWO)] * 10)
    round_ = Round.start(table, Shoe.stacked(table, deal), bets=[10])
    legal = round_.legal_actions()
    if insurance and round_.phase == Phase.OFFERS:
        return tuple(a.value for a in (Action.INSURE, Action.EVEN_MONEY, Action.DECLINE) if a in legal)
    if round_.phase == Phase.OFFERS:
        round_.act(Action.DECLINE)
        legal = round_.legal_actions()
    return tuple(a.value for a in PLAY_ORDER if a in legal)


class DeviationsDrill(DrillBase):
    """Hi-Lo index plays: the Illustrious 18 and Fab 4, asked at the counts where they flip."""

    name = "deviations"
    title = "Hi-Lo index plays"
    target_ms = 3000
    reads: ClassVar[Mapping[str, str]] = {
        "system": "The count of computed index plays (--indices computed); the published are Hi-Lo's.",
        "estimation": "", "last_deck": "", "rounding": "", "indices": ""}
    set_keys: ClassVar[tuple[Setting, ...]] = (
        Setting(key="surrender", values=("late", "none"), help="practise surrender plays"),)

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        check_settings("deviations", self.options.extra, ("surrender",))
        self.surrender = read_late_surrender("deviations", self.options.extra)
        self.estimation = Estimation(self.options.estimation)
        self.rounding = Rounding(self.options.rounding)
        last = check_last_deck(self.estimation.value, self.options.last_deck)
        self.last_deck = last.value if last is not None else None
        self._own: tuple[IndexPlay, ...] | None = None
        self._own_words = ""

    def use_index_plays(self, plays: tuple[IndexPlay, ...], words: str) -> None:
        """Ask these plays (e.g. computed for the learner's game, `cutcard indices`) instead of the
        published lists; `words` says where they come from."""
        self._own, self._own_words = plays, words

    @property
    def counted(self) -> CountSystem:
        """The count the true counts are of: Hi-Lo for the published lists, the session's own system
        for a list computed for it."""
        return HI_LO if self._own is None else load_system(self.options.system)

    def _plays_for(self, table: Ruleset) -> tuple[IndexPlay, ...]:
        if self._own is None:
            return plays_for(table)
        surrender = table.player.surrender is not Surrender.NONE
        return tuple(p for p in self._own if p.when != ("no-surrender" if surrender else "surrender"))

    def items(self, ruleset: Ruleset) -> list[str]:
        """Every index play that fits the table, as review items."""
        table = practice_table(ruleset, self.surrender)
        return [f"deviations:{play.game}:{play.name}" for play in self._plays_for(table)]

    def intro(self, ruleset: Ruleset) -> list[str]:
        table = practice_table(ruleset, self.surrender)
        name, _ = source(game_of(table))
        lines = [f"{ruleset.name}: the Illustrious 18 and Fab 4 from {name}. "
                 "Give the play at the true count shown."]
        if self._own is not None:
            lines = [f"{ruleset.name}: index plays {self._own_words}. Give the play at the count shown."]
        if table is not ruleset:
            lines.append(f"Practice: late surrender, so the Fab 4 are asked; {ruleset.name} offers none.")
        elif table.player.surrender is Surrender.NONE:
            lines.append("No surrender at this table, so the Fab 4 are not asked (--set surrender=late "
                         "practises them).")
        note = self.notice(ruleset)
        if note:
            lines.append(note)
        lines.append("The true counts are asked near each play's index on purpose, far more often than a "
                     "table deals them; each comes from a real shoe dealt until it reaches that count.")
        unpeeked = {1, 10} - (set(table.dealer.peek) if table.dealer.natural else set())
        if unpeeked:
            up = "a ten or an ace" if len(unpeeked) == 2 else "an ace" if 1 in unpeeked else "a ten"
            lines.append(f"The dealer does not check for blackjack with {up} up here, so the doubles and "
                         f"splits against {up} (which assume a peek) are left out.")
        return lines

    def notice(self, ruleset: Ruleset) -> str | None:
        if ruleset.counting_helps:
            return None
        why = "an infinite deck" if ruleset.infinite_deck else "a reshuffle after every round"
        basis = ruleset.basis_of("shoe.reshuffle")
        if not ruleset.infinite_deck and basis.is_reading:
            why += f", this trainer's reading of “{ruleset.source_title}”: {titled(basis.why)}"
        return (f"Counting cannot help at {ruleset.name} ({why}): these indices are for shoe games "
                "dealt to a cut card; practise them here for such a game (the counts come from such a shoe).")

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: self._item_play(ruleset, item))

    def _item_play(self, ruleset: Ruleset, item: str) -> tuple[Ruleset, IndexPlay]:
        """The table and play a review item names ('deviations:s17:16 vs 10').

        The session's table first; else the same rule set with late surrender practised or not, so a
        Fab 4 item recorded with `--set surrender=late` is asked in any review (and an Illustrious 18
        play that surrender replaces is asked in a surrender-practice session).
        """
        _, _, rest = item.partition(":")
        game, _, name = rest.partition(":")
        own = practice_table(ruleset, self.surrender)
        other = ruleset if own is not ruleset else practice_table(ruleset, True)
        for table in (own, other):
            play = next((p for p in self._plays_for(table) if p.game == game and p.name == name), None)
            if play is not None:
                return table, play
        if game != game_of(ruleset) and self._own is None:
            raise InvalidInputError(f"{ruleset.name} uses the {game_of(ruleset).upper()} index plays, "
                                    f"not the {game.upper() or '?'} ones")
        raise InvalidInputError(f"{name!r} is not an index play that arises at {ruleset.name}")

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        if item:
            table, play = self._item_play(ruleset, item)
        else:
            table = practice_table(ruleset, self.surrender)
            plays = self._plays_for(table)
            if not plays:
                raise InvalidInputError(f"no index plays to ask at {ruleset.name}")
            play = rng.choice(plays)
        natural = play.hand == "insurance" and table.player.even_money and rng.random() < 0.3
        cards = deal_hand(play, rng, natural=natural)
        moment, wanted, true_count = self._situation(ruleset, rng, boundary_count(play, rng))
        insurance = play.hand == "insurance"
        options = offered_plays(table, cards, play.up_card, insurance=insurance)
        expected = str(play.play_at(true_count))
        if natural:
            expected = "even-money" if expected == "insure" else expected
        if expected not in options:
            raise AssertionError(f"{play.name}: {expected} is not offered ({options})")
        up = say_cards((play.up_card,))
        count = "true count"
        counted = self.counted
        if not counted.balanced:
            count = "running count"  # an unbalanced count's indices are running counts
        where = f"{say_cards(cards)} against {up}, {count} {true_count:+d}".replace("+0", "0")
        running = moment.running_count(counted)
        decks_left = estimate_decks_left(moment.cards_left, self.estimation, self.last_deck)
        last = Estimation(self.last_deck) if self.last_deck else None
        conversion = (f"; {setting_words(self.estimation, last, self.rounding.value)}" if counted.balanced
                      else "")
        ask = "Insurance?" if insurance else "Your play?"
        if not insurance and play.up == "A" and table.player.insurance:
            ask = "Insurance declined and no dealer blackjack. Your play?"
        data: dict[str, JSON] = {
            "ruleset": ruleset.name, "system": self.options.system if self._own is not None else "hi-lo",
            "game": play.game, "play": play.name,
            "set": play.set, "cards": [str(c) for c in cards], "up": str(play.up_card),
            "true_count": true_count, "surrender": table.player.surrender is not Surrender.NONE,
            "options": list(options), "running_count": int(running), "decks_left": float(decks_left),
            "cards_left": moment.cards_left, "estimation": self.estimation.value,
            "last_deck": self.last_deck, "rounding": self.rounding.value,
        }
        why = f"{play.name}: {play.rule()} ({play.title}; source: {play.source})."
        if true_count != wanted:
            why = (f"No shoe of {TRIES} dealt here reached a {count} of {wanted:+d}; this is the closest. "
                   + why)
        if natural:
            why += " Even money on a blackjack is insurance on it: the same index."
        return Question(drill=self.name, item=f"deviations:{play.game}:{play.name}",
                        prompt=f"{where}. {ask} ({', '.join(options)})", data=data, expected=expected,
                        target_ms=self.target_ms,
                        show=(Lines(lines=(f"Player: {say_cards(cards)}    Dealer: {up}",
                                           f"{count.capitalize()}: {true_count:+d}".replace("+0", "0")
                                           + f" (running {format_count(running)}, "
                                             f"{format_decks(decks_left)} decks left{conversion})")),),
                        explanation=why)

    def _situation(self, ruleset: Ruleset, rng: random.Random, wanted: int) -> tuple[ShoeMoment, int, int]:
        """A real shoe dealt to a true count of `wanted` (the counts near an index are asked on purpose:
        shoes are dealt until one reaches it, else the closest); the moment, `wanted`, and its count."""
        rules = practice_rules(ruleset, cut_card=True)

        counted = self.counted

        def count_of(moment: ShoeMoment) -> int:
            running = moment.running_count(counted)
            if not counted.balanced:
                return int(running // 1)
            return true_count_at(running, moment.cards_left, self.estimation, self.rounding, self.last_deck)

        moment, _ = draw_moment_where(rules, rng, lambda m: abs(count_of(m) - wanted))
        return moment, wanted, count_of(moment)

    def parse(self, question: Question, text: str) -> Answer:
        options = [str(o) for o in question.data["options"]]
        word = " ".join(text.strip().lower().split())
        if word in _YES and ("insure" in options or "even-money" in options):
            word = "insure" if "insure" in options else "even-money"
        play = _WORDS.get(word)
        if play == "insure" and "even-money" in options:
            play = "even-money"
        if play is None or play not in options:
            what = f"{text.strip()!r} is not" if play is None else f"{play} is not offered here:"
            raise InvalidInputError(f"{what} one of {', '.join(options)} (h, s, d, p, r also work)")
        return Answer(text=text, value=play)

    def grade(self, question: Question, answer: Answer) -> Grade:
        correct = answer.value == question.expected
        return Grade(correct=correct, expected=question.expected, given=str(answer.value),
                     explanation=question.explanation,
                     detail={"true_count": question.data["true_count"], "play": question.data["play"]})

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        lines = super().summary(grades)
        missed = sorted({str(g.detail["play"]) for g in grades if not g.correct})
        if missed:
            lines.append("review: " + ", ".join(missed))
        return lines
