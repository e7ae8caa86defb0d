"""The chat-host tournament checks the learner's plays against the chat-host chart and weighs each attack
phase; both are recorded like table plays (source "play")."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner

from trainer.cli import cli
from trainer.core import load_ruleset
from trainer.core.actions import Action
from trainer.practice.session import ListRecorder
from trainer.progress.review import ReviewQueue
from trainer.storage import Store
from trainer.strategy import chart_for
from trainer.table.tournament_checks import TournamentChecks
from trainer.tournament.attacks import attack_options, best_attack
from trainer.tournament.dice import ScriptedDice
from trainer.tournament.game import Entrant, Stage, Tournament

RULES = load_ruleset("chat-host")


class KeepOrder(random.Random):
    """The dealing order stays as the players joined."""

    def shuffle(self, x: list[object]) -> None:
        return None


# host 9; Me 10+7 (hard 17), B 10+6, C 10+9; Me hits a 2 (19) and stands; the host draws an 8 (17).
# Me and C win $10, B loses $90: Me 110, B 10, C 110. The attack: Me rolls 50 of 110, B 3 of 10.
ROLLS = [9, 10, 7, 10, 6, 10, 9, 2, 8, 50, 3]


def test_a_wrong_play_and_a_poor_attack_are_graded_and_recorded() -> None:
    t = Tournament(RULES, [Entrant(name=n, computer=False) for n in ("Me", "B", "C")], rng=KeepOrder(0),
                   dice=ScriptedDice(ROLLS))
    recorder = ListRecorder()
    checks = TournamentChecks(t, "Me", chart_for(RULES), rng=random.Random(1), recorder=recorder)
    bet = checks.decision()
    assert bet is not None and bet.kind == "bet" and not bet.graded
    assert checks.answer(bet, "10") is None
    t.bet("B", 90)
    t.bet("C", 10)
    play = checks.decision()
    assert play is not None and play.kind == "action" and play.question.item == "strategy:hard 17 vs 9"
    grade = checks.answer(play, "hit")
    assert grade is not None and not grade.correct and grade.expected == "stand"
    assert "the chart says stand for hard 17 vs 9" in grade.explanation
    right = checks.answer(checks.decision(), "s")
    assert right is not None and right.correct
    while t.in_turn is not None:
        t.act(Action.STAND)
    assert t.stage is Stage.ATTACKS and t.attacker == "Me"
    assert [t.cash(n) for n in ("Me", "B", "C")] == [110, 10, 110]
    attack = checks.decision()
    assert attack is not None and attack.kind == "attack" and attack.question.choices == ("pass", "B", "C")
    options = {o["target"]: o for o in attack.question.data["options"]}
    assert options["B"]["chance"] == float(Fraction(209, 220))
    assert options["B"]["cash_change"] == float(-Fraction(11, 220) * 55)
    assert attack.question.expected == "C"  # taking out the $110 rival leaves the most of the cash
    poor = checks.answer(attack, "b")  # B, the $10 player, listed second (b) after pass (a)
    assert poor is not None and not poor.correct and poor.given == "B" and poor.expected == "C"
    assert "attacking B leaves you" in poor.explanation and "attacking C was best" in poor.explanation
    assert "B" not in t.alive()  # the attack was made, and it succeeded
    recorded = [(a.drill, a.item, a.ruleset, a.expected, a.given, a.correct, a.source) for a in recorder.attempts]
    assert recorded == [
        ("strategy", "strategy:hard 17 vs 9", "chat-host", "stand", "hit", False, "play"),
        ("strategy", "strategy:hard 19 vs 9", "chat-host", "stand", "stand", True, "play"),
        ("attack", "attack:2 rivals:attack", "chat-host", "C", "B", False, "play"),
    ]


def test_the_best_attack_weighs_chance_and_what_is_left() -> None:
    cash = {"Me": Decimal(110), "B": Decimal(10), "C": Decimal(110)}
    options = {o.word: o for o in attack_options("Me", cash)}
    assert options["pass"].share == Fraction(110, 230)
    p = Fraction(109, 220)
    assert options["C"].share == p * Fraction(110, 120) + (1 - p) * Fraction(55, 175)
    assert best_attack(list(options.values())).word == "C"
    four = {n: Decimal(100) for n in ("Me", "B", "C", "D")}
    assert best_attack(attack_options("Me", four)).word == "pass"


def test_the_tournament_in_machine_mode_records_plays_and_attacks(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    answers = "".join(["10\nstand\npass\n"] * 4)
    result = CliRunner().invoke(cli, ["--db", str(db), "play", "--ruleset", "chat-host", "--seed", "3",
                                      "--jsonl", "--rounds", "3"], input=answers)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert "notice" in lines[0]
    kinds = {line["kind"] for line in lines if "kind" in line}
    assert kinds >= {"bet", "action", "attack"}
    assert [line["round"] for line in lines if "round" in line and "kind" not in line] == [1, 2, 3]
    with Store.open(db) as store:
        rows = [s.attempt for s in store.attempts()]
    assert rows and all(a.source == "play" and a.ruleset == "chat-host" for a in rows)
    assert {a.drill for a in rows} == {"strategy", "attack"}


def test_a_missed_attack_comes_back_in_review_through_the_attack_drill(tmp_path: Path) -> None:
    t = Tournament(RULES, [Entrant(name=n, computer=False) for n in ("Me", "B", "C")], rng=KeepOrder(0),
                   dice=ScriptedDice(ROLLS))
    with Store.open(tmp_path / "p.db") as store:
        checks = TournamentChecks(t, "Me", chart_for(RULES), rng=random.Random(1), recorder=store)
        checks.answer(checks.decision(), "10")
        t.bet("B", 90)
        t.bet("C", 10)
        checks.answer(checks.decision(), "stand")  # right: nothing due
        while t.in_turn is not None:
            t.act(Action.STAND)
        checks.answer(checks.decision(), "B")
        queue = ReviewQueue(store, rng=random.Random(2), new_per_day=0)
        asked = []
        for session, item in queue.plan():
            _, question = session.ask(item)
            asked.append((question.drill, question.item))
            grade = session.answer(question, question.expected)
            assert grade.correct
    assert asked == [("attack", "attack:2 rivals:attack")]


def test_the_attack_drill_asks_each_kind_of_item_it_lists() -> None:
    from drills.tournament.attack import AttackDrill

    drill = AttackDrill()
    assert drill.cannot_ask("attack:2 rivals:pass", load_ruleset("casino")) is not None
    items = drill.items(RULES)
    assert items is not None and "attack:3 rivals:pass" in items
    rng = random.Random(5)
    for item in items:
        question = drill.ask(rng, RULES, item)
        assert question.item == item
        assert drill.grade(question, drill.parse(question, question.expected)).correct
        wrong = next(c for c in question.choices if c != question.expected)
        assert not drill.grade(question, drill.parse(question, wrong)).correct
