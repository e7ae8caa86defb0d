"""A learner sees a source document by its title ("Dealer and game protocol"), never by its file name: rule
cards, `rules list`, the rules quiz and the counting drills' notices. The machine-mode contracts keep
the file: quiz `data.source` as it was, with `source_title` beside it; `rules ... --json` `source`,
with `source_title` beside it."""

from __future__ import annotations

import json
import random
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from drills.base import DrillOptions
from drills.quiz.drill import QuizDrill, quiz_items
from trainer.cli import cli
from trainer.core import find_ruleset, load_ruleset
from trainer.core.basis import SEED_FILE, seed_title, source_title, titled
from trainer.core.tomlfiles import shipped

NAMES = ["bicycle", "casino", "casino-h17", "chat-host", "eight-deck", "european"]
FILE_NAME = re.compile(r"\d{3}_[0-9a-f]{16}")


def _cited_seeds() -> set[str]:
    """Every seed file a rule set or the quiz's procedures name."""
    files = {find_ruleset(name).source for name in NAMES}
    for path in [*shipped("rulesets").glob("*.toml"), shipped("drills") / "data" / "procedures.toml"]:
        files |= {m.group(1) + ".txt" for m in SEED_FILE.finditer(path.read_text(encoding="utf-8"))}
    return files


def test_every_seed_a_rule_set_or_the_quiz_cites_has_a_title() -> None:
    titles = tomllib.loads((shipped("rulesets") / "seeds" / "titles.toml").read_text(encoding="utf-8"))
    assert _cited_seeds() == set(titles)
    assert len({entry["title"] for entry in titles.values()}) == len(titles)  # no two alike
    assert seed_title("001_301e7e888be35da6.txt") == "Dealer and game protocol"
    assert seed_title("003_d1b6da76e34160c3.en.md") == seed_title("003_d1b6da76e34160c3.txt")
    assert seed_title("my-rules.toml") is None


def test_titled_names_each_seed_by_its_title_and_leaves_other_words() -> None:
    text = "seed 004_8a82e99616e52ba9.txt, «8 decks» and seed 004's games; mine.toml stays"
    assert titled(text) == "“Eight-deck game, shuffled every round”, «8 decks» and seed 004's games; mine.toml stays"


@pytest.mark.parametrize("name", NAMES)
def test_rule_cards_and_the_list_show_titles_and_no_file_name(name: str) -> None:
    runner = CliRunner()
    card = runner.invoke(cli, ["rules", "show", name]).stdout
    assert f"“{find_ruleset(name).source_title}”" in card and not FILE_NAME.search(card)
    listing = runner.invoke(cli, ["rules", "list"]).stdout
    assert not FILE_NAME.search(listing)


def test_rules_json_keeps_the_file_and_adds_the_title() -> None:
    document = json.loads(CliRunner().invoke(cli, ["rules", "list", "--json"]).stdout)
    for entry in document:
        assert entry["source"] == find_ruleset(entry["name"]).source
        assert entry["source_title"] == seed_title(entry["source"])


@pytest.mark.parametrize("name", NAMES)
def test_the_quiz_cites_titles_and_keeps_its_source_contract(name: str) -> None:
    ruleset = find_ruleset(name)
    drill = QuizDrill(DrillOptions(readings=True))
    rng = random.Random(5)
    for readings in (False, True):
        intro = " ".join(QuizDrill(DrillOptions(readings=readings)).intro(ruleset))
        assert f"“{ruleset.source_title}”" in intro and not FILE_NAME.search(intro)
    items = quiz_items(ruleset)
    titles = {seed_title(f) for f in _cited_seeds()}
    for item in items:
        assert source_title(item.basis, ruleset.source) in titles
    by_key = {item.key: item for item in items}
    for _ in range(len(items)):
        question = drill.ask(rng, ruleset)
        data = question.data
        assert (data["source"] and FILE_NAME.search(str(data["source"]))) or data["basis"] == "reading"
        assert data["source_title"] == source_title(by_key[str(data["question"])].basis, ruleset.source)
        assert not FILE_NAME.search(question.explanation) and not FILE_NAME.search(question.prompt)


def test_a_user_rule_file_names_its_own_source_or_keeps_its_base_seed(tmp_path: Path) -> None:
    own, based = tmp_path / "mine.toml", tmp_path / "based.toml"
    own.write_text('base = "casino"\nname = "mine"\ntitle = "Mine"\nsource = "club.txt"\n', encoding="utf-8")
    based.write_text('base = "casino"\nname = "based"\ntitle = "Based"\n', encoding="utf-8")
    assert load_ruleset(str(own)).source_title == "club.txt"
    assert load_ruleset(str(based)).source_title == "Dealer and game protocol"
