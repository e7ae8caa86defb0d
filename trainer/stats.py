"""Progress figures for `cutcard stats`: per drill accuracy and answer time, trends, activity, weak spots.

Every figure is an aggregate query (`trainer.storage.figures`), never a Python loop over the attempts;
this module picks the windows, fills the gaps (weeks and days without answers) and shapes the strategy
cells into a chart. `report_to_json` gives the same figures `--json` prints; `trainer.render.stats` draws
them. Counting speed reads the `countdown` drill's perfect answers: the answer time per 52 of the cards it
showed (`data.cards`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from drills.hands import parse_cell
from trainer.core.bounds import quoted
from trainer.core.errors import InvalidInputError
from trainer.days import day_start, local_day, week_start
from trainer.storage.figures import ItemTally, Tally

if TYPE_CHECKING:
    from trainer.storage import Store

WINDOW_DAYS = (7, 30)
TREND_WEEKS = 12
CALENDAR_WEEKS = 53
FORECAST_DAYS = 14
WEAKEST = 10
WEAKEST_MIN_ATTEMPTS = 3
COUNTDOWN_DRILL = "countdown"


@dataclass(frozen=True, slots=True, kw_only=True)
class Since:
    """How far back the figures look: `label` as typed ("30d", "all"), `days` None for all time."""

    label: str
    days: int | None


MOST_DAYS = 50 * 365
"""The longest `--since` span: fifty years (no answer is older; longer nears the start of the epoch)."""


def parse_since(text: str) -> Since:
    """`--since`: a number of days, weeks or years (`30d`, `12w`, `1y`), or `all`.

    >>> parse_since("30d"), parse_since("2w").days, parse_since("1y").days, parse_since("all").days
    (Since(label='30d', days=30), 14, 365, None)
    """
    given = text.strip().lower()
    if given in ("all", ""):
        return Since(label="all", days=None)
    match = re.fullmatch(r"(\d{1,7})\s*([dwy])", given)
    if match is None or int(match.group(1)) == 0:
        raise InvalidInputError(f"--since {quoted(text)}: expected a span like 7d, 12w, 1y, or 'all'")
    days = int(match.group(1)) * {"d": 1, "w": 7, "y": 365}[match.group(2)]
    if days > MOST_DAYS:
        raise InvalidInputError(f"--since {quoted(text)}: at most {MOST_DAYS // 365} years "
                                f"({MOST_DAYS:,} days); for every answer use --since all")
    return Since(label=given.replace(" ", ""), days=days)


@dataclass(frozen=True, slots=True, kw_only=True)
class Window:
    """One drill over the last `days` days (None: the whole `--since` span)."""

    label: str
    days: int | None
    attempts: int
    accuracy: float | None
    median_ms: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class TrendWeek:
    """Seven days ending on `last_day`: the points of a trend line."""

    last_day: date
    attempts: int
    accuracy: float | None
    mean_ms: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class DrillFigures:
    drill: str
    windows: tuple[Window, ...]
    trend: tuple[TrendWeek, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ActiveDay:
    day: date
    attempts: int
    accuracy: float


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemFigures:
    drill: str
    item: str
    ruleset: str
    attempts: int
    accuracy: float


@dataclass(frozen=True, slots=True, kw_only=True)
class ChartCell:
    hand: str
    """The chart row, e.g. `hard 16`, `soft 18`, `pair 8-8`."""
    up: str
    attempts: int
    accuracy: float


@dataclass(frozen=True, slots=True, kw_only=True)
class StrategyChart:
    """Accuracy per basic-strategy cell of one rule set, laid out like the printed chart."""

    ruleset: str
    hands: tuple[str, ...]
    ups: tuple[str, ...]
    cells: tuple[ChartCell, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PacePoint:
    """A week of perfect count-downs: how many, the fastest and the median seconds per deck."""

    last_day: date
    countdowns: int
    best_seconds: float
    median_seconds: float


@dataclass(frozen=True, slots=True, kw_only=True)
class ForecastDay:
    day: date
    due: int


@dataclass(frozen=True, slots=True, kw_only=True)
class StatsReport:
    """Everything `cutcard stats` shows."""

    today: date
    since: Since
    drills: tuple[DrillFigures, ...]
    calendar_from: date
    activity: tuple[ActiveDay, ...]
    weakest: tuple[ItemFigures, ...]
    strategy: tuple[StrategyChart, ...]
    counting_pace: tuple[PacePoint, ...]
    forecast: tuple[ForecastDay, ...]
    due_now: int


def _accuracy(tally: Tally) -> float | None:
    return tally.correct / tally.attempts if tally.attempts else None


def _first_day(today: date, days: int | None) -> date | None:
    return None if days is None else today - timedelta(days=days - 1)


def build_report(store: Store, *, now: float, since: Since | None = None) -> StatsReport:
    """All the figures as of `now`, over the `since` span (default: all time)."""
    since = since or Since(label="all", days=None)
    today = local_day(now)
    first = _first_day(today, since.days)
    figures = store.figures

    spans: list[tuple[str, int | None]] = [
        (f"{d}d", d) for d in WINDOW_DAYS if since.days is None or d < since.days]
    spans.append((since.label, since.days))
    totals = {label: figures.drill_totals(_first_day(today, days)) for label, days in spans}
    drill_names = list(totals[since.label])
    trend_weeks = TREND_WEEKS if since.days is None else max(1, min(TREND_WEEKS, -(-since.days // 7)))
    weekly: dict[str, dict[int, Tally]] = defaultdict(dict)
    for week in figures.weekly(today, first, trend_weeks):
        weekly[week.drill][week.weeks_ago] = week.tally

    drills = []
    for name in drill_names:
        windows = []
        for label, days in spans:
            tally = totals[label].get(name, Tally(attempts=0, correct=0, latency_ms=0))
            day = _first_day(today, days)
            median = (figures.median_latency_ms(name, None if day is None else day_start(day))
                      if tally.attempts else None)
            windows.append(Window(label=label, days=days, attempts=tally.attempts,
                                  accuracy=_accuracy(tally), median_ms=median))
        trend = []
        for ago in range(trend_weeks - 1, -1, -1):
            tally = weekly[name].get(ago, Tally(attempts=0, correct=0, latency_ms=0))
            trend.append(TrendWeek(last_day=today - timedelta(days=7 * ago), attempts=tally.attempts,
                                   accuracy=_accuracy(tally),
                                   mean_ms=tally.latency_ms / tally.attempts if tally.attempts else None))
        drills.append(DrillFigures(drill=name, windows=tuple(windows), trend=tuple(trend)))

    calendar_from = week_start(today) - timedelta(weeks=CALENDAR_WEEKS - 1)
    if first is not None and first > calendar_from:
        calendar_from = first
    activity = tuple(ActiveDay(day=d.day, attempts=d.tally.attempts,
                               accuracy=d.tally.correct / d.tally.attempts)
                     for d in figures.daily(calendar_from, today) if d.tally.attempts)

    weakest = tuple(_item(t) for t in figures.item_tallies(
        since=first, min_attempts=WEAKEST_MIN_ATTEMPTS, limit=WEAKEST) if t.correct < t.attempts)
    strategy = strategy_charts(figures.item_tallies(since=first, item_prefix="strategy:"))
    trend_first = today - timedelta(days=7 * trend_weeks - 1)
    pace_from = day_start(trend_first if first is None else max(first, trend_first))
    pace = tuple(PacePoint(last_day=today - timedelta(days=7 * p.weeks_ago), countdowns=p.count,
                           best_seconds=p.best, median_seconds=p.median)
                 for p in figures.counting_pace(COUNTDOWN_DRILL, today, pace_from, trend_weeks))
    due = dict(figures.due_by_day(today, day_start(today + timedelta(days=FORECAST_DAYS))))
    forecast = tuple(ForecastDay(day=today + timedelta(days=i), due=due.get(today + timedelta(days=i), 0))
                     for i in range(FORECAST_DAYS))
    return StatsReport(today=today, since=since, drills=tuple(drills), calendar_from=calendar_from,
                       activity=activity, weakest=weakest, strategy=strategy, counting_pace=pace,
                       forecast=forecast, due_now=store.due_count(now))


def _item(tally: ItemTally) -> ItemFigures:
    return ItemFigures(drill=tally.key.drill, item=tally.key.item, ruleset=tally.key.ruleset,
                       attempts=tally.attempts, accuracy=tally.correct / tally.attempts)


_KIND_ORDER = {"hard": 0, "soft": 1, "pair": 2}


def _card_order(label: str) -> tuple[int, str]:
    """2..9, then ten-valued cards, then the ace (how a chart's columns and pair rows run)."""
    head = label.split("-")[0].upper()
    if head == "A":
        return 11, label
    if head in ("T", "J", "Q", "K"):
        return 10, label
    return (int(head), label) if head.isdigit() else (99, label)


def _hand_order(hand: str) -> tuple[int, tuple[int, str]]:
    kind, _, total = hand.partition(" ")
    return _KIND_ORDER[kind], _card_order(total)


def strategy_charts(tallies: list[ItemTally]) -> tuple[StrategyChart, ...]:
    """Strategy-cell accuracies as one chart per rule set (most practised first); other items ignored."""
    by_ruleset: dict[str, dict[tuple[str, str], list[int]]] = defaultdict(dict)
    for tally in tallies:
        drill, _, key = tally.key.item.partition(":")  # `strategy:hard 16 vs 10`, `strategy:pair 8-8 vs A`
        try:
            parse_cell(key)
        except InvalidInputError:
            continue
        if drill != "strategy":
            continue
        hand, _, up = key.partition(" vs ")
        cell = (hand, up)
        counts = by_ruleset[tally.key.ruleset].setdefault(cell, [0, 0])
        counts[0] += tally.attempts
        counts[1] += tally.correct
    charts = []
    for ruleset, cells in by_ruleset.items():
        hands = tuple(sorted({hand for hand, _ in cells}, key=_hand_order))
        ups = tuple(sorted({up for _, up in cells}, key=_card_order))
        charts.append(StrategyChart(
            ruleset=ruleset, hands=hands, ups=ups,
            cells=tuple(ChartCell(hand=hand, up=up, attempts=n, accuracy=right / n)
                        for (hand, up), (n, right) in sorted(cells.items()))))
    charts.sort(key=lambda c: (-sum(cell.attempts for cell in c.cells), c.ruleset))
    return tuple(charts)


def _plain(value: Any) -> Any:
    """Dataclasses, dates and tuples as JSON values; ratios rounded to what a reader can use."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name in value.__dataclass_fields__}
    return value


def report_to_json(report: StatsReport) -> dict[str, Any]:
    """The `--json` document: the same figures the terminal view draws."""
    document: dict[str, Any] = _plain(report)
    return document
