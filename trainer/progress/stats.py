"""Progress figures for `cutcard stats`: per drill and per skill accuracy and answer time, week by week;
where the answers were given; activity, weak spots, counting speed and the review picture.

Built from a read-only view of the database (`trainer.storage.reader`): every figure an aggregate query,
never a Python loop over the attempts. Counts and accuracy of the windows read the daily roll-up; their
medians the 100 ms roll-ups and the answers of each median's band; the weekly and per-skill figures the
weekly roll-up, read once. This module
picks the windows, fills the gaps (weeks and days without answers) and names things in words
(`progress.items`); `report_to_json` gives the same figures `--json` prints; `trainer.render.stats` draws
them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from trainer.progress.days import day_start, local_day, week_start
from trainer.progress.items import SKILL_ORDER, SOURCES, drill_title, item_name
from trainer.progress.since import Since
from trainer.progress.stats_review import ReviewPicture, build_review_picture
from trainer.storage.figures import COUNTDOWN_DRILL, AnswerTally, like_prefix

if TYPE_CHECKING:
    from trainer.storage.medians import Group
    from trainer.storage.reader import ReadOnly

WINDOW_DAYS = (7, 30)
TREND_WEEKS = 12
CALENDAR_WEEKS = 53
WEAKEST = 10
WEAKEST_MIN_ATTEMPTS = 3
SOURCE_WEEKS = 4
STRATEGY_ITEMS = "strategy:"
EXACT_MEDIAN_DAYS = 90
"""Windows up to this long get exact medians from their answers; a longer `--since` span reads the
weekly roll-up (whole calendar weeks, medians to 0.1 s), and all time the per-millisecond counts."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Window:
    """One drill over the last `days` days (None: the whole `--since` span)."""

    label: str
    days: int | None
    attempts: int
    accuracy: float | None
    median_ms: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class WeekPoint:
    """A local calendar week (Monday to Sunday) ending on `last_day` (today for this week): one bar of a
    weekly chart; its median answer time is good to 0.1 s (the weekly roll-up)."""

    last_day: date
    attempts: int
    accuracy: float | None
    median_ms: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Trend:
    """A drill's or a skill's weeks, oldest first, and its totals over the `--since` span."""

    name: str
    title: str
    attempts: int
    accuracy: float | None
    median_ms: float | None
    weeks: tuple[WeekPoint, ...]
    span: str
    """What the totals cover, in words ("the 12 weeks shown", "all time")."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DrillFigures:
    drill: str
    title: str
    windows: tuple[Window, ...]
    weeks: tuple[WeekPoint, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceFigures:
    """Answers given in one place (a drill, the review queue, the table) over the source window."""

    source: str
    attempts: int
    accuracy: float | None
    median_ms: float | None
    drills: tuple[tuple[str, int, float | None], ...]
    """Per drill: (drill, answers, accuracy)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ActiveDay:
    day: date
    attempts: int
    accuracy: float


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemFigures:
    drill: str
    item: str
    name: str
    ruleset: str
    attempts: int
    accuracy: float


@dataclass(frozen=True, slots=True, kw_only=True)
class StrategySummary:
    """How much of a rule set's chart has been answered (the heatmap is `stats strategy`)."""

    ruleset: str
    cells: int
    attempts: int
    accuracy: float


@dataclass(frozen=True, slots=True, kw_only=True)
class PacePoint:
    """A week of perfect count-downs: how many, the fastest and the median seconds per deck."""

    last_day: date
    countdowns: int
    best_seconds: float
    median_seconds: float


