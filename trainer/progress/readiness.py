"""`cutcard ready`: is the learner ready for a casino? A checklist read from the progress database.

The targets are data (`CRITERIA`, one row per line of the checklist): which items count, from where
(a drill, a review or the table), over which window (the latest N answers), what is measured and the
target. Each criterion counts only the answers in its own window, newest first, and a window not yet
full is "not yet" (the figure says how many answers it has). Table rounds are counted from the table's
attempts: distinct (session, `data.round`) pairs of attempts with source `play` (the table records the
round's number in each decision's data).

A timed criterion (a pace, answers within a time or at dealer pace) counts only answers timed at the
learner's own pace (`trainer.practice.session.PACES`): a `--speed` flash's time is the program's, a
piped or `--jsonl` answer a script's. Each says whose pace its figure is and what it left out; the
count-down compares like with like: one deck turned a card at a time.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trainer.storage.progress import ProgressFigures, RecentAnswer
    from trainer.storage.reader import ReadOnly

DEFAULT_RULESET = "casino"


@dataclass(frozen=True, slots=True, kw_only=True)
class Criterion:
    """One line of the checklist (see `CRITERIA`)."""

    key: str
    track: str
    """"counter" or "dealer"."""
    title: str
    families: tuple[str, ...] = ()
    """Item key prefixes whose answers count (`strategy:`, `payout:bj 3:2:`)."""
    measure: str = "accuracy"
    """"accuracy" (share right), "in_time" (right within `within_ms`), "in_pace" (right within the
    answer's own dealer-pace target), "pace" (seconds per deck of the count-downs), "rounds"."""
    target: float = 0.0
    window: int = 100
    """The latest answers (count-downs for "pace") the criterion looks at."""
    source: str | None = None
    """Only answers given here (`play`: at the table); None: anywhere."""
    per_ruleset: bool = False
    """Only answers under the rule set being checked."""
    within_ms: int | None = None
    data_equals: tuple[tuple[str, str | int], ...] = ()
    """Only answers whose data has these values: like against like (a deck turned a card at a time)."""
    all_cells: bool = False
    """Also every cell of the rule set's chart answered at least once (anywhere)."""
    practise: str = ""
    """The command that practises it; `{ruleset}` is filled in."""
    alike: str = ""
    """What the answers counted have in common, said with the pace behind the figure."""

    @property
    def timed(self) -> bool:
        """A criterion on answer times: it counts only times of the learner's own pace."""
        return self.measure in ("pace", "in_time", "in_pace")


CRITERIA: tuple[Criterion, ...] = (
    Criterion(key="countdown", track="counter", title="count down a deck", families=("countdown:",),
              measure="pace", target=25.0, window=5, practise="cutcard drill countdown",
              data_equals=(("decks", 1), ("per_flash", 1)), alike="a deck turned a card at a time"),
    Criterion(key="table-count", track="counter", title="running count exact at the table",
              families=("running-count:", "table:"), source="play", per_ruleset=True, target=0.98,
              window=100, practise="cutcard play --ruleset {ruleset}"),
    Criterion(key="true-count", track="counter", title="true-count conversion within 2 s",
              families=("true-count:",), measure="in_time", within_ms=2000, target=0.95, window=100,
              practise="cutcard drill true-count"),
    Criterion(key="strategy", track="counter", title="basic strategy at the table",
              families=("strategy:",), source="play", per_ruleset=True, target=0.99, window=300,
              all_cells=True, practise="cutcard drill strategy --ruleset {ruleset}"),
    Criterion(key="index-plays", track="counter", title="index plays", families=("deviations:",),
              target=0.95, window=100, practise="cutcard drill deviations"),
    Criterion(key="bets", track="counter", title="bets by the count", families=("bet:",), target=0.95,
              window=100, practise="cutcard drill bet"),
    Criterion(key="rounds", track="counter", title="table rounds logged", measure="rounds", target=1000,
              per_ruleset=True, practise="cutcard play --ruleset {ruleset}"),
    Criterion(key="payout-3:2", track="dealer", title="blackjack 3:2 at dealer pace",
              families=("payout:bj 3:2:",), measure="in_pace", target=0.98, window=50,
              practise="cutcard drill payout --set ratio=3:2"),
    Criterion(key="payout-6:5", track="dealer", title="blackjack 6:5 at dealer pace",
              families=("payout:bj 6:5:",), measure="in_pace", target=0.98, window=50,
              practise="cutcard drill payout --set ratio=6:5"),
    Criterion(key="insurance", track="dealer", title="insurance 2:1 at dealer pace",
              families=("payout:insurance ",), measure="in_pace", target=0.98, window=50,
              practise="cutcard drill payout --set situation=insurance"),
    Criterion(key="even-money", track="dealer", title="even money at dealer pace",
              families=("payout:even-money ",), measure="in_pace", target=0.98, window=50,
              practise="cutcard drill payout --set situation=even-money"),
    Criterion(key="chips", track="dealer", title="payouts in chips at dealer pace", families=("payout:",),
              measure="in_pace", data_equals=(("answer_in", "chips"),), target=0.98, window=50,
              practise="cutcard drill payout --chips"),
    Criterion(key="color-up", track="dealer", title="colour-up", families=("color-up:",), target=0.98,
              window=50, practise="cutcard drill color-up"),
    Criterion(key="settle", track="dealer", title="a whole table settled, seat by seat, at audition pace",
              families=("settle:",), measure="in_pace", target=0.98, window=100,
              practise="cutcard drill settle --seats 7 --ruleset {ruleset}"),
    Criterion(key="cut", track="dealer", title="payouts cut from stacks", families=("cut:",),
              measure="in_pace", target=0.98, window=50, practise="cutcard drill cut"),
    Criterion(key="catch", track="dealer", title="dealer errors caught, no false calls",
              families=("catch:",), target=0.95, window=50, practise="cutcard drill catch"),
)
"""The checklist: the counter track, then the dealer track."""
TRACK_TITLES = {"counter": "Counter track", "dealer": "Dealer track"}


@dataclass(frozen=True, slots=True, kw_only=True)
class Check:
    """One criterion measured: the figure in words, the numbers behind it, pass or not yet."""

    criterion: Criterion
    figure: str
    measured: dict[str, Any]
    passed: bool
    practise: str
    timing: str = ""
    """Whose pace the figure's times are, and the answers left out for another's ('' if untimed)."""

    @property
    def target_text(self) -> str:
        c = self.criterion
        if c.measure == "pace":
            return f"≤ {c.target:g} s a deck, best and median of the last {c.window}"
        if c.measure == "rounds":
            return f"≥ {c.target:,.0f} rounds"
        share = f"≥ {100 * c.target:g}% of the last {c.window}"
        where = " table plays" if c.source == "play" else " answers"
        how = {"in_time": f" right within {(c.within_ms or 0) / 1000:g} s",
               "in_pace": " right at the drill's dealer pace"}.get(c.measure, " right")
        extra = ", every chart cell seen" if c.all_cells else ""
        return share + where + how + extra


@dataclass(frozen=True, slots=True, kw_only=True)
class Readiness:
    ruleset: str
    checks: tuple[Check, ...]

    @property
    def ready(self) -> bool:
        return all(c.passed for c in self.checks)


def _share(answers: list[RecentAnswer], criterion: Criterion) -> tuple[int, int]:
    """How many of the answers meet the criterion's bar, and how many answers there are."""
    if criterion.measure == "in_time":
        limit = criterion.within_ms or 0
        good = sum(a.correct and a.latency_ms <= limit for a in answers)
    elif criterion.measure == "in_pace":
        good = sum(a.correct and (a.target_ms is None or a.latency_ms <= a.target_ms) for a in answers)
    else:
        good = sum(a.correct for a in answers)
    return good, len(answers)


def _pace(answers: list[RecentAnswer], criterion: Criterion) -> tuple[str, dict[str, Any], bool]:
    """Best and median seconds a deck of the last count-downs; a wrong one has no time (it failed)."""
    times = [a.seconds_per_deck if a.correct and a.seconds_per_deck is not None else float("inf")
             for a in answers]
    if not times:
        return "no count-downs yet", {"countdowns": 0, "best": None, "median": None}, False
    best, median = min(times), statistics.median(times)
    wrong = sum(t == float("inf") for t in times)

    def text(t: float) -> str:
        return "—" if t == float("inf") else f"{t:.1f} s"

    figure = f"best {text(best)}, median {text(median)} a deck over {len(times)}"
    if wrong:
        figure += f" ({wrong} miscounted)"
    passed = len(times) >= criterion.window and median <= criterion.target
    measured = {"countdowns": len(times), "miscounted": wrong, "best": None if best == float("inf") else best,
                "median": None if median == float("inf") else median}
    return figure, measured, passed


def check(view: ReadOnly, criterion: Criterion, ruleset: str, chart_keys: list[str] | None) -> Check:
    """One criterion measured on the database, over its own window."""
    progress = view.progress
    only = ruleset if criterion.per_ruleset else None
    practise = criterion.practise.format(ruleset=ruleset)
    if criterion.measure == "rounds":
        rounds = progress.table_rounds(only)
        return Check(criterion=criterion, figure=f"{rounds:,} rounds", measured={"rounds": rounds},
                     passed=rounds >= criterion.target, practise=practise)
    answers = progress.recent(criterion.families, limit=criterion.window, source=criterion.source,
                              ruleset=only, data_equals=criterion.data_equals, learner_only=criterion.timed)
    timing, left_out = _timing(progress, criterion, only)
    if criterion.measure == "pace":
        figure, paced, passed = _pace(answers, criterion)
        paced.update({"pace": "learner", "not_counted": left_out})
        return Check(criterion=criterion, figure=figure, measured=paced, passed=passed, practise=practise,
                     timing=timing)
    good, n = _share(answers, criterion)
    rate = good / n if n else None
    figure = "no answers yet" if not n else f"{100 * good / n:.1f}% of {n}"
    if n and n < criterion.window:
        figure += f" ({criterion.window} needed)"
    passed = n >= criterion.window and rate is not None and rate >= criterion.target
    measured: dict[str, Any] = {"answers": n, "met": good, "rate": None if rate is None else round(rate, 4)}
    if criterion.all_cells and chart_keys is not None:
        seen = {item.removeprefix("strategy:") for item in progress.items_seen("strategy:", ruleset)}
        unseen = [key for key in chart_keys if key not in seen]
        measured["cells_seen"] = len(chart_keys) - len(unseen)
        measured["cells_total"] = len(chart_keys)
        figure += f"; {len(chart_keys) - len(unseen)} of {len(chart_keys)} cells seen"
        passed = passed and not unseen
    if criterion.timed:
        measured.update({"pace": "learner", "not_counted": left_out})
    return Check(criterion=criterion, figure=figure, measured=measured, passed=passed, practise=practise,
                 timing=timing)


PACE_WORDS = {"program": "at a flash's pace", "script": "by a script", "unknown": "of unknown pace"}
"""How `ready` names the answers a timed criterion leaves out, by their pace."""


def _timing(progress: ProgressFigures, criterion: Criterion,
            ruleset: str | None) -> tuple[str, dict[str, int]]:
    """Whose pace a timed criterion's times are, and how many answers it left out for another's."""
    if not criterion.timed:
        return "", {}
    paces = progress.paces(criterion.families, source=criterion.source, ruleset=ruleset,
                           data_equals=criterion.data_equals)
    left_out = {pace: n for pace, n in sorted(paces.items()) if pace != "learner" and n}
    words = "your own pace" + (f", {criterion.alike}" if criterion.alike else "")
    if left_out:
        words += "; not counted: " + ", ".join(f"{n} {PACE_WORDS.get(p, p)}" for p, n in left_out.items())
    return words, left_out


def assess(view: ReadOnly, *, ruleset: str | None = None,
           criteria: tuple[Criterion, ...] = CRITERIA) -> Readiness:
    """Every criterion for `ruleset` (default: the rule set last played at the table, else casino)."""
    from trainer.core.rulesfile import load_ruleset
    from trainer.progress.stats_strategy import chart_cells

    name = ruleset or view.progress.latest_ruleset("play") or DEFAULT_RULESET
    rules = load_ruleset(name)
    keys = [key for _kind, _n, key in chart_cells(rules)]
    return Readiness(ruleset=rules.name, checks=tuple(check(view, c, rules.name, keys) for c in criteria))


def readiness_to_json(readiness: Readiness) -> dict[str, Any]:
    """`ready --json`: the same checklist."""
    return {
        "ruleset": readiness.ruleset,
        "ready": readiness.ready,
        "criteria": [{
            "key": c.criterion.key, "track": c.criterion.track, "criterion": c.criterion.title,
            "window": c.criterion.window if c.criterion.measure != "rounds" else None,
            "source": c.criterion.source, "figure": c.figure, "measured": c.measured,
            "timing": c.timing or None,
            "target": c.criterion.target, "target_text": c.target_text, "pass": c.passed,
            "practise": None if c.passed else c.practise,
        } for c in readiness.checks],
    }
