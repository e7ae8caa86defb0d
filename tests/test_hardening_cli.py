"""Every CLI mistake is one line (issue 15, failures 6-9): usage errors exit 2, the rest 1, never a
traceback or "internal error"; rule-set files ask only for what matters."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trainer.cli import COMMANDS, cli, main
from trainer.core import load_ruleset
from trainer.core.errors import RulesetError
from trainer.core.rules import Reshuffle


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("args", "names"), [
    (["drill", "running-count", "--count", "-1"], ["--count", "-1", "x>=1"]),
    (["drill", "running-count", "--count", "0"], ["--count", "0", "x>=1"]),
    (["drill", "running-count", "--seed", "banana"], ["--seed", "banana", "integer"]),
    (["sim", "--jobs", "many"], ["--jobs", "many", "integer"]),
    (["no-such-command"], ["no-such-command"]),
])
def test_usage_errors_are_one_line_and_exit_2(args: list[str], names: list[str],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Failure 8: click's 4-5 line usage block is now one line naming the option, value and range."""
    status, out, err = run(args, capsys)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert all(name in err for name in names) and "Usage:" not in err


@pytest.mark.parametrize("where", ["before", "after"])
def test_a_db_path_that_is_a_directory_is_one_line(where: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--db", str(tmp_path), "stats"] if where == "before" else ["stats", "--db", str(tmp_path)]
    status, _, err = run(args, capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "--db" in err and str(tmp_path) in err and "directory" in err


@pytest.mark.parametrize("args", [["--db", "a\x00b", "stats"], ["drill", "--db", "\x00", "--count", "1"],
                                  ["export", "-o", "out\x00.json"], ["db", "restore", "\x00"]])
def test_a_file_name_with_a_nul_is_a_usage_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """A NUL no file name can hold (typed into the REPL, say): click.Path's check let `os.stat`'s
    ValueError through, an internal error; it is one line naming the option, and exit 2."""
    status, out, err = run(args, capsys)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "NUL" in err and "Traceback" not in err and "internal" not in err.lower()


@pytest.mark.parametrize("args", [["rules", "show", "{file}"], ["chart", "--ruleset", "{file}"],
                                  ["drill", "running-count", "--system", "{file}"]])
def test_a_file_that_is_not_utf8_is_the_usual_file_error(args: list[str], tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Failure 6: `printf '\\xfd\\xfe\\n' > bad.toml` is a one-line file error, not UnicodeDecodeError."""
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xfd\xfe\n")
    status, _, err = run([a.format(file=bad) for a in args], capsys)
    assert status == 1 and len(err.strip().splitlines()) == 1
    assert "bad.toml" in err and "UTF-8" in err and "internal error" not in err


@pytest.mark.parametrize("since", ["2100y", "740000d", "99999999999999999999999w"])
def test_since_is_bounded(since: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Failure 7: `--since 2100y` was an OverflowError."""
    status, _, err = run(["stats", "--since", since], capsys)
    assert status == 1 and "--since" in err and len(err.strip().splitlines()) == 1
    assert "internal error" not in err
    assert run(["stats", "--since", "50y"], capsys)[0] == 0


def _complete_file_without(tmp_path: Path, builtin: str, drop: set[str], name: str = "mine") -> Path:
    """A built-in rule set written out in full, under another name, less the `drop` keys and sections."""
    text = resources.files("rulesets").joinpath(f"{builtin}.toml").read_text(encoding="utf-8")
    lines, section = [], ""
    for line in text.splitlines():
        if line.startswith("["):
            section = line.split("#")[0].strip().strip("[]")  # a header may carry a comment
        key = line.split("=")[0].strip()
        if (section in drop and (line.startswith("[") or key)) or f"{section}.{key}" in drop:
            continue
        if section == "basis" and (key in drop or key.split(".")[0] in drop):
            continue  # the basis of a rule the file leaves out goes with it
        if key == "aliases" and not section:
            continue
        lines.append(f'name = "{name}"' if key == "name" and not section else line)
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_complete_file_needs_no_table_and_no_hole_card_first(tmp_path: Path) -> None:
    """Failure 9: a file with every rule key but no [table] or hole_card_first was refused."""
    path = _complete_file_without(tmp_path, "european", {"table", "dealer.hole_card_first"})
    mine = load_ruleset(path)
    european = load_ruleset("european")
    assert mine.dealer == european.dealer and mine.player == european.player
    assert (mine.table.min_bet, mine.table.max_bet, mine.table.seats, mine.table.bankroll) == (10, 500, 7, 500)
    assert mine.dealer.hole_card_first is False


def test_the_infinite_deck_needs_no_reshuffle_cut_card_or_burn(tmp_path: Path) -> None:
    path = _complete_file_without(tmp_path, "chat-host", {"shoe.reshuffle", "shoe.cut_card_from_end",
                                                          "shoe.burn", "table", "tournament"})
    mine = load_ruleset(path)
    assert mine.shoe.decks == 0 and mine.shoe.reshuffle is Reshuffle.EVERY_ROUND
    assert mine.shoe.cut_card_from_end == (0, 0) and mine.shoe.burn == 0


def test_a_shoe_of_cards_still_needs_its_reshuffle(tmp_path: Path) -> None:
    path = _complete_file_without(tmp_path, "european", {"shoe.reshuffle"})
    with pytest.raises(RulesetError, match=r"missing key \[shoe\] reshuffle"):
        load_ruleset(path)


def test_unknown_keys_and_bad_values_stay_errors(tmp_path: Path) -> None:
    path = _complete_file_without(tmp_path, "european", {"table"})
    path.write_text(path.read_text() + "[table]\nmin_bet = 10\nmax_bett = 5\n")
    with pytest.raises(RulesetError, match="unknown key \\[table\\] max_bett"):
        load_ruleset(path)
    path.write_text(path.read_text().replace("max_bett = 5", "seats = 0"))
    with pytest.raises(RulesetError, match="seats = 0 is not allowed"):
        load_ruleset(path)


def test_a_base_that_is_a_path_is_told_what_base_takes(tmp_path: Path) -> None:
    """Failure 8's second half: `base = "<path>"` was told to 'give a path to a .toml file'."""
    (tmp_path / "child.toml").write_text('base = "./parent.toml"\nname = "child"\n')
    with pytest.raises(RulesetError) as raised:
        load_ruleset(tmp_path / "child.toml")
    message = str(raised.value)
    assert "base" in message and "built-in" in message and "give a path" not in message


# --- every command with random arguments never reaches "internal error" -------------------------

WORDS = ["--count", "--seed", "--ruleset", "--since", "--json", "--jsonl", "--hands", "--jobs", "--db",
         "--system", "--decks", "--speed", "--seats", "-n", "--limit", "--new", "--format", "--rounds",
         "casino", "chat-host", "nonsense", "0", "-1", "2100y", "1e9", "banana", "\x00", "10,6", "vs", "A",
         "running-count", "payout", "show", "list", "check", "backup", "restore", "backups", "--help",
         "99999999999999999999", "é", ""]
LONG_RUNNING = {"play", "review", "drill", "sim", "indices", "plan", "compare"}  # would wait for answers or run long: bounded
SMALL_STATS = {"per_count": [{"true_count": 0, "rounds": 900, "mean": -0.01, "second_moment": 1.3},
                             {"true_count": 3, "rounds": 100, "mean": 0.02, "second_moment": 1.3}]}
"""A per-count table for `plan --stats`: the plan's options are under test, not a simulation of its store."""


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(sorted(COMMANDS)),
       args=st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=12)), max_size=5))
def test_random_arguments_never_reach_internal_error(command: str, args: list[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # `db backup FILE`, `export --output FILE` write where they are told
    if command in LONG_RUNNING:
        args = [*args, "--count", "1"] if command == "drill" else args
        if command == "sim":
            args = [*args, "--hands", "10", "--jobs", "1"]
        if command == "indices":  # a few samples of one play: the options are what is under test
            args = [*args, "--samples", "8", "--plays", "insurance", "--jobs", "1"]
        if command == "compare":  # a drawn `compare casino` would build the casino store: 650 M rounds
            args = [*args, "--rounds", "10", "--jobs", "1"]
        if command == "plan":
            stats = tmp_path / "stats.json"
            stats.write_text(json.dumps(SMALL_STATS))
            args = [*args, "--stats", str(stats)]
    runner = CliRunner()
    result = runner.invoke(cli, [command, *args], input="", catch_exceptions=True,
                           standalone_mode=False)
    if result.exception is not None:
        import click

        from trainer.core.errors import TrainerError
        assert isinstance(result.exception, TrainerError | click.ClickException | click.exceptions.Abort
                          | click.exceptions.Exit | SystemExit), repr(result.exception)
    assert not re.search("internal error", result.output)
