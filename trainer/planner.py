"""`cutcard plan` as one library call: the statistics of the learner's game, the ramp, the plan file.

The command gathers options; this module turns a game and a table into a `PlanReport` (the exact
ramp, the simplified one where asked, the learner's own figures with `--errors`), its `--json`
document (DESIGN §11's keys, with more beside them), and the plan in force kept as
`$CUTCARD_HOME/plan.json` (the document plus the table it was made for), which `set ramp plan` and
the journal read.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from trainer.core.errors import InvalidInputError, StorageError
from trainer.core.wonging import Wonging
from trainer.files import write_atomically
from trainer.planning.ramp import (
    BetPlan,
    CountRow,
    RampFigures,
    SpotPlan,
    TableLimits,
    evaluate,
    optimal,
    simplify,
)
from trainer.sim.counter import Mistakes
from trainer.sim.results import CountStats
from trainer.sim.runner import Plan

PLAN_FILE = "plan.json"
ALONE_ROUNDS = 20_000_000
"""Rounds simulated for the cost of each kind of the learner's errors alone (kept in the store)."""
GameStatistics = Callable[[Plan, int | None, str], Sequence[CountRow]]
"""The per-count statistics of a game, from its store or simulated (with a progress bar where the
caller shows one): (the game, the rounds wanted or None for the store's default, the run's name)."""
ROUNDS_PER_HOUR = {1: 209, 2: 139, 3: 105, 4: 84, 5: 70, 6: 60, 7: 52}
"""Rounds an hour a dealer of average speed deals a shoe game, by the players at the table (a reading:
the figures counters' books give, about 200 heads-up and 50 at a full table)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrorCost:
    """What one kind of the learner's errors costs, per hour, against perfect play of the same ramp."""

    kind: str
    rate: float
    per_hour: float
    per_hour_se: float


