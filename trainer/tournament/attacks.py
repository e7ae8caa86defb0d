"""The attack phase of the chat-host game (seed 002): "HG style with the roll strength = cash in hand".

Each side rolls one die with as many faces as they have whole dollars (at least one). The attacker wins
only with a strictly higher roll; a failed attacker pays half their cash, rounded down to whole dollars,
to the bank. These functions roll and compute; `Tournament` applies the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from fractions import Fraction

from trainer.core.money import Money
from trainer.tournament.dice import Dice


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackResult:
    """One attack: both rolls, whether it succeeded, and what a failed attacker paid."""

    attacker: str
    defender: str
    attacker_sides: int
    defender_sides: int
    attacker_roll: int
    defender_roll: int
    loss: Money
    """What the attacker paid the bank: half their cash rounded down on a failure, 0 on a success."""

    @property
    def success(self) -> bool:
        return self.attacker_roll > self.defender_roll

    def rolls(self) -> str:
        """`Ann .roll 1d120 → 77, Bob .roll 1d85 → 40`."""
        return (f"{self.attacker} .roll 1d{self.attacker_sides} → {self.attacker_roll}, "
                f"{self.defender} .roll 1d{self.defender_sides} → {self.defender_roll}")


def roll_strength(cash: Money) -> int:
    """The faces of a player's attack die: their cash in whole dollars (at least one face).

    >>> roll_strength(Decimal("117.50")), roll_strength(Decimal("0.50"))
    (117, 1)
    """
    return max(1, int(cash.to_integral_value(rounding=ROUND_FLOOR)))


def failed_attack_loss(cash: Money) -> Money:
    """Half the cash, rounded down to whole dollars: what a failed attacker pays the bank.

    >>> failed_attack_loss(Decimal(125)), failed_attack_loss(Decimal("35.50")), failed_attack_loss(Decimal(1))
    (Decimal('62'), Decimal('17'), Decimal('0'))
    """
    return (cash / 2).to_integral_value(rounding=ROUND_FLOOR)


def attack_chance(attacker: Money, defender: Money) -> Fraction:
    """The exact chance that a roll of 1..attacker beats a roll of 1..defender (strictly higher).

    With a >= d faces it is 1 - (d + 1) / 2a; with a < d it is (a - 1) / 2d.

    >>> attack_chance(Decimal(100), Decimal(100)), attack_chance(Decimal(200), Decimal(50))
    (Fraction(99, 200), Fraction(349, 400))
    >>> attack_chance(Decimal(1), Decimal(30))
    Fraction(0, 1)
    """
    a, d = roll_strength(attacker), roll_strength(defender)
    if a >= d:
        return 1 - Fraction(d + 1, 2 * a)
    return Fraction(a - 1, 2 * d)


def roll_attack(dice: Dice, attacker: str, attacker_cash: Money, defender: str,
                defender_cash: Money) -> AttackResult:
    """Both sides roll their strength; the result says who won and what a failure costs."""
    a_sides, d_sides = roll_strength(attacker_cash), roll_strength(defender_cash)
    (a_roll,) = dice.roll(a_sides, 1, attacker)
    (d_roll,) = dice.roll(d_sides, 1, defender)
    loss = Decimal(0) if a_roll > d_roll else failed_attack_loss(attacker_cash)
    return AttackResult(attacker=attacker, defender=defender, attacker_sides=a_sides,
                        defender_sides=d_sides, attacker_roll=a_roll, defender_roll=d_roll, loss=loss)


def roll_off(dice: Dice, names: list[str]) -> tuple[str, list[str]]:
    """Everyone tied rolls 1d100 until one roll is highest; the winner and the roll posts."""
    posts: list[str] = []
    while len(names) > 1:
        rolls = {n: dice.roll(100, 1, n)[0] for n in names}
        posts.append("Roll-off: " + ", ".join(f"{n} .roll 1d100 → {r}" for n, r in rolls.items()))
        top = max(rolls.values())
        names = [n for n, r in rolls.items() if r == top]
    return names[0], posts


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackOption:
    """One choice of the attack phase, weighed: attack `target` (None: no attack).

    `share` is the expected share of the cash in play the attacker ends with: a reading of "the best
    choice" (the seed gives none), since the last player in wins and a player's chance to be that
    player grows with their share of the cash. A successful attack takes the defender's cash out of the
    game; a failed one pays half the attacker's cash to the bank.
    """

    target: str | None
    chance: Fraction
    """The chance the attack succeeds (1 for no attack: nothing can go wrong)."""
    cash_change: Fraction
    """The expected change of the attacker's cash: -(chance of failure) x the loss of a failure."""
    share: Fraction

    @property
    def word(self) -> str:
        return "pass" if self.target is None else self.target


def attack_options(attacker: str, cash: dict[str, Money]) -> list[AttackOption]:
    """No attack, then an attack on each other player in `cash` (everyone still in, attacker included)."""
    mine = Fraction(cash[attacker])
    total = sum((Fraction(c) for c in cash.values()), Fraction(0))
    options = [AttackOption(target=None, chance=Fraction(1), cash_change=Fraction(0),
                            share=mine / total if total else Fraction(0))]
    loss = Fraction(failed_attack_loss(cash[attacker]))
    for rival, theirs in cash.items():
        if rival == attacker:
            continue
        p = attack_chance(cash[attacker], theirs)
        won = mine / (total - Fraction(theirs))
        lost = (mine - loss) / (total - loss)
        options.append(AttackOption(target=rival, chance=p, cash_change=-(1 - p) * loss,
                                    share=p * won + (1 - p) * lost))
    return options


def best_attack(options: list[AttackOption]) -> AttackOption:
    """The option with the largest expected share of the cash; no attack wins a tie.

    >>> best = best_attack(attack_options("Ann", {"Ann": Decimal(200), "Bob": Decimal(50),
    ...                                            "Cat": Decimal(150)}))
    >>> best.word, round(float(best.share), 3)
    ('Cat', 0.624)
    >>> even = {n: Decimal(100) for n in ("Ann", "Bob", "Cat", "Dex")}
    >>> best_attack(attack_options("Ann", even)).word
    'pass'
    """
    return max(options, key=lambda o: (o.share, o.target is None))