COUNT_DRILLS = ("running-count", "true-count", "speed-count", "countdown", "table")
"""The drills that take `--distract` (their answers at `play`'s count checks included)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Tally:
    """Answers, the share right, and the median time of those the learner timed (None: none)."""

    attempts: int
    accuracy: float | None
    median_ms: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class DistractionFigures:
    """One count drill's answers given undistracted and through an interruption (`--distract`), side by
    side over the `--since` span."""

    drill: str
    title: str
    undistracted: Tally
    distracted: Tally


@dataclass(frozen=True, slots=True, kw_only=True)
class StatsReport:
    """Everything `cutcard stats` shows."""

    today: date
    since: Since
    due_now: int
    drills: tuple[DrillFigures, ...]
    skills: tuple[Trend, ...]
    source_weeks: int
    """The calendar weeks (this one included) that `sources` cover."""
    sources: tuple[SourceFigures, ...]
    calendar_from: date
    activity: tuple[ActiveDay, ...]
    weakest: tuple[ItemFigures, ...]
    strategy: tuple[StrategySummary, ...]
    counting_pace: tuple[PacePoint, ...]
    review: ReviewPicture
    distraction: tuple[DistractionFigures, ...] = ()
    """The count drills answered through an interruption in the span, each beside its calm answers."""


def _accuracy(attempts: int, correct: int) -> float | None:
    return correct / attempts if attempts else None


def _first_day(today: date, days: int | None) -> date | None:
    return None if days is None else today - timedelta(days=days - 1)


def _start(day: date | None) -> float | None:
    return None if day is None else day_start(day)


def _weeks_ago(today: date, monday: str) -> int:
    return (week_start(today) - date.fromisoformat(monday)).days // 7


def _weeks(groups: dict[int, Group], today: date, weeks: int) -> tuple[WeekPoint, ...]:
    """The calendar weeks, oldest first; each ends on its Sunday (this week: today)."""
    points = []
    for ago in range(weeks - 1, -1, -1):
        g = groups.get(ago)
        sunday = week_start(today) - timedelta(weeks=ago) + timedelta(days=6)
        points.append(WeekPoint(last_day=min(sunday, today), attempts=g.attempts if g else 0,
                                accuracy=_accuracy(g.attempts, g.correct) if g else None,
                                median_ms=g.median_ms if g else None))
    return tuple(points)


def build_report(view: ReadOnly, *, now: float, since: Since | None = None,
                 per_drill_weeks: bool = True) -> StatsReport:
    """All the figures as of `now`, over the `since` span (default: all time).

    Without `per_drill_weeks` the drills' weekly figures are left empty (the overview shows the skills'
    weeks; `stats drills` and `--json` the drills')."""
    since = since or Since(label="all", days=None)
    today = local_day(now)
    first = _first_day(today, since.days)
    figures, progress = view.figures, view.progress

    spans: list[tuple[str, int | None]] = [
        (f"{d}d", d) for d in WINDOW_DAYS if since.days is None or d < since.days]
    spans.append((since.label, since.days))
    totals = {label: figures.drill_totals(_first_day(today, days)) for label, days in spans}
    windowed = [(label, today - timedelta(days=days - 1))
                for label, days in spans if days and days <= EXACT_MEDIAN_DAYS]
    medians = dict(zip([label for label, _ in windowed],
                       progress.window_medians([first for _, first in windowed]), strict=True))
    if since.days is None:
        medians[since.label] = progress.drill_medians()
    elif since.days > EXACT_MEDIAN_DAYS:  # a long span: its weeks' roll-up, medians to 0.1 s
        medians[since.label] = {g.key[0]: g.median_ms for g in progress.weekly(
            "drill", today - timedelta(days=since.days - 1), by_week=False)}

    weeks = TREND_WEEKS if since.days is None else max(1, min(TREND_WEEKS, -(-since.days // 7)))
    first_monday = week_start(today) - timedelta(weeks=weeks - 1)
    trend_from = first_monday if first is None else max(first, first_monday)
    source_weeks = SOURCE_WEEKS if since.days is None else max(1, min(SOURCE_WEEKS, -(-since.days // 7)))
    source_from = week_start(today) - timedelta(weeks=source_weeks - 1)
    if first is not None:
        source_from = max(source_from, first)
    week_figures = progress.weeks_from(min(trend_from, source_from))
    weekly_drill: dict[str, dict[int, Group]] = defaultdict(dict)
    if per_drill_weeks:
        for g in week_figures.weekly("drill", trend_from):
            weekly_drill[g.key[0]][_weeks_ago(today, g.key[1])] = g
    weekly_skill: dict[str, dict[int, Group]] = defaultdict(dict)
    for g in week_figures.weekly("skill", trend_from):
        weekly_skill[g.key[0]][_weeks_ago(today, g.key[1])] = g
    drills = []
    for name in totals[since.label]:
        windows = []
        for label, days in spans:
            tally = totals[label].get(name, AnswerTally(attempts=0, correct=0, latency_ms=0))
            windows.append(Window(label=label, days=days, attempts=tally.attempts,
                                  accuracy=_accuracy(tally.attempts, tally.correct),
                                  median_ms=medians[label].get(name) if tally.attempts else None))
        drills.append(DrillFigures(drill=name, title=drill_title(name), windows=tuple(windows),
                                   weeks=_weeks(weekly_drill[name], today, weeks) if per_drill_weeks else ()))

    skills = []
    span_skills = {g.key[0]: g for g in week_figures.weekly("skill", trend_from, by_week=False)}
    order = {name: i for i, name in enumerate(SKILL_ORDER)}
    for name in sorted(span_skills, key=lambda s: (order.get(s, len(order)), s)):
        g = span_skills[name]
        skills.append(Trend(name=name, title=name, attempts=g.attempts,
                            accuracy=_accuracy(g.attempts, g.correct), median_ms=g.median_ms,
                            weeks=_weeks(weekly_skill[name], today, weeks),
                            span=f"the {weeks} week{'s' if weeks != 1 else ''} shown"))

    by_source: dict[str, list[Group]] = defaultdict(list)
    for g in week_figures.weekly_split(source_from):
        by_source[g.key[0]].append(g)
    overall = {g.key[0]: g for g in week_figures.weekly("source", source_from, by_week=False)}
    sources = []
    for source in sorted(overall, key=lambda s: (SOURCES.index(s) if s in SOURCES else 99, s)):
        g = overall[source]
        parts = sorted(by_source[source], key=lambda p: -p.attempts)
        sources.append(SourceFigures(
            source=source, attempts=g.attempts, accuracy=_accuracy(g.attempts, g.correct),
            median_ms=g.median_ms,
            drills=tuple((p.key[1], p.attempts, _accuracy(p.attempts, p.correct)) for p in parts)))

    calendar_from = week_start(today) - timedelta(weeks=CALENDAR_WEEKS - 1)
    if first is not None and first > calendar_from:
        calendar_from = first
    activity = tuple(ActiveDay(day=d.day, attempts=d.tally.attempts,
                               accuracy=d.tally.correct / d.tally.attempts)
                     for d in figures.daily(calendar_from, today) if d.tally.attempts)

    items = figures.item_rows(since=first)  # worst first: the weakest, and the strategy cells among them
    weak = [row for row in items if row[3] >= WEAKEST_MIN_ATTEMPTS][:WEAKEST]
    weakest = tuple(ItemFigures(drill=drill, item=item, name=item_name(item), ruleset=ruleset, attempts=n,
                                accuracy=right / n) for drill, item, ruleset, n, right in weak if right < n)
    cells: dict[str, set[str]] = defaultdict(set)
    answered: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for _drill, item, ruleset, n, right in items:
        if not like_prefix(item, STRATEGY_ITEMS):
            continue
        cells[ruleset].add(item)  # a cell answered in a drill and at the table is one cell
        answered[ruleset][0] += n
        answered[ruleset][1] += right
    strategy = tuple(StrategySummary(ruleset=r, cells=len(cells[r]), attempts=a, accuracy=right / a)
                     for r, (a, right) in sorted(answered.items(), key=lambda kv: -kv[1][0]) if a)

    pace = tuple(PacePoint(last_day=today - timedelta(days=7 * p.weeks_ago), countdowns=p.countdowns,
                           best_seconds=p.best, median_seconds=p.median)
                 for p in figures.counting_pace(COUNTDOWN_DRILL, today, day_start(trend_from), weeks))
    review = build_review_picture(view, now=now, today=today)
    distraction = distraction_figures(progress.distraction_figures(COUNT_DRILLS, _start(first)))
    return StatsReport(today=today, since=since, due_now=review.forecast[0].due, drills=tuple(drills),
                       skills=tuple(skills), source_weeks=source_weeks, sources=tuple(sources),
                       calendar_from=calendar_from, activity=activity, weakest=weakest,
                       strategy=strategy, counting_pace=pace, review=review, distraction=distraction)


def distraction_figures(groups: list[Group]) -> tuple[DistractionFigures, ...]:
    """The count drills with answers given through an interruption, in `COUNT_DRILLS` order."""
    found: dict[str, dict[bool, Tally]] = defaultdict(dict)
    for g in groups:
        drill, distracted = g.key
        found[drill][bool(distracted)] = Tally(attempts=g.attempts, accuracy=_accuracy(g.attempts, g.correct),
                                               median_ms=g.median_ms)
    none = Tally(attempts=0, accuracy=None, median_ms=None)
    return tuple(DistractionFigures(drill=drill, title=drill_title(drill),
                                    undistracted=found[drill].get(False, none), distracted=found[drill][True])
                 for drill in COUNT_DRILLS if True in found.get(drill, {}))


def plain(value: Any) -> Any:
    """Value types (dataclasses), dates and tuples as JSON values; ratios rounded to what a reader can
    use."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if hasattr(value, "__dataclass_fields__"):
        return {name: plain(getattr(value, name)) for name in value.__dataclass_fields__}
    return value


def report_to_json(report: StatsReport) -> dict[str, Any]:
    """The `--json` document: the same figures the terminal view draws."""
    document: dict[str, Any] = plain(report)
    return document