@dataclass(frozen=True, slots=True, kw_only=True)
class LearnerFigures:
    """The plan's ramp as the learner plays it today (`--errors`)."""

    figures: RampFigures
    source: str
    costs: tuple[ErrorCost, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanReport:
    """A plan: the table, the statistics it rests on, the ramp in force and its figures."""

    limits: TableLimits
    rows: tuple[CountStats, ...]
    statistics: str
    """Where the per-count statistics come from, in words."""
    exact: BetPlan
    simplified: BetPlan | None = None
    chip: float | None = None
    ruleset: str = ""
    system: str = ""
    learner: LearnerFigures | None = None
    wonging: Wonging | None = None
    """Back-counting: the policy the plan is made for (entry only, or an exit policy's own statistics)."""
    bet_count: str = ""
    """Which count the ramp's true counts are, in a line's words, where it is not the plain count (a side
    count's adjusted one: `trainer.sim.count.bet_count_words`)."""
    bet_count_name: str | None = None
    """The same as `sim --json`'s `counting.bet_count` ('plain', 'ace-adjusted', 'side-adjusted'), in the
    `--json` document and `plan.json` as `bet_count`; None where the statistics do not say."""

    @property
    def plan(self) -> BetPlan:
        """The ramp in force: the simplified one where asked for."""
        return self.simplified or self.exact


def plan_game(rows: Sequence[CountRow], limits: TableLimits, *, chip: float | None = None,
              statistics: str = "", ruleset: str = "", system: str = "",
              entry: int | None = None, spots: SpotPlan | None = None, wonging: Wonging | None = None,
              observed: int | None = None, bet_count: str = "", bet_count_name: str | None = None,
              ) -> PlanReport:
    """The optimal ramp for these statistics and this table, and its simplified form if `chip` is given;
    a back-counter's (`entry`) plays from the entry count up and watches the rounds below it."""
    stats = tuple(CountStats(true_count=r.true_count, rounds=r.rounds, mean=r.mean,
                             second_moment=r.second_moment) for r in rows)
    exact = optimal(stats, limits, entry=entry, spots=spots, observed=observed)
    simple = simplify(stats, exact, limits, chip) if chip is not None else None
    if wonging is None and entry is not None:
        wonging = Wonging(entry=entry)
    return PlanReport(limits=limits, rows=stats, statistics=statistics, exact=exact, simplified=simple,
                      chip=chip, ruleset=ruleset, system=system, wonging=wonging, bet_count=bet_count,
                      bet_count_name=bet_count_name)


def with_learner(report: PlanReport, rows: Sequence[CountRow], *, bet_error: float, source: str,
                 alone: Sequence[tuple[str, float, Sequence[CountRow] | None]]) -> PlanReport:
    """The report with the plan's ramp played by the learner: `rows` are the game's statistics with
    their count and strategy errors, `bet_error` their bet error rate; `alone` names each kind of error
    with its rate and the statistics with that kind alone (None: the bets, which the planner models)."""
    limits = report.limits
    ramp = report.plan.ramp
    entry, spots, observed = report.plan.entry, report.plan.spots, report.plan.observed
    mine = evaluate(rows, ramp, limits, bet_error=bet_error, entry=entry, spots=spots, observed=observed)
    perfect = report.plan.figures
    costs = []
    for kind, rate, kind_rows in alone:
        if kind_rows is None:
            theirs = evaluate(report.rows, ramp, limits, bet_error=rate, entry=entry, spots=spots,
                              observed=observed)
        else:
            theirs = evaluate(kind_rows, ramp, limits, entry=entry, spots=spots, observed=observed)
        se = math.hypot(perfect.ev_per_hour_se, theirs.ev_per_hour_se)
        costs.append(ErrorCost(kind=kind, rate=rate, per_hour=perfect.ev_per_hour - theirs.ev_per_hour,
                               per_hour_se=se))
    return replace(report, learner=LearnerFigures(figures=mine, source=source, costs=tuple(costs)))


def learner_plan(report: PlanReport, game: Plan, mistakes: Mistakes, *, source: str,
                 statistics: GameStatistics, rounds: int | None = None) -> PlanReport:
    """The report with its ramp played by a learner with these error rates (from `source`, in words):
    the game simulated with their counting, true-count and strategy errors (their bet errors are the
    planner's to model), and each kind alone for its cost, on `ALONE_ROUNDS` rounds (or `rounds`
    where fewer are asked for; the errors' own game on `rounds`, or the store's default)."""
    m = mistakes
    played = Mistakes(count=m.count, true_count=m.true_count, strategy=m.strategy, cells=m.cells,
                      wrong=m.wrong)
    rows: Sequence[CountRow] = report.rows
    if played.any:
        rows = statistics(replace(game, mistakes=played), rounds, "With your errors")
    alone: list[tuple[str, float, Sequence[CountRow] | None]] = []
    for kind, rate, only in (
            ("counting", m.count, Mistakes(count=m.count)),
            ("true count", m.true_count, Mistakes(true_count=m.true_count)),
            ("strategy", max(m.strategy, max(m.cells.values(), default=0.0)),
             Mistakes(strategy=m.strategy, cells=m.cells, wrong=m.wrong))):
        if only.any:
            alone.append((kind, rate, statistics(replace(game, mistakes=only),
                                                 min(rounds or ALONE_ROUNDS, ALONE_ROUNDS),
                                                 f"Your {kind} errors alone")))
    if m.bet:
        alone.append(("betting", m.bet, None))
    return with_learner(report, rows, bet_error=m.bet, source=source, alone=alone)


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def to_json(report: PlanReport) -> dict[str, Any]:
    """The `--json` document: DESIGN §11's keys, and the rest beside them."""
    plan = report.plan
    f = plan.figures
    document: dict[str, Any] = {
        "ramp": [{"true_count": s.true_count, "bet": round(s.bet, 2),
                  **({"hands": s.hands} if plan.spots else {})} for s in plan.ramp],
        "ev_per_round": f.ev_per_round,
        "ev_per_round_se": f.ev_per_round_se,
        "sd_per_round": f.sd_per_round,
        "ev_per_hour": f.ev_per_hour,
        "sd_per_hour": f.sd_per_hour,
        "di": f.di,
        "score": f.score,
        "n0_rounds": _finite(f.n0_rounds),
        "ror": f.ror,
        "trip_ror": f.trip_ror,
        "kelly_multiple": plan.kelly_multiple,
        "rounds_per_hour": f.rounds_per_hour,
        "ev_per_hour_se": f.ev_per_hour_se,
        "score_se": f.score_se,
        "n0_hours": _finite(f.n0_hours),
        "hours": f.hours,
        "certainty_equivalent": f.certainty_equivalent,
        "average_bet": f.average_bet,
        "status": plan.status,
        "bankroll_needed": None if plan.bankroll_needed is None else _finite(plan.bankroll_needed),
        "units": {str(tc): u for tc, u in plan.units(report.limits.min_bet).items()},
        "statistics": {"source": report.statistics, "rounds": sum(r.rounds for r in report.rows)},
    }
    if report.bet_count_name is not None:  # which count the ramp's true counts are, as `sim --json` says
        document["bet_count"] = report.bet_count_name
    if plan.spots is not None:  # several spots: each step's bet is per hand
        document.update({"spots": plan.spots.spots.text, "correlation": plan.spots.correlation,
                         "two_spot_factor": plan.spots.factor(2)})
    if report.wonging is not None:  # back-counting: the figures above are per round observed
        document.update({"wong_in": report.wonging.entry, "wong_out": report.wonging.exit,
                         "played_share": f.played_share,
                         "ev_per_round_played": f.ev_per_round_played,
                         "sd_per_round_played": f.sd_per_round_played})
    if report.simplified is not None:
        document["simplified"] = {"chip": report.chip, "exact_score": report.exact.figures.score,
                                  "score_cost": report.exact.figures.score - f.score,
                                  "exact_ramp": [{"true_count": s.true_count, "bet": round(s.bet, 2)}
                                                 for s in report.exact.ramp]}
    if report.learner is not None:
        mine = report.learner.figures
        document["errors"] = {
            "source": report.learner.source, "score": mine.score, "perfect_score": f.score,
            "ev_per_hour": mine.ev_per_hour, "ev_per_hour_se": mine.ev_per_hour_se, "ror": mine.ror,
            "trip_ror": mine.trip_ror,
            "costs": [{"kind": c.kind, "rate": c.rate, "per_hour": c.per_hour, "per_hour_se": c.per_hour_se}
                      for c in report.learner.costs]}
    return document


def plan_file_document(report: PlanReport) -> dict[str, Any]:
    """What `plan.json` keeps: the `--json` document, the table the plan was made for, and the per-count
    statistics it rests on (so the journal re-plans today's bankroll without simulating again; the file
    is also a `--stats FILE`)."""
    limits = report.limits
    return {**to_json(report), "bankroll": limits.bankroll, "min_bet": limits.min_bet,
            "max_bet": limits.max_bet, "spread": limits.spread, "target_ror": limits.ror,
            "ruleset": report.ruleset, "system": report.system,
            "per_count": [{"true_count": r.true_count, "rounds": r.rounds, "mean": r.mean,
                           "second_moment": r.second_moment} for r in report.rows]}


def save_plan(home: Path, report: PlanReport) -> Path:
    """Keep the plan in force as `home/plan.json`, written whole (a fresh scratch file renamed over it,
    removed if the write fails)."""
    document = plan_file_document(report)
    # the journal reads `ror` as the plan's own risk; the target is `target_ror`
    path = home / PLAN_FILE
    try:
        home.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(document, indent=2).encode())
    except OSError as e:
        raise StorageError(f"cannot write {path}: {e.strerror or e}") from None
    return path


