"""The dealer's school bank (`drills/data/dealer_school.toml`) and its two drills, `procedure` and
`protect`: every item has a basis and a source, every answer is reachable through the parser, and no item
is asked at a rule set it contradicts."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from drills import make_drill
from drills.base import DrillOptions, Question
from drills.dealing.dealer_bank import (
    CONDITIONS,
    ORDER_LETTERS,
    DealerItem,
    dealer_items,
    read_order,
    to_question,
)
from trainer.cli import cli
from trainer.core.basis import BasisKind
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Reshuffle, Ruleset
from trainer.core.rulesfile import builtin_rulesets, find_ruleset

SEEDS = Path(__file__).parent / "data" / "seeds"
COURSES = ("House of Wolves dealer curriculum", 'Vegas-Aces "how to deal" series')
"""The public dealer courses the bank reads where the seeds are silent."""
TOPICS = {
    "procedure": {"opening a table", "the deal", "peeking", "insurance", "take-and-pay", "a split and a double",
                  "a pitch game", "the cut card", "the shuffle and the burn", "a deck change"},
    "protect": {"a bet changed after the deal", "chips outside the circle", "a late bet",
                "a player touching cards in a shoe game", "doubling for less"},
}
"""The parts of the job the issue names; each drill covers every one of its own (and may cover more)."""


def _tables() -> list[Ruleset]:
    """Every shipped rule set, and casino at 1 and 2 decks (a pitch game) and at 8."""
    casino = find_ruleset("casino")
    return [*builtin_rulesets().values(), casino.with_decks(1), casino.with_decks(2), casino.with_decks(8)]


def _text(item: DealerItem) -> str:
    return " ".join((item.prompt, item.answer, *item.wrong, *item.steps, item.explanation)).lower()


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("item", dealer_items(), ids=lambda i: i.key)
def test_every_item_has_a_basis_and_a_source(item: DealerItem) -> None:
    assert item.drill in ("procedure", "protect") and item.kind in ("choice", "order")
    assert item.explanation and item.source
    if item.basis.kind is BasisKind.SEED:
        assert not item.course
        seed = _flat((SEEDS / item.basis.file).read_text(encoding="utf-8"))
        for quote in item.basis.quotes:
            assert _flat(quote) in seed, (item.key, quote)
        assert item.source.startswith(f"seed {item.basis.file}")
    else:  # a reading names its course and says it is this trainer's reading, never the seed's word
        assert item.basis.kind is BasisKind.READING and item.course in COURSES and item.basis.why
        assert item.source.startswith(f"this trainer's reading of the {item.course}")
    if item.kind == "choice":
        assert item.answer and len(item.wrong) == 3 and item.answer not in item.wrong
        assert len(set(item.wrong)) == 3 and not item.steps
    else:
        assert 3 <= len(item.steps) <= len(ORDER_LETTERS) and len(set(item.steps)) == len(item.steps)
    assert set(item.requires) <= set(CONDITIONS)


def test_keys_are_unique_and_every_topic_is_drilled() -> None:
    keys = [(i.drill, i.key) for i in dealer_items()]
    assert len(keys) == len(set(keys))
    for drill, topics in TOPICS.items():
        assert topics <= {i.topic for i in dealer_items() if i.drill == drill}, drill


@pytest.mark.parametrize("name", ["procedure", "protect"])
def test_every_answer_is_reachable_by_the_parser(name: str) -> None:
    drill = make_drill(name)
    rng = random.Random(5)
    for table in _tables():
        try:
            keys = drill.items(table)
        except InvalidInputError:
            continue
        for key in keys:
            for _ in range(3):  # several shuffles of the choices
                question = drill.ask(rng, table, key)
                assert question.item == key
                typed = [question.expected]
                if question.data["kind"] == "order":
                    typed += [question.expected.replace(" ", ""), question.expected.replace(" ", ", ").upper()]
                else:
                    typed.append(ORDER_LETTERS[question.choices.index(question.expected)])
                for text in typed:
                    grade = drill.grade(question, drill.parse(question, text))
                    assert grade.correct, (key, text)
                wrong = next(c for c in question.choices if c != question.expected) \
                    if question.data["kind"] == "choice" else " ".join(reversed(question.expected.split()))
                assert not drill.grade(question, drill.parse(question, wrong)).correct


def _contradiction(item: DealerItem, table: Ruleset) -> str | None:
    """What in the item's own words the table does not do, read independently of its `requires`."""
    text = _text(item)
    decks, dealer, player = table.shoe.decks, table.dealer, table.player
    if "insurance" in text and not (player.insurance and 1 in dealer.peek):
        return "insurance at a table without it"
    if re.search(r"(?<!no )\bpeek|look at the hole card|checks? for a natural", text) and not dealer.peek:
        return "a peek at a table without one"
    if "hole card" in text and not dealer.hole_card:
        return "a hole card at a table without one"
    if "cut card" in text and table.shoe.reshuffle is not Reshuffle.CUT_CARD:
        return "a cut card where the cards are shuffled every round"
    if "burn" in text and table.shoe.burn == 0:
        return "a burn card at a table that burns none"
    if ("face down" in text or "single-deck" in text or "one deck" in text) and item.topic == "a pitch game" \
            and decks not in (1, 2):
        return "a pitch game at a shoe"
    if "shoe" in text and decks in (1, 2):
        return "a shoe at a game dealt from the hand"
    if ("double" in text or "doubling" in text) and player.double.value == "none":
        return "a double where none is allowed"
    if "split" in text and player.max_hands < 2:
        return "a split where none is allowed"
    if "dealer" in text and (table.tournament is not None or decks == 0):
        return "a casino dealer at a game that has none"
    return None


