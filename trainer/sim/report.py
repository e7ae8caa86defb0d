"""A finished simulation as one value: what was played, the figures, and its `--json` document.

The `--json` keys `ruleset`, `hands`, `ev`, `sd`, `se`, `hands_per_second` are a contract (DESIGN §2);
everything else is added beside them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from trainer.core.rules import Ruleset
from trainer.sim.count import bet_count_name
from trainer.sim.counter import Counter, Mistakes
from trainer.sim.results import Summary


@dataclass(frozen=True, slots=True, kw_only=True)
class Errors:
    """The learner's measured error rates, and the same simulation played with them."""

    mistakes: Mistakes
    summary: Summary
    source: str
    """Where the rates come from, in words (e.g. 'progress database: 412 answers')."""
    answers: dict[str, int] | None = None
    """How many answers (drills and table) each rate comes from, by drill."""
    bets_only: Summary | None = None
    """The same game played with the bet mistakes alone (counting with a bet error rate): their cost."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SimReport:
    """One `cutcard sim` run."""

    ruleset: Ruleset
    seed: int
    jobs: int
    seconds: float
    """Wall-clock time of the simulation proper (not the chart), for hands per second."""
    summary: Summary
    chart_ev: float
    """The exact engine's EV of the game played by the chart, per unit of the original bet."""
    counter: Counter | None = None
    indices: str = ""
    """The index plays' source in words ('' for none)."""
    bankroll: int = 0
    errors: Errors | None = None
    engine: str = "python"
    """Which simulator played: "compiled" (the numba kernel, its jobs on threads) or "python" (its jobs
    in processes). The two draw different random numbers, so a seed's figures depend on it (and, with
    the Python engine, on the job count)."""

    @property
    def hands(self) -> int:
        """Rounds dealt (with back-counting, played and watched)."""
        return self.summary.rounds_observed

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    @property
    def z(self) -> float:
        """How many standard errors the simulated EV lies from the exact one (flat betting)."""
        return (self.summary.ev - self.chart_ev) / self.summary.se if self.summary.se else 0.0

    def to_json(self) -> dict[str, Any]:
        s = self.summary
        document: dict[str, Any] = {
            "ruleset": self.ruleset.name,
            "hands": self.hands,
            "ev": s.ev,
            "sd": s.sd,
            "se": s.se,
            "hands_per_second": round(self.hands_per_second),
            "seed": self.seed,
            "jobs": self.jobs,
            "engine": self.engine,
            "decks": self.ruleset.shoe.decks,
            "chart_ev": self.chart_ev,
        }
        if self.counter is None:
            document["z"] = self.z
        else:
            document["counting"] = self._counting_json(s)
            document["per_count"] = [row.to_json() for row in s.per_count]
            document["rounds_observed"] = s.rounds_observed
            document["rounds_played"] = s.rounds
            if self.counter.wonging is not None:
                document.update(self._wonging_json(s))
            if self.counter.spots is not None:
                document.update({"spots": self.counter.spots.text, "hands_played": s.hands,
                                 "variance_per_hand": s.variance_per_hand, "covariance": s.covariance,
                                 "correlation": s.correlation, "pair_rounds": s.pair_rounds})
        if self.errors is not None:
            mine = self.errors.summary
            document["errors"] = {
                "rates": {"count": self.errors.mistakes.count,
                          "true_count": self.errors.mistakes.true_count,
                          "strategy": self.errors.mistakes.strategy,
                          "bet": self.errors.mistakes.bet},
                "answers": dict(self.errors.answers or {}),
                "source": self.errors.source,
                "ev": mine.ev,
                "se": mine.se,
                "win_per_100": mine.win_per_100,
                "cost_per_100": s.win_per_100 - mine.win_per_100,
            }
            if self.counter is not None:
                document["errors"]["counting"] = self._counting_json(mine)
            if self.errors.bets_only is not None:
                document["errors"]["bet_cost_per_100"] = s.win_per_100 - self.errors.bets_only.win_per_100
        return document

    def _wonging_json(self, s: Summary) -> dict[str, Any]:
        """Back-counting: the policy, the share of rounds played, and the figures per round observed
        (those of `counting` are per round played)."""
        assert self.counter is not None and self.counter.wonging is not None
        wong = self.counter.wonging
        return {
            "wonging": {"entry": wong.entry, "exit": wong.exit, "by_path": wong.by_path},
            "played_share": s.played_share,
            "per_round_observed": {
                "win_per_100": 100 * s.mean_observed,
                "sd_per_100": 10 * (s.sd_observed or s.sd),
                "n0": s.n0_observed if math.isfinite(s.n0_observed) else None,
            },
        }

    def _counting_json(self, s: Summary) -> dict[str, Any]:
        counter = self.counter
        assert counter is not None
        return {
            "system": counter.system.name,
            "bet_count": bet_count_name(counter.system),
            "spread": f"{counter.spread[0]}-{counter.spread[1]}",
            "ramp": {str(tc): bet for tc, bet in counter.ramp.items()},
            "indices": self.indices,
            "estimation": counter.estimation,
            "rounding": counter.rounding,
            "win_per_100": s.win_per_100,
            "sd_per_100": s.sd_per_100,
            "se_per_100": 100 * s.se_mean,
            "average_bet": s.average_bet,
            "n0": s.n0 if math.isfinite(s.n0) else None,
            "score": s.score,
            "bankroll": self.bankroll,
            "risk_of_ruin": s.risk_of_ruin(self.bankroll),
            "bets": {str(b): n for b, n in s.bets.items()},
        }
