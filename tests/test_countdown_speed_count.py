"""The countdown dealt card by card and the speed count dealt in rounds: what `--jsonl` carries (the
cards in order, one flash or one round at a time), the time per deck recorded, the learner's best."""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from drills.base import DrillOptions, Flash, Rounds
from drills.counting.countdown import CountdownDrill
from drills.counting.speed_count import SpeedCountDrill
from trainer.cli import cli
from trainer.core.cards import parse_card, parse_cards
from trainer.core.counting import find_system, format_count
from trainer.core.hands import hand_total
from trainer.core.rulesfile import find_ruleset
from trainer.practice.batch import repeat
from trainer.practice.session import Clock, DrillRun, ListRecorder
from trainer.render import make_console
from trainer.render.flash import FlashTiming, play_flash
from trainer.screens import drill as drill_ui
from trainer.storage import Store


def _run(db: Path, name: str, options: list[str], answers: list[str]) -> list[dict[str, Any]]:
    result = CliRunner().invoke(
        cli, ["--db", str(db), "drill", name, "--jsonl", "--seed", "7", "--count", str(max(1, len(answers))), *options],
        input="".join(f"{a}\n" for a in answers))
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


def _count(data: dict[str, Any]) -> Fraction:
    system = find_system(data["system"])
    return Fraction(data["initial_running_count"]) + sum(
        (Fraction(system.tag(parse_card(c))) for c in data["cards"]), Fraction(0))


def _checkout(data: dict[str, Any]) -> str:
    count = _count(data)
    return f"{format_count(count)}, {' '.join(find_system(data['system']).ranks_tagged(-count))}"


def _recorded(db: Path) -> list[Any]:
    with Store.open(db) as store:
        return [stored.attempt for stored in store.attempts()]


@pytest.mark.parametrize(("options", "per_flash", "speed"), [([], 1, None), (["--per-flash", "3"], 3, None),
                                                             (["--speed", "0.4", "--per-flash", "2"], 2, 0.4)])
def test_countdown_jsonl_carries_the_cards_one_flash_at_a_time(tmp_path: Path, options: list[str],
                                                              per_flash: int, speed: float | None) -> None:
    db = tmp_path / "p.db"
    question = _run(db, "countdown", options, [])[0]
    data = question["data"]
    flashes = data["flashes"]
    assert [card for flash in flashes for card in flash] == data["cards"] and len(data["cards"]) == 51
    assert all(len(flash) == per_flash for flash in flashes[:-1]) and 1 <= len(flashes[-1]) <= per_flash
    assert data["per_flash"] == per_flash and data["seconds_per_card"] == speed
    assert len(set(data["cards"])) == 51  # one deck less the card taken out unseen


