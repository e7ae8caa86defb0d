"""Tab completion: the pure `suggest` over the real registries, and over a vocabulary made by hand."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from drills import DRILLS
from trainer.cli import COMMANDS
from trainer.core.counting import builtin_systems
from trainer.core.rulesfile import builtin_rulesets
from trainer.repl import prefs
from trainer.repl.commands import REPL_WORDS, RegistryVocabulary
from trainer.repl.completer import (
    ArgumentSpec,
    CommandSpec,
    OptionSpec,
    ReplCompleter,
    suggest,
)


def texts(line: str) -> list[str]:
    return [s.text for s in suggest(line, RegistryVocabulary())]


def test_an_empty_line_offers_every_cli_command_and_every_repl_word() -> None:
    assert texts("") == [*COMMANDS, *REPL_WORDS]


def test_the_first_word_completes_by_prefix_with_its_help_beside_it() -> None:
    found = suggest("ru", RegistryVocabulary())
    assert [s.text for s in found] == ["rules"]
    assert found[0].replace == 2 and found[0].meta == COMMANDS["rules"][1]


def test_subcommands_complete_after_a_group() -> None:
    assert texts("rules ") == ["list", "show"]
    assert texts("rules s") == ["show"]


def test_rule_set_names_and_aliases_complete_where_a_rule_set_is_expected() -> None:
    names = list(builtin_rulesets())
    assert set(names) <= set(texts("rules show "))
    assert texts("rules show eu") == ["european", "eu", "eurooppalainen"]
    assert set(names) <= set(texts("drill payout --ruleset "))
    assert texts("drill payout -r chat") == ["chat-host", "chat"]
    assert texts("use eig") == ["eight-deck"]


def test_the_drill_name_completes_from_the_drill_registry_with_each_drills_help() -> None:
    found = suggest("drill ", RegistryVocabulary())
    assert [s.text for s in found] == list(DRILLS) and "running-count" in DRILLS
    assert found[0].meta == DRILLS["running-count"][1]
    assert texts("drill cou") == ["countdown"]


def test_options_are_read_from_the_click_command() -> None:
    assert texts("drill true-count --r") == ["--ruleset", "--rounding"]
    assert texts("drill payout --r") == ["--ruleset"]  # payouts are not rounded: only its own options
    assert "--help" in texts("drill payout --")
    assert texts("rules list --") == ["--json", "--help"]


def test_an_option_already_given_is_not_offered_again() -> None:
    assert "--ruleset" not in texts("drill payout --ruleset eu --")
    assert "--set" in texts("drill payout --set ratio=6:5 --")  # --set may repeat


def test_choice_options_complete_their_choices() -> None:
    assert texts("drill true-count --estimation ") == ["full", "half", "quarter", "exact"]
    assert texts("drill true-count --rounding=t") == ["truncate"]


def test_count_systems_complete_for_system_options_and_settings() -> None:
    systems = list(builtin_systems())
    assert texts("drill running-count --system ") == systems
    assert texts("set system k") == ["ko"]
    assert texts("set ") == list(prefs.KEYS)
    assert {"ruleset", "system", "ramp", "estimation", "last-deck", "rounding", "close-call"} <= set(prefs.KEYS)
    assert texts("set estimation q") == ["quarter"] and texts("set rounding t") == ["truncate"]
    assert texts("set indices c") == ["computed"]
    assert texts("set ruleset eu") == ["european", "eu", "eurooppalainen"]


def test_help_completes_command_names() -> None:
    assert texts("help dr") == ["drill"]
    assert "use" in texts("help ")


def test_a_typed_out_cutcard_prefix_is_forgiven() -> None:
    assert texts("cutcard rules ") == ["list", "show"]


def test_unknown_commands_and_flags_complete_to_nothing() -> None:
    assert texts("nosuch ") == []
    assert texts("rules list --json ") == ["--help"]
    assert texts("rules list --json --help ") == []


class HandVocabulary:
    """A vocabulary written out by hand: the completer needs no registry and no terminal."""

    def words(self) -> Mapping[str, str]:
        return {"deal": "deal a round", "dump": "dump the shoe"}

    def spec(self, path: tuple[str, ...]) -> CommandSpec | None:
        if path == ("deal",):
            return CommandSpec(options=(OptionSpec(names=("--seats", "-s"), takes_value=True,
                                                   values=("1", "2", "3")),
                                        OptionSpec(names=("--fast",))),
                               arguments=(ArgumentSpec(name="who", values="people"),))
        return None

    def values(self, kind: str) -> Mapping[str, str]:
        return {"ann": "seat 1", "bob": "seat 2"} if kind == "people" else {}


@pytest.mark.parametrize(("line", "expected"), [
    ("d", ["deal", "dump"]),
    ("deal ", ["ann", "bob"]),
    ("deal a", ["ann"]),
    ("deal ann ", ["--seats", "--fast", "--help"]),
    ("deal --seats ", ["1", "2", "3"]),
    ("deal -s 2 --", ["--fast", "--help"]),
    ("deal --fast b", ["bob"]),
    ("dump ", []),
])
def test_suggest_over_a_hand_made_vocabulary(line: str, expected: list[str]) -> None:
    assert [s.text for s in suggest(line, HandVocabulary())] == expected


def test_the_prompt_toolkit_completer_replaces_the_word_left_of_the_cursor() -> None:
    completer = ReplCompleter(HandVocabulary())
    found = list(completer.get_completions(Document("deal --seats 2 a"), CompleteEvent()))
    assert [(c.text, c.start_position, c.display_meta_text) for c in found] == [("ann", -1, "seat 1")]


def test_each_drill_completes_only_its_own_options_and_set_keys() -> None:
    from drills import find_drill

    common = {"--ruleset", "--seed", "--count", "--jsonl", "--db", "--help"}
    assert set(texts("drill running-count --")) == common | {"--system", "--speed", "--per-flash", "--decks", "--distract"}
    assert set(texts("drill countdown --")) == common | {"--system", "--speed", "--per-flash", "--decks", "--set",
                                                        "--distract"}
    assert set(texts("drill speed-count --")) == common | {"--system", "--speed", "--decks", "--seats", "--distract"}
    assert set(texts("drill strategy --")) == common | {"--hands", "--all", "--set"}
    assert "--chips" not in texts("drill running-count --") and "--seats" not in texts("drill countdown --")
    assert texts("drill countdown --set ") == [f"missing={n}" for n in range(1, 6)]
    assert texts("drill strategy --set c") == ["cards=any", "cards=two-card", "cards=multi-card"]
    assert texts("drill strategy --hands ") == ["hard", "soft", "pairs", "close", "missed"]
    assert "ratio=6:5" in texts("drill payout --set ") and "chips=" in texts("drill payout --set ")
    for name in DRILLS:  # every option offered is one the drill reads, and every setting is offered
        drill = find_drill(name)
        offered = set(texts(f"drill {name} --"))
        assert {o.lstrip("-").replace("-", "_") for o in offered - common - {"--set", "--all"}} <= set(drill.reads)
        assert ("--set" in offered) == bool(drill.set_keys)
