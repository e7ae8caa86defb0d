"""A `cutcard sim` run as one library call: its options checked, the game played, and with the
learner's error rates the same game played again with them (and with their mis-bets alone), so that
the command is options in, one call, the report out.

How a run is played (on which jobs, with which progress bar) is the caller's: it hands in a `Runner`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass

from trainer.core.errors import InvalidInputError
from trainer.sim.counter import Mistakes
from trainer.sim.report import Errors
from trainer.sim.results import Summary
from trainer.sim.runner import Plan, most_jobs

Runner = Callable[[Plan, str], tuple[Summary, bool]]
"""Plays a plan under a name ("Simulating", "With your errors"): its figures, and whether Ctrl-C
stopped it (the figures are then those of the rounds played)."""


def check_options(*, counting: bool, spread: str | None, ramp: str | None, indices: str | None,
                  no_indices: bool, bankroll: int) -> None:
    """The options that only make sense together, each refused in one line."""
    if not counting and (spread or ramp or indices or no_indices):
        raise InvalidInputError("--spread, --ramp and --indices need --count SYSTEM (e.g. --count hi-lo)")
    if indices and no_indices:
        raise InvalidInputError("--indices and --no-indices say opposite things: give one")
    if bankroll < 1:
        raise InvalidInputError(f"--bankroll must be at least 1 unit, not {bankroll}")


def choose_jobs(jobs: int | None) -> tuple[int, str | None]:
    """The jobs a run uses (every core by default, never more than there are), and what to tell the
    user where fewer than asked are used."""
    cores = most_jobs()
    warning = None
    if jobs is not None and jobs > cores:
        warning = (f"--jobs {jobs} is more than the {cores} core{'s' if cores > 1 else ''} of this machine: "
                   f"using {cores}")
    chosen = min(jobs, cores) if jobs is not None else cores
    if chosen < 1:
        raise InvalidInputError(f"--jobs must be 1 or more, not {chosen}")
    return chosen, warning


@dataclass(frozen=True, slots=True, kw_only=True)
class Study:
    """What a `sim` run played."""

    summary: Summary
    seconds: float
    """Wall-clock time of the first run alone (the speed is the engine's)."""
    errors: Errors | None
    stopped: bool


def run_study(plan: Plan, run: Runner, *, mistakes: Mistakes | None = None, source: str = "",
              answers: dict[str, int] | None = None) -> Study:
    """Play `plan`; with `mistakes` (the learner's, read from `source`), play it again with them, and
    for a counter with a bet error rate once more with the mis-bets alone (their own cost). A run that
    Ctrl-C stops ends the study there."""
    started = time.perf_counter()
    summary, stopped = run(plan, "Simulating")
    seconds = time.perf_counter() - started
    if mistakes is None or stopped:
        return Study(summary=summary, seconds=seconds, errors=None, stopped=stopped)
    played, stopped = run(dataclasses.replace(plan, mistakes=mistakes), "With your errors")
    bets_only = None
    if plan.counter is not None and mistakes.bet and not stopped:
        bets_only, stopped = run(dataclasses.replace(plan, mistakes=Mistakes(bet=mistakes.bet)),
                                 "With your mis-bets")
    errors = None if stopped else Errors(mistakes=mistakes, summary=played, source=source, answers=answers,
                                         bets_only=bets_only)
    return Study(summary=summary, seconds=seconds, errors=errors, stopped=stopped)
