"""Each drill's help is its own: `cutcard drill NAME --help` lists the options that drill reads and its
`--set` keys with their allowed values, and an option it does not read is refused in one line."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from drills import DRILLS, find_drill
from trainer.cli import cli

COMMON = {"--ruleset", "--seed", "--count", "--jsonl", "--db", "--help"}
DRILL_OPTIONS = {"--system", "--speed", "--per-flash", "--decks", "--estimation", "--rounding", "--seats",
                 "--chips", "--hands", "--all", "--set"}


def _help(*args: str) -> str:
    result = CliRunner().invoke(cli, ["drill", *args, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.output


def _options(text: str) -> set[str]:
    return set(re.findall(r"^\s+(?:-\w, )?(--[\w-]+)", text, flags=re.MULTILINE))


@pytest.mark.parametrize("name", list(DRILLS))
def test_a_drills_help_lists_its_options_and_settings_only(name: str) -> None:
    drill = find_drill(name)
    text = _help(name)
    assert text.startswith(f"Usage: cli drill {name} [OPTIONS]") and DRILLS[name][1] in text
    own = {f"--{option.replace('_', '-')}" for option in drill.reads} - {"--every-hand"}
    own |= {"--all"} if "every_hand" in drill.reads else set()
    own |= {"--set"} if drill.set_keys else set()
    assert _options(text) - COMMON == own
    for setting in drill.set_keys:
        assert setting.shown() in text and setting.help.split()[0] in text
    assert ("Settings (--set KEY=VALUE)" in text) == bool(drill.set_keys)


def test_allowed_values_are_listed() -> None:
    assert "missing=1|2|3|4|5" in _help("countdown")
    strategy = _help("strategy")
    assert "[hard|soft|pairs|close|missed]" in strategy and "cards=any|two-card|multi-card" in strategy
    assert "[full|half|quarter|exact]" in _help("true-count") and "hi-lo, ko" in _help("true-count")
    payout = _help("payout")
    assert "situation=blackjack|insurance|even-money|surrender|settle" in payout and "ratio=3:2|6:5|1:1" in payout


def test_without_a_name_the_help_lists_the_drills_and_the_common_options() -> None:
    text = _help()
    assert all(name in text for name in DRILLS) and "cutcard drill NAME --help" in text
    assert _options(text) == COMMON


@pytest.mark.parametrize(("args", "problem"), [
    (["running-count", "--chips"], "the running-count drill takes no --chips"),
    (["countdown", "--seats", "5"], "the countdown drill takes no --seats"),
    (["--speed", "0.5"], "without a drill name takes no --speed"),
])
def test_an_option_the_drill_does_not_read_is_refused(args: list[str], problem: str) -> None:
    result = CliRunner().invoke(cli, ["drill", *args], input="")
    assert result.exit_code == 2 and problem in result.output and "--help` lists its options" in result.output


def test_a_set_key_the_drill_does_not_read_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from trainer.cli import main

    result = CliRunner().invoke(cli, ["drill", "running-count", "--set", "missing=2"], input="")
    assert result.exit_code == 2 and "the running-count drill takes no --set" in result.output
    assert main(["drill", "countdown", "--set", "seats=2", "-n", "1"]) == 2  # an unknown --set key is a usage error
    assert "countdown has no setting 'seats' (settings: missing)" in capsys.readouterr().err


def test_options_may_come_before_the_drill_name() -> None:
    result = CliRunner().invoke(cli, ["drill", "--seed", "3", "countdown", "--per-flash", "2", "-n", "1",
                                      "--jsonl"], input="0, 5\n")
    assert result.exit_code == 0 and '"per_flash": 2' in result.output
