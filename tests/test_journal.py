"""The journal of real play: its parsers, its sums against each session's own plan (worked by hand), the
database round trip and migration, `export --journal`, and the `journal` commands with their errors."""

from __future__ import annotations

import csv
import io
import json
import math
import sqlite3
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from trainer.cli import main
from trainer.core.errors import InvalidInputError, StorageError
from trainer.planning.journal import (
    JournalEntry,
    PlanInForce,
    along_track,
    new_entry,
    parse_day,
    parse_result,
    plan_in_force,
    replan_command,
    standing,
)
from trainer.progress.export import JOURNAL_FIELDS, write_journal
from trainer.storage import Store
from trainer.storage.reader import open_read_only
from trainer.storage.schema import SCHEMA_VERSION

TODAY = date(2026, 12, 7)
PLAN_DOC = {"ramp": [{"true_count": 1, "bet": 25}, {"true_count": 2, "bet": 75}], "ev_per_round": 1.25,
            "sd_per_round": 70.0, "ev_per_hour": 125.0, "sd_per_hour": 700.0, "rounds_per_hour": 100,
            "bankroll": 10000, "min_bet": 25, "ror": 0.05}
PLAN = plan_in_force(PLAN_DOC)


def entry(day: date, rounds: int, result: str, *, plan: PlanInForce | None = PLAN, ramp: str = "plan",
          hours: float = 4.0) -> JournalEntry:
    return new_entry(day=day, hours=hours, rounds=rounds, result=Decimal(result), ramp=ramp, note="",
                     plan=plan, recorded_ts=1_800_000_000.0)


# --- reading what a user types --------------------------------------------------------------------

def test_parse_day() -> None:
    assert parse_day("2026-12-01", TODAY) == date(2026, 12, 1)
    assert parse_day("today", TODAY) == TODAY and parse_day("Yesterday", TODAY) == date(2026, 12, 6)
    for text, words in (("12/01/2026", "not a date: give YYYY-MM-DD"), ("2026-02-30", "not a date on"),
                        ("2026-12-08", "after today"), ("", "not a date")):
        with pytest.raises(InvalidInputError, match=words):
            parse_day(text, TODAY)


def test_parse_result() -> None:
    assert parse_result("+350") == Decimal("350") and parse_result("350") == Decimal("350")
    assert parse_result("-1,200.50") == Decimal("-1200.50") and parse_result("-$75") == Decimal("-75")
    assert parse_result("-0") == Decimal("0")
    for text in ("five", "+", "1.234", "--5", ""):
        with pytest.raises(InvalidInputError, match="not a result"):
            parse_result(text)


def test_new_entry_checks_its_input() -> None:
    with pytest.raises(InvalidInputError, match="hours played must be above 0"):
        entry(TODAY, 100, "0", hours=-1.0)
    with pytest.raises(InvalidInputError, match="rounds played must be a whole number, 1 or more"):
        entry(TODAY, 0, "0")
    with pytest.raises(InvalidInputError, match="no plan in force"):
        entry(TODAY, 100, "0", plan=None)
    logged = entry(TODAY, 100, "0", plan=None, ramp="")
    assert logged.planned is None and logged.expected is None
    other = entry(TODAY, 100, "0", ramp="1:1,2:2")  # another ramp than the plan's: no expectation
    assert other.planned is None


def test_the_plan_in_force_is_read_from_plan_json_keys() -> None:
    assert (PLAN.ev_per_round, PLAN.sd_per_round, PLAN.bankroll, PLAN.min_bet, PLAN.ror) == \
        (1.25, 70.0, 10000.0, 25.0, 0.05)
    assert plan_in_force({**PLAN_DOC, "bankroll": 12000}).plan_id != PLAN.plan_id  # a new plan
    for doc, words in (({"sd_per_round": 1}, "ev_per_round"), ({**PLAN_DOC, "sd_per_round": "x"}, "not a number"),
                       ([1, 2], "not a JSON object")):
        with pytest.raises(InvalidInputError, match=words):
            plan_in_force(doc)
    assert replan_command(PLAN, 10_450.75) == "cutcard plan --bankroll 10450 --min-bet 25 --ror 0.05 --save"
    # the plan's target risk, where the document has one, is what a new plan aims at
    aimed = plan_in_force({**PLAN_DOC, "target_ror": 0.02, "max_bet": 500, "ruleset": "casino"})
    assert (aimed.ror, aimed.target_ror) == (0.05, 0.02)
    # which count the ramp is by, where the plan says (`plan --json`'s `bet_count`)
    assert (PLAN.bet_count, plan_in_force({**PLAN_DOC, "bet_count": "ace-adjusted"}).bet_count) == \
        (None, "ace-adjusted")
    assert replan_command(aimed, 9_000) == ("cutcard plan --ruleset casino --bankroll 9000 --min-bet 25 "
                                            "--max-bet 500 --ror 0.02 --save")


