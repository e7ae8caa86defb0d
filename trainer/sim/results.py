"""What a simulation shows: EV, standard deviation and error, and a counter's yardsticks.

Definitions (per round of one seat, in betting units; a round is a "hand" in the counters' tables):

- EV per initial bet: total won / total of initial bets (flat betting: the mean result of a round).
- SD: the standard deviation of one round's result; SE: SD / sqrt(rounds), of the mean; for the EV per
  initial bet, divided by the average bet.
- Win rate per 100 hands: 100 x the mean result; SD per 100 hands: 10 x SD.
- N0 = variance / mean^2: the rounds after which the expected win equals one standard deviation.
- SCORE = 1,000,000 / N0: the win per 100 hands of a player with a 10,000-unit bankroll who sizes the
  whole ramp by the Kelly criterion (Schlesinger, Blackjack Attack).
- Risk of ruin for a bankroll B: ((1 - m/s) / (1 + m/s)) ** (B / s), the chance that a player who keeps
  betting this ramp ever loses B (the formula CVCX uses; close to exp(-2 m B / s^2)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from trainer.sim.engine import Winnings


def risk_of_ruin(mean: float, sd: float, bankroll: float) -> float:
    """The chance of ever losing `bankroll` units, playing on for ever at `mean` and `sd` a round.

    >>> round(risk_of_ruin(0.02, 3.0, 1000), 4)
    0.0117
    >>> risk_of_ruin(-0.01, 1.1, 1000), risk_of_ruin(0.02, 3.0, 0)
    (1.0, 1.0)
    """
    if mean <= 0 or bankroll <= 0:
        return 1.0
    if mean >= sd:
        return 0.0
    ratio = mean / sd
    return float(((1 - ratio) / (1 + ratio)) ** (bankroll / sd))


@dataclass(frozen=True, slots=True, kw_only=True)
class CountStats:
    """What rounds at one true count won, per unit of the initial bet: the rounds, the mean result and
    its second moment (the mean squared result), played flat by the counter's plays. A bet ramp is
    planned from these (`trainer.planning`)."""

    true_count: int
    rounds: int
    mean: float
    second_moment: float

    def to_json(self) -> dict[str, int | float]:
        return {"true_count": self.true_count, "rounds": self.rounds, "mean": self.mean,
                "second_moment": self.second_moment}


def per_count(tally: Winnings, scale: int) -> tuple[CountStats, ...]:
    """The tally's rounds by true count at round start, lowest first (empty without a counter).

    >>> per_count(Winnings(rounds=3, by_count={2: [2, 3, 9], -1: [1, -2, 4]}), 2)[1]
    CountStats(true_count=2, rounds=2, mean=0.75, second_moment=1.125)
    """
    return tuple(CountStats(true_count=tc, rounds=n, mean=net / (n * scale),
                            second_moment=squares / (n * scale * scale))
                 for tc, (n, net, squares) in sorted(tally.by_count.items()) if n)


@dataclass(frozen=True, slots=True, kw_only=True)
class Summary:
    """The figures of one simulation."""

    rounds: int
    mean: float
    """Mean result of a round, in betting units."""
    sd: float
    average_bet: float
    ev: float
    """Won per unit of initial bet."""
    bets: dict[int, int]
    per_count: tuple[CountStats, ...] = ()
    """Counting: the rounds by true count at round start (flat-bet figures, `per_count`)."""

    @property
    def se(self) -> float:
        """Standard error of `ev`."""
        return self.sd / math.sqrt(self.rounds) / self.average_bet if self.rounds else math.inf

    @property
    def se_mean(self) -> float:
        return self.sd / math.sqrt(self.rounds) if self.rounds else math.inf

    @property
    def win_per_100(self) -> float:
        return 100 * self.mean

    @property
    def sd_per_100(self) -> float:
        return 10 * self.sd

    @property
    def n0(self) -> float:
        """Rounds to overcome one standard deviation; infinite where the game does not win."""
        return self.sd**2 / self.mean**2 if self.mean > 0 else math.inf

    @property
    def score(self) -> float:
        return 1_000_000 / self.n0 if self.mean > 0 else 0.0

    def risk_of_ruin(self, bankroll: float) -> float:
        return risk_of_ruin(self.mean, self.sd, bankroll)


def summarize(tally: Winnings, scale: int) -> Summary:
    """The figures of a tally whose results are in `scale`ths of a betting unit.

    >>> summarize(Winnings(rounds=4, net=2, net_squares=10, wagered=4), 2).ev
    0.25
    """
    if tally.rounds == 0:
        return Summary(rounds=0, mean=0.0, sd=0.0, average_bet=1.0, ev=0.0, bets={})
    n = tally.rounds
    mean = tally.net / (n * scale)
    # the sample variance from exact integer sums: no cancellation however many rounds
    spread = n * tally.net_squares - tally.net * tally.net
    sd = math.sqrt(spread / (n * (n - 1))) / scale if n > 1 else 0.0
    average_bet = tally.wagered / n
    ev = tally.net / (tally.wagered * scale)
    return Summary(rounds=n, mean=mean, sd=sd, average_bet=average_bet, ev=ev, bets=dict(sorted(
        tally.bets.items())), per_count=per_count(tally, scale))
