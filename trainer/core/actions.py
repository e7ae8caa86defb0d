"""A player's actions, in the words the CLI and the drills accept (the events of a round record them:
`trainer.core.events`)."""

from __future__ import annotations

import enum


class Action(enum.StrEnum):
    """What a player may do; the words are the ones the CLI and the drills accept."""

    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    INSURE = "insure"
    EVEN_MONEY = "even-money"
    DECLINE = "decline"


PLAY_ORDER = (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)
"""The order in which a hand's plays are offered."""

PLAY_WORDS = {
    "hit": "hit", "h": "hit",
    "stand": "stand", "s": "stand", "stay": "stand",
    "double": "double", "d": "double", "dbl": "double", "double down": "double",
    "split": "split", "p": "split", "sp": "split",
    "surrender": "surrender", "r": "surrender", "sur": "surrender",
}
"""What a player may type for a play (lowercase, single spaces) -> the play's `Action` value."""