# --- the sessions against their plans, by hand ----------------------------------------------------

def test_standing_against_each_sessions_own_plan() -> None:
    later_plan = plan_in_force({**PLAN_DOC, "bankroll": 10_250, "ev_per_round": 1.5, "sd_per_round": 80.0})
    entries = [
        entry(date(2026, 12, 1), 400, "-750"),                      # plan 1: 1.25·400 = 500, 70²·400
        entry(date(2026, 12, 2), 300, "+125.50", plan=None, ramp=""),  # no plan's figures
        entry(date(2026, 12, 3), 400, "+1000", plan=later_plan),    # plan 2: 1.5·400 = 600, 80²·400
    ]
    summary = standing(entries, later_plan)
    assert (summary.sessions, summary.rounds, summary.hours) == (3, 1100, 12.0)
    assert summary.result == Decimal("375.50")
    assert (summary.unplanned, summary.unplanned_result) == (1, Decimal("125.50"))
    first, second = summary.track[1], summary.track[2]
    assert (first.rounds, first.result, first.expected) == (400, -750.0, 500.0)
    assert first.sd == pytest.approx(70 * 20)  # 70·√400
    assert (second.rounds, second.result, second.expected) == (800, 250.0, 1100.0)
    assert second.sd == pytest.approx(math.sqrt(70**2 * 400 + 80**2 * 400))  # = 2126.03
    assert summary.z == pytest.approx((250 - 1100) / math.sqrt(70**2 * 400 + 80**2 * 400))
    # bankroll today: the plan in force's bankroll plus the sessions logged under it (only the third)
    assert summary.since_plan == 1 and summary.bankroll_today == 11_250.0
    assert summary.ror_today == pytest.approx(math.exp(-2 * 1.5 * 11_250 / 80**2))
    # half-way through the first session: half its expectation and half its variance
    expected, sd = along_track(summary.track, 200)
    assert expected == pytest.approx(250.0) and sd == pytest.approx(70 * math.sqrt(200))
    # a quarter into the second: 500 + 600/4, variance 70²·400 + 80²·100
    expected, sd = along_track(summary.track, 500)
    assert expected == pytest.approx(650.0) and sd == pytest.approx(math.sqrt(70**2 * 400 + 80**2 * 100))


def test_standing_without_a_plan() -> None:
    summary = standing([entry(TODAY, 100, "50", plan=None, ramp="")], None)
    assert summary.bankroll_today is None and summary.ror_today is None and len(summary.track) == 1


# --- the database ---------------------------------------------------------------------------------

