"""Reading rule-set files strictly, and finding the built-in rule sets.

Unknown keys, wrong types and out-of-range values are `RulesetError`s that name the file, the key, the
bad value and what is allowed. A user's file may start from a built-in one with `base = "casino"` and
change only what differs.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import tomllib
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

from trainer.core.basis import Basis, BasisKind, RuleBasis, user_basis
from trainer.core.errors import InvalidInputError, RuleOverrideError, RulesetError, UnknownRulesetError
from trainer.core.money import Money, Ratio
from trainer.core.rules import (
    PLAY_KEYS,
    BlackjackTakes,
    DealerRules,
    Double,
    InsuranceBet,
    PayoutRules,
    PlayerCards,
    PlayerRules,
    Reshuffle,
    Ruleset,
    ShoeRules,
    Split,
    Surrender,
    TableRules,
    TournamentRules,
    scale_cut_card,
)
from trainer.core.tomlfiles import names_a_file, read_toml, shipped

# --- reading TOML ------------------------------------------------------------------------------

E = TypeVar("E", bound=enum.Enum)
Reader = Callable[[Any], Any]


class _BadValue(Exception):
    """Raised by a key reader: the message says what is allowed."""


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _BadValue("expected true or false")
    return value


def _int(lo: int, hi: int) -> Reader:
    def read(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise _BadValue(f"expected a whole number from {lo} to {hi}")
        return value

    return read


def _int_range(lo: int, hi: int) -> Reader:
    def read(value: Any) -> tuple[int, int]:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            or not lo <= value[0] <= value[1] <= hi
        ):
            raise _BadValue(f"expected [low, high] with {lo} <= low <= high <= {hi}")
        return (value[0], value[1])

    return read


def _choice(kind: type[E]) -> Reader:
    def read(value: Any) -> E:
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in kind)
            raise _BadValue(f"expected one of {allowed}") from None

    return read


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _BadValue("expected a non-empty string")
    return value


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise _BadValue("expected a list of names, e.g. [\"eu\"]")
    return tuple(v.lower() for v in value)


def _peek(value: Any) -> frozenset[int]:
    words = {"A": 1, "T": 10, "10": 10}
    if not isinstance(value, list) or not all(str(v).upper() in words for v in value):
        raise _BadValue('expected a list of up cards from "A" and "T", e.g. [] or ["A", "T"]')
    return frozenset(words[str(v).upper()] for v in value)


def _ratio(value: Any) -> Ratio:
    if isinstance(value, str):
        try:
            return Ratio.parse(value)
        except InvalidInputError:
            pass
    raise _BadValue('expected a ratio such as "3:2", "6:5" or "1:1"')


def _money(value: Any) -> Money:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise _BadValue("expected an amount as a whole number or a string such as \"2.50\"")
    try:
        amount = Decimal(value)
    except ArithmeticError:
        raise _BadValue("expected an amount such as 10 or \"2.50\"") from None
    if not amount.is_finite() or amount <= 0 or amount != amount.quantize(Decimal("0.01")):
        raise _BadValue("expected a positive amount with at most two decimals")
    return amount


_TOP: dict[str, Reader] = {"name": _text, "title": _text, "source": _text, "aliases": _names}
_SECTIONS: dict[str, tuple[type, dict[str, Reader]]] = {
    "shoe": (ShoeRules, {
        "decks": _int(0, 8),
        "decks_range": _int_range(0, 8),
        "reshuffle": _choice(Reshuffle),
        "cut_card_from_end": _int_range(0, 416),
        "burn": _int(0, 10),
        "burn_shown": _bool,
    }),
    "dealer": (DealerRules, {
        "hits_soft_17": _bool,
        "hole_card": _bool,
        "peek": _peek,
        "hole_card_first": _bool,
        "blackjack_takes": _choice(BlackjackTakes),
        "natural": _bool,
        "player_cards": _choice(PlayerCards),
    }),
    "player": (PlayerRules, {
        "double": _choice(Double),
        "double_after_split": _bool,
        "max_hands": _int(1, 8),
        "split": _choice(Split),
        "split_aces_one_card": _bool,
        "resplit_aces": _bool,
        "surrender": _choice(Surrender),
        "insurance": _bool,
        "even_money": _bool,
        "insurance_bet": _choice(InsuranceBet),
    }),
    "payouts": (PayoutRules, {
        "blackjack": _ratio,
        "insurance": _ratio,
        "split_21_is_blackjack": _bool,
    }),
    "table": (TableRules, {
        "min_bet": _money,
        "max_bet": _money,
        "seats": _int(1, 8),
        "bankroll": _money,
    }),
    "tournament": (TournamentRules, {
        "players": _int_range(2, 8),
        "bet_timer": _int_range(1, 600),
        "attacks": _bool,
    }),
}
_OPTIONAL_SECTIONS = {"tournament"}
_DEFAULTS: dict[tuple[str, str], Any] = {
    ("dealer", "hole_card_first"): False,
    ("dealer", "player_cards"): PlayerCards.FACE_UP,
    ("table", "min_bet"): Decimal(10),
    ("table", "max_bet"): Decimal(500),
    ("table", "seats"): 7,
    ("table", "bankroll"): Decimal(500),
}
"""Keys a file without `base` may leave out, and what they then mean (DESIGN §3): the dealer's first card
is the up card, and a $10-$500 table of seven seats with a $500 bankroll (the casino rule set's)."""
_INFINITE_DECK_DEFAULTS: dict[str, Any] = {
    "reshuffle": Reshuffle.EVERY_ROUND, "cut_card_from_end": (0, 0), "burn": 0}
"""Shoe keys the infinite deck (decks = 0) needs no value for: a die has nothing to shuffle, cut or burn."""
_DEFAULT_SECTIONS = {"table"}
"""Sections a file without `base` may leave out entirely: every key has a default."""


_DERIVED = {"source_title"}
"""What `rules show --json` adds at the top, derived from the rest (the seed's title, from `source`) and
ignored when read back."""


def parse_ruleset(data: Mapping[str, Any], *, path: str, base: Ruleset | None = None) -> Ruleset:
    """A `Ruleset` from parsed TOML; `base` supplies the keys the data leaves out."""
    where = Path(path).name if path else "<rules>"

    def fail(key: str, value: Any, why: str) -> RulesetError:
        return RulesetError(f"{where}: {key} = {_show(value)} is not allowed: {why}")

    unknown = set(data) - set(_TOP) - set(_SECTIONS) - {"base", "basis"} - _DERIVED
    if unknown:
        key = sorted(unknown)[0]
        known = ", ".join([*_TOP, *(f"[{s}]" for s in _SECTIONS)])
        raise RulesetError(f"{where}: unknown key {key!r} (known keys: {known})")

    values: dict[str, Any] = {}
    for key, read in _TOP.items():
        if key in data:
            try:
                values[key] = read(data[key])
            except _BadValue as e:
                raise fail(key, data[key], str(e)) from None
        elif base is not None and key not in ("name", "title"):
            values[key] = getattr(base, key)
        elif key == "aliases":
            values[key] = ()
        elif key == "source":
            values[key] = where
        else:
            raise RulesetError(f"{where}: missing key {key!r}")

    for section, (kind, readers) in _SECTIONS.items():
        table = data.get(section)
        inherited = getattr(base, section) if base is not None else None
        if table is None and (inherited is not None or section in _OPTIONAL_SECTIONS):
            values[section] = inherited
            continue
        if table is None and section in _DEFAULT_SECTIONS:
            table = {}
        if table is None:
            raise RulesetError(f"{where}: missing section [{section}]")
        if not isinstance(table, dict):
            raise RulesetError(f"{where}: {section} must be a table [{section}]")
        values[section] = _read_section(where, section, kind, readers, table, inherited)
        if section == "shoe" and inherited is not None and "cut_card_from_end" not in table:
            # a user file that changes only the decks keeps its base's penetration
            shoe = values["shoe"]
            cut = scale_cut_card(inherited.cut_card_from_end, inherited.decks, shoe.decks)
            values["shoe"] = dataclasses.replace(shoe, cut_card_from_end=cut)

    ruleset = Ruleset(**values, path=path)
    _check_consistency(where, ruleset)
    return dataclasses.replace(ruleset, basis=read_basis(where, data, ruleset, base))


def _read_section(
    where: str,
    section: str,
    kind: type,
    readers: dict[str, Reader],
    table: dict[str, Any],
    inherited: Any,
) -> Any:
    unknown = set(table) - set(readers)
    if unknown:
        key = sorted(unknown)[0]
        raise RulesetError(
            f"{where}: unknown key [{section}] {key} (known keys: {', '.join(readers)})"
        )
    fields: dict[str, Any] = {}
    for key, read in readers.items():
        if key in table:
            try:
                fields[key] = read(table[key])
            except _BadValue as e:
                raise RulesetError(
                    f"{where}: [{section}] {key} = {_show(table[key])} is not allowed: {e}"
                ) from None
        elif inherited is not None:
            fields[key] = getattr(inherited, key)
        elif section == "shoe" and key == "decks_range" and "decks" in fields:
            fields[key] = (fields["decks"], fields["decks"])
        elif section == "shoe" and key == "burn_shown":
            fields[key] = False
        elif section == "shoe" and fields.get("decks") == 0 and key in _INFINITE_DECK_DEFAULTS:
            fields[key] = _INFINITE_DECK_DEFAULTS[key]
        elif (section, key) in _DEFAULTS:
            fields[key] = _DEFAULTS[(section, key)]
        elif _has_default(kind, key):
            continue
        else:
            raise RulesetError(f"{where}: missing key [{section}] {key}")
    return kind(**fields)


# --- a rule set with some keys set anew (`casino:decks=2,penetration=0.6`) ---------------------------

PENETRATION = "penetration"
"""The share of the shoe dealt before the cut card, a key of its own beside the file's keys. A reading:
`penetration = 0.6` places the cut card at 40% of the shoe from its end, the same place every shoe
(`cut_card_from_end` = [c, c]), where a rule file may give a range the dealer cuts within."""


def override_keys() -> list[str]:
    """The keys an override may set: every rule key by its own name where no other section has it,
    else as 'section.key' (`player.insurance`, `payouts.insurance`), and `penetration`."""
    names = [key for section in _OVERRIDE_SECTIONS for key in _SECTIONS[section][1]]
    return [*(f"{section}.{key}" if names.count(key) > 1 else key
              for section in _OVERRIDE_SECTIONS for key in _SECTIONS[section][1]), PENETRATION]


_OVERRIDE_SECTIONS = ("shoe", "dealer", "player", "payouts", "table")


def override_key(key: str, name: str) -> tuple[str, str]:
    """(section, key) of an override key, or a one-line error naming it."""
    section, dot, field = key.partition(".")
    if dot and section in _OVERRIDE_SECTIONS and field in _SECTIONS[section][1]:
        return section, field
    found = [s for s in _OVERRIDE_SECTIONS if key in _SECTIONS[s][1]]
    if len(found) == 1:
        return found[0], key
    if found:
        raise RuleOverrideError(f"{name}: {key} is a key of {' and '.join(found)}: say "
                                f"{' or '.join(f'{s}.{key}' for s in found)}")
    from trainer.core.names import closest

    near = closest(key, override_keys())
    hint = f"; did you mean {near}?" if near else " (`rules show --json` lists the rule keys)"
    raise RuleOverrideError(f"{name}: {key!r} is not a rule key{hint}")


def with_overrides(base: Ruleset, values: Mapping[str, Any], *, name: str) -> Ruleset:
    """`base` with some rule keys set anew (`override_keys`), named `name`: each value read and checked
    as a rule file's would be, the rules checked together; a bad key or value is a one-line
    `RuleOverrideError` naming it. New `decks` make a game of that many decks (its `decks_range` that
    one count) at the base's penetration, unless `penetration` or `cut_card_from_end` is set too."""
    if not values:
        return dataclasses.replace(base, name=name)
    data: dict[str, Any] = {"name": name, "title": f"{base.title}; {name.partition(':')[2] or name}"}
    penetration = None
    for key, value in values.items():
        if key == PENETRATION:
            penetration = value
            continue
        section, field = override_key(key, name)
        data.setdefault(section, {})[field] = value
    shoe = data.get("shoe", {})
    decks = shoe.get("decks", base.shoe.decks)
    whole = isinstance(decks, int) and not isinstance(decks, bool)
    if "decks" in shoe and "decks_range" not in shoe and whole:
        shoe["decks_range"] = [decks, decks]
    if penetration is not None:
        if "cut_card_from_end" in shoe:
            raise RuleOverrideError(f"{name}: set penetration or cut_card_from_end, not both")
        reshuffle = shoe.get("reshuffle", base.shoe.reshuffle)
        if reshuffle != Reshuffle.CUT_CARD.value:
            raise RuleOverrideError(f"{name}: penetration needs a cut-card shoe: {base.name} reshuffles "
                                    f"{_show(str(reshuffle))} (set reshuffle=cut-card too)")
        shoe["cut_card_from_end"] = _cut_for(penetration, decks, name)
        data["shoe"] = shoe
    try:
        return parse_ruleset(data, path=name, base=base)
    except RuleOverrideError:
        raise
    except RulesetError as e:
        raise RuleOverrideError(str(e)) from None


def _cut_for(penetration: Any, decks: Any, name: str) -> list[int]:
    """The cut card's place from the end for a penetration (see `PENETRATION`)."""
    if isinstance(penetration, bool) or not isinstance(penetration, int | float) or not 0 < penetration < 1:
        raise RuleOverrideError(f"{name}: penetration = {_show(penetration)} is not allowed: expected the "
                                "share of the shoe dealt, above 0 and under 1, such as 0.75")
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        raise RuleOverrideError(f"{name}: penetration needs a shoe of 1 to 8 decks, "
                                f"not decks = {_show(decks)}")
    cards = 52 * decks
    cut = round((1 - penetration) * cards)
    if not 1 <= cut <= cards - 10:
        raise RuleOverrideError(f"{name}: penetration = {penetration:g} leaves {cut} of {cards} cards behind "
                                "the cut card: at least 1, and at least 10 dealt")
    return [cut, cut]


def _has_default(kind: type, key: str) -> bool:
    """True for a field a rule-set file may leave out (the dataclass gives its default)."""
    return any(f.name == key and f.default is not dataclasses.MISSING for f in dataclasses.fields(kind))


# --- the basis of each rule ------------------------------------------------------------------

_ENTRY_KINDS = ("seed", "reading", "user")
_ENTRY_EXTRAS = {"file", "english", "why", "basis", "source"}
"""Beside its kind an entry may name the seed `file`, give an `english` reading and say `why`; `basis`
and `source` are what `rules show --json` adds, derived from the rest and ignored when read back."""


def read_basis(where: str, data: Mapping[str, Any], ruleset: Ruleset, base: Ruleset | None) -> RuleBasis:
    """The basis of every rule key: the file's `[basis]` table, else the base's for a key the file does
    not set, else the file's own word (`user`).

    `[basis]` is keyed by 'section.key', as a dotted TOML key (`dealer.peek = { seed = "…" }`) or
    quoted (`"dealer.peek" = …`); an entry is `{ seed = "phrase" }` (or a list of phrases; `file` names
    the seed when it is not the rule set's `source`, `english` reads a Finnish phrase, `why` says how
    the words give the value), `{ reading = "why this trainer reads it so" }` or `{ user = "file" }`.
    """
    table = data.get("basis", {})
    if not isinstance(table, dict):
        raise RulesetError(f"{where}: basis must be a table [basis] keyed by \"section.key\"")
    keys = ruleset.rule_keys()
    given: dict[str, Basis] = {}
    for key, entry in _basis_entries(table):
        if key not in keys:
            raise RulesetError(f"{where}: [basis] {key} is not a rule key (e.g. \"dealer.peek\")")
        given[key] = _basis_entry(where, key, entry, ruleset.source)
    out: dict[str, Basis] = {}
    for key in keys:
        if key in given:
            out[key] = given[key]
        elif base is not None and not _sets(data, key) and key in base.basis:
            out[key] = base.basis[key]
        elif key in PLAY_KEYS:  # how this trainer plays, whatever the file says
            out[key] = Basis(kind=BasisKind.READING, why=PLAY_KEYS[key])
        else:
            out[key] = user_basis(where)
    return RuleBasis.of(out)


def _sets(data: Mapping[str, Any], key: str) -> bool:
    section, _, name = key.partition(".")
    table = data.get(section)
    return isinstance(table, dict) and name in table


def _basis_entries(table: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """('section.key', entry) for the flat and the dotted spellings alike."""
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict) and not any(kind in value for kind in _ENTRY_KINDS) and "." not in key:
            yield from _basis_entries(value, f"{key}.")
        else:
            yield key, value


def _basis_entry(where: str, key: str, entry: Any, source: str) -> Basis:
    def bad(why: str) -> RulesetError:
        return RulesetError(f"{where}: [basis] {key} {why}")

    if not isinstance(entry, dict):
        raise bad('must be a table such as { seed = "phrase" } or { reading = "why" }')
    kinds = [k for k in _ENTRY_KINDS if k in entry]
    unknown = set(entry) - set(_ENTRY_KINDS) - _ENTRY_EXTRAS
    if len(kinds) != 1 or unknown:
        raise bad("needs exactly one of seed, reading or user (and may add file, english, why)")
    extras = {k: entry[k] for k in ("file", "english", "why") if k in entry}
    if not all(isinstance(v, str) for v in extras.values()):
        raise bad("file, english and why must be strings")
    kind, value = BasisKind(kinds[0]), entry[kinds[0]]
    if kind is BasisKind.SEED:
        quotes = [value] if isinstance(value, str) else value
        if not isinstance(quotes, list) or not quotes or not all(isinstance(q, str) and q.strip()
                                                                 for q in quotes):
            raise bad("seed must be the phrase the rule rests on, or a list of phrases")
        return Basis(kind=kind, file=extras.get("file", source), quotes=tuple(quotes),
                     english=extras.get("english", ""), why=extras.get("why", ""))
    if not isinstance(value, str) or not value.strip():
        raise bad(f"{kind.value} must be a non-empty string")
    if kind is BasisKind.READING:
        return Basis(kind=kind, why=value)
    return Basis(kind=kind, file=value)


def _check_consistency(where: str, r: Ruleset) -> None:
    """Rules that cannot hold together; each message names both keys."""

    def bad(message: str) -> RulesetError:
        return RulesetError(f"{where}: {message}")

    decks = r.shoe.decks
    lo, hi = r.shoe.decks_range
    if decks == 0 and (lo, hi) != (0, 0):
        raise bad("[shoe] decks_range must be [0, 0] for the infinite deck (decks = 0)")
    if decks > 0 and not (1 <= lo <= decks <= hi):
        raise bad(f"[shoe] decks_range = [{lo}, {hi}] must contain decks = {decks} and start at 1+")
    if decks > 0 and r.shoe.reshuffle is Reshuffle.CUT_CARD:
        cut_lo, cut_hi = r.shoe.cut_card_from_end
        if cut_lo < 1 or cut_hi > 52 * decks - 10:
            raise bad(
                f"[shoe] cut_card_from_end = [{cut_lo}, {cut_hi}] must leave at least 1 card behind "
                f"the cut card and at least 10 in front of it in {decks} decks"
            )
    if not r.dealer.hole_card and (r.dealer.peek or r.dealer.hole_card_first):
        raise bad("[dealer] peek and hole_card_first need hole_card = true")
    if r.player.resplit_aces and r.player.max_hands < 3:
        raise bad("[player] resplit_aces = true needs max_hands of 3 or more")
    if r.table.min_bet > r.table.max_bet:
        raise bad(f"[table] min_bet = {r.table.min_bet} is above max_bet = {r.table.max_bet}")


def _show(value: Any) -> str:
    return json.dumps(value) if isinstance(value, str | list | bool | int) else repr(value)


# --- finding rule sets -----------------------------------------------------------------------


def _builtin_files() -> list[str]:
    """The file name of every rule set shipped in the `rulesets` package, in order."""
    return sorted(e.name for e in shipped("rulesets").iterdir() if e.name.endswith(".toml"))


_PARSED: dict[str, Ruleset] = {}
"""The shipped rule sets read so far, by file name: each file is read once, whether one rule set was
asked for by the name its file bears or all of them were (the same objects either way)."""
_BUILTINS: dict[str, Ruleset] | None = None


def _builtin(file: str) -> Ruleset:
    """The rule set shipped as `file`, read once, with its base (another built-in, read from the file
    of its name: the built-ins are named as their files, tested)."""
    ruleset = _PARSED.get(file)
    if ruleset is None:
        data = tomllib.loads((shipped("rulesets") / file).read_text(encoding="utf-8"))
        base_name = data.get("base")
        base = None if base_name is None else _named(base_name)
        if base_name is not None and base is None:
            raise RulesetError(f"rulesets/{file}: base {base_name!r} is unknown")
        ruleset = _PARSED[file] = parse_ruleset(data, path=f"rulesets/{file}", base=base)
    return ruleset


def _named(name: str) -> Ruleset | None:
    """The built-in whose file bears `name` (`casino` in casino.toml), if there is one: one file read,
    not all of them (a fresh process's chart needs only its own rule set). The built-ins' names are
    their files' names and no alias is another's name (tested), so this is what the full search finds."""
    if len(name) > 64 or not name.replace("-", "").isalnum():  # letters, digits and dashes, or no file
        return None
    if not (shipped("rulesets") / f"{name}.toml").is_file():
        return None
    ruleset = _builtin(f"{name}.toml")
    return ruleset if ruleset.name == name else None


def builtin_rulesets() -> dict[str, Ruleset]:
    """The shipped rule sets by name, in alphabetical order (read once)."""
    global _BUILTINS
    if _BUILTINS is None:
        _BUILTINS = dict(sorted((r.name, r) for r in map(_builtin, _builtin_files())))
    return _BUILTINS


def find_ruleset(name: str) -> Ruleset:
    """A built-in rule set by name or alias (case-insensitive)."""
    wanted = name.strip().lower()
    if _BUILTINS is None:
        ruleset = _named(wanted)
        if ruleset is not None:
            return ruleset
    for ruleset in builtin_rulesets().values():
        if wanted == ruleset.name or wanted in ruleset.aliases:
            return ruleset
    from trainer.core.errors import UnknownRulesetError
    from trainer.core.names import unknown_name

    raise UnknownRulesetError(unknown_name("rule set", name, builtin_rulesets(), files=True))


def load_ruleset(name_or_path: str | Path) -> Ruleset:
    """A built-in rule set by name or alias, or a user's rule-set TOML file by path."""
    if not names_a_file(name_or_path):
        return find_ruleset(str(name_or_path))
    data, path = read_toml(name_or_path, what="rule set", error=RulesetError)
    base = None
    if "base" in data:
        if not isinstance(data["base"], str):
            raise RulesetError(f"{path.name}: base = {_show(data['base'])} must be a rule-set name")
        if names_a_file(data["base"]):
            raise RulesetError(f"{path.name}: base = {_show(data['base'])} must name a built-in rule set "
                               f"({', '.join(builtin_rulesets())}), not a file: copy the keys you need "
                               "from that file instead")
        try:
            base = find_ruleset(data["base"])
        except UnknownRulesetError as e:  # the file's own word: an error found while reading it
            raise RulesetError(f"{path.name}: base: {e}") from None
    return parse_ruleset(data, path=str(path), base=base)
