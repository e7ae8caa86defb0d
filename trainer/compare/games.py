"""The games a comparison names: rule sets with some keys set anew, one by one or crossed from a grid.

A game on the command line is a rule set (built in, an alias, or a file) with overrides after a colon:
`casino:decks=2,penetration=0.6,hits_soft_17=true`. A value reads as TOML reads it where it can
(`true`, `2`, `0.6`) and as text otherwise (`late`, `6:5`). A grid is a TOML file of lists, crossed:

    ruleset = ["casino", "bicycle"]
    decks = [2, 6]
    penetration = [0.65, 0.8]

is eight games (a key with one value may give it bare: `hits_soft_17 = true`). The keys are the rule
keys of `trainer.core.rulesfile.override_keys` and `ruleset` (default `casino`); a key that is none of
them, or a value its key does not take, is one line naming it, before anything is simulated.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trainer.core.errors import RuleOverrideError
from trainer.core.rules import Ruleset
from trainer.core.rulesfile import load_ruleset, override_key, override_keys, with_overrides

MOST_GAMES = 10_000
"""The most games one comparison takes (a grid crosses quickly past what a cluster finishes)."""
GRID_BASE = "ruleset"
DEFAULT_BASE = "casino"


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSpec:
    """One game of a comparison: its name as the learner wrote it, its base and the keys set anew."""

    name: str
    base: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    ruleset: Ruleset


def _value(text: str) -> Any:
    """An override's value: as TOML reads it where it can (`true`, `2`, `0.6`, `[1, 8]`), else the text."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def _words(value: Any) -> str:
    """A value as an override writes it: `true`, `2`, `0.6`, `late`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_words(v) for v in value) + "]"
    return str(value)


def game_name(base: str, settings: Mapping[str, Any]) -> str:
    """The game's name: `casino`, or `casino:decks=2,penetration=0.6`."""
    if not settings:
        return base
    return f"{base}:" + ",".join(f"{k}={_words(v)}" for k, v in settings.items())


def make_game(base: str, settings: Mapping[str, Any]) -> GameSpec:
    """A game from its base rule set and overrides, checked (one line naming a bad key or value)."""
    name = game_name(base, settings)
    ruleset = with_overrides(load_ruleset(base), settings, name=name)
    return GameSpec(name=name, base=base, settings=dict(settings), ruleset=ruleset)


def parse_game(text: str) -> GameSpec:
    """A game as the command line names it: `casino`, `casino:decks=2,hits_soft_17=true`."""
    base, colon, rest = text.partition(":")
    if not colon or "=" not in rest:
        return make_game(text.strip(), {})
    settings: dict[str, Any] = {}
    for part in rest.split(","):
        key, equals, value = part.partition("=")
        key = key.strip()
        if not equals or not key or not value.strip():
            raise RuleOverrideError(f"{text}: {part.strip()!r} is not KEY=VALUE (e.g. casino:decks=2)")
        if key in settings:
            raise RuleOverrideError(f"{text}: {key} is set twice")
        settings[key] = _value(value.strip())
    return make_game(base.strip(), settings)


def read_grid(path: Path) -> list[GameSpec]:
    """The games of a grid file: every value of each key crossed with every other's, in file order."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise RuleOverrideError(f"cannot read the grid {path}: {e.strerror or e}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise RuleOverrideError(f"{path.name} is not TOML ({e})") from None
    return grid_games(data, where=path.name)


def grid_games(data: Mapping[str, Any], *, where: str) -> list[GameSpec]:
    """The games of a grid's parsed TOML (see the module)."""
    known = {*override_keys(), GRID_BASE}
    axes: list[tuple[str, list[Any]]] = []
    for key, values in data.items():
        if isinstance(values, dict):  # a [section] table: its keys as 'section.key'
            raise RuleOverrideError(f"{where}: [{key}] is a table: a grid gives each key its list of values, "
                                    f"e.g. {key}.KEY = [...] or the key's own name")
        if key not in known:
            override_key(key, where)  # the one-line error naming it, with the nearest key
        listed = values if isinstance(values, list) and not _is_range(key, values) else [values]
        if not listed:
            raise RuleOverrideError(f"{where}: {key} = [] gives no value: list one or more")
        if key == GRID_BASE and not all(isinstance(v, str) for v in listed):
            raise RuleOverrideError(f"{where}: {GRID_BASE} lists rule-set names, "
                                    'e.g. ["casino", "bicycle"]')
        axes.append((key, listed))
    if not axes:
        raise RuleOverrideError(f"{where} names no key: give each rule key its list of values, "
                                "e.g. decks = [2, 6]")
    count = 1
    for _, listed in axes:
        count *= len(listed)
    if count > MOST_GAMES:
        raise RuleOverrideError(f"{where}: the grid crosses to {count:,} games: at most {MOST_GAMES:,}")
    bases: list[Any] = next((listed for key, listed in axes if key == GRID_BASE), [DEFAULT_BASE])
    rules = [(key, listed) for key, listed in axes if key != GRID_BASE]
    games = []
    for base in bases:
        for row in itertools.product(*(listed for _, listed in rules)):
            games.append(make_game(base, dict(zip((key for key, _ in rules), row, strict=True))))
    return games


def _is_range(key: str, values: list[Any]) -> bool:
    """A list that is one value of its key: `decks_range = [1, 8]`, `peek = ["A", "T"]` (a list of
    those lists is the grid's)."""
    if key.split(".")[-1] not in ("decks_range", "cut_card_from_end", "peek"):
        return False
    return not values or not isinstance(values[0], list)
