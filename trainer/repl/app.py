"""The interactive trainer: a prompt-toolkit loop over the same command registry as the CLI.

Every line is split like a shell command and run through the click group, so `rules show european`
in the REPL is `cutcard rules show european`; `use`, `set`, `help` and `exit` are the REPL's own words
(`trainer.repl.commands`). Errors are shown and the loop carries on; Ctrl-C cancels the line (or the
drill in progress, keeping what was answered), Ctrl-D leaves. The engine is imported only when a
command needs it, so the prompt appears at once.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from trainer.repl.prefs import load_prefs, save_prefs
from trainer.repl.state import ReplState

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.styles import Style
    from rich.console import Console

    from trainer.cli.common import Settings

# prompt-toolkit and rich load after the first prompt is drawn (`draw_first_prompt`): importing them
# takes longer than starting the interpreter

PROMPT_PARTS = (("class:prompt", "cutcard"), ("class:prompt.mark", "> "))
FIRST_PROMPT = "\x1b[1;36mcutcard\x1b[0;36m> \x1b[0m"
"""The prompt as `STYLE_RULES` draw it (ansicyan bold, then ansicyan), written before prompt-toolkit
loads."""
TOUR = (
    "Welcome to cutcard. Tab completes, `help` lists the commands, Ctrl-D leaves.",
    "  drill payout      pay blackjacks and insurance like a dealer (`drill`: all)",
    "  play              a table with computer seats; `use european` sets the rules",
)
"""The three lines a first start shows."""

STYLE_RULES = {
    "prompt": "ansicyan bold",
    "prompt.mark": "ansicyan",
    "bottom-toolbar": "noreverse bg:#303030 #d0d0d0",
    "toolbar.key": "bg:#505050 #ffffff bold",
    "toolbar": "",
    "toolbar.muted": "#8a8a8a",
}


def prompt_and_style() -> tuple[FormattedText, Style]:
    """The prompt and the REPL's prompt-toolkit style."""
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.styles import Style

    return FormattedText(list(PROMPT_PARTS)), Style.from_dict(STYLE_RULES)


def run_repl(settings: Settings, console: Console | None = None, *, interactive: bool | None = None) -> None:
    """Read commands until Ctrl-D or `exit`; a first start shows the three-line tour.

    With input from a pipe (`interactive` False; by default: stdin is not a terminal) the lines are read
    plainly and run one by one, as a script, and drills read their answers from the same input.
    """
    home = settings.home
    home.mkdir(parents=True, exist_ok=True)
    prefs, warning = load_prefs(home)
    interactive = sys.stdin.isatty() if interactive is None else interactive
    drawn = interactive and prefs.toured and not warning and draw_first_prompt()
    from rich.text import Text

    from trainer.render import make_console

    console = console or make_console()
    state = ReplState(settings=settings, console=console, prefs=prefs)
    if warning:
        console.print(Text(f"cutcard: {warning}", style="warn"))
    if not interactive:
        run_script(state, sys.stdin)
        return
    if not prefs.toured:
        for line in TOUR:
            console.print(Text(line, style="title" if not line.startswith(" ") else ""))
        state.prefs = dataclasses.replace(prefs, toured=True)
        save_prefs(home, state.prefs)
    from prompt_toolkit import PromptSession
    from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
    from prompt_toolkit.history import FileHistory

    from trainer.repl.commands import RegistryVocabulary
    from trainer.repl.completer import ReplCompleter
    from trainer.repl.toolbar import toolbar_fragments
    from trainer.screens.keys import repl_key_bindings

    prompt, style = prompt_and_style()
    session: PromptSession[str] = PromptSession(
        history=FileHistory(str(home / "history")),
        completer=ReplCompleter(RegistryVocabulary()),
        complete_while_typing=False,
        auto_suggest=AutoSuggestFromHistory(),
        bottom_toolbar=lambda: toolbar_fragments(state.toolbar_facts(),
                                                 width=session.app.output.get_size().columns),
        key_bindings=repl_key_bindings(),
        style=style,
    )
    if drawn:  # back to the line's start: prompt-toolkit's first render draws over the prompt (and the
        sys.stdout.write("\r")  # keys echoed meanwhile) and clears what is below, without a flicker
        sys.stdout.flush()
    state.refresh_in_background(session.app.invalidate)
    while True:
        try:
            line = session.prompt(prompt)
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        if not run_guarded_line(line, state):
            break
        state.refresh()
    state.wait_for_facts()
    console.print(Text("bye", style="muted"))


def draw_first_prompt() -> bool:
    """Write the prompt to the terminal at once, before prompt-toolkit and rich load, so it shows as
    soon as the interpreter is up; keys typed meanwhile wait in the terminal and prompt-toolkit, once
    running, redraws the prompt in place with them. False (nothing written) when stdout is not a
    terminal (or a Windows console, which may not read the escape codes); without colours (NO_COLOR,
    TERM=dumb) the prompt is plain."""
    import os

    if sys.platform == "win32" or not sys.stdout.isatty():
        return False
    plain = "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb"
    sys.stdout.write("cutcard> " if plain else FIRST_PROMPT)
    sys.stdout.flush()
    return True


def run_script(state: ReplState, lines: Iterable[str]) -> None:
    """Run REPL lines from a file or pipe until one says `exit` or the input ends."""
    for line in lines:
        if not run_guarded_line(line.rstrip("\r\n"), state):
            return


def run_guarded_line(line: str, state: ReplState) -> bool:
    """`run_line`, but a bug in a REPL word is one line for the user and the loop goes on."""
    from rich.text import Text

    from trainer.repl.commands import run_line

    try:
        return run_line(line, state)
    except KeyboardInterrupt:
        state.console.print(Text("stopped", style="muted"))
        return True
    except Exception as e:
        import os

        if os.environ.get("CUTCARD_DEBUG"):
            raise
        state.console.print(Text(f"cutcard: internal error: {type(e).__name__}: {e} "
                                 "(set CUTCARD_DEBUG=1 to see the traceback)", style="bad"))
        return True
    finally:
        sys.stdout.flush()
