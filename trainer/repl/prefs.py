"""The REPL's remembered settings (`use RULESET`, `set speed 0.4`, `set system ko`, `set ramp 1:1,2:2,3:4`,
`set estimation quarter`) in `$CUTCARD_HOME`.

They are kept as a small JSON file (`settings.json`: the standard library writes JSON, not TOML) and
become option defaults of the commands run from the REPL that they are meant for (`APPLIES_TO`), through
click's `default_map`; an option typed on the line still wins.

The true-count conversion (`estimation`, `last-deck`, `rounding`) is remembered for every command that
converts a running count (the drills, `play`, and `sim`, `indices` and `plan`, so that the indices and the
plan are computed for the conversion the learner uses); `close-call`, the allowed error in cards for a tray
read near the line between two readings, is the tray drills'. A combination no command takes (a last deck
read more coarsely than the shoe, a close call as wide as half a unit) is refused when it is set.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainer.cli.common import DEFAULT_RULESET, DEFAULT_SYSTEM, SPEED_RANGE
from trainer.core.betting import DEFAULT_RAMP, BetRamp
from trainer.core.errors import InvalidInputError, TrainerError
from trainer.files import write_atomically

FILE_NAME = "settings.json"

KEYS: dict[str, str] = {
    "ruleset": "the rule set of play, drills, chart, ev and sim (also: use NAME)",
    "speed": "seconds per card in flash drills, e.g. 0.4",
    "system": "the count system of count drills and play, e.g. hi-lo, ko",
    "distract": "on: the casino interrupts the count drills and play (--distract); off",
    "estimation": "how finely true counts read the decks left: full, half, quarter or exact",
    "last-deck": "a finer reading once fewer than 52 cards are left: half, quarter or exact",
    "rounding": "how a true count is made whole: floor, truncate or round",
    "close-call": "the allowed error in cards of a tray by the line between two readings, e.g. 3",
    "ramp": "your bet ramp at play, TC:UNITS steps, e.g. 1:1,2:2,3:4,4:8,5:12, or plan (the plan's)",
    "indices": "the index plays of the deviations drill, play and sim --count: published or computed",
    "dealer-errors": "the share of rounds in which play's dealer makes a mistake to call, 0 to 1 (0: off)",
    "bet-count": "on: every bet's grade at play shows the counts (off: only a wrong bet's)",
}
"""Setting name -> what it changes (for `set` and its completion)."""
CONVERTING = ("drill", "play", "sim", "indices", "plan", "compare")
"""The commands that convert a running count to a true count (`sim` with `--count`)."""
APPLIES_TO: dict[str, tuple[str, ...]] = {
    "ruleset": ("chart", "ev", "drill", "play", "sim", "stats", "ready", "indices", "plan"),
    "speed": ("drill",),
    "system": ("drill", "play", "indices", "plan", "compare"),
    "distract": ("drill", "play"),
    "estimation": CONVERTING,
    "last-deck": CONVERTING,
    "rounding": CONVERTING,
    "close-call": ("drill",),
    "ramp": ("play",),
    "indices": ("drill", "play", "sim", "plan", "compare"),
    "dealer-errors": ("play",),
    "bet-count": ("play",),
}
"""Setting name -> the commands whose option of that name it is the default of. Not every command with
such an option: `review --ruleset` narrows the queue to one rule set (without it review mixes them all),
and `sim --count SYSTEM` turns counting on, so a remembered count system must not reach it."""

RESET_WORDS = ("default", "none", "off")
CONVERSION_DEFAULTS = {"estimation": "half", "last-deck": "as estimation", "rounding": "floor",
                       "close-call": "an eighth of the unit"}
"""What the commands convert by when nothing is remembered (their options' defaults)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Prefs:
    """The remembered settings; None means "the command's own default"."""

    ruleset: str | None = None
    speed: float | None = None
    system: str | None = None
    distract: bool | None = None
    """`set distract on`: the count drills' and play's --distract."""
    estimation: str | None = None
    """'full', 'half', 'quarter' or 'exact': `--estimation`."""
    last_deck: str | None = None
    """The last deck's estimation, no coarser than `estimation`: `--last-deck`."""
    rounding: str | None = None
    """'floor', 'truncate' or 'round': `--rounding`."""
    close_call: float | None = None
    """The allowed error in cards for a close call (0: none): the tray drills' `--close-call`."""
    ramp: str | None = None
    """The learner's bet ramp in `TC:UNITS,...` form (play grades every bet against it)."""
    indices: str | None = None
    """'published' or 'computed' (`cutcard indices`)."""
    dealer_errors: float | None = None
    """`set dealer-errors 0.2`: play's --dealer-errors."""
    bet_count: bool | None = None
    """`set bet-count on`: play's --bet-count."""
    toured: bool = False
    """True once the three-line tour has been shown."""

    def shown(self, key: str) -> str:
        """A setting as `set` prints it."""
        value = getattr(self, field_of(key))
        if value is None:
            fallback = {"ruleset": DEFAULT_RULESET, "system": DEFAULT_SYSTEM, **CONVERSION_DEFAULTS,
                        "ramp": DEFAULT_RAMP,
                        "indices": "published", "dealer-errors": "0, off",
                        "bet-count": "off", "distract": "off"}.get(key, "the drill's own")
            return f"{fallback} (default)"
        if isinstance(value, bool):
            return "on" if value else "off"
        if key == "close-call":
            return f"{value:g} cards"
        return f"{value:g}" if isinstance(value, float) else str(value)

    def default_map(self) -> dict[str, dict[str, Any]]:
        """click's `default_map`: each chosen setting as an option default of the commands it is for."""
        defaults: dict[str, dict[str, Any]] = {}
        for key, commands in APPLIES_TO.items():
            value = getattr(self, field_of(key))
            if value is not None:
                for name in commands:
                    defaults.setdefault(name, {})[field_of(key)] = value
        return defaults


def load_prefs(home: Path) -> tuple[Prefs, str | None]:
    """The settings in `home`, and a one-line warning when the file or a setting in it is unusable.

    An unreadable file gives the defaults; a setting that no longer works (a rule-set or count-system
    file deleted or broken since it was chosen) is left at its default and the others are kept.
    """
    path = home / FILE_NAME
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Prefs(), None
    except OSError as e:
        return Prefs(), f"cannot read {path}: {e.strerror or e}; using the defaults"
    try:
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
    except ValueError as e:
        return Prefs(toured=True), f"{path} is not usable ({e}); using the defaults"
    prefs = Prefs(toured=bool(data.get("toured", False)))
    unusable: list[str] = []
    for key in KEYS:
        if data.get(field_of(key)) is not None:
            try:
                prefs = change(prefs, key, str(data[field_of(key)]))
            except TrainerError as e:  # e.g. a remembered rule-set file since deleted or broken
                unusable.append(f"the remembered {key} is not usable ({e})")
    if unusable:
        return prefs, f"{'; '.join(unusable)}; using the defaults"
    return prefs, None


def save_prefs(home: Path, prefs: Prefs) -> None:
    """Write the settings (to a fresh scratch file first, never one a symlink was planted at, removed if
    the write fails: a crash never leaves half a file)."""
    try:
        home.mkdir(parents=True, exist_ok=True)
        write_atomically(home / FILE_NAME, (json.dumps(dataclasses.asdict(prefs), indent=2) + "\n").encode())
    except OSError as e:
        raise TrainerError(f"cannot save the settings in {home}: {e.strerror or e}") from None


def change(prefs: Prefs, key: str, value: str) -> Prefs:
    """The settings with `key` set to `value` (checked), or reset by 'default'; raises on bad input."""
    check_key(key)
    text = value.strip()
    if text.lower() in RESET_WORDS:
        reset: dict[str, Any] = {field_of(key): None}
        if key in CONVERSION_DEFAULTS:
            _check_conversion(dataclasses.replace(prefs, **reset))
        return dataclasses.replace(prefs, **reset)
    if key == "ruleset":
        return dataclasses.replace(prefs, ruleset=_ruleset_name(text))
    if key == "speed":
        return dataclasses.replace(prefs, speed=_speed(text))
    if key == "ramp":
        ramp = _plan_ramp() if text.lower() == "plan" else text
        return dataclasses.replace(prefs, ramp=BetRamp.parse(ramp).text)
    if key == "dealer-errors":
        return dataclasses.replace(prefs, dealer_errors=_share(text))
    if key in ("bet-count", "distract"):
        if text.lower() not in ("on", "yes", "true", "1"):
            raise InvalidInputError(f"{key} {text!r} is not one of on, off")
        on: dict[str, Any] = {field_of(key): True}
        return dataclasses.replace(prefs, **on)
    if key == "indices":
        if text.lower() not in ("published", "computed"):
            raise InvalidInputError(f"indices {text!r} is not one of published, computed")
        return dataclasses.replace(prefs, indices=text.lower())
    if key in CONVERSION_DEFAULTS:
        return _checked_conversion(prefs, key, text)
    return dataclasses.replace(prefs, system=_system_name(text))


def _checked_conversion(prefs: Prefs, key: str, text: str) -> Prefs:
    """The settings with one part of the true-count conversion changed, the whole checked."""
    from trainer.core.counting import Rounding, estimation_of

    word = text.lower()
    value: str | float
    if key == "estimation":
        value = estimation_of(word).value
    elif key == "last-deck":
        value = estimation_of(word, "last-deck estimation").value
    elif key == "rounding":
        if word not in {r.value for r in Rounding}:
            raise InvalidInputError(f"rounding {text!r} is not one of floor, truncate, round")
        value = word
    else:
        try:
            value = float(word.removesuffix("cards").strip())
        except ValueError:
            raise InvalidInputError(f"close-call {text!r} is not a number of cards, e.g. 3") from None
        if not 0 <= value <= 26:
            raise InvalidInputError(f"close-call {text} is out of range: 0 to 26 cards (0: no close calls)")
    changed: dict[str, Any] = {field_of(key): value}
    chosen = dataclasses.replace(prefs, **changed)
    _check_conversion(chosen)
    return chosen


def _check_conversion(prefs: Prefs) -> None:
    """Refuse a conversion no command takes: the last deck read more coarsely than the shoe, or a close
    call as wide as half the finest unit in use."""
    from drills.counting.count_drill import check_close_call
    from trainer.core.counting import check_last_deck

    estimation = prefs.estimation or CONVERSION_DEFAULTS["estimation"]
    check_last_deck(estimation, prefs.last_deck)
    check_close_call(prefs.close_call, estimation, prefs.last_deck)


def _plan_ramp() -> str:
    """`set ramp plan`: the ramp of the plan in force ($CUTCARD_HOME/plan.json), in whole units of its
    minimum bet, as `set ramp` takes it."""
    from trainer.cli.common import cutcard_home
    from trainer.planner import load_plan, ramp_text

    return ramp_text(load_plan(cutcard_home()))


def field_of(key: str) -> str:
    """The setting's field and option parameter: 'dealer-errors' -> 'dealer_errors'."""
    return key.replace("-", "_")


def _share(text: str) -> float:
    try:
        share = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        raise InvalidInputError(f"dealer-errors {text!r} is not a share of rounds, e.g. 0.2") from None
    if not 0 <= share <= 1:
        raise InvalidInputError(f"dealer-errors {text} is out of range: 0 to 1 (0.2: one round in five)")
    return share


def check_key(key: str) -> None:
    """Raise `InvalidInputError` unless `key` names a setting."""
    if key not in KEYS:
        raise InvalidInputError(f"no setting named {key!r} (settings: {', '.join(KEYS)})")


def _ruleset_name(text: str) -> str:
    """A built-in rule set's own name (aliases resolved), or the absolute path of a user's file."""
    from trainer.core.rulesfile import builtin_rulesets, load_ruleset

    ruleset = load_ruleset(text)
    if builtin_rulesets().get(ruleset.name) is ruleset:
        return ruleset.name
    return str(Path(ruleset.path).resolve())


def _speed(text: str) -> float:
    lo, hi = SPEED_RANGE
    try:
        speed = float(text.rstrip("s"))
    except ValueError:
        raise InvalidInputError(f"speed {text!r} is not a number of seconds per card, e.g. 0.4") from None
    if not lo <= speed <= hi:
        raise InvalidInputError(f"speed {text} is out of range: {lo:g} to {hi:g} seconds per card")
    return speed


def _system_name(text: str) -> str:
    """A built-in count system's own name (aliases resolved), or the absolute path of a user's file."""
    from trainer.core.counting import load_system
    from trainer.core.tomlfiles import names_a_file

    system = load_system(text)
    return str(Path(text).expanduser().resolve()) if names_a_file(text) else system.name
