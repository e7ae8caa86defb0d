"""Every lettered or numbered choice on a screen is read as that choice: the drills, the table and the
tournament list choices with `choice_labels` and read them with `parse_choice`."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from drills import DRILLS, make_drill
from drills.base import Question, choice_labels, parse_choice
from trainer.cli import cli
from trainer.core import load_ruleset
from trainer.core.actions import Action
from trainer.core.errors import InvalidInputError
from trainer.core.rulesfile import builtin_rulesets
from trainer.practice.session import ListRecorder
from trainer.render import make_console
from trainer.screens.tournament import TournamentUI
from trainer.strategy import chart_for
from trainer.table.plays import parse_play
from trainer.table.tournament_checks import TournamentChecks
from trainer.tournament.dice import ScriptedDice
from trainer.tournament.game import Entrant, Stage, Tournament


def drill_attack(tmp_path: Path, answer: str) -> str:
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "p.db"), "drill", "attack", "--seed", "3", "-n",
                                      "1"], input=answer + "\n")
    assert result.exit_code == 0, result.output
    return result.output


def test_the_attack_drill_reads_each_letter_as_the_choice_it_is_listed_with(tmp_path: Path) -> None:
    out = drill_attack(tmp_path, "a")
    assert "  a) pass: no attack" in out and "  b) Ace: $295, you win 20%" in out and "  c) Bix: $195" in out
    assert "  1) Ace" not in out  # one list, one way to key it
    assert "right: pass" in out
    assert "you said Ace" in drill_attack(tmp_path, "b")
    assert "you said Bix" in drill_attack(tmp_path, "c")
    assert "you said Bix" in drill_attack(tmp_path, "bix")
    assert "right: pass" in drill_attack(tmp_path, "")  # Enter passes, as the intro says


CHOOSING = ("quiz", "attack", "procedure", "protect", "wong")
"""The drills that list choices to pick from (`test_some_drills_show_choices` checks the list)."""


def _questions_with_choices(names: tuple[str, ...], ruleset: str | None = None, asked: int = 12
                            ) -> list[tuple[str, str, Question]]:
    found = []
    for name in names:
        drill = make_drill(name)
        for rules in builtin_rulesets().values():
            if ruleset is not None and rules.name != ruleset:
                continue
            if name == "attack" and drill.cannot_ask("attack:2 rivals:pass", rules):
                continue
            rng = random.Random(7)
            for _ in range(asked):
                try:
                    question = drill.ask(rng, rules)
                except InvalidInputError:
                    break  # a drill this rule set cannot ask (its own error says why)
                if question.choices and question.data.get("kind") != "order":  # an order is letters in turn
                    found.append((name, rules.name, question))
    return found


def test_some_drills_show_choices() -> None:
    others = tuple(name for name in DRILLS if name not in CHOOSING)
    assert not _questions_with_choices(others, asked=4)  # a drill lists choices on every question or none
    assert {name for name, _, _ in _questions_with_choices(CHOOSING)} == set(CHOOSING)


@pytest.mark.parametrize("ruleset", list(builtin_rulesets()))
@pytest.mark.parametrize("name", CHOOSING)
def test_every_listed_key_and_number_picks_the_choice_listed_with_it(name: str, ruleset: str) -> None:
    drill = make_drill(name)
    for _, _, question in _questions_with_choices((name,), ruleset):
        numeric = any(c.isdecimal() for c in question.choices)
        for position, ((key, shown), choice) in enumerate(zip(choice_labels(question), question.choices,
                                                              strict=True), 1):
            assert shown.startswith(choice)
            assert drill.parse(question, key).value == choice
            assert drill.parse(question, key.upper()).value == choice
            assert drill.parse(question, choice).value == choice
            if not numeric:
                assert drill.parse(question, str(position)).value == choice
        with pytest.raises(InvalidInputError, match="not one of the choices"):
            drill.parse(question, "zz")


def test_a_start_that_fits_two_choices_is_refused() -> None:
    q = Question(drill="q", item="q", prompt="?", data={}, expected="Bix", choices=("pass", "Bix", "Bixby"))
    assert parse_choice(q, "b") == "Bix"  # the key
    with pytest.raises(InvalidInputError, match="'bi' starts Bix and Bixby: a\\) pass, b\\) Bix, c\\) Bixby"):
        parse_choice(q, "bi")


def test_a_table_play_is_read_by_the_keys_the_table_shows_never_by_a_letter_it_does_not() -> None:
    q = Question(drill="strategy", item="strategy:hard 11 vs 6", prompt="?", expected="double",
                 data={"options": ["hit", "stand", "double", "split"]}, choices=("hit", "stand", "double", "split"))
    assert [parse_play(q, k).value for k in ("h", "s", "d", "p", "Double", "dbl")] == \
        ["hit", "stand", "double", "split", "double", "double"]
    with pytest.raises(InvalidInputError):
        parse_play(q, "a")  # no letters are listed at the table: 'a' is not the first play
    with pytest.raises(InvalidInputError, match="surrender is not offered here"):
        parse_play(q, "r")
    offer = Question(drill="insurance", item="i", prompt="?", expected="decline",
                     data={"options": ["even-money", "decline"]}, choices=("even-money", "decline"))
    assert [parse_play(offer, k).value for k in ("e", "y", "insure", "n", "no")] == \
        ["even-money", "even-money", "even-money", "decline", "decline"]


class KeepOrder(random.Random):
    def shuffle(self, x: list[object]) -> None:
        return None


# host 9; Me 10+7 stands, B 10+6 stands, C 10+9: Me 110, B 10, C 110 after the $90 bet of B loses
ROLLS = [9, 10, 7, 10, 6, 10, 9, 8, 50, 3]


def _to_attack_phase() -> tuple[Tournament, TournamentChecks]:
    t = Tournament(load_ruleset("chat-host"), [Entrant(name=n, computer=False) for n in ("Me", "B", "C")],
                   rng=KeepOrder(0), dice=ScriptedDice(ROLLS))
    checks = TournamentChecks(t, "Me", chart_for(t.ruleset), rng=random.Random(1), recorder=ListRecorder())
    t.bet("Me", 10)
    t.bet("B", 90)
    t.bet("C", 10)
    while t.in_turn is not None:
        t.act(Action.STAND)
    assert t.stage is Stage.ATTACKS and t.attacker == "Me"
    return t, checks


@pytest.mark.parametrize(("typed", "given"), [("a", "pass"), ("b", "B"), ("c", "C"), ("C", "C"), ("", "pass"),
                                              ("2", "B")])
def test_the_tournament_attack_reads_the_letter_listed_with_each_choice(typed: str, given: str) -> None:
    _t, checks = _to_attack_phase()
    decision = checks.decision()
    assert decision is not None and decision.question.choices == ("pass", "B", "C")
    grade = checks.answer(decision, typed)
    assert grade is not None and grade.given == given


def test_the_tournament_screen_lists_the_attack_choices_with_the_letters_it_reads() -> None:
    t, checks = _to_attack_phase()
    out = io.StringIO()
    typed = iter(["b"])
    ui = TournamentUI(t, make_console(out, width=80, color=False), line=lambda prompt: next(typed),
                      checks=checks)
    ui.ask_next()
    screen = out.getvalue()
    assert "    a) pass (no attack)" in screen and "    b) attack B $10" in screen and "    c) attack C" in screen
    assert checks.tally.attacks[-1].chosen.target == "B"
