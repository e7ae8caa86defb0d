"""`cutcard indices`: index plays computed for a rule set and count system, beside the published ones.

Also the one place the other commands get their index plays from (`index_source`): `--indices
published` reads the Illustrious 18 and Fab 4 of `drills/data/indices.toml`, `--indices computed` the
standard run of this command for the table and the count (computed once, then read from the cache).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from trainer.cli.common import (
    DEFAULT_SYSTEM,
    cutcard_home,
    emit_json,
    estimation_option,
    json_option,
    last_deck_option,
    pager_option,
    paging,
    rounding_option,
    ruleset_option,
)

if TYPE_CHECKING:
    from trainer.core.rules import Ruleset
    from trainer.indices.asked import Asked
    from trainer.indices.compute import PlayResult
    from trainer.indices.run import IndexRun
    from trainer.strategy.indexplay import IndexPlay

SETS = ("i18", "fab4", "insurance", "all")
DEFAULT_SAMPLES = 800
DEFAULT_SHOES = 1200
"""Shoes of six decks; a shoe of fewer decks deals as many cards in all (2 decks: 3,600 shoes)."""
DEFAULT_SEED = 1
MOST_SAMPLES = 100_000
"""The most exact EVs a play `--samples` takes: some minutes a play on one core."""
MOST_SHOES = 1_000_000
"""The most shoes `--shoes` deals for the pool of depleted shoes."""
SOURCES = ("published", "computed")


@dataclass(frozen=True, slots=True, kw_only=True)
class Wanted:
    """A play to compute, and the published index beside it (None where the lists do not apply)."""

    asked: Asked
    published: IndexPlay | None


def wanted_plays(rules: Ruleset, words: tuple[str, ...]) -> tuple[list[Wanted], list[str]]:
    """The plays `--plays` names that can arise at this table, and a note for each left out."""
    from drills.strategy.index_plays import fits, game_of, index_plays
    from trainer.core.cards import Rank, card
    from trainer.core.errors import InvalidInputError
    from trainer.indices.asked import combos, parse_cell
    from trainer.indices.run import table_for
    from trainer.strategy.hand import legal_actions

    names = [name for word in words for name in _split(word)] or ["all"]
    cells: list[Asked] = []
    listed = index_plays("s17")
    for name in names:
        lowered = name.lower()
        if lowered in ("all", "i18"):
            cells += [_asked(p) for p in listed if p.set == "illustrious-18"]
        if lowered in ("all", "fab4"):
            cells += [_asked(p) for p in listed if p.set == "fab-4"]
        if lowered == "insurance":
            cells += [_asked(p) for p in listed if p.kind == "insurance"]
        if lowered not in SETS:
            cell = parse_cell(name)
            if cell.first is None:  # a listed play's cell: its two plays
                same = next((p for p in listed if _asked(p).key == cell.key), None)
                cell = _asked(same) if same is not None else cell
            cells.append(cell)
    published = {(p.name, frozenset((p.above, p.below))): p for p in index_plays(game_of(rules))}
    out: list[Wanted] = []
    notes: list[str] = []
    seen: set[tuple[str, str, str]] = set()
    for asked in cells:
        key = (asked.key, str(asked.first), str(asked.second))
        if key in seen:
            continue
        seen.add(key)
        table = table_for(rules, asked)
        if asked.kind == "insurance":
            if not rules.player.insurance:
                notes.append(f"insurance left out: {rules.name} offers no insurance")
                continue
        else:
            a, b = combos(asked)[0]
            legal = legal_actions(table, (card(Rank(a)), card(Rank(b))))
            missing = [p for p in (asked.first, asked.second) if p is not None and p not in legal]
            if missing:
                notes.append(f"{asked.key} left out: {missing[0]} is not allowed at {rules.name}")
                continue
        both = frozenset(p for p in (asked.first, asked.second) if p is not None)
        match = published.get((_name(asked), both))
        applies = match is not None and fits(match, table)
        out.append(Wanted(asked=asked, published=match if applies else None))
    if not out:
        why = "; ".join(notes) if notes else "none was named"
        raise InvalidInputError(f"no plays to compute at {rules.name}: {why}")
    return out, notes


def _split(text: str) -> list[str]:
    """'16v10,A,7 vs 2,i18' -> ['16v10', 'A,7 vs 2', 'i18']: a comma inside a hand ('10,10 vs 6')
    joins its pieces until the piece with the up card."""
    out: list[str] = []
    pending = ""
    for piece in text.split(","):
        pending = f"{pending},{piece}" if pending else piece
        if pending.strip().lower() in SETS or "v" in pending.lower():
            out.append(pending.strip())
            pending = ""
    if pending.strip():
        out.append(pending.strip())
    return out


def _asked(play: IndexPlay) -> Asked:
    from trainer.indices.asked import Asked

    return Asked(kind=play.kind, total=play.total, up=play.up_value, first=play.above, second=play.below,
                 set=play.set, number=play.number, when=play.when)


def _name(asked: Asked) -> str:
    from trainer.core.actions import Action
    from trainer.strategy.indexplay import IndexPlay

    return IndexPlay(kind=asked.kind, total=asked.total, up_value=asked.up, index=None,
                     above=Action.STAND, below=Action.HIT, basic=Action.STAND, source="").name


def make_run(rules: Ruleset, system_name: str, *, estimation: str = "half", rounding: str = "floor",
             last_deck: str | None = None, seats: int | None = None, shoes: int | None = None,
             samples: int | None = None, seed: int = DEFAULT_SEED) -> IndexRun:
    """The run of `cutcard indices` for these options (None: the standard run's shoes and samples)."""
    from trainer.core.counting import load_system
    from trainer.core.errors import InvalidInputError
    from trainer.indices.compute import TrueCountMethod
    from trainer.indices.run import IndexRun
    from trainer.sim.count import TrueCounter

    TrueCounter(estimation=estimation, rounding=rounding, last_deck=last_deck)  # checks the words
    shoes = round(DEFAULT_SHOES * 6 / max(rules.shoe.decks, 1)) if shoes is None else shoes
    samples = DEFAULT_SAMPLES if samples is None else samples
    table_seats = seats if seats is not None else min(rules.table.seats, 7)
    if not 1 <= table_seats <= rules.table.seats:
        raise InvalidInputError(f"a {rules.name} table has 1 to {rules.table.seats} seats, not {table_seats}")
    if samples < 20:
        raise InvalidInputError(f"--samples must be at least 20 per play, not {samples}")
    if shoes < 1:
        raise InvalidInputError(f"--shoes must be at least 1, not {shoes}")
    counting = TrueCountMethod(system=load_system(system_name), estimation=estimation, rounding=rounding,
                               last_deck=last_deck)
    return IndexRun(ruleset=rules, counting=counting, seats=table_seats, shoes=shoes, samples=samples,
                    seed=seed)


def run_plays(run: IndexRun, wanted: list[Wanted], jobs: int, *, quiet: bool) -> tuple[list[PlayResult], int]:
    """Compute (or read from the cache) every wanted play, with a progress bar on a terminal."""
    from trainer.chartcache import FileCache
    from trainer.indices.run import ResultCache, cached_indices

    class IndexFiles(FileCache, ResultCache):
        """Computed index plays as files, one per run fingerprint."""

        what = "indices"

    cache = IndexFiles(cutcard_home() / "indices")
    plays = [w.asked for w in wanted]
    if quiet or not sys.stderr.isatty():
        return cached_indices(run, plays, cache, jobs=jobs)
    from trainer.render import make_console
    from trainer.render.sim import sim_progress

    with sim_progress(make_console(sys.stderr), "Computing indices") as progress:
        return cached_indices(run, plays, cache, jobs=jobs, progress=progress)


def index_source(rules: Ruleset, system_name: str, source: str, *, estimation: str = "half",
                 rounding: str = "floor", quiet: bool = False,
                 last_deck: str | None = None) -> tuple[tuple[IndexPlay, ...], str]:
    """The index plays a drill, the table or the simulator uses, and how to say where they come from.

    `published`: the Illustrious 18 and Fab 4 that fit the table (Hi-Lo only). `computed`: this
    command's standard run for the table and the count, every play that can arise there.
    """
    from drills.strategy.index_plays import SET_TITLES, game_of, plays_for
    from drills.strategy.index_plays import source as published_source
    from trainer.core.counting import load_system
    from trainer.core.errors import InvalidInputError
    from trainer.indices.run import default_jobs, to_index_play

    if source not in SOURCES:
        raise InvalidInputError(f"--indices is one of {', '.join(SOURCES)}, not {source!r}")
    if source == "published":
        system = load_system(system_name)
        if system.name != "hi-lo":
            raise InvalidInputError(f"index plays are published for Hi-Lo; {system.title} has none here "
                                    "(use --indices computed)")
        plays = plays_for(rules)
        sets = list(dict.fromkeys(SET_TITLES[p.set] for p in plays))
        name, _ = published_source(game_of(rules))
        return plays, f"{' + '.join(sets)} ({name}), {len(plays)} plays"
    run = make_run(rules, system_name, estimation=estimation, rounding=rounding, last_deck=last_deck)
    wanted, _ = wanted_plays(rules, ("all",))
    if rules.player.surrender.value == "none":  # the Fab 4 only where surrender is offered
        wanted = [w for w in wanted if w.asked.when != "surrender"]
    else:
        wanted = [w for w in wanted if w.asked.when != "no-surrender"]
    results, _ = run_plays(run, wanted, default_jobs(run, len(wanted)), quiet=quiet)
    words = f"computed for {rules.name} and {run.counting.system.name}"
    plays = tuple(to_index_play(r, words) for r in results if r.index is not None)
    done = max((r.samples for r in results), default=0)
    return plays, f"{words} ({min(done, run.samples)} exact EVs a play), {len(plays)} plays"


@click.command("indices")
@ruleset_option
@click.option("--system", default=DEFAULT_SYSTEM, show_default=True, help="Count system (or a TOML file).")
@click.option("--plays", "plays", multiple=True, metavar="i18|fab4|insurance|all|CELL",
              help="Which plays: a set, or cells such as 16v10, '10,10 vs 6', '12v4:stand/hit' "
                   "(repeat, or separate with commas) [all].")
@json_option
@click.option("--samples", type=click.IntRange(20, MOST_SAMPLES), default=DEFAULT_SAMPLES, show_default=True,
              help=f"Exact EV evaluations per play (20 to {MOST_SAMPLES:,}).")
@click.option("--shoes", type=click.IntRange(1, MOST_SHOES), default=None,
              help=f"Shoes dealt to the cut card for the pool of depleted shoes [{DEFAULT_SHOES:,} of six "
                   "decks, as many cards in all for fewer decks].")
@click.option("--seats", type=int, default=None, help="Seats at the table (default: a full table).")
@click.option("--jobs", type=int, default=None,
              help="Processes to use (default: every core; one for a run of a second or two).")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True,
              help="Seed of the shoes and the samples (the cache is per seed).")
