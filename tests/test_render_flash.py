"""The flash display: deadlines anchored to the start, keys swallowed, Ctrl-C; no real sleeping."""

from __future__ import annotations

import asyncio
import io
import itertools
import random
from collections.abc import Iterator

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.output import DummyOutput

from drills.base import DrillOptions, Flash
from drills.counting.running_count import RunningCountDrill
from trainer.core.rulesfile import find_ruleset
from trainer.practice.batch import repeat
from trainer.practice.session import DrillRun, ListRecorder
from trainer.render import make_console
from trainer.render.flash import EARLY, FlashTiming, card_faces, flash_deadlines, play_flash
from trainer.screens import drill as drill_ui


class FakeTime:
    """A clock that moves only when the flash sleeps, by what it asked for plus `oversleep`."""

    def __init__(self, oversleep: float = 0.0) -> None:
        self.now = 1000.0
        self.oversleep = oversleep
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        for _ in range(3):  # let the application draw and read keys, as a real sleep would
            await asyncio.sleep(0)
        self.sleeps.append(seconds)
        self.now += seconds + self.oversleep if seconds else self.TICK

    TICK = 0.0005
    """What a bare yield to the event loop costs on this clock."""


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as keys:
        yield keys


def _play(flash: Flash, fake: FakeTime, keys: PipeInput) -> FlashTiming:
    return play_flash(flash, input=keys, output=DummyOutput(), clock=fake.clock, sleep=fake.sleep,
                      lead_in=0.5)


CARDS = ("7h", "Kd", "Ts", "2c", "5s", "As", "9d")


def test_deadlines_are_counted_from_the_start() -> None:
    flash = Flash(cards=CARDS, seconds_per_card=0.25, per_flash=2)
    assert flash_deadlines(flash, 10.0) == [10.0, 10.5, 11.0, 11.5, 12.0]


def test_every_card_appears_at_its_deadline(pipe: PipeInput) -> None:
    fake = FakeTime()
    timing = _play(Flash(cards=CARDS, seconds_per_card=0.5), fake, pipe)
    assert timing.deadlines[0] == pytest.approx(1000.5)  # after the lead-in
    assert timing.shown_at == pytest.approx(timing.deadlines[:-1], abs=1e-3)
    assert fake.now == pytest.approx(timing.deadlines[-1], abs=1e-3)


def test_a_late_wake_up_does_not_push_later_cards_back(pipe: PipeInput) -> None:
    fake = FakeTime(oversleep=0.004)
    timing = _play(Flash(cards=CARDS * 4, seconds_per_card=0.1), fake, pipe)
    late = timing.deviations_ms()
    assert len(late) == len(CARDS) * 4
    assert late[0] == pytest.approx(0.0)  # due the moment the lead-in ends
    # woken EARLY ms ahead, each card is one oversleep less EARLY late, and that never piles up
    assert late[1:] == pytest.approx([4.0 - EARLY * 1000] * (len(late) - 1))


def test_groups_of_three_and_a_blank_before_each_next_card(pipe: PipeInput) -> None:
    fake = FakeTime()
    timing = _play(Flash(cards=CARDS, seconds_per_card=0.2, per_flash=3), fake, pipe)
    assert len(timing.shown_at) == 3  # 3 + 3 + 1 cards
    assert [b - a for a, b in itertools.pairwise(timing.shown_at)] == pytest.approx([0.6, 0.6], abs=1e-3)
    # each period is slept in two parts (each woken EARLY): the card, then a blank of 12% of it (at
    # most 50 ms) so that the same card twice in a row still shows as two
    waits = [round(w, 4) for w in fake.sleeps if w > 0.01]
    assert waits.count(round(0.6 - 0.05 - EARLY, 4)) == 3 and waits.count(round(0.05 - EARLY, 4)) == 3


def test_enter_deals_at_once_and_later_keys_are_swallowed(pipe: PipeInput) -> None:
    fake = FakeTime()
    pipe.send_text("\r")
    timing = _play(Flash(cards=CARDS, seconds_per_card=0.5), fake, pipe)
    assert timing.deadlines[0] < 1000.5  # Enter cut the lead-in short
    assert timing.keys_discarded == 0


def test_keys_typed_during_the_flash_are_swallowed(pipe: PipeInput) -> None:
    fake = FakeTime()

    async def typing_sleep(seconds: float) -> None:
        if len(fake.sleeps) == 12:  # in the middle of the cards
            pipe.send_text("12\r")
        await fake.sleep(seconds)

    timing = play_flash(Flash(cards=CARDS, seconds_per_card=0.5), input=pipe, output=DummyOutput(),
                        clock=fake.clock, sleep=typing_sleep, lead_in=0.5)
    assert timing.keys_discarded == 3  # 1, 2 and Enter: none of them reaches the answer prompt
    assert len(timing.shown_at) == len(CARDS)
    assert timing.shown_at == pytest.approx(timing.deadlines[:-1], abs=1e-3)


