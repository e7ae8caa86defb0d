"""The REPL driven through prompt-toolkit pipe input: commands, errors, Ctrl-C and Ctrl-D, settings,
history, the tour, and the one command registry it shares with the CLI."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from trainer.cli import COMMANDS, cli
from trainer.cli.common import Settings
from trainer.repl import prefs
from trainer.repl.app import TOUR, run_repl
from trainer.repl.commands import REPL_WORDS, RegistryVocabulary
from trainer.repl.completer import suggest
from trainer.repl.prefs import Prefs
from trainer.screens.keys import read_key

CTRL_C, CTRL_D = "\x03", "\x04"

ECHO_COMMAND = '''
"""A test command that prints the option values it received."""
import click

from trainer.cli.common import ruleset_option


@click.command("echo-options")
@ruleset_option
@click.option("--speed", type=float, default=None)
@click.option("--system", default="hi-lo")
@click.option("--interrupt", is_flag=True)
def command(ruleset, speed, system, interrupt):
    """Echo the options."""
    if interrupt:
        raise KeyboardInterrupt
    click.echo(f"ruleset={ruleset} speed={speed} system={system}")
'''


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps at the terminal width; a wide one keeps each message on one line for the asserts."""
    monkeypatch.setenv("COLUMNS", "200")


@pytest.fixture
def echo_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Register one more command in `COMMANDS`, the registry both the CLI and the REPL read."""
    folder = tmp_path / "extra"
    folder.mkdir()
    (folder / "cutcard_echo_options.py").write_text(ECHO_COMMAND)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setitem(COMMANDS, "echo-options", ("cutcard_echo_options", "Echo the options it got."))
    monkeypatch.setattr(prefs, "APPLIES_TO", {key: (*names, "echo-options")
                                              for key, names in prefs.APPLIES_TO.items()})
    return "echo-options"


def repl(keys: str, capsys: pytest.CaptureFixture[str]) -> str:
    """Run the REPL on typed keys (they must end by leaving) and return what it printed."""
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text(keys)
        run_repl(Settings(), interactive=True)
    captured = capsys.readouterr()
    return captured.out + captured.err


def lines(*typed: str) -> str:
    return "".join(f"{line}\r" for line in typed)


def test_a_first_start_shows_the_three_line_tour_once(capsys: pytest.CaptureFixture[str]) -> None:
    first = repl(CTRL_D, capsys)
    assert len(TOUR) == 3 and all(line.strip() in first for line in TOUR)
    assert all(word in " ".join(TOUR) for word in ("help", "drill", "play", "Ctrl-D"))
    second = repl(CTRL_D, capsys)
    assert TOUR[0] not in second and "bye" in second


def test_a_command_runs_exactly_as_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    out = repl(lines("rules show european") + CTRL_D, capsys)
    cli_out = CliRunner().invoke(cli, ["rules", "show", "european"]).stdout
    assert "Source: “Blackjack, European variant (Finnish)”" in out
    assert "Source: “Blackjack, European variant (Finnish)”" in cli_out


def test_errors_are_shown_and_the_loop_carries_on(capsys: pytest.CaptureFixture[str]) -> None:
    out = repl(lines("rulez list", "rules show monte-carlo", "drill --count 0", 'rules show "eu',
                     "set speed fast", "rules list") + CTRL_D, capsys)
    assert "no command named 'rulez' (did you mean rules?)" in out
    assert "cutcard: no rule set named 'monte-carlo'" in out
    assert "Invalid value for '--count'" in out
    assert "No closing quotation" in out
    assert "speed 'fast' is not a number" in out
    assert "eight-deck" in out and "bicycle" in out  # the last line, rules list, still ran
    assert "Traceback" not in out


def test_ctrl_c_clears_the_line_and_ctrl_d_leaves(capsys: pytest.CaptureFixture[str]) -> None:
    out = repl("rules li" + CTRL_C + lines("rules list") + CTRL_D + lines("rules show casino"), capsys)
    assert "bicycle" in out and "bye" in out
    assert "Source: seed " not in out  # nothing after Ctrl-D ran


def test_ctrl_c_inside_a_command_returns_to_the_prompt(echo_command: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = repl(lines(f"{echo_command} --interrupt", f"{echo_command}") + CTRL_D, capsys)
    assert "ruleset=casino" in out and "bye" in out


def test_exit_and_quit_leave(capsys: pytest.CaptureFixture[str]) -> None:
    assert "bye" in repl(lines("exit", "rules list"), capsys)
    out = repl(lines("quit", "rules list"), capsys)
    assert "bye" in out and "bicycle" not in out


def test_clear_is_a_word_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    out = repl(lines("clear", "rules list") + CTRL_D, capsys)
    assert "no command named" not in out and "bicycle" in out


def test_every_command_and_every_repl_word_is_reachable(capsys: pytest.CaptureFixture[str]) -> None:
    names = [*COMMANDS, *REPL_WORDS]
    out = repl(lines(*(f"help {name}" for name in names), *(f"{name} --help" for name in COMMANDS))
               + CTRL_D, capsys)
    for name in COMMANDS:
        assert out.count(f"Usage: cutcard {name}") == 2, name
    for word in REPL_WORDS.values():
        assert f"usage: {word.usage}" in out


def test_help_takes_a_command_name_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    out = repl(lines("help RULES", "help Rules show") + CTRL_D, capsys)
    assert "Usage: cutcard rules [OPTIONS] COMMAND" in out and "Usage: cutcard rules show" in out
    assert "No such command" not in out


def test_help_lists_the_cli_commands_and_the_repl_words_from_their_registries(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = repl(lines("help") + CTRL_D, capsys)
    for name, (_, help_text) in COMMANDS.items():
        assert name in out and help_text.split()[0] in out
    for word in REPL_WORDS.values():
        assert word.usage in out


def test_the_repl_and_the_cli_read_one_command_registry(echo_command: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A command added to `COMMANDS` alone is in the CLI's help, the REPL's help, completion, and runs."""
    cli_help = CliRunner().invoke(cli, ["--help"]).stdout
    assert echo_command in cli_help and "Echo the options it got." in cli_help
    assert echo_command in [s.text for s in suggest("echo", RegistryVocabulary())]
    assert [s.text for s in suggest(f"{echo_command} --sy", RegistryVocabulary())] == ["--system"]
    out = repl(lines("help", echo_command) + CTRL_D, capsys)
    assert "Echo the options it got." in out and "ruleset=casino speed=None system=hi-lo" in out


