"""Several spots at the table (`play --spots [N]`): at the counts where the learner's plan plays more
hands, the learner spreads to two (or up to N) hands, each spot's bet graded against the plan.

The plan in force (`plan --spots ... --save`) gives, by true count, the hands and each hand's bet (the
equal-risk bet: about 0.73 of one hand's for two). At the table a bet is made of chips: the plan's bet
is read to the nearest multiple of the table minimum, never under it (a reading). The decision (kind
`spots`) is the bet of each hand, e.g. `25 25` for two hands of $25, or `25` for one; it is right when
the number of hands is the plan's at the learner's true count (at most N) and every hand bets the
plan's bet. It is recorded under the bet item of that count (`bet:hi-lo:tc+3`), as the bet drill's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from drills.base import Answer, Grade
from trainer.core.betting import bet_item
from trainer.core.bounds import check_length
from trainer.core.counting import estimate_decks_left, format_count, format_decks, true_count
from trainer.core.errors import InvalidInputError, StorageError, TrainerError
from trainer.core.money import Money, format_money, parse_money
from trainer.core.spots import MOST_SPOTS, SpotRamp, SpotStep
from trainer.table.bets import bet_count
from trainer.table.decisions import Answered, Decision, TableView, count_json, question


def spot_ramp(document: Mapping[str, Any], most: int) -> SpotRamp:
    """The ramp of a saved plan (`plan.json`) made with `--spots`; `most`: the hands the learner
    spreads to at most."""
    if not 2 <= most <= MOST_SPOTS:
        raise InvalidInputError(f"--spots spreads to 2 to {MOST_SPOTS} hands, not {most}")
    if not document.get("spots"):
        raise InvalidInputError("--spots grades your spots against the plan in force: make one with "
                                "`plan --spots 2:2 --save`")
    try:
        steps = tuple(SpotStep(true_count=int(s["true_count"]), bet=Decimal(str(s["bet"])),
                               hands=int(s.get("hands", 1))) for s in document["ramp"])
    except (KeyError, TypeError, ValueError, ArithmeticError) as e:
        raise StorageError(f"the saved plan's ramp is not readable ({e})") from None
    if not steps:
        raise StorageError("the saved plan has no ramp")
    return SpotRamp(steps=steps, most=most)


def table_bet(view: TableView, bet: Money) -> Money:
    """A plan's bet as chips at this table: the nearest multiple of the minimum, within the limits."""
    unit = view.ruleset.table.min_bet
    units = (bet / unit).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return max(view.min_bet, min(view.max_bet, unit * max(units, Decimal(1))))


@dataclass(frozen=True, slots=True, kw_only=True)
class SpotsPlaced(Answered):
    """The learner's hands, dealt with these bets."""

    bets: tuple[Money, ...]
    correct: bool
    message: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SpotsDecision:
    """The bet of each hand before the deal (`DecisionCheck`; the view's `spots` is set)."""

    view: TableView

    @property
    def ramp(self) -> SpotRamp:
        if self.view.spots is None:
            raise InvalidInputError("this table is not played with spots (play --spots)")
        return self.view.spots

    def _expected(self) -> tuple[int, int, Money, str]:
        """(true count, hands, bet per hand, why)."""
        view = self.view
        running, cards_left = bet_count(view)
        decks_left = estimate_decks_left(cards_left, view.estimation)
        tc = true_count(running, decks_left, view.rounding)
        step = self.ramp.at(tc)
        hands = min(step.hands, self.ramp.most)
        bet = table_bet(view, step.bet)
        shuffle = "a fresh shoe, " if view.needs_shuffle else ""
        spread = f"{hands if hands > 1 else 'one'} hand{'s' if hands > 1 else ''} of ${format_money(bet)}"
        why = (f"true count {format_count(tc)} ({shuffle}running {format_count(running)}, "
               f"{format_decks(decks_left)} decks left): your plan plays {spread}")
        return tc, hands, bet, why

    def ask(self) -> Decision:
        view = self.view
        running, cards_left = bet_count(view)
        tc, hands, bet, why = self._expected()
        data: dict[str, object] = {
            "kind": "spots", "ruleset": view.ruleset.name, "system": view.system.name,
            "min_bet": format_money(view.min_bet), "max_bet": format_money(view.max_bet),
            "bankroll": format_money(view.bankroll), "running_count": count_json(running),
            "cards_left": cards_left, "estimation": view.estimation, "rounding": view.rounding,
            "most_hands": self.ramp.most,
            "plan": [{"true_count": s.true_count, "bet": format_money(s.bet), "hands": s.hands}
                     for s in self.ramp.steps],
        }
        expected = " ".join([format_money(bet)] * hands)
        prompt = f"Your bets, one per hand (1 to {self.ramp.most} hands, e.g. 25 25)?"
        q = question(drill="bet", item=bet_item(view.system.name, tc), prompt=prompt, data=data,
                     expected=expected, explanation=why)
        return Decision(kind="spots", question=q)

    def parse(self, text: str) -> Answer:
        """One amount per hand, separated by spaces or commas; the total within the learner's chips."""
        check_length(text.strip(), "an answer")
        parts = text.replace(",", " ").split()
        if not 1 <= len(parts) <= self.ramp.most:
            raise InvalidInputError(f"give 1 to {self.ramp.most} bets, one per hand (e.g. 25 25)")
        lo, hi = self.view.min_bet, self.view.max_bet
        bets = []
        for part in parts:
            try:
                bet = parse_money(part.lstrip("$"))
            except TrainerError as e:
                raise InvalidInputError(str(e)) from None
            if not lo <= bet <= hi:
                raise InvalidInputError(f"each bet is ${format_money(lo)} to ${format_money(hi)}, "
                                        f"not ${format_money(bet)}")
            bets.append(bet)
        total: Money = sum(bets, Decimal(0))
        if total > self.view.bankroll:
            raise InvalidInputError(f"${format_money(total)} in all is more than your "
                                    f"${format_money(self.view.bankroll)}")
        return Answer(text=text.strip(), value=" ".join(format_money(b) for b in bets))

    def grade(self, answer: Answer) -> SpotsPlaced:
        bets = tuple(parse_money(b) for b in str(answer.value).split())
        tc, hands, bet, why = self._expected()
        correct = len(bets) == hands and all(b == bet for b in bets)
        given = " ".join(f"${format_money(b)}" for b in bets)
        message = f"✓ {given}: {why}" if correct else f"✗ {given}, not the plan's: {why}"
        expected = " ".join([format_money(bet)] * hands)
        detail: dict[str, object] = {"true_count": tc, "hands": hands, "hands_given": len(bets),
                                     "bet": format_money(bet)}
        grade = Grade(correct=correct, expected=expected, given=str(answer.value), explanation=why,
                      detail=detail)
        return SpotsPlaced(grade=grade, bets=bets, correct=correct, message=message)


def spot_names(names: Sequence[str], learner: int, hands: int) -> list[str]:
    """The seats' names with the learner's hands spread over `hands` spots: 'you (1)', 'you (2)'."""
    if hands == 1:
        return list(names)
    mine = [f"you ({i + 1})" for i in range(hands)]
    return [*names[:learner], *mine, *names[learner + 1:]]