def plan_document(home: Path) -> dict[str, Any] | None:
    """The plan in force (`plan.json`) as saved, None where no plan was saved, or a one-line error
    where the file is not a plan."""
    path = home / PLAN_FILE
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise StorageError(f"{path} is not a plan ({str(e)[:80]}): make a new one with "
                           "`plan --save`") from None
    if not isinstance(document, dict):
        raise StorageError(f"{path} is not a plan: make a new one with `plan --save`")
    return document


def load_plan(home: Path) -> dict[str, Any]:
    """The plan in force (`plan.json`), or a one-line error saying how to make one."""
    document = plan_document(home)
    if document is None:
        raise InvalidInputError("no plan yet: make one with `plan --save` (or `plan` in the REPL)")
    if not isinstance(document.get("units"), dict):
        raise StorageError(f"{home / PLAN_FILE} is not a plan: make a new one with `plan --save`")
    return document


def ramp_text(document: dict[str, Any]) -> str:
    """A saved plan's ramp as `set ramp` takes it: TC:UNITS steps, units of the plan's minimum bet
    (the ramp's first step is its count at the minimum, so every count below bets the minimum too)."""
    try:
        steps = sorted((int(tc), int(units)) for tc, units in document["units"].items())
    except (TypeError, ValueError) as e:
        raise StorageError(f"the saved plan's ramp is not readable ({e})") from None
    if not steps:
        raise StorageError("the saved plan has no ramp")
    kept = [steps[0]] + [s for prev, s in itertools.pairwise(steps) if s[1] != prev[1]]
    return ",".join(f"{tc}:{units}" for tc, units in kept)


