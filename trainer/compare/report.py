"""`cutcard compare` as one library call: many games planned for one learner, side by side, the best named.

Each game's per-count statistics come from the store, or are simulated as chunks (`trainer.compare.stats`);
each is planned for the learner's bankroll and risk at its own table (`trainer.planner.plan_game`), and the
games are sorted by what the learner asks: the win per hour, SCORE, the hours to N0 or the risk of ruin.
Beside every planned figure stands its standard error, and beside each game its flat-bet house edge,
exact (the chart's). A game where counting cannot help (an infinite deck, a shoe reshuffled every round)
is not simulated: its player bets the table minimum flat, losing the house edge on it every round, and
is ruined for sure in the long run (its risk is 1).

The best game is the first in the order asked for; where the second is within two standard errors of
it on that figure, the report says the two are too close to call at this precision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trainer.compare.chunks import Runner
from trainer.compare.games import GameSpec
from trainer.compare.stats import CHUNK_ROUNDS, Progress, gather
from trainer.planner import PlanReport, plan_game, to_json
from trainer.planning.ramp import TableLimits
from trainer.sim.count import bet_count_name, bet_count_words
from trainer.sim.runner import Plan
from trainer.statstore import Statistics, StatsStore

SORTS = ("win", "score", "n0", "risk")
"""What a comparison is sorted by: win per hour, SCORE (both highest first), hours to N0, risk of ruin
(both lowest first)."""
SORT_WORDS = {"win": "win per hour", "score": "SCORE", "n0": "hours to N0", "risk": "risk of ruin"}


@dataclass(frozen=True, slots=True, kw_only=True)
class ComparedGame:
    """A game to compare: what it is, the simulator's plan of its counter (None where counting cannot
    help), its flat-bet house edge and the table it is planned for."""

    spec: GameSpec
    plan: Plan | None
    house_edge_pct: float
    """The chart's exact house edge for a flat bettor, in percent of the initial bet."""
    limits: TableLimits
    system: str = ""
    indices: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameFigures:
    """The figures a comparison sorts and shows, with their standard errors."""

    ev_per_hour: float
    ev_per_hour_se: float
    score: float
    score_se: float
    n0_hours: float
    ror: float
    average_bet: float


@dataclass(frozen=True, slots=True, kw_only=True)
class GameResult:
    """One game compared: its plan (None where counting cannot help) and figures."""

    game: ComparedGame
    figures: GameFigures
    report: PlanReport | None = None
    statistics: Statistics | None = None

    @property
    def name(self) -> str:
        return self.game.spec.name


@dataclass(frozen=True, slots=True, kw_only=True)
class CompareReport:
    """The games, sorted, and which to play."""

    results: tuple[GameResult, ...]
    sort: str
    close: tuple[str, ...] = ()
    """The games within two standard errors of the best on the sorted figure."""
    simulated: int = 0
    """Rounds simulated by this run (the rest came from the store)."""
    where: str = ""
    lost_workers: int | None = 0
    """Workers lost during the run, whose unfinished chunks ran again (None: the cluster does not say)."""

    @property
    def best(self) -> GameResult | None:
        return self.results[0] if self.results else None


def flat_figures(game: ComparedGame) -> GameFigures:
    """A game without a count: the table minimum bet flat at the house edge (exact), ruin certain in
    time where the house has the edge. Where the player has it (a flat bettor's game such as the chat
    host's), the risk, SCORE and N0 need the round's variance, which the chart does not give: NaN, shown as
    unknown, never a guess."""
    limits = game.limits
    ev = -game.house_edge_pct / 100 * limits.min_bet * limits.rounds_per_hour
    house = game.house_edge_pct >= 0
    return GameFigures(ev_per_hour=ev, ev_per_hour_se=0.0, score=0.0, score_se=0.0,
                       n0_hours=math.inf if house else math.nan, ror=1.0 if house else math.nan,
                       average_bet=limits.min_bet)


def planned_figures(report: PlanReport) -> GameFigures:
    f = report.plan.figures
    return GameFigures(ev_per_hour=f.ev_per_hour, ev_per_hour_se=f.ev_per_hour_se, score=f.score,
                       score_se=f.score_se, n0_hours=f.n0_hours, ror=f.ror, average_bet=f.average_bet)


def _order(sort: str, r: GameResult) -> tuple[float, float]:
    f = r.figures
    if sort == "win":
        return (-f.ev_per_hour, 0.0)
    if sort == "score":
        return (-f.score, -f.ev_per_hour)
    if sort == "n0":
        return (f.n0_hours if not math.isnan(f.n0_hours) else math.inf, -f.ev_per_hour)
    return (f.ror if not math.isnan(f.ror) else math.inf, -f.ev_per_hour)


