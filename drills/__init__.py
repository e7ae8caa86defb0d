"""The drills, grouped by family (`counting`, `dealing`, `strategy`, `quiz`, `tournament`) and found by name
here, the one index; a drill's module is imported only when the drill is used."""

from __future__ import annotations

import importlib

from drills.base import Drill, DrillOptions

DRILLS: dict[str, tuple[str, str]] = {
    "running-count": ("drills.counting.running_count:RunningCountDrill",
                      "cards flashed at pace, then the count"),
    "countdown": ("drills.counting.countdown:CountdownDrill", "count down a deck against the clock"),
    "speed-count": ("drills.counting.speed_count:SpeedCountDrill",
                    "a deck dealt in rounds to a table; the count"),
    "true-count": ("drills.counting.true_count:TrueCountDrill",
                   "running count and discard tray to true count"),
    "deck-estimation": ("drills.counting.deck_estimation:DeckEstimationDrill",
                        "decks left from the discard tray"),
    "bet": ("drills.counting.bet:BetDrill", "running count and tray to the bet your ramp makes, in units"),
    "wong": ("drills.counting.wong:WongDrill",
             "back-counting: sit, stay, watch or leave by your entry and exit"),
    "aces": ("drills.counting.aces:AcesDrill",
             "ace side count: aces against the norm, then the betting count"),
    "table": ("drills.counting.table:TableDrill", "count a full table of computer seats through a real shoe"),
    "payout": ("drills.dealing.payout:PayoutDrill",
               "dealer payouts: blackjack, insurance, even money, chips"),
    "color-up": ("drills.dealing.payout:ColorUpDrill",
                 "colour up a pile of small chips into the fewest large ones"),
    "settle": ("drills.dealing.settle:SettleDrill", "settle a whole table from third base at audition pace"),
    "cut": ("drills.dealing.cut:CutDrill", "cut a payout from the rack as stacks and loose cheques"),
    "catch": ("drills.dealing.catch:CatchDrill", "watch the dealer settle a table and call its mistakes"),
    "strategy": ("drills.strategy.basic:StrategyDrill", "the exact basic-strategy play for a hand"),
    "deviations": ("drills.strategy.deviations:DeviationsDrill",
                   "Hi-Lo index plays: the Illustrious 18 and Fab 4"),
    "quiz": ("drills.quiz.drill:QuizDrill", "the rules of the table: procedures, payouts, scenarios"),
    "attack": ("drills.tournament.attack:AttackDrill", "chat-host attack phase: pass, or whom to attack"),
    "procedure": ("drills.dealing.procedure:ProcedureDrill",
                  "a dealer's procedure: the next step, or their order"),
    "protect": ("drills.dealing.protect:ProtectDrill",
                "game protection: a table situation, then the right call"),
    "rundown": ("drills.dealing.rundown:RundownDrill", "run down a stack of mixed cheques: 20 under 10 s"),
    "addition": ("drills.dealing.addition:AdditionDrill", "hand totals and two-digit sums: 50 a minute"),
}
"""Drill name -> ("module:Class", one line of help)."""


def find_drill(name: str) -> type[Drill]:
    """The drill class registered under `name`."""
    try:
        target, _ = DRILLS[name.strip().lower()]
    except KeyError:
        from trainer.core.errors import UnknownNameError
        from trainer.core.names import unknown_name

        raise UnknownNameError(unknown_name("drill", name, DRILLS)) from None
    module_name, class_name = target.split(":")
    drill: type[Drill] = getattr(importlib.import_module(module_name), class_name)
    return drill


def make_drill(name: str, options: DrillOptions | None = None) -> Drill:
    """A fresh drill of that name with its session options."""
    return find_drill(name)(options or DrillOptions())  # type: ignore[call-arg]


__all__ = ["DRILLS", "Drill", "DrillOptions", "find_drill", "make_drill"]
