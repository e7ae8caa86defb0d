"""Cards flashed at a set pace in a small prompt-toolkit application, without drift.

Each group of cards appears at its own deadline, counted from the start (start + k x period), never
from the last wake-up, so a late frame does not push the rest back. A card is blanked a moment before
the next one so that two equal cards in a row still read as two. Keys typed during the flash are
swallowed (the count is asked afterwards, at a clean prompt); Ctrl-C raises KeyboardInterrupt and
Ctrl-D EOFError, which the drill driver turns into a clean stop. The clock and the sleep are injected
so that tests never wait, and `FlashTiming` reports when each group really reached the terminal (for
`bench/flash.py`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import FormattedTextControl, Layout, Window
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from drills.base import Flash
from trainer.core.cards import parse_card

LEAD_IN = 0.6
"""Seconds of 'get ready' before the first card."""
GAP_SHARE, GAP_MOST = 0.12, 0.05
"""The blank before the next card: 12% of the period, at most 50 ms."""
FACE_HEIGHT = 5
STYLE = Style.from_dict({"card.red": "#e03030 bold", "card.black": "bold", "card.edge": "#808080",
                         "ready": "#808080"})


@dataclass(slots=True)
class FlashTiming:
    """When each group was due and when it was drawn (monotonic seconds), and the keys swallowed."""

    deadlines: list[float] = field(default_factory=list)
    shown_at: list[float] = field(default_factory=list)
    keys_discarded: int = 0

    def deviations_ms(self) -> list[float]:
        """How late each group appeared, in milliseconds (negative: early)."""
        return [(shown - due) * 1000 for shown, due in zip(self.shown_at, self.deadlines, strict=False)]


def flash_deadlines(flash: Flash, start: float) -> list[float]:
    """When each group of cards is due: start + k x (seconds a card x cards a flash); the last entry
    is when the final group is taken away."""
    groups = (len(flash.cards) + flash.per_flash - 1) // flash.per_flash
    period = flash.seconds_per_card * flash.per_flash
    return [start + k * period for k in range(groups + 1)]


def card_faces(cards: Sequence[str]) -> StyleAndTextTuples:
    """Cards drawn side by side as boxes five lines tall, red suits in red.

    >>> "".join(text for _, text in card_faces(["Th"])).splitlines()[1:3]
    ['   │10   │', '   │  ♥  │']
    """
    faces = [parse_card(text) for text in cards]
    rows: list[StyleAndTextTuples] = [[] for _ in range(FACE_HEIGHT)]
    for index, card in enumerate(faces):
        style = "class:card.red" if card.suit is not None and card.suit.is_red else "class:card.black"
        rank = card.pretty().removesuffix(card.suit.glyph if card.suit else "")
        suit = card.suit.glyph if card.suit else " "
        gap = [("", "  ")] if index else []
        rows[0] += [*gap, ("class:card.edge", "╭─────╮")]
        rows[1] += [*gap, ("class:card.edge", "│"), (style, f"{rank:<5}"), ("class:card.edge", "│")]
        rows[2] += [*gap, ("class:card.edge", "│"), (style, f"  {suit}  "), ("class:card.edge", "│")]
        rows[3] += [*gap, ("class:card.edge", "│"), (style, f"{rank:>5}"), ("class:card.edge", "│")]
        rows[4] += [*gap, ("class:card.edge", "╰─────╯")]
    out: StyleAndTextTuples = []
    for number, row in enumerate(rows):
        out += [("", "   "), *row] + ([("", "\n")] if number < FACE_HEIGHT - 1 else [])
    return out


def _ready() -> StyleAndTextTuples:
    return [("", "\n\n"), ("class:ready", "   · · ·  get ready"), ("", "\n\n")]


def _blank() -> StyleAndTextTuples:
    return [("", "\n" * (FACE_HEIGHT - 1))]


def play_flash(flash: Flash, *, input: Input | None = None, output: Output | None = None,
               clock: Callable[[], float] = time.monotonic,
               sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
               lead_in: float = LEAD_IN) -> FlashTiming:
    """Show the flash's cards `per_flash` at a time at its pace; returns the timing of every group."""
    groups = [flash.cards[i:i + flash.per_flash] for i in range(0, len(flash.cards), flash.per_flash)]
    period = flash.seconds_per_card * flash.per_flash
    gap = min(GAP_MOST, GAP_SHARE * period)
    timing = FlashTiming()
    screen: dict[str, StyleAndTextTuples | bool] = {"text": _ready(), "pending": False}

    keys = KeyBindings()

    @keys.add("c-c")
    def _stop(event: KeyPressEvent) -> None:
        event.app.exit(exception=KeyboardInterrupt())

    @keys.add("c-d")
    def _leave(event: KeyPressEvent) -> None:
        event.app.exit(exception=EOFError())

    @keys.add(Keys.Any)
    def _swallow(event: KeyPressEvent) -> None:
        timing.keys_discarded += 1

    def text() -> StyleAndTextTuples:
        shown = screen["text"]
        assert isinstance(shown, list)
        return shown

    app: Application[None] = Application(
        layout=Layout(Window(FormattedTextControl(text, show_cursor=False), height=FACE_HEIGHT,
                             always_hide_cursor=True)),
        key_bindings=keys, style=STYLE, full_screen=False, erase_when_done=True,
        input=input, output=output, max_render_postpone_time=0, mouse_support=False)

    def drawn(_: object) -> None:
        if screen["pending"]:
            timing.shown_at.append(clock())
            screen["pending"] = False

    app.after_render += drawn

    async def until(moment: float) -> None:
        wait = moment - clock()
        if wait > 0:
            await sleep(wait)

    async def deal() -> None:
        timing.deadlines = flash_deadlines(flash, clock() + lead_in)
        for index, group in enumerate(groups):
            await until(timing.deadlines[index])
            screen["text"], screen["pending"] = card_faces(group), True
            app.invalidate()
            await until(timing.deadlines[index + 1] - gap)
            screen["text"] = _blank()
            app.invalidate()
        await until(timing.deadlines[-1])
        app.exit()

    def start() -> None:
        app.create_background_task(deal())

    app.run(pre_run=start, handle_sigint=False)
    return timing