def test_ctrl_c_stops_the_flash(pipe: PipeInput) -> None:
    pipe.send_text("\x03")
    with pytest.raises(KeyboardInterrupt):
        _play(Flash(cards=CARDS, seconds_per_card=0.5), FakeTime(), pipe)


def test_cards_are_drawn_as_faces_with_red_suits_in_red() -> None:
    faces = card_faces(["Th", "As"])
    text = "".join(t for _, t in faces).splitlines()
    assert text[1] == "   │10   │  │A    │"
    assert text[2] == "   │  ♥  │  │  ♠  │"
    assert ("class:card.red", "  ♥  ") in faces and ("class:card.black", "  ♠  ") in faces


def test_ctrl_c_during_a_flash_ends_the_drill_keeping_what_was_answered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    flashes: list[Flash] = []

    def fake_flash(flash: Flash, **_: object) -> FlashTiming:
        flashes.append(flash)
        if len(flashes) == 2:
            raise KeyboardInterrupt
        return FlashTiming()

    monkeypatch.setattr("trainer.render.flash.play_flash", fake_flash)
    recorder = ListRecorder()
    session = DrillRun(drill=RunningCountDrill(DrillOptions()), ruleset=find_ruleset("casino"),
                      rng=random.Random(3), recorder=recorder)
    answers = iter(["abc", "+0"])
    out = io.StringIO()
    summary = drill_ui.run_interactive(repeat(session, 5), make_console(out, color=False, width=100),
                                       ask=lambda _prompt: next(answers))
    assert summary.answered == 1 and len(recorder.attempts) == 1
    printed = out.getvalue()
    assert "? 'abc' is not a count" in printed
    assert "drill stopped; every answer given is kept" in printed
    assert "counts exact" in printed  # the summary still comes


def test_the_interactive_driver_flashes_only_the_new_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[tuple[str, ...]] = []
    monkeypatch.setattr("trainer.render.flash.play_flash",
                        lambda flash, **_: shown.append(flash.cards) or FlashTiming())
    session = DrillRun(drill=RunningCountDrill(DrillOptions()), ruleset=find_ruleset("casino"),
                      rng=random.Random(3), recorder=ListRecorder())
    out = io.StringIO()
    drill_ui.run_interactive(repeat(session, 2), make_console(out, color=False, width=100),
                             ask=lambda _prompt: "0")
    assert len(shown) == 2 and "A freshly shuffled deck" in out.getvalue()
    assert sum(len(cards) for cards in shown) == len(session.drill.shown)


def test_a_card_replaced_before_any_redraw_is_reported_missed(pipe: PipeInput) -> None:
    fake = FakeTime()

    async def hogging_sleep(seconds: float) -> None:  # never lets the application draw
        fake.now += seconds or FakeTime.TICK

    timing = play_flash(Flash(cards=CARDS, seconds_per_card=0.5), input=pipe, output=DummyOutput(),
                        clock=fake.clock, sleep=hogging_sleep, lead_in=0.5)
    assert timing.missed >= len(CARDS) - 1
    assert len(timing.shown_at) == len(CARDS)  # one entry per card, drawn or not
    assert timing.shown_at[:-1] == [None] * (len(CARDS) - 1)  # each replaced before a redraw
    drawn = [(at, due) for at, due in zip(timing.shown_at, timing.deadlines, strict=False) if at is not None]
    assert timing.deviations_ms() == pytest.approx([(at - due) * 1000 for at, due in drawn])  # drawn ones only


def test_after_a_miss_the_cards_are_laid_out_and_the_next_deal_waits_for_enter(
        monkeypatch: pytest.MonkeyPatch) -> None:
    lead_ins: list[object] = []
    monkeypatch.setattr("trainer.render.flash.play_flash",
                        lambda flash, **kw: lead_ins.append(kw.get("lead_in", "default")) or FlashTiming())
    session = DrillRun(drill=RunningCountDrill(DrillOptions()), ruleset=find_ruleset("casino"),
                      rng=random.Random(3), recorder=ListRecorder())
    out = io.StringIO()
    answers = iter(["99", "98", "+0"])
    drill_ui.run_interactive(repeat(session, 3), make_console(out, color=False, width=80),
                             ask=lambda _prompt: next(answers))
    assert lead_ins == ["default", None, None]  # each deal after a miss waits for Enter
    printed = out.getvalue()
    assert "✗ wrong (" in printed and "The count was " in printed and "; you said +99." in printed
    assert "\ncard   " in printed and "\ntag    " in printed and "\ncount  " in printed
    assert max(len(line) for line in printed.splitlines() if line.startswith(("card ", "count "))) <= 80


def test_a_flash_without_a_lead_in_waits_for_enter(pipe: PipeInput) -> None:
    fake = FakeTime()

    async def enter_late(seconds: float) -> None:
        await fake.sleep(seconds)
        if fake.now > 1030:  # half a minute of 'press Enter' first: nothing dealt meanwhile
            pipe.send_text("\r")

    timing = play_flash(Flash(cards=CARDS, seconds_per_card=0.5), input=pipe, output=DummyOutput(),
                        clock=fake.clock, sleep=enter_late, lead_in=None)
    assert timing.deadlines[0] > 1030