@dataclass(frozen=True, slots=True, kw_only=True)
class StatsDocument:
    """A `per_count` table read from a file, with the game it names (where it names one)."""

    rows: tuple[CountStats, ...]
    ruleset: str | None = None
    system: str | None = None
    correlation: float | None = None
    """A `sim --spots` document's covariance of two hands over a hand's variance, if it has them."""
    observed: int | None = None
    """A back-counter's `sim` document: the rounds observed, of which its per-count rows were played."""
    bet_count: str | None = None
    """Which count its per-count rows are keyed by (`sim --json`'s `counting.bet_count`), if it says."""


def read_stats(path: Path) -> StatsDocument:
    """The `per_count` table of a document (what `sim --json` writes, or anyone's), checked, and the
    rule set and count system it names (`sim --json`'s `ruleset` and `counting.system`, or a saved
    plan's `ruleset` and `system`), if any."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise InvalidInputError(f"cannot read {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise InvalidInputError(f"{path} is not JSON ({e})") from None
    rows = document.get("per_count") if isinstance(document, dict) else None
    if not isinstance(rows, list) or not rows:
        raise InvalidInputError(f"{path} has no per_count table (what `sim --count S --json` writes)")
    out = []
    for i, r in enumerate(rows):
        try:
            out.append(CountStats(true_count=_int(r["true_count"]), rounds=_int(r["rounds"]),
                                  mean=float(r["mean"]), second_moment=float(r["second_moment"])))
        except (KeyError, TypeError, ValueError):
            raise InvalidInputError(f"{path}: per_count row {i + 1} needs whole true_count and rounds, and "
                                    "numbers mean and second_moment") from None
        if out[-1].rounds < 0:
            raise InvalidInputError(f"{path}: per_count row {i + 1} has {out[-1].rounds} rounds")
    counting = document.get("counting")  # sim --json names the count there, plan.json at the top
    system = counting.get("system") if isinstance(counting, dict) else document.get("system")
    ruleset = document.get("ruleset")
    variance, covariance = document.get("variance_per_hand"), document.get("covariance")
    correlation = (covariance / variance if isinstance(variance, int | float) and variance > 0
                   and isinstance(covariance, int | float) else None)
    observed = document.get("rounds_observed")
    wonging = document.get("wonging")
    bet_count = (counting if isinstance(counting, dict) else document).get("bet_count")
    return StatsDocument(rows=tuple(out), ruleset=ruleset if isinstance(ruleset, str) else None,
                         system=system if isinstance(system, str) else None, correlation=correlation,
                         observed=observed if isinstance(observed, int) and isinstance(wonging, dict)
                         else None, bet_count=bet_count if isinstance(bet_count, str) else None)


def document_bet_count(name: str | None) -> str:
    """A document's bet count (`StatsDocument.bet_count`) as the plan's line ('' for the plain count or
    none named)."""
    if name is None or name == "plain":
        return ""
    return f"bets follow the {name} count, plays the plain one, as the file says"


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise ValueError(value)
    return int(value)


def rounds_per_hour(seats: int, given: float | None) -> float:
    """The rounds an hour: as given, or by the players at the table (`ROUNDS_PER_HOUR`)."""
    if given is not None:
        if not given > 0:
            raise InvalidInputError(f"--rounds-per-hour must be above 0, not {given:g}")
        return given
    if seats not in ROUNDS_PER_HOUR:
        raise InvalidInputError(f"--seats is the players at the table, 1 to 7, not {seats}")
    return float(ROUNDS_PER_HOUR[seats])
