"""Keys: the REPL prompt's bindings, and single-key answers for the table (h/s/d/p/r, i for insurance).

Everything reads from prompt-toolkit's current app session, so tests drive it with `create_pipe_input`
and `DummyOutput` exactly like a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import AnyFormattedText
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl


def repl_key_bindings() -> KeyBindings:
    """F1 runs `help`. (Tab completes, Ctrl-C clears the line, Ctrl-D on an empty line leaves: the
    prompt's own bindings.)"""
    bindings = KeyBindings()

    @bindings.add("f1")
    def _help(event: KeyPressEvent) -> None:
        event.current_buffer.text = "help"
        event.current_buffer.validate_and_handle()

    return bindings


def read_key(message: AnyFormattedText, keys: Mapping[str, str], *, erase: bool = False) -> str:
    """Wait for one of `keys` (a letter in either case, or a key name such as "enter") and return it;
    other keys are ignored; `erase`: the message is taken off the screen when a key is pressed.

    `keys` maps each key to what it does (the caller shows that); Ctrl-C raises KeyboardInterrupt and
    Ctrl-D raises EOFError, as at the prompt.
    """
    bindings = KeyBindings()
    for key in keys:
        for spelling in {key.lower(), key.upper()} if len(key) == 1 else {key}:
            bindings.add(spelling)(_exit_with(key.lower()))

    @bindings.add("c-c")
    def _interrupt(event: KeyPressEvent) -> None:
        event.app.exit(exception=KeyboardInterrupt())

    @bindings.add("c-d")
    def _end(event: KeyPressEvent) -> None:
        event.app.exit(exception=EOFError())

    @bindings.add("<any>")
    def _ignore(event: KeyPressEvent) -> None:
        """A key that means nothing here changes nothing (no beep, no echo)."""

    window = Window(FormattedTextControl(message, show_cursor=True), height=1, dont_extend_height=True)
    app: Application[str] = Application(layout=Layout(window), key_bindings=bindings, full_screen=False,
                                        erase_when_done=erase)
    return app.run()


def _exit_with(result: str) -> Callable[[KeyPressEvent], None]:
    def handler(event: KeyPressEvent) -> None:
        event.app.exit(result=result)

    return handler
