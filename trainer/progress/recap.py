"""What a learner is told around a run: the review's header before it, and after every drill or review
session a short recap (accuracy and speed against their previous sessions of that drill, when each
missed item comes back, what was added to review).

The session layer computes it from the progress database and the driver prints it: drills never see the
store. Works on the writable `Store` and on a read-only view alike (both have `conn`, `path`,
`due_count` and `introduced_since`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Protocol

from trainer.progress.days import day_start, local_day
from trainer.progress.items import drill_title, item_name
from trainer.storage.progress import Connected, ProgressFigures

if TYPE_CHECKING:
    from trainer.practice.session import DrillRun

PREVIOUS_SESSIONS = 5
"""How many earlier sessions of a drill a recap compares with."""
SECONDS_AROUND_AN_ANSWER = 4.0
"""Reading the question and the grade, on top of the answer time, in the review's time estimate."""
UNKNOWN_ANSWER_SECONDS = 6.0
"""The answer time assumed before a learner has any recent answers."""
MISSES_SHOWN = 5


class Readable(Connected, Protocol):
    """The `Store` or a read-only view: a connection, THE due count and the day's new items."""

    def due_count(self, now: float, *, ruleset: str | None = None) -> int: ...

    def introduced_since(self, ts: float) -> int: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewHeader:
    """What `review` says before the first question."""

    due_now: int
    new_today: int
    minutes: float
    ruleset: str | None

    def line(self) -> str:
        scope = f" ({self.ruleset})" if self.ruleset else ""
        minutes = "under a minute" if self.minutes < 1 else f"about {self.minutes:.0f} minute" + (
            "" if round(self.minutes) == 1 else "s")
        new = f"up to {self.new_today} new today" if self.new_today else "no new items"
        return (f"Review{scope}: {self.due_now} due now, {new}; {minutes}"
                if self.due_now or self.new_today
                else f"Review{scope}: nothing due now and no new items left today")


def review_header(source: Readable, *, now: float, ruleset: str | None, new_per_day: int,
                  limit: int | None) -> ReviewHeader:
    """Due now (THE due count), the new items today's limit still allows, and the time it may take at the
    learner's median answer time over the last 30 days."""
    due = source.due_count(now, ruleset=ruleset)
    new = max(0, new_per_day - source.introduced_since(day_start(local_day(now))))
    if limit is not None:
        due_asked = min(due, limit)
        new = min(new, limit - due_asked)
    else:
        due_asked = due
    progress = ProgressFigures.on(source)
    median = progress.median_answer_ms(day_start(local_day(now) - timedelta(days=29)))
    per_answer = (median / 1000 if median is not None else UNKNOWN_ANSWER_SECONDS) + SECONDS_AROUND_AN_ANSWER
    return ReviewHeader(due_now=due, new_today=new, minutes=(due_asked + new) * per_answer / 60,
                        ruleset=ruleset)


def _when(due_ts: float, now: float, last_right: bool) -> str:
    if not last_right or due_ts <= now:
        return "now"
    wait = due_ts - now
    if wait < 3600:
        return f"in {max(1, round(wait / 60))} min"
    if wait < 86400:
        return f"in {wait / 3600:.0f} h"
    return f"in {wait / 86400:.0f} days"


def _seconds(ms: float | None) -> str:
    return "—" if ms is None else f"{ms / 1000:.1f} s"


def _not_timed(pace: str) -> str:
    """What a session's recap says for its speed when no answer was timed at the learner's own pace."""
    return "a script's answers, untimed" if pace == "script" else "timed by the flash"


def session_recap(source: Readable, session: DrillRun, *, now: float) -> list[str]:
    """A few labelled lines about one session that recorded answers (none for one that did not)."""
    progress = ProgressFigures.on(source)
    sid = session.session_id
    started = progress.session_started(sid)
    if started is None:
        return []
    drill = session.drill.name
    found = progress.session_figures(drill, (sid,), started)
    if not found or not found[0].attempts:
        return []
    mine = found[0]
    # speed from the answers timed at the learner's own pace only (a script's or a flash's time is not)
    timed = progress.session_figures(drill, (sid,), started, learner_only=True)
    my_median = timed[0].median_ms if timed else None
    title = f"{drill_title(drill)} ({session.ruleset.name})"
    where = "review" if session.source == "review" else "session"
    speed = f"median {_seconds(my_median)}" if my_median is not None else _not_timed(session.pace)
    lines = [f"{title} {where}: {mine.attempts} answered, {mine.correct} right "
             f"({mine.correct / mine.attempts:.0%}), {speed}"]
    earlier = progress.earlier_sessions(drill, started, limit=PREVIOUS_SESSIONS)
    if earlier:
        ids, first = tuple(i for i, _ in earlier), min(t for _, t in earlier)
        groups = progress.session_figures(drill, ids, first)
        answers = sum(g.attempts for g in groups)
        right = sum(g.correct for g in groups)
        medians = sorted(g.median_ms for g in progress.session_figures(drill, ids, first, learner_only=True)
                         if g.median_ms is not None)
        if answers:
            before = right / answers
            typical = medians[len(medians) // 2] if medians else None
            change = mine.correct / mine.attempts - before
            verdict = "better" if change > 0.02 else "worse" if change < -0.02 else "about the same"
            pace = ""
            if typical is not None and my_median is not None:
                pace = ", faster" if my_median < 0.95 * typical else (
                    ", slower" if my_median > 1.05 * typical else ", same pace")
            median = f", median {_seconds(typical)}" if typical is not None else ""
            lines.append(f"  your previous {len(groups)} session{'s' if len(groups) != 1 else ''}: "
                         f"{before:.0%} right{median} — this one {verdict}{pace}")
    else:
        lines.append("  your first session of this drill: the next one is compared with it")
    misses = progress.session_misses(drill, sid, started)
    if misses:
        lines.append("  missed, back for review:")
        lines.extend(f"    {item_name(item)}: {_when(due, now, right)}"
                     for item, _r, due, right in misses[:MISSES_SHOWN])
        if len(misses) > MISSES_SHOWN:
            lines.append(f"    and {len(misses) - MISSES_SHOWN} more")
    new = progress.session_new_items(drill, sid, started)
    if new:
        lines.append(f"  added to review: {new} new item{'s' if new != 1 else ''}")
    return lines


def run_recap(source: Readable, sessions: list[DrillRun], *, now: float) -> list[str]:
    """The recap of every session of a run, under one heading."""
    lines: list[str] = []
    for session in sessions:
        lines.extend(session_recap(source, session, now=now))
    if not lines:
        return []
    review = any(s.source == "review" for s in sessions)
    return ["", "Review summary" if review else "Session summary", *lines]
