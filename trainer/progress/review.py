"""The spaced-repetition queue (DESIGN §8): due items of every drill, mixed, then new items up to a limit.

Every answer, in any mode, reschedules its review item with fsrs (`trainer.progress.scheduling`, inside
`Store.record`), so `cutcard review` only has to choose what to ask next:

1. due items, those last answered wrong first, then by the day they fell due, in a mixed order within a
   day so that drills interleave (the day's own order: `review --dry-run` lists the same one). A miss
   from an earlier session is due at once (a review right after a drill starts
   with what the drill missed); the queue is read again as answers reschedule items, so a miss in this
   run comes back once its relearning step (minutes) has passed, and an item answered right is not
   asked again until fsrs says it is due;
2. then new items, taking turns between the drills, until the day's new-item limit is reached. A new item
   is one a drill offers (`items(ruleset)`, if the drill can list them) that was never answered under that
   rule set; a drill that cannot list its items contributes fresh questions (`ask` without an item). The
   limit counts items first answered today anywhere (a drill session introduces items too), because each
   of them adds to the reviews of the days to come.

The queue is a lazy plan of `(DrillRun, item)` pairs for `practice.launch.run_plan`, one `DrillRun` per drill
and rule set; it reads the time from an injectable `Clock`, so tests run it on a fake one. `review
--dry-run` builds the same queue on a read-only view of the database (`upcoming`): what it lists is what
`review` asks next, in that order, until an answer changes the queue (a miss comes back after its step).
The order depends on the day and the database alone, never on the session's random source.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from typing import TYPE_CHECKING, Protocol, cast

from trainer.core.errors import RulesetError, TrainerError
from trainer.core.rules import Ruleset
from trainer.core.rulesfile import find_ruleset
from trainer.practice.session import Clock, DrillRun, Recorder
from trainer.progress.days import day_start, local_day
from trainer.progress.items import drill_title, item_name
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


class QueueSource(Protocol):
    """What the queue reads: the store (`review`), or a read-only view of it (`review --dry-run`)."""

    def due_items(self, now: float, *, ruleset: str | None = None, limit: int = 500) -> list[ReviewItem]: ...

    def review_item(self, key: ItemKey) -> ReviewItem | None: ...

    def next_due_ts(self, *, ruleset: str | None = None) -> float | None: ...

    def known_items(self, drill: str, ruleset: str) -> set[str]: ...

    def introduced_since(self, ts: float) -> int: ...

    def latest_ruleset(self) -> str | None: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Upcoming:
    """One question the queue will ask: the session asking it, its item (None: a fresh question of a
    drill that lists no items), and the review item's schedule where it is due (None: new)."""

    session: DrillRun
    item: str | None
    due: ReviewItem | None


def _order_key(day: int, key: ItemKey) -> bytes:
    """Where an item falls among the day's due items of its kind: a hash of the day and the item, so that
    drills interleave and every reader of the same database on the same day gets the same order."""
    return hashlib.blake2b(f"{day}|{key.drill}|{key.item}|{key.ruleset}".encode(), digest_size=8).digest()


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

    def __init__(self, store: Store | QueueSource, *, rng: random.Random, clock: Clock | None = None,
                 ruleset: Ruleset | None = None, limit: int | None = None,
                 new_per_day: int = NEW_PER_DAY, drill_names: Iterable[str] | None = None,
                 recorder: Recorder | None = None) -> None:
        self.store = store
        self.recorder: Recorder = recorder if recorder is not None else cast("Recorder", store)
        """Where the sessions record (the store; `upcoming` asks nothing, so a dry run records nowhere)."""
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
        self._previewing = False
        """Reading the plan without answering (`upcoming`): an item listed once is not a stuck one."""
        self._rulesets: dict[str, Ruleset | None] = {}

    def plan(self) -> Iterator[tuple[DrillRun, str | None]]:
        """Due items first, then new ones; stops at `limit` questions or when both run out."""
        for entry in self.entries():
            yield entry.session, entry.item

    def entries(self) -> Iterator[Upcoming]:
        """`plan`, each question with its schedule where it is due."""
        yield from self._due()
        yield from self._new()

    def upcoming(self, count: int) -> list[Upcoming]:
        """The next `count` questions as `review` would ask them if no answer changed the queue: the plan
        itself, read without asking anything (`review --dry-run`)."""
        self._previewing = True
        return list(itertools.islice(self.entries(), count))

    def _full(self) -> bool:
        return self.limit is not None and self.served >= self.limit

    # --- due items ------------------------------------------------------------------------------

    def _due(self) -> Iterator[Upcoming]:
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
                    if self._previewing:
                        continue  # listed already: nothing was answered
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
                yield Upcoming(session=session, item=item.key.item, due=current)
            if asked == 0:
                return

    def _askable(self, session: DrillRun, key: ItemKey) -> bool:
        """True when the drill can still ask the item; otherwise a note says why it is skipped."""
        reason = session.drill.cannot_ask(key.item, session.ruleset)
        if reason is None:
            return True
        self.notes.append(f"skipped {item_name(key.item)} ({drill_title(key.drill)}, {key.ruleset}): "
                          f"{reason}")
        return False

    def _mixed(self, items: list[ReviewItem]) -> list[ReviewItem]:
        """Misses first, then by the day they fell due; mixed within each (`_order_key`: today's order),
        so drills interleave."""
        today = local_day(self.clock.now()).toordinal()
        ordered: list[ReviewItem] = []
        for _, group in itertools.groupby(items, key=lambda i: (i.last_correct, local_day(i.due_ts))):
            ordered.extend(sorted(group, key=lambda i: _order_key(today, i.key)))
        return ordered

    # --- new items ------------------------------------------------------------------------------

    def _new(self) -> Iterator[Upcoming]:
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
            today = local_day(now).toordinal()
            fresh = sorted((item for item in offered if item not in known), key=lambda item: _order_key(
                today, ItemKey(drill=name, item=item, ruleset=ruleset.name)))
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
                yield Upcoming(session=session, item=item, due=None)

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
            self._note(f"skipped the items of {drill_name!r}: no drill asks them; they come from the "
                              "table (practise them at `cutcard play`)")
            return None
        if not _drill_available(drill_name):
            self._note(f"skipped the items of drill {drill_name!r}: it is not installed")
            return None
        try:
            drill = _drills().make_drill(drill_name)
        except (ImportError, TrainerError) as e:
            self._note(f"skipped the items of drill {drill_name!r}: {e}")
            return None
        from trainer.progress.drill_focus import prepare_bests
        from trainer.storage import Store

        if isinstance(self.store, Store):  # a countdown beats the learner's own best (a dry run asks nothing)
            prepare_bests(drill, self.store)
        return DrillRun(drill=drill, ruleset=ruleset, rng=self.rng, recorder=self.recorder, clock=self.clock,
                       source="review")

    def _note(self, text: str) -> None:
        """Say `text` once a session (items of one drill under two rule sets share their note)."""
        if text not in self.notes:
            self.notes.append(text)

    def _find_ruleset(self, name: str) -> Ruleset | None:
        if self.ruleset is not None and name == self.ruleset.name:
            return self.ruleset
        if name not in self._rulesets:
            try:
                self._rulesets[name] = find_ruleset(name)
            except RulesetError:
                self._rulesets[name] = None
                self._note(f"skipped the items of rule set {name!r}: it is not built in "
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
