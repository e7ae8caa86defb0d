"""`cutcard export`: every attempt as CSV or JSON, to stdout or atomically to a file."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer.cli import cli, main
from trainer.practice.session import Attempt
from trainer.storage import Store

ATTEMPTS = [
    Attempt(session_id="s1", drill="payout", item="payout:bj 3:2:35", ruleset="casino",
            prompt="Pay 35, blackjack", data={"situation": "blackjack", "bet": "35"}, expected="52.50",
            given="52.50", correct=True, latency_ms=1800, ts=1_700_000_000.25, target_ms=3000),
    Attempt(session_id="s1", drill="strategy", item="strategy:soft 18 vs 9", ruleset="european",
            prompt="A,7 vs 9, comma, \"quoted\"", data={"cards": ["As", "7d"], "up": "9"}, expected="hit",
            given="stand", correct=False, latency_ms=2400, ts=1_700_000_060.0, verdict="costs 0.18 units",
            source="play"),
]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "progress.db"
    with Store.open(path) as store:
        for attempt in ATTEMPTS:
            store.record(attempt)
    return path


def test_csv_has_one_row_per_attempt_with_data_as_json(db: Path) -> None:
    result = CliRunner().invoke(cli, ["--db", str(db), "export", "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["item"] for r in rows] == [a.item for a in ATTEMPTS]
    assert rows[1]["prompt"] == ATTEMPTS[1].prompt and rows[1]["correct"] == "0"
    assert json.loads(rows[0]["data"]) == {"situation": "blackjack", "bet": "35"}
    assert rows[0]["time_utc"] == "2023-11-14T22:13:20.250+00:00" and rows[0]["target_ms"] == "3000"
    assert rows[1]["target_ms"] == "" and rows[1]["verdict"] == "costs 0.18 units"
    assert [r["source"] for r in rows] == ["drill", "play"]


def test_json_to_a_file_round_trips_every_field(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "attempts.json"
    result = CliRunner().invoke(cli, ["--db", str(db), "export", "--format", "json", "--output", str(out)])
    assert result.exit_code == 0, result.output
    records = json.loads(out.read_text(encoding="utf-8"))
    assert [r["id"] for r in records] == [1, 2]
    for record, attempt in zip(records, ATTEMPTS, strict=True):
        assert Attempt(**{k: v for k, v in record.items() if k not in ("id", "time_utc")}) == attempt
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".attempts")) == []


def test_an_empty_database_exports_an_empty_list(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "new.db"), "export", "--format", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout) == []


def test_an_unwritable_output_is_a_one_line_error_and_nothing_is_written(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no-such-folder" / "attempts.csv"
    assert main(["--db", str(db), "export", "--output", str(target)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cutcard: cannot write") and err.count("\n") == 1
    assert not target.parent.exists()


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """5,000 answers (about 1 MB exported), loaded once for both formats: `export` only reads them."""
    import dataclasses

    from trainer.storage.bulk import bulk_load

    path = tmp_path_factory.mktemp("export") / "many.db"
    with Store.open(path) as store:
        bulk_load(store, (dataclasses.replace(ATTEMPTS[0], item=f"payout:bj 3:2:{i}", ts=1_700_000_000.0 + i)
                          for i in range(5000)))
    return path


@pytest.mark.xdist_group("export-many")  # one worker loads `many` for both
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_reader_that_stops_early_ends_the_export_quietly_with_status_0(many: Path, fmt: str) -> None:
    """`cutcard export | head -1`: head leaves after one line, long before the ~1 MB are written."""
    import subprocess
    import sys

    path = many
    cutcard = subprocess.Popen([sys.executable, "-m", "trainer", "--db", str(path), "export", "--format", fmt],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert cutcard.stdout is not None
    head = subprocess.run(["head", "-1"], stdin=cutcard.stdout, capture_output=True, timeout=60)
    cutcard.stdout.close()  # only head reads the pipe: when head exits, the pipe has no reader
    _, err = cutcard.communicate(timeout=60)
    assert head.stdout.decode().startswith("id,session_id" if fmt == "csv" else "[")
    assert err.decode() == "" and cutcard.returncode == 0


def test_output_with_no_reader_at_all_is_dropped_quietly(db: Path) -> None:
    """Nobody reads stdout: a write inside the command or the final flush meets the broken pipe."""
    import subprocess
    import sys

    cutcard = subprocess.Popen([sys.executable, "-m", "trainer", "--db", str(db), "export"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert cutcard.stdout is not None
    cutcard.stdout.close()  # nobody will read: every write to the pipe fails
    assert cutcard.stderr is not None
    err = cutcard.stderr.read()
    assert cutcard.wait(timeout=60) == 0 and err.decode() == ""
