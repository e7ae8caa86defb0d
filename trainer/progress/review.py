"""The spaced-repetition queue (DESIGN §8): due items of every drill, mixed, then new items up to a limit.

Every answer, in any mode, reschedules its review item with fsrs (`trainer.progress.scheduling`, inside
`Store.record`), so `cutcard review` only has to choose what to ask next:

1. due items, those last answered wrong first, then by the day they fell due, shuffled within a day so
   that drills mix. A miss from an earlier session is due at once (a review right after a drill starts
   with what the drill missed); the queue is read again as answers reschedule items, so a miss in this
   run comes back once its relearning step (minutes) has passed, and an item answered right is not
   asked again until fsrs says it is due;
2. then new items, taking turns between the drills, until the day's new-item limit is reached. A new item
   is one a drill offers (`items(ruleset)`, if the drill can list them) that was never answered under that
   rule set; a drill that cannot list its items contributes fresh questions (`ask` without an item). The
   limit counts items first answered today anywhere (a drill session introduces items too), because each
   of them adds to the reviews of the days to come.

The queue is a lazy plan of `(DrillRun, item)` pairs for `practice.launch.run_plan`, one `DrillRun` per drill
and rule set; it reads the time from an injectable `Clock`, so tests run it on a fake one.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from importlib.util import find_spec
from typing import TYPE_CHECKING

from trainer.core.errors import RulesetError, TrainerError
from trainer.core.rules import Ruleset
from trainer.core.rulesfile import find_ruleset
from trainer.practice.session import Clock, DrillRun
from trainer.progress.days import day_start, local_day
from trainer.progress.scheduling import ItemKey, ReviewItem

if TYPE_CHECKING:
    from types import ModuleType

    from trainer.storage import Store

NEW_PER_DAY = 20
"""New items a day unless `--new` says otherwise (Anki's default)."""
DEFAULT_RULESET = "casino"
"""The rule set new items are drawn for when none is given and nothing was answered yet."""
_BATCH = 200


def due_count(store: Store, now: float) -> int:
    """How many review items are due at `now`, over every drill and rule set (the REPL toolbar).

    Reading it imports no drill: the queue loads the drill registry only when it plans a review.
    """
    return store.due_count(now)


def _drills() -> ModuleType:
    """The drill registry, imported when a review is planned (not for `due_count`)."""
    import drills

    return drills


def offered_items(drill: object, ruleset: Ruleset) -> Sequence[str] | None:
    """The items a drill can list for a rule set, or None when it cannot (it then asks fresh questions)."""
    lister = getattr(drill, "items", None)
    if not callable(lister):
        return None
    items = lister(ruleset)
    return None if items is None else list(items)


def _drill_available(name: str) -> bool:
    """True when the drill's module is installed (registered drills may still be being written)."""
    module = _drills().DRILLS[name][0].split(":")[0]
    try:
        return find_spec(module) is not None
    except ModuleNotFoundError:
        return False


class ReviewQueue:
    """What `cutcard review` asks, in order; `plan()` is consumed by a driver one question at a time."""

    def __init__(self, store: Store, *, rng: random.Random, clock: Clock | None = None,
                 ruleset: Ruleset | None = None, limit: int | None = None,
                 new_per_day: int = NEW_PER_DAY, drill_names: Iterable[str] | None = None) -> None:
        self.store = store
        self.rng = rng
        self.clock = clock or Clock()
        self.ruleset = ruleset
        """Only this rule set's items are reviewed, and new items are drawn for it."""
        self.limit = limit
        self.new_per_day = new_per_day
        self.drill_names = list(drill_names if drill_names is not None else _drills().DRILLS)
        self.served = 0
        self.notes: list[str] = []
        """One-line remarks for the learner (skipped items, the new-item limit), shown after the run."""
        self.skipped: set[ItemKey] = set()
        """Due items this run could not ask (their drill, rule set or settings are unavailable here)."""
        self._sessions: dict[tuple[str, str], DrillRun | None] = {}
        self._rulesets: dict[str, Ruleset | None] = {}

    def plan(self) -> Iterator[tuple[DrillRun, str | None]]:
        """Due items first, then new ones; stops at `limit` questions or when both run out."""
        yield from self._due()
        yield from self._new()

    def _full(self) -> bool:
        return self.limit is not None and self.served >= self.limit

    # --- due items ------------------------------------------------------------------------------

    def _due(self) -> Iterator[tuple[DrillRun, str | None]]:
        # items asked in this run and the due time they had then: one not rescheduled since (its drill
        # asked about another item, a bug) is not asked again, with a note, so the run always ends
        served_at: dict[ItemKey, float] = {}
        skipped = self.skipped
        only = self.ruleset.name if self.ruleset else None
        while not self._full():
            batch = self.store.due_items(self.clock.now(), ruleset=only,
                                         limit=_BATCH + len(served_at) + len(skipped))
            waiting = []
            for i in batch:
                if i.key in skipped:
                    continue
                if served_at.get(i.key) == i.due_ts:  # asked and answered, yet not rescheduled
                    skipped.add(i.key)
                    self.notes.append(f"the {i.key.drill} item {i.key.item!r} ({i.key.ruleset}) is still "
                                      "due: its drill asked about another item instead (a bug in that drill)")
                    continue
                waiting.append(i)
            asked = 0
            for item in self._mixed(waiting):
                if self._full():
                    return
                now = self.clock.now()
                current = self.store.review_item(item.key)
                if current is None or current.due_ts != item.due_ts:
                    continue  # answered meanwhile (in this run or by another trainer): read the queue again
                missed_before_this_run = not current.last_correct and item.key not in served_at
                if current.due_ts > now and not missed_before_this_run:
                    continue  # a miss in this run waits for its fsrs step, not straight after its answer
                session = self._session(item.key.drill, item.key.ruleset)
                if session is None or not self._askable(session, item.key):
                    skipped.add(item.key)
                    continue
                served_at[item.key] = item.due_ts
                self.served += 1
                asked += 1
                yield session, item.key.item
            if asked == 0:
                return

    def _askable(self, session: DrillRun, key: ItemKey) -> bool:
        """True when the drill can still ask the item; otherwise a note says why it is skipped."""
        reason = session.drill.cannot_ask(key.item, session.ruleset)
        if reason is None:
            return True
        self.notes.append(f"skipped the {key.drill} item {key.item!r} ({key.ruleset}): {reason}")
        return False

    def _mixed(self, items: list[ReviewItem]) -> list[ReviewItem]:
        """Misses first, then by the day they fell due; shuffled within each, so drills interleave."""
        ordered: list[ReviewItem] = []
        for _, group in itertools.groupby(items, key=lambda i: (i.last_correct, local_day(i.due_ts))):
            chunk = list(group)
            self.rng.shuffle(chunk)
            ordered.extend(chunk)
        return ordered

    # --- new items ------------------------------------------------------------------------------

    def _new(self) -> Iterator[tuple[DrillRun, str | None]]:
        if self._full():
            return
        now = self.clock.now()
        remaining = self.new_per_day - self.store.introduced_since(day_start(local_day(now)))
        if remaining <= 0:
            if self.new_per_day:
                self.notes.append(f"no new items: today's {self.new_per_day} have been started "
                                  "(--new N to allow more)")
            return
        ruleset = self._ruleset_for_new()
        sources: list[tuple[str, DrillRun, deque[str] | None]] = []
        for name in self.drill_names:
            if name not in _drills().DRILLS or not _drill_available(name):
                continue  # registered but not written yet: nothing to offer, nothing to report
            session = self._session(name, ruleset.name)
            if session is None:
                continue
            offered = offered_items(session.drill, ruleset)
            if offered is None:
                sources.append((name, session, None))
                continue
            known = self.store.known_items(name, ruleset.name)
            fresh = [item for item in offered if item not in known]
            self.rng.shuffle(fresh)
            if fresh:
                sources.append((name, session, deque(fresh)))
        while sources and remaining > 0:
            for source in list(sources):
                if remaining <= 0 or self._full():
                    return
                name, session, pending = source
                item: str | None = None
                if pending is not None:
                    item = pending.popleft()
                    if not pending:
                        sources.remove(source)
                    key = ItemKey(drill=name, item=item, ruleset=ruleset.name)
                    if self.store.review_item(key) is not None:
                        continue  # answered meanwhile, in a drill session or another trainer
                remaining -= 1
                self.served += 1
                yield session, item

    def _ruleset_for_new(self) -> Ruleset:
        if self.ruleset is not None:
            return self.ruleset
        latest = self.store.latest_ruleset()
        found = self._find_ruleset(latest) if latest else None
        return found or find_ruleset(DEFAULT_RULESET)

    # --- sessions -------------------------------------------------------------------------------

    def _session(self, drill_name: str, ruleset_name: str) -> DrillRun | None:
        """The session asking a drill's items under a rule set (None, with a note, if it cannot be made)."""
        key = (drill_name, ruleset_name)
        if key not in self._sessions:
            self._sessions[key] = self._make_session(drill_name, ruleset_name)
        return self._sessions[key]

    def _make_session(self, drill_name: str, ruleset_name: str) -> DrillRun | None:
        ruleset = self._find_ruleset(ruleset_name)
        if ruleset is None:
            return None
        if drill_name not in _drills().DRILLS:  # e.g. insurance by a count with no index: kept from play
            self.notes.append(f"skipped the items of {drill_name!r}: no drill asks them; they come from the "
                              "table (practise them at `cutcard play`)")
            return None
        if not _drill_available(drill_name):
            self.notes.append(f"skipped the items of drill {drill_name!r}: it is not installed")
            return None
        try:
            drill = _drills().make_drill(drill_name)
        except (ImportError, TrainerError) as e:
            self.notes.append(f"skipped the items of drill {drill_name!r}: {e}")
            return None
        from trainer.progress.drill_focus import prepare_bests

        prepare_bests(drill, self.store)  # a countdown beats the learner's own best
        return DrillRun(drill=drill, ruleset=ruleset, rng=self.rng, recorder=self.store, clock=self.clock,
                       source="review")

    def _find_ruleset(self, name: str) -> Ruleset | None:
        if self.ruleset is not None and name == self.ruleset.name:
            return self.ruleset
        if name not in self._rulesets:
            try:
                self._rulesets[name] = find_ruleset(name)
            except RulesetError:
                self._rulesets[name] = None
                self.notes.append(f"skipped the items of rule set {name!r}: it is not built in "
                                  "(review them with --ruleset PATH-TO-ITS-FILE)")
        return self._rulesets[name]

    def nothing_to_do(self) -> str:
        """What to tell a learner when the queue was empty: when the next item falls due."""
        only = self.ruleset.name if self.ruleset else None
        next_due = self.store.next_due_ts(ruleset=only)
        if next_due is None:
            return "nothing to review yet: answer some drills first"
        if self.skipped and next_due <= self.clock.now():
            return "nothing else to review: the items skipped above stay due"
        return f"nothing is due; the next item falls due in {describe_wait(next_due - self.clock.now())}"


def describe_wait(seconds: float) -> str:
    """A wait in the largest sensible unit.

    >>> describe_wait(40), describe_wait(600), describe_wait(5400), describe_wait(3 * 86400)
    ('under a minute', '10 minutes', '1.5 hours', '3.0 days')
    """
    if seconds < 60:
        return "under a minute"
    if seconds < 3600:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 86400:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:.1f} days"
