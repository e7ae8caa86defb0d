"""`cutcard rules list/show`, `--help`, `--version`, and one-line errors from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer import __version__
from trainer.cli import cli, main
from trainer.core import find_ruleset
from trainer.core.basis import seed_title

NAMES = ["bicycle", "casino", "casino-h17", "chat-host", "eight-deck", "european"]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_help_lists_the_commands_and_version_prints() -> None:
    code, out, _ = run("--help")
    assert code == 0 and "rules" in out and "drill" in out
    code, out, _ = run("--version")
    assert code == 0 and __version__ in out


def test_rules_list_names_every_rule_set_and_its_seed() -> None:
    code, out, _ = run("rules", "list")
    assert code == 0
    for name in NAMES:
        assert name in out
    assert "Dealer and game" in out and "source" in out  # a seed by its title, not its file


def test_rules_list_json() -> None:
    code, out, _ = run("rules", "list", "--json")
    assert code == 0 and [r["name"] for r in json.loads(out)] == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_rules_show_prints_a_rule_card_citing_the_seed(name: str) -> None:
    code, out, _ = run("rules", "show", name)
    source = find_ruleset(name).source
    assert code == 0 and name in out and f"Source: “{seed_title(source)}”" in out and source not in out
    assert "seeds/" not in out  # the program ships no seeds directory: seeds are cited by file name


def test_rules_show_json_has_the_toml_keys() -> None:
    code, out, _ = run("rules", "show", "european", "--json")
    data = json.loads(out)
    assert code == 0 and data["dealer"]["peek"] == [] and data["player"]["max_hands"] == 4
    assert data["payouts"]["blackjack"] == "3:2"


def test_rules_show_says_when_counting_cannot_help() -> None:
    assert "Counting gives no edge here" in run("rules", "show", "eight-deck")[1]
    assert "Counting gives no edge here" not in run("rules", "show", "casino")[1]


@pytest.mark.parametrize("args", [["h17"], ["Casino-H17", "--json"], ["house.toml"]])
def test_rules_name_is_rules_show_name(args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rules NAME` for a rule set's name, alias (any case) or file is `rules show NAME`, options and
    all; any other word stays an unknown command, a misspelt one with click's suggestion."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.toml").write_text('base = "casino-h17"\nname = "house"\ntitle = "House"\n')
    code, out, _ = run("rules", *args)
    assert code == 0 and out == run("rules", "show", *args)[1]
    assert ("casino-h17" if "house" not in args[0] else "house") in out


def test_a_word_that_is_no_rule_set_is_still_an_unknown_rules_command(capsys: pytest.CaptureFixture[str],
                                                                     ) -> None:
    """A misspelt subcommand gets click's suggestion; any other word is told it names no rule set
    either, with the built-ins' names, on one line."""
    assert main(["rules", "shw", "casino"]) == 2
    err = capsys.readouterr().err
    assert "No such command 'shw'" in err and "Did you mean 'show'?" in err and "nor a rule set" not in err
    assert main(["rules", "monte-carlo"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No such command 'monte-carlo', nor a rule set of that name" in err
    assert "built-in: bicycle, casino" in err and "Traceback" not in err


def test_a_rule_read_from_several_keys_gives_each_reason_once() -> None:
    """Insurance rests on three readings, two opening with the same clause: it is said once, and every
    reason is still there."""
    out = " ".join(run("rules", "show", "casino-h17")[1].replace("│", " ").split())
    line = out[out.index("Insurance (up to half the bet)"):out.index("Even money:")]
    assert line.count("the seed does not mention insurance") == 1
    for reason in ("offers it under an ace", "takes any amount up to half the bet",
                   "the seed names no payouts; insurance pays 2:1"):
        assert reason in line


def test_a_bad_user_rule_set_prints_one_line_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "casino"\nname = "house"\ntitle = "House"\n[dealer]\nhits_soft_17 = "sometimes"\n')
    assert main(["rules", "show", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "house.toml: [dealer] hits_soft_17" in err and "Traceback" not in err


def test_an_unknown_rule_set_name_prints_one_line_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """A name that names no rule set is a usage error (exit 2), like an unknown option."""
    assert main(["rules", "show", "monte-carlo"]) == 2
    assert capsys.readouterr().err.startswith("cutcard: no rule set named 'monte-carlo'")


def test_the_console_script_and_python_m_trainer_agree() -> None:
    result = subprocess.run([sys.executable, "-m", "trainer", "rules", "show", "nope"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().startswith("cutcard: no rule set named 'nope'")