def test_the_journal_round_trips_through_the_database_and_export(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    logged = [entry(date(2026, 12, 3), 400, "-1250.25"), entry(date(2026, 12, 1), 350, "+90", plan=None,
                                                                ramp="1:1,2:4")]
    with Store.open(path) as store:
        kept = [store.add_journal_entry(e) for e in logged]
        assert [k.id for k in kept] == [1, 2]
        assert store.journal() == [kept[1], kept[0]]  # by date
    view = open_read_only(path)
    assert view is not None
    with view:
        entries = view.journal()
    assert entries == [kept[1], kept[0]]
    assert entries[1].result == Decimal("-1250.25") and entries[1].planned == kept[0].planned
    out = io.StringIO()
    assert write_journal(entries, out, "csv") == 2
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert tuple(rows[0]) == JOURNAL_FIELDS
    assert rows[1]["result"] == "-1250.25" and rows[1]["plan_ev_per_round"] == "1.25"
    assert rows[0]["ramp"] == "1:1,2:4" and rows[0]["plan_id"] == ""
    out = io.StringIO()
    write_journal(entries, out, "json")
    records = json.loads(out.getvalue())
    assert records[1]["expected"] == 500.0 and records[0]["plan_id"] is None


def test_the_database_refuses_a_session_half_planned(tmp_path: Path) -> None:
    with Store.open(tmp_path / "p.db") as store, pytest.raises(sqlite3.IntegrityError):
        store.conn.execute("INSERT INTO journal (day, hours, rounds, result, ramp, plan_id, plan_ev, "
                           "recorded_ts) VALUES ('2026-12-01', 1, 10, '5', 'plan', 'x', 1.0, 0)")


def _as_schema_5(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0008_learner_answer_times'")
    conn.execute("ALTER TABLE attempts DROP COLUMN pace")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0007_attempt_pace'")
    conn.execute("DROP TABLE journal")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0006_journal'")
    conn.execute("PRAGMA user_version = 5")
    conn.commit()
    conn.close()


def test_an_existing_database_gains_the_journal_and_keeps_its_answers(tmp_path: Path) -> None:
    from test_storage import attempt

    path = tmp_path / "progress.db"
    with Store.open(path) as store:
        store.record(attempt())
    _as_schema_5(path)
    with pytest.raises(StorageError, match="older cutcard"):  # reading never migrates: it says how
        open_read_only(path)
    with Store.open(path) as store:  # the first write-open migrates
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 9
        assert [s.attempt for s in store.attempts()] == [attempt()]
        store.add_journal_entry(entry(TODAY, 100, "+10"))
        assert len(store.journal()) == 1


# --- the commands ---------------------------------------------------------------------------------

def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_journal_without_a_plan_logs_results_and_says_how_to_plan(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "journal")
    assert status == 0 and "No sessions in the journal yet" in out and "cutcard plan" in out
    status, out, _ = run(capsys, "journal", "add", "--date", "2024-06-01", "--hours", "4", "--rounds", "400",
                         "--result", "-350", "--note", "Bellagio")
    assert status == 0 and "Logged session 1" in out and "No plan in force" in out
    status, out, _ = run(capsys, "journal", "--json")
    doc = json.loads(out)
    assert doc["sessions"][0]["result"] == "-350" and doc["sessions"][0]["plan"] is None
    assert doc["plan"] is None and doc["bankroll_today"] is None and doc["against_plan"] is None
    status, out, err = run(capsys, "journal", "add", "--hours", "1", "--rounds", "10", "--result", "5",
                           "--ramp", "plan")
    assert status == 1 and "no plan in force" in err and len(err.strip().splitlines()) == 1


def test_journal_with_a_plan_in_force(capsys: pytest.CaptureFixture[str], cutcard_home: Path) -> None:
    cutcard_home.mkdir(parents=True, exist_ok=True)
    (cutcard_home / "plan.json").write_text(json.dumps(PLAN_DOC))
    run(capsys, "journal", "add", "--date", "2024-06-01", "--hours", "4", "--rounds", "400", "--result", "-750")
    status, out, _ = run(capsys, "journal", "add", "--date", "2024-06-02", "--hours", "5", "--rounds", "500",
                         "--result", "+2,100.50", "--note", "Wynn")
    assert status == 0 and "The plan expected +625" in out and "Bankroll today: 11,350.50" in out
    status, out, _ = run(capsys, "journal", "--json")
    doc = json.loads(out)
    assert [s["plan"]["ev_per_round"] for s in doc["sessions"]] == [1.25, 1.25]
    against = doc["against_plan"]
    assert against["expected"] == pytest.approx(1.25 * 900) and against["result"] == pytest.approx(1350.5)
    assert against["sd"] == pytest.approx(70 * 30)  # 70·√900
    assert doc["bankroll_today"] == pytest.approx(11_350.5)
    assert doc["replan"] == "cutcard plan --bankroll 11350 --min-bet 25 --ror 0.05 --save"
    status, out, _ = run(capsys, "journal")
    assert status == 0
    for words in ("Journal of real play: 2 sessions", "Against the plan (900 rounds", "●", "░", "·",
                  "±2 SD", "Bankroll today: 11,350.50", "cutcard plan --bankroll 11350"):
        assert words in out, words
    assert max(len(line) for line in out.splitlines()) <= 80
    status, out, _ = run(capsys, "export", "--journal", "--format", "json")
    assert status == 0 and [r["result"] for r in json.loads(out)] == ["-750", "2100.50"]
    status, out, _ = run(capsys, "export")  # the attempts' export is as it was
    assert out.splitlines()[0].startswith("id,session_id,ts,time_utc,drill,item")


def test_a_broken_plan_is_one_line(capsys: pytest.CaptureFixture[str], cutcard_home: Path) -> None:
    cutcard_home.mkdir(parents=True, exist_ok=True)
    (cutcard_home / "plan.json").write_text("{not json")
    status, _, err = run(capsys, "journal")
    assert status == 1 and "is not a plan" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("args", "words"), [
    (["--hours", "-4", "--rounds", "400", "--result", "5"], "'--hours': -4 is not above 0"),
    (["--hours", "4", "--rounds", "0", "--result", "5"], "'--rounds': 0 is not in the range"),
    (["--hours", "4", "--rounds", "40", "--result", "5", "--date", "12/01/2026"], "give YYYY-MM-DD"),
    (["--hours", "4", "--rounds", "40", "--result", "lots"], "is not a result"),
    (["--hours", "4", "--rounds", "40", "--result", "5", "--ramp", "1:x"], "not COUNT:UNITS"),
    (["--hours", "4", "--rounds", "40"], "Missing option '--result'"),
])
def test_bad_input_is_one_line_and_changes_nothing(capsys: pytest.CaptureFixture[str], args: list[str],
                                                   words: str) -> None:
    status, out, err = run(capsys, "journal", "add", *args)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err, err
    _, out, _ = run(capsys, "journal", "--json")
    assert json.loads(out)["sessions"] == []


def test_journal_plans_todays_bankroll_from_the_plan_in_force(capsys: pytest.CaptureFixture[str],
                                                              cutcard_home: Path) -> None:
    """With the statistics the plan was made from in plan.json, the journal makes today's plan: the
    planner's own answer for the same table, target and statistics at the bankroll today."""
    from trainer.planner import plan_game, to_json
    from trainer.planning.ramp import TableLimits

    per_count = [{"true_count": 0, "rounds": 800_000, "mean": -0.01, "second_moment": 1.3},
                 {"true_count": 2, "rounds": 150_000, "mean": 0.01, "second_moment": 1.32},
                 {"true_count": 4, "rounds": 50_000, "mean": 0.03, "second_moment": 1.35}]
    doc = {**PLAN_DOC, "max_bet": 500, "target_ror": 0.05, "hours": 50, "per_count": per_count,
           "simplified": {"chip": 25}}
    cutcard_home.mkdir(parents=True, exist_ok=True)
    (cutcard_home / "plan.json").write_text(json.dumps(doc))
    run(capsys, "journal", "add", "--date", "2024-06-01", "--hours", "4", "--rounds", "400", "--result", "-1000")
    status, out, _ = run(capsys, "journal", "--json")
    today = json.loads(out)["today_plan"]
    assert status == 0 and today is not None
    limits = TableLimits(bankroll=9_000, ror=0.05, min_bet=25, max_bet=500, rounds_per_hour=100, hours=50)
    rows = plan_in_force(doc).per_count
    expected = to_json(plan_game(rows, limits, chip=25.0))
    assert today["ramp"] == expected["ramp"] and today["ev_per_round"] == pytest.approx(expected["ev_per_round"])
    assert json.loads(out)["replan"] == ("cutcard plan --bankroll 9000 --min-bet 25 --max-bet 500 --ror 0.05 "
                                         "--simplify --chip 25 --save")
    status, out, _ = run(capsys, "journal")
    assert status == 0 and "Today's plan for 9,000" in out and "true count" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "bets follow" not in out  # a plan of the plain count says nothing of it
    (cutcard_home / "plan.json").write_text(json.dumps({**doc, "bet_count": "ace-adjusted"}))
    status, out, _ = run(capsys, "journal")
    assert status == 0 and "bets follow the ace-adjusted count, plays the plain one" in out
    assert json.loads(run(capsys, "journal", "--json")[1])["today_plan"]["bet_count"] == "ace-adjusted"


def test_logging_a_session_takes_the_days_backup(capsys: pytest.CaptureFixture[str], cutcard_home: Path) -> None:
    """A journal session is the user's own record, as an answer is: the day's automatic backup keeps it."""
    status, _, _ = run(capsys, "journal", "add", "--date", "2024-06-01", "--hours", "2", "--rounds", "150",
                       "--result", "+80")
    backups = list((cutcard_home / "backups").glob("progress-*.db"))
    assert status == 0 and len(backups) == 1
    conn = sqlite3.connect(backups[0])
    try:
        assert conn.execute("SELECT day, rounds, result FROM journal").fetchall() == [("2024-06-01", 150, "80")]
    finally:
        conn.close()
