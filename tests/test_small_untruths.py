"""Issue 41: the small untruths, each fixed: `ready`'s table-count line, `ready` sending a counter to a
table where counting cannot help, `indices` samples and empty tables, `--db` in a folder that does not
exist, unbounded counts, and exit codes (2 a usage error, 1 an error found while running)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from trainer.cli import main
from trainer.practice.session import Attempt
from trainer.storage import Store

Capsys = pytest.CaptureFixture[str]


def _run(capsys: Capsys, *args: str) -> tuple[int, str]:
    """The `cutcard` command's exit status and all it printed (errors become statuses in `main`)."""
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out + err


def _ready(capsys: Capsys, db: Path, ruleset: str) -> dict[str, dict[str, object]]:
    """`ready --json`'s criteria by key, on a database with one answer in it."""
    if not db.exists():
        with Store.open(db) as store:
            store.record(Attempt(session_id="s", drill="true-count", item="true-count:hi-lo:half:floor:+1",
                                 ruleset=ruleset, prompt="?", data={}, expected="1", given="1", correct=True,
                                 latency_ms=900, ts=time.time()))
    code, out = _run(capsys, "ready", "--json", "--ruleset", ruleset, "--db", str(db))
    assert code == 0, out
    return {c["key"]: c for c in json.loads(out)["criteria"]}


def test_the_table_count_line_says_it_counts_count_checks(capsys: Capsys, tmp_path: Path) -> None:
    criteria = _ready(capsys, tmp_path / "p.db", "casino")
    assert criteria["table-count"]["target_text"] == "≥ 98% of the last 100 count checks at the table right"
    assert "table plays" in str(criteria["strategy"]["target_text"])  # the strategy line counts plays


@pytest.mark.parametrize("ruleset", ["european", "eight-deck", "chat-host"])
def test_ready_sends_a_counter_to_a_shoe_game_where_counting_cannot_help(capsys: Capsys, tmp_path: Path,
                                                                          ruleset: str) -> None:
    criteria = _ready(capsys, tmp_path / "p.db", ruleset)
    for key in ("table-count", "rounds"):
        practise = str(criteria[key]["practise"])
        assert f"--ruleset {ruleset}" not in practise and "counting gives no edge" in practise, practise
        assert practise.endswith("cutcard play --ruleset casino")
    assert criteria["strategy"]["practise"] == f"cutcard drill strategy --ruleset {ruleset}"
    assert _ready(capsys, tmp_path / "p.db", "casino")["rounds"]["practise"] == "cutcard play --ruleset casino"


def test_indices_says_how_many_exact_evs_each_play_rests_on(capsys: Capsys) -> None:
    code, out = _run(capsys, "indices", "--ruleset", "european", "--system", "ko", "--plays", "16v10",
                     "--samples", "200", "--shoes", "60")
    assert code == 0, out
    flat = " ".join(out.split())
    assert "200 exact EVs a play from" not in flat
    assert "exact EVs a play (200 asked: the shoes met the play no more often)" in flat


def test_indices_with_no_play_the_table_allows_is_an_error_naming_why(capsys: Capsys) -> None:
    code, out = _run(capsys, "indices", "--plays", "16v10:split/hit")
    assert code == 1 and "no plays to compute at casino" in out and "split is not allowed" in out


def test_a_database_in_a_folder_that_does_not_exist_is_refused_and_nothing_is_created(capsys: Capsys,
                                                                                       tmp_path: Path) -> None:
    missing = tmp_path / "nope" / "deeper" / "x.db"
    for args in (["--db", str(missing), "stats"], ["stats", "--db", str(missing)],
                 ["drill", "true-count", "-n", "1", "--db", str(missing)]):
        code, out = _run(capsys, *args)
        assert code == 2 and "does not exist" in out, (args, out)
    assert not (tmp_path / "nope").exists()


@pytest.mark.parametrize("args", [("review", "--dry-run", "--new", str(10**12)),
                                  ("indices", "--samples", str(10**12)),
                                  ("indices", "--shoes", str(10**12))])
def test_huge_counts_are_bounded(capsys: Capsys, args: tuple[str, ...]) -> None:
    code, out = _run(capsys, *args)
    assert code == 2 and "range" in out


@pytest.mark.parametrize("args", [("rules", "show", "nosuch"), ("rules", "nosuch"),
                                  ("chart", "--ruleset", "nosuch"),
                                  ("drill", "strategy", "--set", "cards=bogus", "-n", "1"),
                                  ("drill", "strategy", "--set", "nosuch=1", "-n", "1"),
                                  ("drill", "strategy", "--hands", "bogus"),
                                  ("drill", "true-count", "--system", "nosuch", "-n", "1"),
                                  ("drill", "attack", "--ruleset", "casino", "-n", "1")])
def test_a_usage_error_exits_2(capsys: Capsys, args: tuple[str, ...]) -> None:
    code, out = _run(capsys, *args)
    assert code == 2, out
    assert "Traceback" not in out


def test_an_error_found_while_running_exits_1(capsys: Capsys, tmp_path: Path) -> None:
    broken = tmp_path / "mine.toml"
    broken.write_text('base = "nosuch"\nname = "mine"\ntitle = "Mine"\n', encoding="utf-8")
    code, out = _run(capsys, "rules", "show", str(broken))
    assert code == 1 and "mine.toml: base" in out