@pytest.mark.parametrize("name", ["procedure", "protect"])
def test_no_item_contradicts_a_rule_set_it_is_asked_at(name: str) -> None:
    drill = make_drill(name)
    by_key = {i.key: i for i in dealer_items() if i.drill == name}
    asked_somewhere: set[str] = set()
    for table in _tables():
        try:
            keys = drill.items(table)
        except InvalidInputError:
            continue
        for key in keys:
            item = by_key[key.partition(":")[2]]
            assert _contradiction(item, table) is None, (table.name, table.shoe.decks, item.key,
                                                         _contradiction(item, table))
            asked_somewhere.add(item.key)
    assert asked_somewhere == set(by_key)  # every item is asked at some table


def test_european_gets_no_insurance_step_and_a_pitch_game_only_at_one_or_two_decks() -> None:
    procedure = make_drill("procedure")
    european = procedure.items(find_ruleset("european"))
    assert "procedure:no-peek-european" in european
    assert not [k for k in european if "insurance" in k or "peek-ten" in k or "cut-" in k]
    casino = find_ruleset("casino")
    assert not [k for k in procedure.items(casino) if "pitch" in k]
    one_deck = make_drill("procedure", DrillOptions(decks=1)).items(casino)
    assert {"procedure:pitch-face-down", "procedure:pitch-settlement"} <= set(one_deck)
    two = make_drill("protect", DrillOptions(decks=2)).items(casino)
    assert "protect:pitch-two-hands" in two and "protect:touch-face-up" not in two


def test_the_chat_host_has_no_dealer_to_drill() -> None:
    with pytest.raises(InvalidInputError, match="not dealt at a casino table"):
        make_drill("protect").ask(random.Random(1), find_ruleset("chat-host"))


def test_a_reading_says_so_in_the_prompt_and_the_explanation() -> None:
    item = next(i for i in dealer_items() if i.key == "take-and-pay-start")
    question = to_question(item, find_ruleset("casino"), random.Random(2))
    assert question.prompt.endswith("(this trainer's reading of the House of Wolves dealer curriculum)")
    assert "not a seed's word" in question.explanation and question.data["basis"] == "reading"
    seed_item = next(i for i in dealer_items() if i.key == "cut-declined")
    asked = to_question(seed_item, find_ruleset("casino"), random.Random(2))
    assert "reading" not in asked.prompt and "Source: seed 001_" in asked.explanation


@pytest.mark.parametrize("text", ["", "a", "a a b c", "a b c e", "abcde", "x y z w", "1 2 3 4", "a b c d d"])
def test_an_order_answer_needs_each_letter_once(text: str) -> None:
    question = Question(drill="procedure", item="procedure:x", prompt="?", data={"kind": "order"},
                        expected="b a d c", choices=("w", "x", "y", "z"))
    with pytest.raises(InvalidInputError, match="letters a, b, c, d in order"):
        read_order(question, text)


def test_jsonl_questions_carry_structured_data_and_grades_their_source() -> None:
    result = CliRunner().invoke(cli, ["drill", "protect", "--jsonl", "--seed", "4", "--count", "3"],
                                input="a\na\na\n")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    questions = [line for line in lines if "drill" in line]
    grades = [line for line in lines if "correct" in line]
    assert len(questions) == len(grades) == 3
    for question in questions:
        assert {"topic", "kind", "basis", "source", "ruleset"} <= set(question["data"])
        assert len(question["choices"]) == 4
    assert all(grade["detail"]["source"] for grade in grades)
