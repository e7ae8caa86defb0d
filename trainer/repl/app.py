"""The interactive trainer: a prompt-toolkit loop over the same command registry as the CLI.

Every line is split like a shell command and run through the click group, so `rules show european`
in the REPL is `cutcard rules show european`. Errors are shown and the loop carries on; Ctrl-C
cancels the line (or the drill in progress), Ctrl-D leaves.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from prompt_toolkit import PromptSession
from prompt_toolkit.history import FileHistory
from rich.console import Console

from trainer.render import make_console

if TYPE_CHECKING:
    from trainer.cli.common import Settings

EXIT_WORDS = {"exit", "quit", "q"}
TOUR = (
    "Welcome to cutcard. Three things to try:",
    "  drill running-count   flash cards at casino pace and keep the count",
    "  drill payout          pay blackjacks, insurance and even money like a dealer",
    "  rules list            the tables you can train for; `help` lists every command",
)


def run_line(line: str, settings: Settings, console: Console) -> bool:
    """Run one REPL line; False when the user asked to leave."""
    from trainer.cli import cli
    from trainer.cli.common import run_guarded

    try:
        words = shlex.split(line)
    except ValueError as e:
        console.print(f"[warn]? {e}[/]")
        return True
    if not words:
        return True
    if words[0].lower() in EXIT_WORDS:
        return False
    if words[0] == "help":
        words = [*words[1:], "--help"]
    run_guarded(cli, words, obj=settings)
    return True


def run_repl(settings: Settings) -> None:
    """Read commands until Ctrl-D or `exit`."""
    console = make_console()
    home = settings.home
    home.mkdir(parents=True, exist_ok=True)
    marker = home / ".toured"
    if not marker.exists():
        for line in TOUR:
            console.print(line)
        marker.touch()
    session: PromptSession[str] = PromptSession(history=FileHistory(str(home / "history")))
    while True:
        try:
            line = session.prompt("cutcard> ")
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        if not run_line(line, settings, console):
            break
