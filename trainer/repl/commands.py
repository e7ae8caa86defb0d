"""The REPL's words: every CLI command from the one `COMMANDS` registry, plus `use`, `set`, `help`,
`clear`, `exit`.

A line is split like a shell command. A CLI word runs through the click group, exactly as
`cutcard WORDS` would, with the remembered settings as option defaults; a REPL word runs here. Errors
are printed in one line and the loop carries on. `help` lists both kinds from the same tables.
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from trainer.cli import COMMANDS, cli
from trainer.cli.common import run_guarded
from trainer.core.errors import TrainerError
from trainer.repl.completer import PREVIOUS, ArgumentSpec, CommandSpec, OptionSpec
from trainer.repl.prefs import KEYS, Prefs, change, check_key, save_prefs

if TYPE_CHECKING:
    from trainer.repl.state import ReplState


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplWord:
    """A word that exists only in the REPL (it changes the REPL's own state)."""

    name: str
    usage: str
    help: str
    spec: CommandSpec


REPL_WORDS: dict[str, ReplWord] = {
    "use": ReplWord(
        name="use", usage="use RULESET",
        help="Sit at this rule set from now on (remembered): the default --ruleset of chart, ev, drill, "
             "play and sim. review still mixes the due items of every rule set unless given --ruleset.",
        spec=CommandSpec(arguments=(ArgumentSpec(name="ruleset", values="ruleset"),))),
    "set": ReplWord(
        name="set", usage="set [KEY [VALUE]]",
        help="Show or change a remembered setting, e.g. `set speed 0.4`, `set system ko`, "
             "`set ramp 1:1,2:2,3:4,4:8,5:12`, `set indices computed`, `set dealer-errors 0.2`.",
        spec=CommandSpec(arguments=(ArgumentSpec(name="key", values="setting"),
                                    ArgumentSpec(name="value", values=PREVIOUS)))),
    "help": ReplWord(
        name="help", usage="help [COMMAND]", help="The commands, or one command in full.",
        spec=CommandSpec(arguments=(ArgumentSpec(name="command", values="command"),))),
    "clear": ReplWord(name="clear", usage="clear", help="Clear the screen (also Ctrl-L).",
                      spec=CommandSpec()),
    "exit": ReplWord(name="exit", usage="exit", help="Leave the trainer (also `quit`, or Ctrl-D).",
                     spec=CommandSpec()),
}
"""REPL-only words; `help` lists them after the CLI's commands."""

EXIT_WORDS = frozenset({"exit", "quit", "q"})


def cli_words() -> dict[str, str]:
    """The CLI's commands and their help, read from `trainer.cli.COMMANDS`."""
    return {name: help_text for name, (_, help_text) in COMMANDS.items()}


def all_words() -> dict[str, str]:
    """Every first word of a REPL line with its help: the CLI's commands, then the REPL's own."""
    return {**cli_words(), **{name: word.help for name, word in REPL_WORDS.items()}}


# --- the vocabulary the completer reads ----------------------------------------------------------

VALUE_KINDS: dict[str, str] = {"ruleset": "ruleset", "system": "system"}
"""An option or argument of this name completes to values of this kind, whatever its command."""
ARGUMENT_KINDS: dict[tuple[tuple[str, ...], str], str] = {
    (("rules", "show"), "name"): "ruleset",
    (("drill",), "name"): "drill",
}
"""Positional arguments whose values have a kind (keyed by command path and argument name)."""
SPEEDS = ("0.3", "0.4", "0.5", "0.8", "1")


class RegistryVocabulary:
    """What exists, read lazily from the real registries (nothing heavy is imported until a Tab)."""

    def __init__(self) -> None:
        self._specs: dict[tuple[str, ...], CommandSpec | None] = {}
        self._values: dict[str, Mapping[str, str]] = {}

    def words(self) -> Mapping[str, str]:
        return all_words()

    def spec(self, path: tuple[str, ...]) -> CommandSpec | None:
        if path not in self._specs:
            self._specs[path] = self._find_spec(path)
        return self._specs[path]

    def _find_spec(self, path: tuple[str, ...]) -> CommandSpec | None:
        if len(path) == 1 and path[0] in REPL_WORDS:
            return REPL_WORDS[path[0]].spec
        command = find_command(path)
        return None if command is None else spec_of_click(command, path)

    def values(self, kind: str) -> Mapping[str, str]:
        if kind not in self._values:
            self._values[kind] = _values_of(kind)
        return self._values[kind]


def find_command(path: tuple[str, ...]) -> Any | None:
    """The click command at `path` ("rules", "show"), imported from its registered module."""
    if not path or path[0] not in cli_words():
        return None
    command: Any = importlib.import_module(COMMANDS[path[0]][0]).command
    for name in path[1:]:
        command = getattr(command, "commands", {}).get(name)
        if command is None:
            return None
    return command


def spec_of_click(command: Any, path: tuple[str, ...]) -> CommandSpec:
    """A `CommandSpec` read from a click command's parameters (duck-typed: only trainer.cli imports click)."""
    options: list[OptionSpec] = []
    arguments: list[ArgumentSpec] = []
    for param in command.params:
        choices = tuple(str(c) for c in getattr(param.type, "choices", ()) or ())
        kind = VALUE_KINDS.get(param.name or "") or ARGUMENT_KINDS.get((path, param.name or ""), "")
        values: str | tuple[str, ...] = kind or choices
        if param.param_type_name == "argument":
            arguments.append(ArgumentSpec(name=param.name or "", values=values))
        elif not getattr(param, "hidden", False):
            flag = bool(getattr(param, "is_flag", False) or getattr(param, "count", False))
            options.append(OptionSpec(names=(*param.opts, *param.secondary_opts), takes_value=not flag,
                                      values=values, help=_first_line(getattr(param, "help", "") or ""),
                                      multiple=bool(getattr(param, "multiple", False))))
    subcommands = {name: _first_line(sub.get_short_help_str(limit=60))
                   for name, sub in getattr(command, "commands", {}).items()}
    return CommandSpec(subcommands=subcommands, options=tuple(options), arguments=tuple(arguments))


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def _values_of(kind: str) -> Mapping[str, str]:
    """The values of one kind, each with a short note (titles, help lines)."""
    if kind == "ruleset":
        from trainer.core.rulesfile import builtin_rulesets

        found: dict[str, str] = {}
        for ruleset in builtin_rulesets().values():
            found[ruleset.name] = ruleset.title
            for alias in ruleset.aliases:
                found.setdefault(alias, f"= {ruleset.name}")
        return found
    if kind == "system":
        from trainer.core.counting import builtin_systems

        return {s.name: s.title for s in builtin_systems().values()}
    if kind == "drill":
        from drills import DRILLS

        return {name: help_text for name, (_, help_text) in DRILLS.items()}
    if kind == "command":
        return all_words()
    if kind == "setting":
        return dict(KEYS)
    if kind == "speed":
        return {s: "seconds per card" for s in SPEEDS}
    if kind == "indices":
        return {"published": "the Illustrious 18 and Fab 4 (Hi-Lo)",
                "computed": "computed for your table and count (cutcard indices)"}
    if kind in ("estimation", "last-deck"):
        return {"full": "to the full deck", "half": "to the half deck", "quarter": "to the quarter deck",
                "exact": "cards left / 52"}
    if kind == "rounding":
        return {"floor": "down (-2.8 -> -3)", "truncate": "toward zero (-2.8 -> -2)",
                "round": "to the nearest, halves away from zero"}
    return {}


# --- running a line ------------------------------------------------------------------------------


def run_line(line: str, state: ReplState) -> bool:
    """Run one REPL line; False when the user asked to leave. Nothing raised here leaves the loop."""
    console = state.console
    try:
        words = shlex.split(line)
    except ValueError as e:
        console.print(Text(f"? {e}: close the quote, or leave it out", style="warn"))
        return True
    if words and words[0].lower() == "cutcard":
        words = words[1:]
    if not words:
        return True
    first = words[0].lower()
    if first in EXIT_WORDS:
        return False
    handler = _HANDLERS.get(first)
    try:
        if handler is not None:
            handler(state, words[1:])
        elif first in cli_words():
            run_cli(state, [first, *words[1:]])
        else:
            console.print(Text(unknown_word_message(words[0]), style="warn"))
    except TrainerError as e:
        console.print(Text(f"cutcard: {e}", style="bad"))
    return True


def run_cli(state: ReplState, argv: list[str]) -> int:
    """Run a CLI command line through the click group with the remembered settings as defaults.

    The command gets a copy of the REPL's settings: what its options change (`--db`) is for that
    command alone, not for the rest of the session.
    """
    return run_guarded(cli, argv, obj=dataclasses.replace(state.settings),
                       default_map=state.prefs.default_map())


def unknown_word_message(word: str) -> str:
    """'no command named X' with the closest real words, so a typo costs one glance."""
    close = difflib.get_close_matches(word.lower(), list(all_words()), n=3, cutoff=0.6)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return f"? no command named {word!r}{hint}; `help` lists the commands"


def _use(state: ReplState, args: list[str]) -> None:
    if len(args) != 1:
        from trainer.core.rulesfile import builtin_rulesets

        names = ", ".join(builtin_rulesets())
        state.console.print(Text(f"? use takes one rule set: {names}, or a path to your .toml file",
                                 style="warn"))
        return
    _set(state, ["ruleset", args[0]])


def _set(state: ReplState, args: list[str]) -> None:
    console = state.console
    if not args:
        table = Table(box=None, show_header=False, pad_edge=False)
        table.add_column(style="key", no_wrap=True)
        table.add_column(style="title", no_wrap=True)
        table.add_column(style="muted")
        for key, what in KEYS.items():
            table.add_row(key, state.prefs.shown(key), what)
        console.print(table)
        return
    key = args[0].lower()
    if len(args) == 1:
        check_key(key)
        console.print(Text.assemble((f"{key} ", "key"), state.prefs.shown(key)))
        return
    prefs: Prefs = change(state.prefs, key, " ".join(args[1:]))
    save_prefs(state.settings.home, prefs)
    state.prefs = prefs
    console.print(Text.assemble((f"{key} ", "key"), (prefs.shown(key), "title"),
                                ("  (remembered)", "muted")))
    if key == "ramp" and " ".join(args[1:]).strip().lower() == "plan":
        console.print(Text("the plan in force's ramp, in units of its minimum bet: at play one unit is the "
                           "table's minimum", style="muted"))


def _help(state: ReplState, args: list[str]) -> None:
    if not args:
        from trainer.render.pager import paged

        with paged(state.console, allowed=not state.settings.no_pager) as console:
            console.print(help_table())
            console.print(Text("`help COMMAND` shows one in full; Tab completes; Ctrl-C stops a drill, "
                               "Ctrl-D leaves.", style="muted"))
        return
    console = state.console
    name = args[0].lower()
    if name in REPL_WORDS:
        word = REPL_WORDS[name]
        console.print(Text.assemble(("usage: ", "muted"), (word.usage, "key")))
        console.print(word.help)
    elif name in cli_words():
        run_cli(state, [name, *args[1:], "--help"])
    else:
        console.print(Text(unknown_word_message(args[0]), style="warn"))


def help_table() -> Table:
    """The commands of the CLI and the words of the REPL, one line each, from their registries."""
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(style="key", no_wrap=True)
    table.add_column()
    for name, help_text in cli_words().items():
        table.add_row(name, help_text)
    table.add_row("", "")
    for word in REPL_WORDS.values():
        table.add_row(Text(word.usage), Text(word.help, style="muted"))
    return table


def _clear(state: ReplState, args: list[str]) -> None:
    state.console.clear()


def _plan(state: ReplState, args: list[str]) -> None:
    """`plan` in the REPL is the screen where keys nudge every figure (`cutcard plan --screen`); with
    --json, --errors or --help it prints, as the command does."""
    printing = {"--json", "--errors", "--help"} & set(args)
    run_cli(state, ["plan", *args] if printing else ["plan", "--screen", *args])


_HANDLERS: dict[str, Callable[[ReplState, list[str]], None]] = {
    "use": _use, "set": _set, "help": _help, "clear": _clear, "plan": _plan}
