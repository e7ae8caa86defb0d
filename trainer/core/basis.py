"""Where each rule of a rule set comes from: the seed's own words, or the trainer's reading of them.

Every key of a rule set ('dealer.peek', 'player.double', ...) has a `Basis`:

- `seed`: the seed document states it; `quotes` are its phrases, verbatim (tests check them against
  the seed files), with an English reading for a seed in another language;
- `reading`: the seed is silent or ambiguous and this trainer chose, saying why in one line;
- `user`: a user's own rule file set the key and gave no basis for it.

The built-in rule sets keep their bases as data, in a `[basis]` table of their TOML files
(`trainer.core.rulesfile` reads it); rule cards, the rules quiz and the counting drills say which
rules are readings. A learner sees a seed document by its title (`seed_title`, from
`rulesets/seeds/titles.toml`), never by its file name.
"""

from __future__ import annotations

import enum
import functools
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field


class BasisKind(enum.StrEnum):
    SEED = "seed"
    READING = "reading"
    USER = "user"


@dataclass(frozen=True, slots=True, kw_only=True)
class Basis:
    """What one rule rests on."""

    kind: BasisKind
    file: str = ""
    """The seed file a `seed` basis quotes, or the user's rule file a `user` one comes from."""
    quotes: tuple[str, ...] = ()
    """The seed's phrases, exactly as the seed writes them."""
    english: str = ""
    """An English reading of `quotes` where the seed is in another language (seed 003)."""
    why: str = ""
    """A reading: why the trainer reads the seed this way. A seed basis: how the words give the value."""

    @property
    def is_reading(self) -> bool:
        return self.kind is BasisKind.READING

    @property
    def source(self) -> str:
        """One line: 'seed 004_….txt, «…»', the reason for a reading, or the user's file.

        >>> Basis(kind=BasisKind.SEED, file="004.txt", quotes=("8 decks",)).source
        'seed 004.txt, «8 decks»'
        >>> Basis(kind=BasisKind.READING, why="the seed is silent").source
        'the seed is silent'
        """
        if self.kind is BasisKind.SEED:
            quoted = " … ".join(f"«{q}»" for q in self.quotes)
            english = f" ({self.english})" if self.english else ""
            return f"seed {self.file}, {quoted}{english}"
        if self.kind is BasisKind.READING:
            return self.why
        return f"your rule file {self.file}" if self.file else "your rule file"

    @property
    def cited(self) -> str:
        """`source` as a learner reads it: a seed by its title, not its file ('“Dealer and game protocol”,
        «…»')."""
        return titled(self.source)

    def to_dict(self) -> dict[str, object]:
        """The basis as `rules show --json` writes it; `trainer.core.rulesfile` reads it back."""
        out: dict[str, object] = {"basis": self.kind.value, "source": self.source}
        if self.kind is BasisKind.SEED:
            out["seed"] = list(self.quotes)
            out["file"] = self.file
            if self.english:
                out["english"] = self.english
            if self.why:
                out["why"] = self.why
        elif self.kind is BasisKind.READING:
            out["reading"] = self.why
        else:
            out["user"] = self.file
        return out


SEED_FILE = re.compile(r"(?:seed )?\b(\d{3}_[0-9a-f]{16})\.(?:en\.md|txt)\b")
"""A seed document's file as a text names it: 'seed 001_301e7e888be35da6.txt' (or its English reading)."""


@functools.cache
def _seed_titles() -> dict[str, str]:
    from trainer.core.tomlfiles import shipped

    text = (shipped("rulesets") / "seeds" / "titles.toml").read_text(encoding="utf-8")
    return {file.removesuffix(".txt"): entry["title"] for file, entry in tomllib.loads(text).items()}


def seed_title(file: str) -> str | None:
    """The title a learner knows a seed document by; None for a file that is not a shipped seed.

    >>> seed_title("001_301e7e888be35da6.txt"), seed_title("mine.toml")
    ('Dealer and game protocol', None)
    """
    found = SEED_FILE.fullmatch(file)
    return _seed_titles().get(found.group(1)) if found else None


