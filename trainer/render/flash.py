"""Cards flashed at a set pace in a small prompt-toolkit application, without drift.

Each group of cards appears at its own deadline, counted from the start (start + k x period), never
from the last wake-up, so a late frame does not push the rest back. A card is blanked a moment before
the next one so that two equal cards in a row still read as two. A short 'get ready' comes first (time
to read the last grade; Enter deals at once; after a miss it waits for Enter). Keys typed during the
flash are swallowed (the count is asked afterwards, at a clean prompt), except in a flash the learner
turns (`Flash.by_key`, the countdown), where any key turns the next card; Ctrl-C raises KeyboardInterrupt and
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

from drills.base import Flash, Rounds
from trainer.core.cards import parse_card

LEAD_IN = 1.5
"""Seconds of 'get ready' before the first card, time to read the last grade; Enter starts at once."""
POLL = 0.05
EARLY = 0.002
"""Wake this many seconds before a card is due and yield until it is: timers wake late, not early."""
GAP_SHARE, GAP_MOST = 0.12, 0.05
"""The blank before the next card: 12% of the period, at most 50 ms."""
FACE_HEIGHT = 5
STYLE = Style.from_dict({"card.red": "#e03030 bold", "card.black": "bold", "card.edge": "#808080",
                         "ready": "#808080"})


@dataclass(slots=True)
class FlashTiming:
    """When each group was due and when it was drawn (monotonic seconds), and the keys swallowed."""

    deadlines: list[float] = field(default_factory=list)
    shown_at: list[float | None] = field(default_factory=list)
    """When each group reached the terminal; None for a group the next one replaced before any redraw."""
    keys_discarded: int = 0

    def deviations_ms(self) -> list[float]:
        """How late each drawn group appeared, in milliseconds (negative: early)."""
        return [(shown - due) * 1000 for shown, due in zip(self.shown_at, self.deadlines, strict=False)
                if shown is not None]

    @property
    def missed(self) -> int:
        """Groups never drawn on their own (the display fell a whole card behind)."""
        return sum(shown is None for shown in self.shown_at)


@dataclass(slots=True)
class _Screen:
    """What the flash shows now, and the group waiting for its first redraw."""

    text: StyleAndTextTuples
    pending: int | None = None


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


def round_rows(hands: Sequence[tuple[str, Sequence[str]]]) -> StyleAndTextTuples:
    """One blackjack round as lines, the dealer first: a label, then the hand's cards in colour.

    >>> "".join(text for _, text in round_rows([("dealer", ["9s"]), ("seat 1", ["Th", "7c"])])).splitlines()
    ['   dealer   9♠', '   seat 1  10♥  7♣']
    """
    width = max(len(label) for label, _ in hands)
    out: StyleAndTextTuples = []
    for number, (label, cards) in enumerate(hands):
        if number:
            out.append(("", "\n"))
        out.append(("class:card.edge", f"   {label:<{width}} "))
        for text in cards:
            face = parse_card(text)
            style = "class:card.red" if face.suit is not None and face.suit.is_red else "class:card.black"
            out.append((style, f"{face.pretty():>4}"))
    return out


def _ready(by_key: bool, *, waiting: bool = False) -> StyleAndTextTuples:
    words = ("press any key to turn the first card: the clock starts with it" if by_key else
             "press Enter to deal the next cards" if waiting else "get ready (Enter: deal now)")
    return [("", "\n\n"), ("class:ready", f"   · · ·  {words}"), ("", "\n\n")]


def _blank(height: int = FACE_HEIGHT) -> StyleAndTextTuples:
    return [("", "\n" * (height - 1))]


def play_flash(flash: Flash, *, input: Input | None = None, output: Output | None = None,
               clock: Callable[[], float] = time.monotonic,
               sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
               lead_in: float | None = LEAD_IN) -> FlashTiming:
    """Show the flash's cards `per_flash` at a time at its pace, or one group a key press when it is
    turned by the learner (`by_key`); returns the timing of every group.

    `lead_in=None` waits for Enter before the first card, however long (after a miss, time to read it)."""
    groups = [flash.cards[i:i + flash.per_flash] for i in range(0, len(flash.cards), flash.per_flash)]
    frames = [card_faces(group) for group in groups]
    period = flash.seconds_per_card * flash.per_flash
    durations = None if flash.by_key else [period] * len(frames)
    return play_frames(frames, durations, height=FACE_HEIGHT, input=input, output=output, clock=clock,
                       sleep=sleep, lead_in=lead_in)


def play_rounds(rounds: Rounds, *, input: Input | None = None, output: Output | None = None,
                clock: Callable[[], float] = time.monotonic,
                sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                lead_in: float | None = LEAD_IN) -> FlashTiming:
    """Show blackjack rounds one at a time, each for `seconds_per_card` x its cards (table pace)."""
    frames = [round_rows(tuple((hand.label, hand.cards) for hand in table)) for table in rounds.rounds]
    durations = [rounds.seconds_per_card * sum(len(hand.cards) for hand in table) for table in rounds.rounds]
    height = max((len(table) for table in rounds.rounds), default=1)
    return play_frames(frames, durations, height=max(height, 3), input=input, output=output, clock=clock,
                       sleep=sleep, lead_in=lead_in)


def _deadlines(start: float, durations: Sequence[float]) -> list[float]:
    """start + the time of every frame before: anchored to the start, so lateness never piles up."""
    if durations and all(d == durations[0] for d in durations):
        return [start + k * durations[0] for k in range(len(durations) + 1)]
    out, total = [start], 0.0
    for duration in durations:
        total += duration
        out.append(start + total)
    return out


def play_frames(frames: Sequence[StyleAndTextTuples], durations: Sequence[float] | None, *, height: int,
                input: Input | None = None, output: Output | None = None,
                clock: Callable[[], float] = time.monotonic,
                sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                lead_in: float | None = LEAD_IN) -> FlashTiming:
    """Show `frames` one after another, each for its duration, or (`durations` None) each until the
    next key press, the last until one more; returns when each frame was due and when it was drawn."""
    by_key = durations is None
    timing = FlashTiming()
    screen = _Screen(text=_ready(by_key, waiting=lead_in is None))
    shown = [-1]
    """The frame on screen in key mode (-1: none yet)."""
    rows = height + (1 if by_key else 0)

    keys = KeyBindings()

    @keys.add("c-c")
    def _stop(event: KeyPressEvent) -> None:
        event.app.exit(exception=KeyboardInterrupt())

    @keys.add("c-d")
    def _leave(event: KeyPressEvent) -> None:
        event.app.exit(exception=EOFError())

    def turn(event: KeyPressEvent) -> None:
        """Key mode: the next frame, or the end after the last one."""
        at = shown[0] + 1
        if at >= len(frames):
            timing.deadlines.append(clock())
            event.app.exit()
            return
        shown[0] = at
        timing.deadlines.append(clock())
        timing.shown_at.append(None)
        then = "next" if at + 1 < len(frames) else "done"
        footer: StyleAndTextTuples = [("", "\n"),
                                      ("class:ready", f"   {at + 1} of {len(frames)} · any key: {then}")]
        screen.text, screen.pending = [*frames[at], ("", "\n" * max(0, height - _lines(frames[at]))),
                                       *footer], at
        app.invalidate()

    @keys.add(Keys.Any)
    def _swallow(event: KeyPressEvent) -> None:
        if by_key:
            turn(event)
        else:
            timing.keys_discarded += 1

    go = asyncio.Event()

    @keys.add("enter")
    def _go(event: KeyPressEvent) -> None:
        if by_key:
            turn(event)
            return
        if go.is_set():  # during the flash, Enter is swallowed like any key
            timing.keys_discarded += 1
        go.set()

    def text() -> StyleAndTextTuples:
        return screen.text

    app: Application[None] = Application(
        layout=Layout(Window(FormattedTextControl(text, show_cursor=False), height=rows,
                             always_hide_cursor=True)),
        key_bindings=keys, style=STYLE, full_screen=False, erase_when_done=True,
        input=input, output=output, max_render_postpone_time=0, mouse_support=False)

    def drawn(_: object) -> None:
        if screen.pending is not None:
            timing.shown_at[screen.pending] = clock()
            screen.pending = None

    app.after_render += drawn

    async def until(moment: float) -> None:
        """Sleep to just short of `moment` (the event loop's timer may wake a millisecond or two
        late), then yield to the loop until it is due: keys and redraws still run meanwhile."""
        wait = moment - clock() - EARLY
        if wait > 0:
            await sleep(wait)
        while clock() < moment:
            await sleep(0)

    async def deal(durations: Sequence[float]) -> None:
        if lead_in is None:
            while not go.is_set():
                await sleep(POLL)
        ready_until = clock() + (lead_in or 0)
        while not go.is_set() and (left := ready_until - clock()) > 0.001:
            await sleep(min(POLL, left))
        go.set()
        timing.deadlines = _deadlines(clock(), durations)
        timing.shown_at = [None] * len(frames)
        for index, frame in enumerate(frames):
            gap = min(GAP_MOST, GAP_SHARE * durations[index])
            await until(timing.deadlines[index])
            screen.text, screen.pending = frame, index
            app.invalidate()
            await until(timing.deadlines[index + 1] - gap)
            screen.text = _blank(height)
            app.invalidate()
        await until(timing.deadlines[-1])
        app.exit()

    def start() -> None:
        if durations is not None:
            app.create_background_task(deal(durations))

    app.run(pre_run=start, handle_sigint=False)
    return timing


def _lines(frame: StyleAndTextTuples) -> int:
    return 1 + sum(fragment[1].count("\n") for fragment in frame)
