"""`cutcard compare`: games from overrides and grids, and their chunks on local processes and on a Dask
cluster giving the same per-count tables, a chunk lost with its worker run again.

The simulations here are tiny (a few thousand rounds a chunk, the Python engine) and the cluster is
started once for the module: a LocalCluster's start is most of this module's time."""

from __future__ import annotations

import io
import os
import signal
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from trainer.cli import main
from trainer.compare.chunks import Chunk, LocalProcesses, play_chunk
from trainer.compare.games import grid_games, parse_game, read_grid
from trainer.compare.report import (
    ComparedGame,
    CompareReport,
    GameResult,
    flat_figures,
    planned_figures,
    report_json,
    sort_results,
)
from trainer.compare.stats import gather
from trainer.core.counting import find_system
from trainer.core.errors import RuleOverrideError
from trainer.planner import plan_game
from trainer.planning.ramp import TableLimits
from trainer.render import make_console
from trainer.render.compare import print_comparison
from trainer.sim.counter import Counter
from trainer.sim.engine import Winnings
from trainer.sim.results import CountStats
from trainer.sim.runner import Plan, letters_of
from trainer.sim.textbook import textbook
from trainer.statstore import StatsStore, build, game_key

pytestmark = pytest.mark.xdist_group("compare")  # one cluster for the module, on one worker

ROUNDS, CHUNK = 6_000, 2_000
"""Each game: three chunks of 2,000 rounds (of the Python engine: a few hundredths of a second each)."""
GRID = """
ruleset = ["casino", "bicycle"]
decks = [1, 2]
penetration = 0.7
hits_soft_17 = [false, true]
"""


# --- games: overrides and grids ---------------------------------------------------------------------

def test_a_grid_crosses_every_value_of_each_key_in_file_order(tmp_path: Path) -> None:
    path = tmp_path / "grid.toml"
    path.write_text(GRID)
    games = read_grid(path)
    assert [g.name for g in games] == [
        f"{base}:decks={d},penetration=0.7,hits_soft_17={h}"
        for base in ("casino", "bicycle") for d in (1, 2) for h in ("false", "true")]
    for game in games:
        r = game.ruleset
        cut = round(0.3 * 52 * r.shoe.decks)
        assert r.shoe.cut_card_from_end == (cut, cut) and r.shoe.decks_range == (r.shoe.decks,) * 2
        assert r.dealer.hits_soft_17 is (game.settings["hits_soft_17"] is True)
        assert r.name == game.name
    assert games[0].ruleset.player.double.value == "any-two"  # the base's own rules stay
    assert games[4].ruleset.player.double.value == "9-11"
    assert len({g.ruleset.fingerprint for g in games}) == 8  # eight games, eight store keys


@pytest.mark.parametrize(("grid", "words"), [
    ("decks = [1, 2]\nhit_soft_17 = [true]", "grid.toml: 'hit_soft_17' is not a rule key; did you mean hits_soft_17?"),
    ("decks = [2, 9]", "[shoe] decks = 9 is not allowed: expected a whole number from 0 to 8"),
    ("insurance = [true]", "insurance is a key of player and payouts"),
    ("decks = []", "decks = [] gives no value"),
    ("ruleset = [\"casino\"]\npenetration = [0.999]", "penetration = 0.999 leaves 0 of 312 cards"),
    ("ruleset = [\"european\"]\npenetration = [0.7]", "penetration needs a cut-card shoe"),
    ("[dealer]\nhits_soft_17 = [true]", "[dealer] is a table"),
    ("", "grid.toml names no key"),
])
def test_a_bad_grid_is_one_line_naming_the_key(grid: str, words: str, tmp_path: Path) -> None:
    import tomllib

    with pytest.raises(RuleOverrideError) as error:
        grid_games(tomllib.loads(grid), where="grid.toml")
    assert words in str(error.value) and "\n" not in str(error.value)


def test_a_game_on_the_command_line_reads_its_values_as_toml_does() -> None:
    game = parse_game("casino:decks=2,penetration=0.6,hits_soft_17=true,blackjack=6:5,surrender=late")
    r = game.ruleset
    assert (r.shoe.decks, r.shoe.cut_card_from_end, r.dealer.hits_soft_17) == (2, (42, 42), True)
    assert (str(r.payouts.blackjack), r.player.surrender.value) == ("6:5", "late")
    assert parse_game("casino").ruleset.name == "casino"
    with pytest.raises(RuleOverrideError, match="'decks2' is not KEY=VALUE"):
        parse_game("casino:decks2,penetration=0.6")


