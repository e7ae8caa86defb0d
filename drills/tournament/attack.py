"""The attack drill (chat-host, seed 002): your cash and your rivals'; pass, or whom do you attack?

Each choice is shown with its chance and its expected cash change; the right choice is the one that
leaves the largest expected share of the cash in play (`trainer.tournament.attacks`, a reading: the seed names
no best choice). Items are `attack:<rivals> rivals:<best>`, `best` being `pass` or `attack`, the same
items the tournament records when the learner chooses in a real attack phase, so review asks them here.
"""

from __future__ import annotations

import random
from decimal import Decimal

from drills.base import JSON, Answer, DrillBase, Grade, Lines, Question, parse_choice
from trainer.core.errors import InvalidInputError
from trainer.core.money import format_money
from trainer.core.rules import Ruleset
from trainer.tournament.attacks import AttackOption, attack_options, best_attack, failed_attack_loss

RIVALS = ("Ace", "Bix", "Coco", "Dex", "Eve", "Fitz", "Gus")
CASH = (5, 300)
"""Cash in play, in $5 steps."""


def parse_attack_item(item: str) -> tuple[int, str]:
    """(rivals, best) of 'attack:2 rivals:pass'.

    >>> parse_attack_item("attack:3 rivals:attack")
    (3, 'attack')
    """
    try:
        _, rivals, best = item.split(":")
        count = int(rivals.removesuffix(" rivals"))
    except ValueError:
        raise InvalidInputError(f"{item!r} is not an attack item (e.g. attack:2 rivals:pass)") from None
    if not 2 <= count <= len(RIVALS) or best not in ("pass", "attack"):
        raise InvalidInputError(f"{item!r}: 2 to {len(RIVALS)} rivals, and the best choice pass or attack")
    return count, best


PASS_WORDS = {"": "pass", "p": "pass", "no": "pass", "n": "pass", "none": "pass", "no attack": "pass"}
"""What else a learner may type to pass (Enter too), besides the choice's letter or the word."""


def attack_notes(options: list[AttackOption], cash: dict[str, Decimal]) -> tuple[str, ...]:
    """What each choice is shown with: a rival's cash, the chance to win and the expected cash change
    (the expected share, which decides, is told with the grade)."""
    return tuple("no attack" if o.target is None else
                 f"${format_money(cash[o.word])}, you win {100 * float(o.chance):.0f}%, "
                 f"expected cash {float(o.cash_change):+.2f}" for o in options)


class AttackDrill(DrillBase):
    """A chat-host attack phase: the best choice by the expected share of the cash in play."""

    name = "attack"
    title = "chat-host attacks"
    target_ms = None

    def items(self, ruleset: Ruleset) -> list[str] | None:
        if self.cannot_ask("attack:2 rivals:pass", ruleset):
            return None
        return [f"attack:{n} rivals:{best}" for n in range(2, 5) for best in ("pass", "attack")]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        if ruleset.tournament is None or not ruleset.tournament.attacks:
            return f"{ruleset.name} has no attack phase (the chat-host tournament has)"
        try:
            parse_attack_item(item)
        except InvalidInputError as e:
            return str(e)
        return None

    def intro(self, ruleset: Ruleset) -> list[str]:
        return ["Attack phase: both sides roll 1..their cash; a failed attack costs half your cash. "
                "Pass, or attack the rival that leaves you the largest expected share of the cash in "
                "play: type the choice's letter or the name (Enter passes)."]

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        if item:
            rivals, best_kind = parse_attack_item(item)
        else:
            rivals, best_kind = rng.randint(2, 4), rng.choice(("pass", "attack"))
        names = RIVALS[:rivals]
        for _ in range(500):
            cash = {"You": Decimal(5 * rng.randint(CASH[0] // 5, CASH[1] // 5))}
            cash.update({n: Decimal(5 * rng.randint(CASH[0] // 5, CASH[1] // 5)) for n in names})
            options = attack_options("You", cash)
            best = best_attack(options)
            if (best.target is None) == (best_kind == "pass"):
                break
        lines = [f"You have ${format_money(cash['You'])}; a failed attack pays "
                 f"${format_money(failed_attack_loss(cash['You']))} to the bank."]
        data: dict[str, JSON] = {
            "ruleset": ruleset.name, "cash": {n: format_money(c) for n, c in cash.items()},
            "options": [{"target": o.target, "chance": float(o.chance), "cash_change": float(o.cash_change)}
                        for o in options],
        }
        kind = "pass" if best.target is None else "attack"
        return Question(drill=self.name, item=f"attack:{rivals} rivals:{kind}",
                        prompt="Pass, or whom do you attack?", data=data, expected=best.word,
                        choices=tuple(o.word for o in options), notes=attack_notes(options, cash),
                        show=(Lines(lines=tuple(lines)),))

    def parse(self, question: Question, text: str) -> Answer:
        return Answer(text=text.strip(), value=parse_choice(question, text, PASS_WORDS))

    def _options(self, question: Question) -> list[AttackOption]:
        cash = {str(n): Decimal(str(c)) for n, c in dict(question.data["cash"]).items()}
        return attack_options("You", cash)

    def grade(self, question: Question, answer: Answer) -> Grade:
        options = self._options(question)
        chosen = next(o for o in options if o.word == answer.value)
        best = best_attack(options)
        correct = chosen.share >= best.share
        shares = ", ".join(f"{o.word} {100 * float(o.share):.1f}%" for o in options)
        return Grade(correct=correct, expected=best.word, given=chosen.word,
                     explanation=f"Expected share of the cash in play: {shares}.",
                     detail={"share": float(chosen.share), "best_share": float(best.share)})
