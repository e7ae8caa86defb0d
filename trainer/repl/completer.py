"""Tab completion for the REPL: commands, subcommands, options, rule sets, drills and count systems.

`suggest(text, vocabulary)` is pure: it reads the line left of the cursor and asks a `Vocabulary` what
exists, so tests run it without a terminal. `commands.RegistryVocabulary` answers from the real
registries (the CLI's `COMMANDS`, the click options, `drills.DRILLS`, the rule sets); `ReplCompleter`
adapts `suggest` to prompt-toolkit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

PREVIOUS = "@previous"
"""An argument whose values depend on the argument before it (`set system <TAB>`)."""

Values = str | tuple[str, ...]
"""Where completions come from: a kind the vocabulary knows ("ruleset", "drill") or fixed choices."""


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionSpec:
    """One option of a command: its spellings, whether it takes a value, and where values come from."""

    names: tuple[str, ...]
    takes_value: bool = False
    values: Values = ()
    help: str = ""
    multiple: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ArgumentSpec:
    """One positional argument and where its values come from."""

    name: str
    values: Values = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class CommandSpec:
    """What may follow a command word: subcommands, options and positional arguments."""

    subcommands: Mapping[str, str] = field(default_factory=dict)
    options: tuple[OptionSpec, ...] = ()
    arguments: tuple[ArgumentSpec, ...] = ()

    def option(self, word: str) -> OptionSpec | None:
        name = word.split("=", 1)[0]
        return next((o for o in self.options if name in o.names), None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Suggestion:
    """One completion: the text that replaces the last `replace` characters, and a note beside it."""

    text: str
    replace: int
    meta: str = ""


class Vocabulary(Protocol):
    """What the completer may suggest; `commands.RegistryVocabulary` reads the real registries."""

    def words(self) -> Mapping[str, str]:
        """First words of a line (CLI commands and REPL words), with one line of help each."""
        ...

    def spec(self, path: tuple[str, ...]) -> CommandSpec | None:
        """The command at `path` (e.g. ("rules", "show")), or None for an unknown one."""
        ...

    def values(self, kind: str) -> Mapping[str, str]:
        """The values of a kind ("ruleset", "system", "drill", "command", ...), each with a note."""
        ...


def suggest(text: str, vocabulary: Vocabulary) -> list[Suggestion]:
    """Completions for the end of `text`, the line left of the cursor.

    The first word completes to a command; after it come subcommands, then `-` completes options,
    an option that takes a value completes its values, and positional arguments complete theirs.
    """
    words = text.split()
    current = "" if not words or text[-1].isspace() else words.pop()
    if not words:
        return _matching(vocabulary.words(), current)
    if words[0].lower() == "cutcard":  # `cutcard rules list` typed out of habit works in the REPL
        words = words[1:]
        if not words:
            return _matching(vocabulary.words(), current)
    path: tuple[str, ...] = (words[0].lower(),)
    spec = vocabulary.spec(path)
    if spec is None:
        return []
    positional: list[str] = []
    used: set[str] = set()
    awaiting: OptionSpec | None = None
    for word in words[1:]:
        if awaiting is not None:
            awaiting = None
        elif word.startswith("-"):
            used.add(word.split("=", 1)[0])
            option = spec.option(word)
            if option is not None:
                used.update(option.names)
                if option.takes_value and "=" not in word:
                    awaiting = option
        elif spec.subcommands and not positional and word in spec.subcommands:
            path = (*path, word)
            spec = vocabulary.spec(path)
            if spec is None:
                return []
        else:
            positional.append(word)
    if awaiting is not None:
        return _values(vocabulary, awaiting.values, current, positional)
    if current.startswith("-"):
        option = spec.option(current)
        if "=" in current and option is not None and option.takes_value:
            return _values(vocabulary, option.values, current.split("=", 1)[1], positional)
        return _option_names(spec, used, current)
    if spec.subcommands and not positional:
        return _matching(spec.subcommands, current)
    if len(positional) < len(spec.arguments):
        found = _values(vocabulary, spec.arguments[len(positional)].values, current, positional)
        if found or current:
            return found
    return _option_names(spec, used, current) if not current else []


def _values(vocabulary: Vocabulary, values: Values, current: str, positional: list[str]) -> list[Suggestion]:
    if isinstance(values, tuple):
        return _matching({v: "" for v in values}, current)
    kind = positional[-1].lower() if values == PREVIOUS and positional else values
    return _matching(vocabulary.values(kind), current) if kind else []


def _option_names(spec: CommandSpec, used: set[str], current: str) -> list[Suggestion]:
    names: dict[str, str] = {}
    for option in spec.options:
        if option.multiple or not used.intersection(option.names):
            long_names = [n for n in option.names if n.startswith("--")] or list(option.names)
            names[long_names[0]] = option.help
    if "--help" not in used and "-h" not in used:
        names.setdefault("--help", "show the command's options")
    return _matching(names, current)


def _matching(candidates: Mapping[str, str], current: str) -> list[Suggestion]:
    """The candidates that start with `current` (case-insensitive), in the vocabulary's order."""
    wanted = current.lower()
    return [Suggestion(text=name, replace=len(current), meta=meta)
            for name, meta in candidates.items() if name.lower().startswith(wanted)]


class ReplCompleter(Completer):
    """prompt-toolkit's side of `suggest`: completes the word left of the cursor."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        try:
            found = suggest(document.text_before_cursor, self.vocabulary)
        except Exception:  # a completion must never break the prompt; Tab just offers nothing
            return
        for suggestion in found:
            yield Completion(suggestion.text, start_position=-suggestion.replace,
                             display_meta=suggestion.meta)
