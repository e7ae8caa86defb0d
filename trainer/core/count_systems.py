"""Count systems as data: the tag of every card, and where an unbalanced count starts.

Built-in systems live in `count_systems.toml` (beside this module); a user's own system
is a TOML file of the same schema, read by `load_system(path)` and checked strictly: a bad key or value
is an `InvalidInputError` that names the file, the key and what is allowed. The schema:

    name = "my-count"                 # letters, digits and dashes; also aliases = [...], title, source
    tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }   # T: 10 J Q K
    red_tags = { 7 = 1 }              # optional: red cards of a rank tagged apart (Red 7)
    [start]                           # optional, for unbalanced counts
    offset = 4                        # initial running count = offset + per_deck x decks
    per_deck = -4
    pivot = 4                         # the count a full shoe ends at
    key_counts = { 1 = 2, 6 = -4 }    # published key counts by decks
    [side_count]                      # optional: ranks kept apart from the main count (an ace side count)
    ranks = ["A"]
    adjustment = 1                    # running-count points per surplus card left, for betting only
    source = "..."                    # where the adjustment comes from

Tags are whole or half numbers from -4 to 4; an adjustment a whole or half number from -4 to 4.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from trainer.core.cards import Card
from trainer.core.errors import InvalidInputError
from trainer.core.tomlfiles import names_a_file, read_toml, shipped

Count = int | Fraction
"""A tag or a count: a whole number, or a Fraction for half-point systems (Wong Halves)."""

RANK_KEYS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""The tag table's keys, by blackjack value 1..10; T stands for every ten-valued card (10 J Q K)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SideCount:
    """Cards of some ranks counted apart from the main count (an ace-neutral count's ace side count):
    each card of them left above the norm for the depth adds `adjustment` to the running count the
    counter bets by; the play stays by the plain count.

    The adjustment has two equal forms, as the true count is the running count over the decks left:
    `adjustment` running-count points per surplus card is `adjustment` true-count points per surplus card
    per deck left ((R + a·S) / D = R / D + a·(S / D)). A figure given "per surplus ace per deck
    remaining" is therefore the same number as one "per surplus ace" on the running count."""

    ranks: tuple[int, ...]
    """The ranks by blackjack value (1: ace, 10: every ten-valued card)."""
    adjustment: Fraction
    """Running-count points per surplus card left (betting only)."""
    source: str = ""

    @property
    def per_deck(self) -> int:
        """Cards of these ranks in one deck: 4 a rank, 16 for tens."""
        return sum(16 if rank == 10 else 4 for rank in self.ranks)

    @property
    def adjustment_words(self) -> str:
        """The adjustment in both its forms, for a grade.

        >>> SideCount(ranks=(1,), adjustment=Fraction(1)).adjustment_words
        '+1 running-count point per surplus ace, which is +1 true-count point per surplus ace per deck left'
        """
        value = self.adjustment
        number = f"{value.numerator}" if value.denominator == 1 else f"{float(value):g}"
        sign = "+" if value > 0 else ""
        point = "point" if abs(value) == 1 else "points"
        card = " or ".join("ace" if r == 1 else ("ten" if r == 10 else str(r)) for r in self.ranks)
        return (f"{sign}{number} running-count {point} per surplus {card}, which is {sign}{number} "
                f"true-count {point} per surplus {card} per deck left")

    @property
    def names(self) -> str:
        """'aces', 'aces and 9s', for people."""
        words = ["aces" if r == 1 else ("tens" if r == 10 else f"{r}s") for r in self.ranks]
        return " and ".join(words)


def _plain(value: Fraction) -> Count:
    """A whole-number Fraction as an int, so Hi-Lo tags and counts read as 1, -3, 0."""
    return int(value) if value.denominator == 1 else value


@dataclass(frozen=True, slots=True, kw_only=True)
class CountSystem:
    """One card-counting system: a tag per rank (and colour), and where an unbalanced count starts."""

    name: str
    title: str
    source: str = ""
    aliases: tuple[str, ...] = ()
    tags: tuple[Fraction, ...]
    """Tags of black cards (and of suitless cards) by blackjack value: A, 2, ..., 9, T."""
    red_tags: tuple[Fraction, ...]
    """Tags of red cards by value; equal to `tags` unless the system counts colours (Red 7)."""
    irc_offset: Fraction = Fraction(0)
    irc_per_deck: Fraction = Fraction(0)
    """Initial running count = irc_offset + irc_per_deck x decks (KO: 4 - 4 x decks; Red 7: -2 x decks)."""
    pivot: Fraction | None = None
    """The running count every full shoe ends at, counted from the IRC (KO +4, Red 7 0)."""
    key_counts: tuple[tuple[int, Fraction], ...] = ()
    """Published key counts (the running count where the player first has the edge) by decks."""
    side_count: SideCount | None = None
    """The ranks counted apart for betting (Hi-Opt I's aces); None: no side count."""
    _deck_total: Count = field(init=False, repr=False, compare=False)
    """`deck_total`, added up once: drills that deal real shoes ask it for every moment they draw."""
    _plain_tags: tuple[tuple[Count, ...], tuple[Count, ...]] = field(init=False, repr=False, compare=False)
    """`tag`'s answers by value, black and red: the table counts every card seen at each decision."""
    _twice_tags: tuple[tuple[int, ...], tuple[int, ...]] = field(init=False, repr=False, compare=False)
    """Twice each tag (a whole number: tags are whole or half), black and red, for `running_count`."""

    def __post_init__(self) -> None:
        per_value = [1] * 9 + [4]  # ranks per value: A..9 once, T for 10 J Q K
        total = sum((2 * (b + r) * n for b, r, n in zip(self.tags, self.red_tags, per_value, strict=True)),
                    Fraction(0))
        object.__setattr__(self, "_deck_total", _plain(total))
        object.__setattr__(self, "_plain_tags", (tuple(_plain(t) for t in self.tags),
                                                 tuple(_plain(t) for t in self.red_tags)))
        object.__setattr__(self, "_twice_tags", (tuple(_twice(t) for t in self.tags),
                                                 tuple(_twice(t) for t in self.red_tags)))

    def tag(self, card: Card) -> Count:
        """The card's tag; a red seven and a black one differ under Red 7.

        >>> from trainer.core.cards import parse_card
        >>> hi_lo = find_system("hi-lo")
        >>> [hi_lo.tag(parse_card(c)) for c in ("5h", "8c", "Kd", "As")]
        [1, 0, -1, -1]
        """
        return self._plain_tags[self._colour(card)][card.value - 1]

    def _colour(self, card: Card) -> int:
        """Which of the tags count `card`: 1 for a red card, 0 for a black or suitless one (a suitless
        card of a rank the system tags by colour has no tag: an `InvalidInputError`)."""
        suit = card.suit
        if suit is None:
            if self.tags[card.value - 1] != self.red_tags[card.value - 1]:
                raise InvalidInputError(f"{self.title} counts a {card.rank.symbol} by its colour, "
                                        f"and {card} has no suit")
            return 0
        return 1 if suit.is_red else 0

    @property
    def short_title(self) -> str:
        """The title without its parenthesis, for a sentence: 'Knock-Out' for 'Knock-Out (KO)'.

        >>> find_system("ko").short_title, find_system("hi-lo").short_title
        ('Knock-Out', 'Hi-Lo')
        """
        return self.title.split(" (")[0]

    @property
    def counts_colour(self) -> bool:
        return self.tags != self.red_tags

    @property
    def deck_total(self) -> Count:
        """The tags of one 52-card deck added up: 0 for a balanced count (KO +4, Red 7 +2)."""
        return self._deck_total

    @property
    def balanced(self) -> bool:
        return self.deck_total == 0

    @property
    def halves(self) -> bool:
        """True when some tag is a half point, so counts may end in .5."""
        return any(t.denominator != 1 for t in (*self.tags, *self.red_tags))

    def initial_running_count(self, decks: int) -> Count:
        """Where the count starts after a shuffle of `decks` decks (0 for a balanced count).

        An infinite deck (decks = 0) has no shoe to start from: its count starts at 0.

        >>> find_system("ko").initial_running_count(6), find_system("red-7").initial_running_count(6)
        (-20, -12)
        """
        if decks < 1 or not (self.irc_offset or self.irc_per_deck):  # a balanced count starts at 0
            return 0
        return _plain(self.irc_offset + self.irc_per_deck * decks)

    def end_count(self, decks: int) -> Count:
        """The running count after every card of a `decks`-deck shoe (KO: +4 whatever the decks)."""
        return _plain(Fraction(self.initial_running_count(decks)) + decks * Fraction(self.deck_total))

    def key_count(self, decks: int) -> Count | None:
        """The published key count for that many decks, or None where the source gives none."""
        return next((_plain(k) for d, k in self.key_counts if d == decks), None)

    def running_count(self, cards: Iterable[Card], *, decks: int) -> Count:
        """The running count after `cards`, seen since the shuffle of a `decks`-deck shoe."""
        total = 0  # twice the count: whole numbers add up faster than Fractions, to the same count
        black, red = self._twice_tags
        for seen in cards:
            suit = seen.suit
            if suit is None:  # the black tag, where the system tags the rank alike in both colours
                if black[seen.value - 1] != red[seen.value - 1]:
                    self._colour(seen)  # raises: a rank counted by colour, and no suit
                total += black[seen.value - 1]
            else:
                total += (red if suit.is_red else black)[seen.value - 1]
        return _plain(Fraction(self.initial_running_count(decks)) + Fraction(total, 2))

    def ranks_tagged(self, value: Count) -> tuple[str, ...]:
        """The ranks (A, 2..9, T) whose tag is `value`, for the countdown's checkout of a missing card."""
        return tuple(key for key, b, r in zip(RANK_KEYS, self.tags, self.red_tags, strict=True)
                     if value in (b, r))


def _twice(tag: Fraction) -> int:
    """Twice a whole or half tag, a whole number."""
    twice = 2 * tag
    if twice.denominator != 1:
        raise ValueError(f"a tag is a whole or half number, not {tag}")
    return int(twice)


def _tag_value(value: Any, *, limit: int) -> Fraction:
    """A whole or half number within +-limit, from TOML (int or float)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"expected a whole or half number from -{limit} to {limit}")
    number = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    if (2 * number).denominator != 1 or abs(number) > limit:
        raise ValueError(f"expected a whole or half number from -{limit} to {limit}")
    return number


def _rank_table(where: str, key: str, table: Any, *, complete: bool) -> dict[int, Fraction]:
    if not isinstance(table, dict):
        raise InvalidInputError(f"{where}: {key} must be a table such as {{ A = -1, 2 = 1, ... }}")
    known = ", ".join(RANK_KEYS)
    out: dict[int, Fraction] = {}
    for rank_key, value in table.items():
        wanted = "T" if rank_key in ("10", "t") else str(rank_key).upper()
        if wanted not in RANK_KEYS:
            raise InvalidInputError(f"{where}: unknown key {key}.{rank_key} (known keys: {known})")
        try:
            out[RANK_KEYS.index(wanted) + 1] = _tag_value(value, limit=4)
        except ValueError as e:
            raise InvalidInputError(f"{where}: {key}.{rank_key} = {value!r} is not allowed: {e}") from None
    missing = [k for i, k in enumerate(RANK_KEYS, 1) if i not in out]
    if complete and missing:
        raise InvalidInputError(f"{where}: missing key {key}.{missing[0]} (every rank needs a tag: {known})")
    return out


_TOP_KEYS = ("name", "title", "source", "aliases", "tags", "red_tags", "start", "side_count")
_SIDE_KEYS = ("ranks", "adjustment", "source")


def _side_count(where: str, table: Any) -> SideCount | None:
    """The optional `[side_count]` table, checked."""
    if table is None:
        return None
    if not isinstance(table, dict):
        raise InvalidInputError(f"{where}: side_count must be a table [side_count]")
    odd = sorted(set(table) - set(_SIDE_KEYS))
    if odd:
        raise InvalidInputError(f"{where}: unknown key side_count.{odd[0]} "
                                f"(known keys: {', '.join(_SIDE_KEYS)})")
    ranks = table.get("ranks")
    wanted = [("T" if str(r) in ("10", "t") else str(r).upper()) for r in ranks] \
        if isinstance(ranks, list) else None
    if not wanted or len(set(wanted)) != len(wanted) or any(r not in RANK_KEYS for r in wanted):
        raise InvalidInputError(f"{where}: side_count.ranks = {ranks!r} is not allowed: expected a list of "
                                f"different ranks from {', '.join(RANK_KEYS)}, such as [\"A\"]")
    if "adjustment" not in table:
        raise InvalidInputError(f"{where}: missing key side_count.adjustment (running-count points per "
                                "surplus card, for betting)")
    try:
        adjustment = _tag_value(table["adjustment"], limit=4)
    except ValueError as e:
        raise InvalidInputError(f"{where}: side_count.adjustment = {table['adjustment']!r} is not allowed: "
                                f"{e}") from None
    source = table.get("source", "")
    if not isinstance(source, str):
        raise InvalidInputError(f"{where}: side_count.source = {source!r} is not allowed: expected a string")
    return SideCount(ranks=tuple(sorted(RANK_KEYS.index(r) + 1 for r in wanted)), adjustment=adjustment,
                     source=source.strip())
_START_KEYS = ("offset", "per_deck", "pivot", "key_counts")


def parse_system(data: Mapping[str, Any], *, where: str) -> CountSystem:
    """A `CountSystem` from parsed TOML; every unknown key or bad value names itself and the file."""
    unknown = sorted(set(data) - set(_TOP_KEYS))
    if unknown:
        raise InvalidInputError(f"{where}: unknown key {unknown[0]!r} (known keys: {', '.join(_TOP_KEYS)})")
    name = data.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9\-]*", name.strip().lower()):
        raise InvalidInputError(f"{where}: name = {name!r} is not allowed: expected a short name such as "
                                "\"my-count\" (letters, digits and dashes)")
    for key in ("title", "source"):
        if key in data and not (isinstance(data[key], str) and data[key].strip()):
            raise InvalidInputError(f"{where}: {key} = {data[key]!r} is not allowed: expected a string")
    aliases = data.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
        raise InvalidInputError(f"{where}: aliases = {aliases!r} is not allowed: expected a list of names")
    if "tags" not in data:
        raise InvalidInputError(f"{where}: missing table tags (a tag for each of {', '.join(RANK_KEYS)})")
    black = _rank_table(where, "tags", data["tags"], complete=True)
    red = black | _rank_table(where, "red_tags", data.get("red_tags", {}), complete=False)
    start = data.get("start", {})
    if not isinstance(start, dict):
        raise InvalidInputError(f"{where}: start must be a table [start]")
    odd = sorted(set(start) - set(_START_KEYS))
    if odd:
        raise InvalidInputError(f"{where}: unknown key start.{odd[0]} (known keys: {', '.join(_START_KEYS)})")
    numbers: dict[str, Fraction] = {}
    for key in ("offset", "per_deck", "pivot"):
        if key in start:
            try:
                numbers[key] = _tag_value(start[key], limit=100)
            except ValueError as e:
                raise InvalidInputError(f"{where}: start.{key} = {start[key]!r} is not allowed: {e}") \
                    from None
    keys = start.get("key_counts", {})
    if not isinstance(keys, dict):
        raise InvalidInputError(f"{where}: start.key_counts must be a table such as {{ 1 = 2, 6 = -4 }}")
    key_counts: list[tuple[int, Fraction]] = []
    for decks, value in keys.items():
        if not str(decks).isdecimal() or not 1 <= int(decks) <= 8:
            raise InvalidInputError(f"{where}: start.key_counts.{decks} is not allowed: "
                                    "expected a number of decks from 1 to 8")
        try:
            key_counts.append((int(decks), _tag_value(value, limit=100)))
        except ValueError as e:
            raise InvalidInputError(f"{where}: start.key_counts.{decks} = {value!r} is not allowed: {e}") \
                from None
    clean = name.strip().lower()
    return CountSystem(
        name=clean,
        title=str(data.get("title", clean)).strip(),
        source=str(data.get("source", where)).strip(),
        aliases=tuple(a.strip().lower() for a in aliases),
        tags=tuple(black[v] for v in range(1, 11)),
        red_tags=tuple(red[v] for v in range(1, 11)),
        irc_offset=numbers.get("offset", Fraction(0)),
        irc_per_deck=numbers.get("per_deck", Fraction(0)),
        pivot=numbers.get("pivot"),
        key_counts=tuple(sorted(key_counts)),
        side_count=_side_count(where, data.get("side_count")),
    )


@functools.cache
def builtin_systems() -> dict[str, CountSystem]:
    """The shipped count systems by name, Hi-Lo (the default) first."""
    text = (shipped("trainer.core") / "count_systems.toml").read_text(encoding="utf-8")
    tables = tomllib.loads(text)["system"]
    systems = (parse_system(t, where="count_systems.toml") for t in tables)
    return {s.name: s for s in systems}


def find_system(name: str) -> CountSystem:
    """A built-in count system by name or alias (case-insensitive): 'hi-lo', 'ko', 'wong-halves', ..."""
    wanted = name.strip().lower().replace("_", "-").replace(" ", "-")
    for system in builtin_systems().values():
        if wanted == system.name or wanted in system.aliases:
            return system
    from trainer.core.errors import UnknownNameError
    from trainer.core.names import unknown_name

    raise UnknownNameError(unknown_name("count system", name, builtin_systems(), files=True))


def load_system(name_or_path: str | Path) -> CountSystem:
    """A built-in count system by name, or a user's count-system TOML file by path."""
    if not names_a_file(name_or_path):
        return find_system(str(name_or_path))
    data, path = read_toml(name_or_path, what="count system", error=InvalidInputError)
    return parse_system(data, where=path.name)