def test_use_and_set_persist_and_become_the_defaults_of_commands(
        echo_command: str, cutcard_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = repl(lines("use eu", "set speed 0.4", "set system KO", echo_command,
                     f"{echo_command} --ruleset bicycle --system hi-lo") + CTRL_D, capsys)
    assert "ruleset=european speed=0.4 system=ko" in out
    assert "ruleset=bicycle speed=0.4 system=hi-lo" in out  # what is typed wins
    saved = json.loads((cutcard_home / "settings.json").read_text())
    chosen = {"ruleset": "european", "speed": 0.4, "system": "ko"}
    assert set(saved) == {prefs.field_of(key) for key in prefs.KEYS} | {"toured"}
    assert {key: value for key, value in saved.items() if key != "toured"} == \
        {prefs.field_of(key): chosen.get(prefs.field_of(key)) for key in prefs.KEYS}
    again = repl(lines(echo_command, "set speed default", echo_command, "set") + CTRL_D, capsys)
    assert "ruleset=european speed=0.4 system=ko" in again
    assert "ruleset=european speed=None system=ko" in again


def test_each_setting_is_the_default_only_of_the_commands_it_is_for() -> None:
    chosen = Prefs(ruleset="european", speed=0.4, system="ko").default_map()
    assert chosen == {"chart": {"ruleset": "european"}, "ev": {"ruleset": "european"},
                      "drill": {"ruleset": "european", "speed": 0.4, "system": "ko"},
                      "play": {"ruleset": "european", "system": "ko"}, "sim": {"ruleset": "european"},
                      "stats": {"ruleset": "european"}, "ready": {"ruleset": "european"},
                      "indices": {"ruleset": "european", "system": "ko"},
                      "plan": {"ruleset": "european", "system": "ko"}, "compare": {"system": "ko"}}
    assert Prefs().default_map() == {}


def test_every_command_a_setting_is_for_has_that_option_and_no_other_takes_the_rule_set() -> None:
    from trainer.repl.commands import find_command

    for key, names in prefs.APPLIES_TO.items():
        for name in names:
            assert prefs.field_of(key) in {p.name for p in find_command((name,)).params}, (key, name)
    with_ruleset = {name for name in COMMANDS if "ruleset" in {p.name for p in find_command((name,)).params}}
    assert with_ruleset - set(prefs.APPLIES_TO["ruleset"]) == {"review"}  # review mixes every rule set


def test_the_defaults_set_shows_and_checks_are_the_commands_own() -> None:
    from trainer.core.errors import InvalidInputError
    from trainer.repl.commands import find_command

    drill = {p.name: p for p in find_command(("drill",)).params}
    play = {p.name: p for p in find_command(("play",)).params}
    assert Prefs().shown("ruleset") == f"{drill['ruleset'].default} (default)"
    assert Prefs().shown("system") == f"{drill['system'].default} (default)" == f"{play['system'].default} (default)"
    speed = drill["speed"].type
    assert prefs.change(Prefs(), "speed", str(speed.min)).speed == speed.min
    assert prefs.change(Prefs(), "speed", str(speed.max)).speed == speed.max
    for outside in (speed.min / 2, speed.max * 2):
        with pytest.raises(InvalidInputError, match="out of range"):
            prefs.change(Prefs(), "speed", str(outside))


def test_a_remembered_count_system_does_not_turn_sim_into_counting_mode(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = repl(lines("set system ko", "use eu", "sim --hands 1000 --seed 1 --jobs 1 --json") + CTRL_D, capsys)
    document = json.loads(out[out.index("{"):out.rindex("}") + 1])
    assert document["ruleset"] == "european" and "counting" not in document


MY_COUNT = 'name = "my-count"\ntitle = "My count"\ntags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }\n'


def test_set_system_takes_a_users_count_system_file(tmp_path: Path, cutcard_home: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text(MY_COUNT)
    out = repl(lines(f"set system {mine}") + CTRL_D, capsys)
    assert f"system {mine}  (remembered)" in out
    assert json.loads((cutcard_home / "settings.json").read_text())["system"] == str(mine.resolve())
    assert "cutcard:" not in repl(lines("set") + CTRL_D, capsys)  # read back at the next start


def test_a_bad_setting_changes_nothing(cutcard_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = repl(lines("use atlantis", "set speed 0", "set system nope", "set colour red", "set") + CTRL_D, capsys)
    assert "no rule set named 'atlantis'" in out and "out of range" in out
    assert "no count system named 'nope'" in out and "no setting named 'colour'" in out
    assert "casino (default)" in out and "hi-lo (default)" in out
    assert json.loads((cutcard_home / "settings.json").read_text())["ruleset"] is None


def test_an_unreadable_settings_file_is_reported_and_the_defaults_used(
        cutcard_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cutcard_home.mkdir(parents=True)
    (cutcard_home / "settings.json").write_text("{not json")
    out = repl(lines("set") + CTRL_D, capsys)
    assert "settings.json is not usable" in out and "casino (default)" in out


def test_a_remembered_rule_set_file_deleted_since_is_reported_and_the_default_used(
        tmp_path: Path, cutcard_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.toml"
    house.write_text('base = "casino"\nname = "house"\ntitle = "House"\n')
    repl(lines("use " + str(house), "set system ko") + CTRL_D, capsys)
    house.unlink()
    out = repl(lines("set") + CTRL_D, capsys)
    assert f"cutcard: the remembered ruleset is not usable (cannot read rule set {house}" in out
    assert "using the defaults" in out and "casino (default)" in out
    assert "ko" in out and "hi-lo (default)" not in out  # the other settings are kept
    assert "Traceback" not in out and "internal error" not in out


def test_db_given_to_one_command_is_for_that_command_only(
        tmp_path: Path, cutcard_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from trainer.practice.session import Attempt
    from trainer.storage import Store

    other = tmp_path / "other.db"
    for path, answers in ((other, 2), (cutcard_home / "progress.db", 3)):
        with Store.open(path) as store:
            for i in range(answers):
                store.record(Attempt(session_id="s", drill="quiz", item="quiz:casino:peek", ruleset="casino",
                                     prompt="?", data={}, expected="x", given="x", correct=True,
                                     latency_ms=1000, ts=1_700_000_000.0 + i))
    out = repl(lines(f"stats --db {other} --json", "stats --json") + CTRL_D, capsys)
    counts = [d["windows"][-1]["attempts"] for doc in _json_documents(out) for d in doc["drills"]]
    assert counts == [2, 3]  # each command read its own database (and wrote to neither)


def test_history_is_kept_in_cutcard_home(cutcard_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repl(lines("rules list") + CTRL_D, capsys)
    assert "rules list" in (cutcard_home / "history").read_text()


def test_with_input_from_a_pipe_the_lines_run_as_a_script(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("use eu\nnonsense\nrules show\nexit\nrules list\n"))
    run_repl(Settings(), interactive=False)
    out = capsys.readouterr()
    text = out.out + out.err
    assert "ruleset european" in text and "no command named 'nonsense'" in text
    assert "Missing argument" in text and "bicycle" not in text


@pytest.fixture
def typed() -> Iterator[object]:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        yield pipe


def test_read_key_waits_for_an_allowed_key_in_either_case(typed: object) -> None:
    typed.send_text("x?\rH")
    assert read_key("hit or stand? ", {"h": "hit", "s": "stand"}) == "h"


def test_read_key_ctrl_c_and_ctrl_d(typed: object) -> None:
    typed.send_text(CTRL_C)
    with pytest.raises(KeyboardInterrupt):
        read_key("? ", {"h": "hit"})
    typed.send_text(CTRL_D)
    with pytest.raises(EOFError):
        read_key("? ", {"h": "hit"})


class TerminalStdin(io.StringIO):
    """stdin as a terminal: drills started from the REPL then run interactively, as they do for a user."""

    def isatty(self) -> bool:
        return True


def test_ctrl_c_stops_a_drill_keeping_its_answers_and_the_repl_carries_on(
        monkeypatch: pytest.MonkeyPatch, cutcard_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from trainer.repl.toolbar import read_facts
    from trainer.storage import Store

    monkeypatch.setattr(sys, "stdin", TerminalStdin())
    out = repl(lines("drill true-count --count 5 --seed 3", "+1") + CTRL_C + lines("rules list") + CTRL_D,
               capsys)
    assert "drill stopped; every answer given is kept" in out and "bicycle" in out
    with Store.open(cutcard_home / "progress.db") as store:
        attempts = [stored.attempt for stored in store.attempts()]
    assert [(a.drill, a.given) for a in attempts] == [("true-count", "1")]
    assert read_facts(Prefs(), cutcard_home / "progress.db", since=0).answered == 1


def test_set_ramp_is_remembered_checked_and_becomes_plays_ramp(
        cutcard_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = repl(lines("set ramp", "set ramp 1:1, 2:3, 4:6", "set ramp 3:4,2:1x") + CTRL_D, capsys)
    assert "ramp 1:1,2:2,3:4,4:8,5:12 (default)" in out
    assert "ramp 1:1,2:3,4:6" in out and "(remembered)" in out
    assert "ramp step '2:1x' is not COUNT:UNITS" in out
    saved = json.loads((cutcard_home / "settings.json").read_text())
    assert saved["ramp"] == "1:1,2:3,4:6"
    assert Prefs(ramp="1:1,2:3,4:6").default_map() == {"play": {"ramp": "1:1,2:3,4:6"}}
    shown = repl(lines("play --seed 1 --rounds 1") + "?\rq\r" + CTRL_D, capsys)
    assert "Bet ramp 1:1,2:3,4:6 (a 1-6 spread, one unit = $10)" in shown


def _json_documents(out: str) -> list[dict[str, object]]:
    """The JSON documents printed among a REPL session's other lines (each starts on a line `{`)."""
    decoder = json.JSONDecoder()
    found = []
    at = out.find("\n{")
    while at != -1:
        document, end = decoder.raw_decode(out, at + 1)
        found.append(document)
        at = out.find("\n{", end)
    return found