def _within(sort: str, a: GameFigures, b: GameFigures) -> bool:
    """Whether `b` is within two standard errors of `a` on the sorted figure (SCORE's for N0 and risk,
    which move with it; no SE, no tie)."""
    if sort == "win":
        gap, se = abs(a.ev_per_hour - b.ev_per_hour), math.hypot(a.ev_per_hour_se, b.ev_per_hour_se)
    else:
        gap, se = abs(a.score - b.score), math.hypot(a.score_se, b.score_se)
    return se > 0 and gap < 2 * se


def sort_results(results: Sequence[GameResult], sort: str) -> tuple[tuple[GameResult, ...], tuple[str, ...]]:
    """The results in the order asked for, and the names of those too close to the best to call."""
    if sort not in SORTS:
        raise ValueError(f"sort by one of {', '.join(SORTS)}, not {sort!r}")
    ordered = tuple(sorted(results, key=lambda r: _order(sort, r)))
    if not ordered:
        return ordered, ()
    best = ordered[0]
    close = tuple(r.name for r in ordered[1:] if r.game.plan is not None and best.game.plan is not None
                  and _within(sort, best.figures, r.figures))
    return ordered, close


def compare_games(games: Sequence[ComparedGame], *, store: StatsStore, runner: Runner,
                  sort: str = "score",
                  rounds: int | None = None, chunk_rounds: int = CHUNK_ROUNDS,
                  progress: Progress | None = None, where: str = "") -> CompareReport:
    """Every game planned for its table, sorted by `sort` (see the module)."""
    counted = [g for g in games if g.plan is not None]
    simulated = [0]

    def told(done: int, total: int) -> None:
        simulated[0] = done
        if progress is not None:
            progress(done, total)

    stats = gather([g.plan for g in counted if g.plan is not None], store, runner, rounds=rounds,
                   chunk_rounds=chunk_rounds, progress=told)
    by_game = dict(zip((id(g) for g in counted), stats, strict=True))
    results = []
    for game in games:
        found = by_game.get(id(game))
        if found is None:
            results.append(GameResult(game=game, figures=flat_figures(game)))
            continue
        where_from = "simulated now" if found.built else "stored"
        assert game.plan is not None and game.plan.counter is not None
        report = plan_game(found.rows, game.limits, ruleset=game.spec.name, system=game.system,
                           statistics=f"{found.rounds:,} rounds, {where_from}",
                           bet_count=bet_count_words(game.plan.counter.system),
                           bet_count_name=bet_count_name(game.plan.counter.system))
        results.append(GameResult(game=game, figures=planned_figures(report), report=report,
                                  statistics=found))
    ordered, close = sort_results(results, sort)
    return CompareReport(results=ordered, sort=sort, close=close, simulated=simulated[0], where=where,
                         lost_workers=runner.lost_workers)


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def game_settings(spec: GameSpec) -> dict[str, Any]:
    """The game's settings as `--json` carries them: its base, the keys set anew, and the rules a
    counter compares games by."""
    r = spec.ruleset
    cut = r.shoe.cut_card_from_end
    cards = 52 * r.shoe.decks
    penetration = (1 - (cut[0] + cut[1]) / 2 / cards) if cards and r.counting_helps else None
    return {"ruleset": spec.base, "overrides": {k: v for k, v in spec.settings.items()},
            "decks": r.shoe.decks, "penetration": None if penetration is None else round(penetration, 4),
            "hits_soft_17": r.dealer.hits_soft_17, "blackjack_pays": str(r.payouts.blackjack),
            "double_after_split": r.player.double_after_split, "surrender": r.player.surrender.value,
            "min_bet": float(r.table.min_bet), "max_bet": float(r.table.max_bet)}


def result_json(result: GameResult) -> dict[str, Any]:
    """One game's `--json` object: its name and settings, its house edge, and the plan's keys."""
    game = result.game
    document: dict[str, Any] = {"game": result.name, "settings": game_settings(game.spec),
                                "house_edge_pct": game.house_edge_pct, "counting": game.plan is not None,
                                "bankroll": game.limits.bankroll, "target_ror": game.limits.ror,
                                "table_min": game.limits.min_bet, "table_max": game.limits.max_bet}
    if result.report is not None:
        document.update(to_json(result.report))
        document["system"] = game.system
        document["indices"] = game.indices
    else:
        f = result.figures
        per_round = f.ev_per_hour / game.limits.rounds_per_hour
        document.update({"ramp": [], "flat_bet": game.limits.min_bet, "ev_per_round": per_round,
                         "ev_per_hour": f.ev_per_hour, "ev_per_hour_se": 0.0, "score": None,
                         "n0_rounds": None, "n0_hours": None, "ror": _finite(f.ror),
                         "rounds_per_hour": game.limits.rounds_per_hour,
                         "status": "counting cannot help: flat bets at the table minimum"})
    return document


def report_json(report: CompareReport) -> dict[str, Any]:
    """The `--json` document: the order, the best game, and one object per game in that order."""
    best = report.best
    return {"sort": report.sort, "best": best.name if best else None, "too_close_to_call": list(report.close),
            "rounds_simulated": report.simulated, "run_on": report.where,
            "games": [result_json(r) for r in report.results]}