def titled(text: str) -> str:
    """`text` with each seed file it names given by its title instead, in quotes.

    >>> titled("seed 001_301e7e888be35da6.txt, «usually hitting all sixteens»")
    '“Dealer and game protocol”, «usually hitting all sixteens»'
    """
    def title(found: re.Match[str]) -> str:
        name = _seed_titles().get(found.group(1))
        return f"“{name}”" if name else found.group(0)

    return SEED_FILE.sub(title, text)


def source_title(basis: Basis, seed: str) -> str:
    """The title of the document a rule rests on: the seed a `seed` basis quotes; for a reading, the seed
    it names, else `seed` (the rule set's own, which it reads); for a user's rule, that file.

    >>> source_title(Basis(kind=BasisKind.READING, why="the seed is silent"), "004_8a82e99616e52ba9.txt")
    'Eight-deck game, shuffled every round'
    """
    if basis.kind is BasisKind.USER:
        return basis.source
    named = basis.file if basis.kind is BasisKind.SEED else \
        next((m.group(0).removeprefix("seed ") for m in SEED_FILE.finditer(basis.why)), seed)
    return seed_title(named) or named


def user_basis(file: str) -> Basis:
    """The basis of a key a user's rule file sets without saying where it comes from."""
    return Basis(kind=BasisKind.USER, file=file)


@dataclass(frozen=True, slots=True)
class RuleBasis:
    """The basis of every rule key of one rule set, keyed by 'section.key'."""

    entries: tuple[tuple[str, Basis], ...] = field(default=())

    @classmethod
    def of(cls, bases: Mapping[str, Basis] | Iterable[tuple[str, Basis]]) -> RuleBasis:
        pairs = bases.items() if isinstance(bases, Mapping) else bases
        return cls(tuple(sorted(dict(pairs).items())))

    def get(self, key: str) -> Basis | None:
        for name, basis in self.entries:
            if name == key:
                return basis
        return None

    def __getitem__(self, key: str) -> Basis:
        basis = self.get(key)
        if basis is None:
            raise KeyError(key)
        return basis

    def __contains__(self, key: object) -> bool:
        return any(name == key for name, _ in self.entries)

    def __iter__(self) -> Iterator[str]:
        return (name for name, _ in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def items(self) -> tuple[tuple[str, Basis], ...]:
        return self.entries

    def replaced(self, changes: Mapping[str, Basis]) -> RuleBasis:
        """The same bases with `changes` put in."""
        return RuleBasis.of({**dict(self.entries), **changes})

    def readings(self) -> list[tuple[str, Basis]]:
        return [(key, basis) for key, basis in self.entries if basis.is_reading]


def _joined(reasons: list[str]) -> str:
    """Reasons in one line, each first clause said once, with what follows it in every reason that
    opens with it (in the order the clauses first come).

    >>> _joined(["the seed stops; a", "the seed stops; b", "the seed stops; a"])
    'the seed stops; a; b'
    >>> _joined(["no word on x; a", "no payouts; c", "no word on x; b", "d"])
    'no word on x; a; b; no payouts; c; d'
    """
    after: dict[str, list[str]] = {}
    for reason in dict.fromkeys(reasons):
        head, _, rest = reason.partition("; ")
        after.setdefault(head, []).extend([rest] if rest else [])
    return "; ".join("; ".join([head, *rests]) for head, rests in after.items())


def combined(bases: Iterable[Basis]) -> Basis | None:
    """One basis for something that rests on several rules: a reading if any of them is one (its reasons
    joined), else the seed phrases together; None for nothing.

    >>> a = Basis(kind=BasisKind.SEED, file="s.txt", quotes=("x",))
    >>> b = Basis(kind=BasisKind.READING, why="y")
    >>> combined([a, b]).source, combined([a, a]).source
    ('y', 'seed s.txt, «x»')
    """
    found = list(dict.fromkeys(bases))
    if not found:
        return None
    readings = [b for b in found if b.kind is BasisKind.READING]
    if readings:
        return Basis(kind=BasisKind.READING, why=_joined([b.why for b in readings]))
    users = [b for b in found if b.kind is BasisKind.USER]
    if users:
        return users[0]
    if len(found) == 1:
        return found[0]
    quotes = tuple(dict.fromkeys(q for b in found for q in b.quotes))
    english = "; ".join(dict.fromkeys(b.english for b in found if b.english))
    return Basis(kind=BasisKind.SEED, file=found[0].file, quotes=quotes, english=english)
