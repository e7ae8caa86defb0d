"""Reading a line at the terminal, with or without a time limit (the chat-host betting timer).

Both read from prompt-toolkit's current app session, so tests feed them with `create_pipe_input`. The
timed read runs the prompt under `asyncio.wait_for`: when time runs out the prompt is cancelled and
None comes back; the bottom toolbar counts the seconds down.
"""

from __future__ import annotations

import asyncio
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