def test_an_invalid_game_exits_2_before_anything_is_computed(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                               ) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text("decks = [2]\nsurender = [\"late\"]")
    assert main(["compare", "casino", "--grid", str(grid)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'surender' is not a rule key; did you mean surrender?" in err
    assert not (Path(os.environ["CUTCARD_HOME"]) / "stats").exists()  # nothing simulated, nothing stored


# --- chunks: the same tables wherever they run ---------------------------------------------------------

def _plan(text: str) -> Plan:
    counter = Counter(system=find_system("hi-lo"), spread=(1, 1), ramp={0: 1})
    return Plan(ruleset=parse_game(text).ruleset, chart=letters_of(textbook), counter=counter)


PLANS = [_plan("casino:decks=1,penetration=0.7"), _plan("casino:decks=2,hits_soft_17=true")]


def dying_play(chunk: Chunk) -> Winnings:
    """Play a chunk, but kill this worker process the first time block 1 of the first game is started
    (the marker file is the memory across processes)."""
    marker = Path(os.environ["CUTCARD_COMPARE_TEST_MARKER"])
    if chunk.game == 0 and chunk.block == 1:
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            pass
        else:
            os.kill(os.getpid(), signal.SIGKILL)
    return play_chunk(chunk)


class _Here:
    """The chunks one after another in this process: the reference."""

    lost_workers = 0

    def run(self, chunks: list[Chunk], done: object) -> None:
        assert callable(done)
        for chunk in reversed(chunks):  # another order: the sums do not care
            done(chunk, play_chunk(chunk))


@pytest.fixture(scope="module")
def python_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The Python engine here and in every worker (no kernel to load in a fresh process), and the marker
    the dying worker leaves; set before any worker starts, so they inherit both."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CUTCARD_SIM", "python")
        folder = tmp_path_factory.mktemp("markers")
        patch.setenv("CUTCARD_COMPARE_TEST_MARKER", str(folder / "killed"))
        yield folder / "killed"


@pytest.fixture(scope="module")
def cluster(python_engine: Path) -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0", silence_logs=50) as local:
        yield local.scheduler_address


def _tables(folder: Path, runner: object) -> list[dict[int, list[int]]]:
    stats = gather(PLANS, StatsStore(folder), runner, rounds=ROUNDS, chunk_rounds=CHUNK)
    assert [s.rounds for s in stats] == [ROUNDS, ROUNDS] and [s.blocks for s in stats] == [3, 3]
    return [s.sums for s in stats]


def test_local_processes_and_a_dask_cluster_give_the_same_tables_and_rerun_a_killed_worker(
        python_engine: Path, cluster: str, tmp_path: Path) -> None:
    from trainer.compare.chunks import DaskCluster

    reference = _tables(tmp_path / "here", _Here())
    with LocalProcesses(2, play=dying_play) as local:
        assert _tables(tmp_path / "local", local) == reference
    assert python_engine.exists() and local.lost_workers == 1  # a worker died with block 1, which ran again
    python_engine.unlink()
    with DaskCluster(cluster, play=dying_play) as dask:
        assert _tables(tmp_path / "dask", dask) == reference
    assert python_engine.exists()  # the cluster lost that worker too, and ran its chunk on another
    # what landed is the store's own: the next run reads it and simulates nothing
    again = gather(PLANS, StatsStore(tmp_path / "dask"), _Here(), rounds=ROUNDS)
    assert [s.sums for s in again] == reference and not any(s.built for s in again)


def test_a_chunk_is_the_stores_block(python_engine: Path, tmp_path: Path) -> None:
    """One chunk of a game is the very block `plan` would simulate: seed SEED + block, job 0."""
    plan = PLANS[0]
    (chunked,) = gather([plan], StatsStore(tmp_path), _Here(), rounds=CHUNK, chunk_rounds=CHUNK)
    built = build(plan, game_key(plan), jobs=1, rounds=CHUNK)
    assert chunked.sums == built.sums and chunked.blocks == built.blocks == 1


# --- the comparison as a learner reads it ---------------------------------------------------------------

ROWS = [CountStats(true_count=tc, rounds=n, mean=m, second_moment=1.3) for tc, n, m in
        ((-1, 30_000_000, -0.02), (0, 50_000_000, -0.005), (1, 15_000_000, 0.005), (2, 8_000_000, 0.012),
                         (3, 4_000_000, 0.02))]


def _result(text: str, rows: list[CountStats] | None, bankroll: float = 100_000) -> GameResult:
    spec = parse_game(text)
    limits = TableLimits(bankroll=bankroll, ror=0.05, min_bet=10, max_bet=500, rounds_per_hour=100)
    game = ComparedGame(spec=spec, plan=None if rows is None else PLANS[0], house_edge_pct=0.41, limits=limits,
                        system="hi-lo")
    if rows is None:
        return GameResult(game=game, figures=flat_figures(game))
    report = plan_game(rows, limits, ruleset=spec.name, system="hi-lo")
    return GameResult(game=game, figures=planned_figures(report), report=report)


def test_the_comparison_fits_80_columns_names_the_best_and_what_it_cannot_call() -> None:
    def shifted(by: float) -> list[CountStats]:
        return [replace(r, mean=r.mean + by) for r in ROWS]

    results = [_result("casino", ROWS), _result("casino:decks=2,penetration=0.8,hits_soft_17=true", shifted(3e-4)),
               _result("casino:min_bet=25", shifted(-0.003), bankroll=2_000), _result("european", None),
               _result("casino:decks=6", shifted(-0.01))]
    ordered, close = sort_results(results, "score")
    assert ordered[0].name.startswith("casino:decks=2") and close == ("casino",)
    assert ordered[-1].name == "european" and ordered[-1].figures.ror == 1.0
    out = io.StringIO()
    print_comparison(make_console(out, width=80, color=False),
                     CompareReport(results=ordered, sort="score", close=close, where="2 local processes"))
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "Play casino:decks=2,penetration=0.8,hits_soft_17=true (best by SCORE)" in " ".join(text.split())
    assert "Too close to call on SCORE: casino within two SE" in " ".join(text.split())
    assert "counting cannot help there" in text and "*: over your target risk" in text
    document = report_json(CompareReport(results=ordered, sort="score", close=close))
    first = document["games"][0]
    assert document["best"] == first["game"] and {"ramp", "score", "score_se", "n0_hours", "ror"} <= set(first)
    assert first["settings"]["overrides"] == {"decks": 2, "penetration": 0.8, "hits_soft_17": True}
    assert document["games"][-1]["counting"] is False and document["games"][-1]["ror"] == 1.0
