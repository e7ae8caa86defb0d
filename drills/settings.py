"""Drill-specific `--set KEY=VALUE` settings: each drill names the keys it reads and refuses the rest; and
the practice tables they ask for (late surrender, another blackjack ratio)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from trainer.core.errors import InvalidInputError, UnknownNameError
from trainer.core.money import Ratio
from trainer.core.rules import Ruleset, Surrender


def check_settings(drill: str, extra: Mapping[str, str], known: tuple[str, ...]) -> None:
    """Refuse a `--set` key the drill does not know (a typo would otherwise be ignored silently)."""
    unknown = sorted(set(extra) - set(known))
    if unknown:
        allowed = ", ".join(known) if known else "none"
        raise UnknownNameError(f"{drill} has no setting {unknown[0]!r} (settings: {allowed})")


def read_late_surrender(drill: str, extra: Mapping[str, str]) -> bool:
    """`--set surrender=late`: practise as if the table offered late surrender."""
    value = extra.get("surrender", "").strip().lower()
    if value not in ("", "late", "none"):
        raise InvalidInputError(f"{drill}: surrender={value!r}: expected 'late' (practice) or 'none'")
    return value == "late"


def with_blackjack_ratio(ruleset: Ruleset, ratio: Ratio) -> Ruleset:
    """The rule set with blackjack paid at another ratio (the 6:5 practice table)."""
    return dataclasses.replace(ruleset, payouts=dataclasses.replace(ruleset.payouts, blackjack=ratio))


def with_late_surrender(ruleset: Ruleset) -> Ruleset:
    """The rule set with late surrender offered (practice: no shipped rule set offers it)."""
    player = dataclasses.replace(ruleset.player, surrender=Surrender.LATE)
    return dataclasses.replace(ruleset, player=player)


def practice_table(ruleset: Ruleset, surrender: bool, ratio: Ratio | None = None) -> Ruleset:
    """The table a practice session plays at: the rule set with late surrender where it has none
    (`--set surrender=late`) and blackjack at another `ratio` (`--set ratio=6:5`); the rule set itself,
    the same object, when neither changes anything.

    >>> from trainer.core.rulesfile import find_ruleset
    >>> casino = find_ruleset("casino")
    >>> practice_table(casino, False) is casino, practice_table(casino, False, Ratio.parse("3:2")) is casino
    (True, True)
    >>> table = practice_table(casino, True, Ratio.parse("6:5"))
    >>> table.player.surrender.value, str(table.payouts.blackjack)
    ('late', '6:5')
    """
    table = ruleset
    if ratio is not None and ratio != ruleset.payouts.blackjack:
        table = with_blackjack_ratio(table, ratio)
    if surrender and ruleset.player.surrender is Surrender.NONE:
        table = with_late_surrender(table)
    return table
