"""`--since`: how far back `stats` looks, as typed (`30d`, `12w`, `1y`, `all`).

Its own module so that a command reading the option (every `stats` view) does not load the whole
report's figures (`trainer.progress.stats`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainer.core.bounds import quoted
from trainer.core.errors import InvalidInputError


@dataclass(frozen=True, slots=True, kw_only=True)
class Since:
    """How far back the figures look: `label` as typed ("30d", "all"), `days` None for all time."""

    label: str
    days: int | None


MOST_DAYS = 50 * 365
"""The longest `--since` span: fifty years (no answer is older; longer nears the start of the epoch)."""


def parse_since(text: str) -> Since:
    """`--since`: a number of days, weeks or years (`30d`, `12w`, `1y`), or `all`.

    >>> parse_since("30d"), parse_since("2w").days, parse_since("1y").days, parse_since("all").days
    (Since(label='30d', days=30), 14, 365, None)
    """
    given = text.strip().lower()
    if given in ("all", ""):
        return Since(label="all", days=None)
    match = re.fullmatch(r"(\d{1,7})\s*([dwy])", given)
    if match is None or int(match.group(1)) == 0:
        raise InvalidInputError(f"--since {quoted(text)}: expected a span like 7d, 12w, 1y, or 'all'")
    days = int(match.group(1)) * {"d": 1, "w": 7, "y": 365}[match.group(2)]
    if days > MOST_DAYS:
        raise InvalidInputError(f"--since {quoted(text)}: at most {MOST_DAYS // 365} years "
                                f"({MOST_DAYS:,} days); for every answer use --since all")
    return Since(label=given.replace(" ", ""), days=days)
