"""Drill-specific `--set KEY=VALUE` settings: each drill names the keys it reads and refuses the rest."""

from __future__ import annotations

from collections.abc import Mapping

from trainer.core.errors import InvalidInputError


def check_settings(drill: str, extra: Mapping[str, str], known: tuple[str, ...]) -> None:
    """Refuse a `--set` key the drill does not know (a typo would otherwise be ignored silently)."""
    unknown = sorted(set(extra) - set(known))
    if unknown:
        allowed = ", ".join(known) if known else "none"
        raise InvalidInputError(f"{drill} has no setting {unknown[0]!r} (settings: {allowed})")


def read_late_surrender(drill: str, extra: Mapping[str, str]) -> bool:
    """`--set surrender=late`: practise as if the table offered late surrender."""
    value = extra.get("surrender", "").strip().lower()
    if value not in ("", "late", "none"):
        raise InvalidInputError(f"{drill}: surrender={value!r}: expected 'late' (practice) or 'none'")
    return value == "late"