def test_countdown_records_the_time_per_deck_and_a_script_answer_is_never_a_best(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    first = _run(db, "countdown", [], [])[0]
    lines = _run(db, "countdown", [], [_checkout(first["data"])])
    grade = lines[1]
    assert grade["correct"] and "best_seconds_per_deck" not in grade["detail"]
    attempt = _recorded(db)[0]
    assert attempt.latency_ms == grade["latency_ms"] and attempt.pace == "script"
    per_deck = attempt.latency_ms / 1000 * 52 / len(attempt.data["cards"])
    assert grade["detail"]["seconds_per_deck"] == round(per_deck, 1) and grade["detail"]["pace"] == "script"
    assert "answered by a script" in grade["explanation"]
    again = _run(db, "countdown", [], [_checkout(first["data"])])[1]  # the same seed deals the same deck
    assert again["correct"] and "best_seconds_per_deck" not in again["detail"]
    assert "not your time, so it is no best" in again["explanation"]


def test_speed_count_jsonl_carries_the_rounds_in_order_and_a_program_can_answer(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    questions = [line for line in _run(db, "speed-count", ["--seats", "5"], ["0", "0"]) if "drill" in line]
    answers = []
    for question in questions:
        data = question["data"]
        assert question["item"] == "speed-count:hi-lo:1d:5s" and data["seats"] == 5
        rounds = data["rounds"]
        assert len(rounds) >= 3
        for table in rounds:  # one round per flash: the dealer, then every seat
            assert [hand["hand"] for hand in table] == ["dealer", *(f"seat {n}" for n in range(1, 6))]
            for hand in table[1:]:
                total = hand_total(parse_cards(hand["cards"]))[0]
                assert len(hand["cards"]) >= 2 and (total >= 17 or table is rounds[-1])  # the deck may run out
                assert total - parse_card(hand["cards"][-1]).value < 17 or len(hand["cards"]) == 2  # hits below 17
        assert [c for table in rounds for hand in table for c in hand["cards"]] == data["cards"]
        assert len(data["cards"]) + data["unseen"] == 52 and data["unseen"] >= 1  # the burn card at least
        answers.append(format_count(_count(data)))
    grades = [line for line in _run(db, "speed-count", ["--seats", "5"], answers) if "correct" in line]
    assert [g["correct"] for g in grades] == [True, True]
    attempts = _recorded(db)[-2:]
    for grade, attempt in zip(grades, attempts, strict=True):
        per_deck = attempt.latency_ms / 1000 * 52 / len(attempt.data["cards"])
        assert grade["detail"]["seconds_per_deck"] == round(per_deck, 1)
        assert attempt.item == "speed-count:hi-lo:1d:5s" and attempt.latency_ms == grade["latency_ms"]
    # the rounds are the program's flash and the answers a script's: reported, never a best
    assert all(g["detail"]["pace"] == "script" and "best_seconds_per_deck" not in g["detail"] for g in grades)


def test_speed_count_review_items_name_system_decks_and_seats() -> None:
    drill = SpeedCountDrill(DrillOptions())
    rules = find_ruleset("casino")
    question = drill.ask(random.Random(1), rules, "speed-count:ko:2d:6s")
    assert question.item == "speed-count:ko:2d:6s" and question.data["decks"] == 2
    assert len(question.data["rounds"][0]) == 7 and question.data["initial_running_count"] == -4
    assert drill.cannot_ask("speed-count:hi-lo:1d", rules) is not None


def test_the_countdown_turns_a_card_on_every_key_and_ends_on_one_more() -> None:
    flash = Flash(cards=("7h", "Kd", "2c"), seconds_per_card=0.0, by_key=True, clock_from_first=True)
    with create_pipe_input() as pipe:
        pipe.send_text("x \r" + "q")  # any key turns the next card; one more after the last ends it
        timing = play_flash(flash, input=pipe, output=DummyOutput())
    assert len(timing.shown_at) == 3 and len(timing.deadlines) == 4 and timing.keys_discarded == 0


def test_the_interactive_countdown_is_timed_from_its_first_card(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    flashes: list[Flash] = []

    def fake_flash(flash: Flash) -> FlashTiming:  # the learner takes 20 s over the cards
        flashes.append(flash)
        timing = FlashTiming(deadlines=[now[0] + 1.0], shown_at=[now[0] + 1.0])
        now[0] += 21.0
        return timing

    monkeypatch.setattr("trainer.render.flash.play_flash", fake_flash)
    recorder = ListRecorder()
    session = DrillRun(drill=CountdownDrill(DrillOptions()), ruleset=find_ruleset("casino"),
                      rng=random.Random(3), recorder=recorder, clock=Clock(monotonic=lambda: now[0]))

    def answer(_prompt: str) -> str:
        now[0] += 4.0  # and 4 s more to answer
        return "0, 7"

    drill_ui.run_interactive(repeat(session, 1), make_console(io.StringIO(), color=False, width=100), ask=answer)
    assert flashes[0].by_key and flashes[0].per_flash == 1
    assert recorder.attempts[0].latency_ms == 24_000  # from the first card (at 101) to the answer (at 125)


def test_speed_count_rounds_are_flashed_as_rounds_and_timed_from_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[Rounds] = []
    monkeypatch.setattr("trainer.render.flash.play_rounds",
                        lambda rounds: shown.append(rounds) or FlashTiming(deadlines=[0.0], shown_at=[0.0]))
    session = DrillRun(drill=SpeedCountDrill(DrillOptions(seats=2)), ruleset=find_ruleset("casino"),
                      rng=random.Random(3), recorder=ListRecorder(), clock=Clock(monotonic=lambda: 30.0))
    drill_ui.run_interactive(repeat(session, 1), make_console(io.StringIO(), color=False, width=100),
                             ask=lambda _prompt: "0")
    assert len(shown) == 1 and all(len(table) == 3 for table in shown[0].rounds)
    assert session.grades[0].detail["seconds_per_deck"] > 30  # 30 s from the first round, per 52 cards
