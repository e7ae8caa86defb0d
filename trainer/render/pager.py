"""Long output through a pager, as git, pgcli and man do: when stdout is a terminal and what a command
prints is taller than it, the whole text goes to `$PAGER` (`less` by default, with `LESS=FRX` unless the
user set `LESS`: colours kept, the text left on screen after `q`, as git does); never for a pipe or a file.

`$PAGER` empty or `cat` prints the text as it is; a pager that cannot be started does too.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console

DEFAULT_PAGER = "less"
DEFAULT_LESS = "FRX"
"""less quits by itself when the text fits (F), keeps the colours (R) and leaves the text on screen (X)."""


@contextmanager
def paged(console: Console, *, allowed: bool = True, terminal: bool | None = None) -> Iterator[Console]:
    """Print to `console` inside the block; when it writes to a terminal, paging is `allowed` and the
    text is taller than the terminal, the text is shown through the pager once the block ends.

    `terminal` None asks the console's file itself (colours forced with FORCE_COLOR into a pipe are
    still a pipe); tests say True for an in-memory terminal."""
    if terminal is None:
        terminal = _is_tty(console)
    if not allowed or not terminal:
        yield console
        return
    with console.capture() as capture:
        yield console
    text = capture.get()
    if text.count("\n") < console.size.height:  # it fits: as if no pager were there
        console.file.write(text)
        console.file.flush()
        return
    page(text, console)


@contextmanager
def paged_console(*, allowed: bool = True) -> Iterator[Console]:
    """The command's console on stdout (`trainer.render.make_console`), paged as `paged` says."""
    from trainer.render import make_console

    with paged(make_console(), allowed=allowed) as console:
        yield console


def _is_tty(console: Console) -> bool:
    try:
        return console.file.isatty()
    except (AttributeError, ValueError):
        return False


def pager_command() -> list[str] | None:
    """The pager to run (`$PAGER` split as a shell would), or None where `$PAGER` says none (`cat`, or
    set empty)."""
    chosen = os.environ.get("PAGER")
    if chosen is None:
        return [DEFAULT_PAGER]
    import shlex

    words = shlex.split(chosen)
    if not words or os.path.basename(words[0]) == "cat":
        return None
    return words


def page(text: str, console: Console) -> None:
    """Show `text` through the pager; Ctrl-C is the pager's to handle while it runs (less ignores it),
    and quitting early is no error."""
    command = pager_command()
    if command is None:
        console.file.write(text)
        console.file.flush()
        return
    import signal
    import subprocess  # loaded only to page: most output fits, and a command's start is measured
    env = dict(os.environ)
    env.setdefault("LESS", DEFAULT_LESS)
    console.file.flush()
    try:  # only the main thread may set a handler (the REPL's commands run there)
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:
        previous = None
    try:
        try:
            pager = subprocess.Popen(command, stdin=subprocess.PIPE, env=env)
        except OSError:  # no such pager: the text as it is
            console.file.write(text)
            console.file.flush()
            return
        assert pager.stdin is not None
        try:
            pager.stdin.write(text.encode(console.encoding or "utf-8", errors="replace"))
            pager.stdin.close()
        except BrokenPipeError:  # quit before reading it all
            pass
        pager.wait()
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