@estimation_option
@last_deck_option
@rounding_option
@pager_option
def command(ruleset: str, system: str, plays: tuple[str, ...], as_json: bool, samples: int, shoes: int | None,
            seats: int | None, jobs: int | None, seed: int, estimation: str, last_deck: str | None,
            rounding: str) -> None:
    """Index plays computed for your own game: the true count at which each play's alternative
    becomes better, from exact EVs of real depleted shoes, beside the published index."""
    import time

    from trainer.core.errors import InvalidInputError
    from trainer.core.rulesfile import load_ruleset
    from trainer.indices.run import default_jobs

    rules = load_ruleset(ruleset)
    run = make_run(rules, system, estimation=estimation, rounding=rounding, last_deck=last_deck, seats=seats,
                   shoes=shoes, samples=samples, seed=seed)
    if jobs is not None and jobs < 1:
        raise InvalidInputError(f"--jobs must be 1 or more, not {jobs}")
    wanted, notes = wanted_plays(rules, plays)
    jobs = jobs if jobs is not None else default_jobs(run, len(wanted))
    if not rules.counting_helps and not rules.infinite_deck:
        notes.insert(0, f"{rules.name} reshuffles after every round: the count knows only the round's own "
                        "cards, so these indices can hardly ever be used")
    started = time.perf_counter()
    results, computed = run_plays(run, wanted, jobs, quiet=as_json)
    seconds = time.perf_counter() - started
    from trainer.indices.run import result_json

    if as_json:
        document = {
            "ruleset": rules.name, "system": run.counting.system.name, "estimation": estimation,
            "last_deck": last_deck, "rounding": rounding, "seats": run.seats, "shoes": run.shoes,
            "samples": samples, "seed": seed,
            "count": "true" if run.counting.system.balanced else "running",
            "seconds": round(seconds, 2), "computed": computed, "notes": notes,
            "plays": [{**result_json(r), "name": _name(w.asked),
                       "published": None if w.published is None else w.published.index}
                      for w, r in zip(wanted, results, strict=True)],
        }
        emit_json(document)
        return
    from trainer.render.indices import print_indices
    from trainer.render.pager import paged_console

    rows = [(w.asked, w.published, r) for w, r in zip(wanted, results, strict=True)]
    with paged_console(allowed=paging()) as console:
        print_indices(console, run, rows, notes=notes, seconds=seconds, computed=computed)
