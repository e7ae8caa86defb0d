"""Reading a line at the terminal, with or without a time limit (the chat-host betting timer).

Both read from prompt-toolkit's current app session, so tests feed them with `create_pipe_input`. The
timed read runs the prompt under `asyncio.wait_for`: when time runs out the prompt is cancelled and
None comes back; the bottom toolbar counts the seconds down.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable

from prompt_toolkit import PromptSession
from prompt_toolkit.formatted_text import AnyFormattedText


def read_line(message: AnyFormattedText) -> str:
    """One line typed by the user; Ctrl-C raises KeyboardInterrupt, Ctrl-D EOFError."""
    session: PromptSession[str] = PromptSession()
    return session.prompt(message)


def timed_line(message: AnyFormattedText, seconds: float, *,
               clock: Callable[[], float] = time.monotonic) -> str | None:
    """One line typed within `seconds`, or None when the time ran out first."""
    deadline = clock() + seconds

    def countdown() -> str:
        return f" {max(0, round(deadline - clock()))} s left to bet "

    session: PromptSession[str] = PromptSession(bottom_toolbar=countdown, refresh_interval=0.5)

    async def within() -> str | BaseException | None:
        try:
            return await asyncio.wait_for(session.prompt_async(message), timeout=max(0.0, seconds))
        except TimeoutError:
            return None
        except (KeyboardInterrupt, EOFError) as stop:  # raised outside the event loop, below: a task that
            return stop  # dies of KeyboardInterrupt makes asyncio print a traceback at shutdown

    typed = asyncio.run(within())
    if isinstance(typed, BaseException):
        raise typed
    return typed


def plain_input() -> bool:
    """True when answers come as plain lines on stdin: it is not a terminal, and no prompt-toolkit input
    was set up for this session (as tests do with a pipe input)."""
    from prompt_toolkit.application.current import get_app_session

    return not sys.stdin.isatty() and get_app_session()._input is None


def plain_line(message: str) -> str:
    """One line from a pipe (stdin is not a terminal): the prompt is printed, EOFError at the end."""
    print(message, flush=True)
    line = sys.stdin.readline()
    if line == "":
        raise EOFError
    return line.rstrip("\r\n")


def plain_key(message: str, keys: dict[str, str]) -> str:
    """A single-key answer from a pipe: a line holding the key or the word it stands for (`h` or
    `hit`); a line that is neither is reported and read again."""
    while True:
        said = plain_line(message).strip().lower()
        for key, word in keys.items():
            if said in (key, word):
                return key
        print(f"? {said!r} is none of {', '.join(keys)}", flush=True)
