"""`cutcard play` as one call (`run_play`): its options checked, the table or the chat-host tournament
set up, and the front end run (the terminal screen, plain lines, or JSON lines).

The command reads its options and hands over how it loads a chart and index plays (with a progress bar
on a terminal, from its caches): options, one call, and the screen or the lines are the output.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from trainer.core.betting import DEFAULT_RAMP, BetRamp
from trainer.core.errors import InvalidInputError
from trainer.practice.launch import HasDbPath, open_store, rng_for

if TYPE_CHECKING:  # types only: `cutcard play --help` loads no engine, and the chat host's modules load
    # for the chat host alone
    import random
    from pathlib import Path

    from trainer.core.rules import Ruleset
    from trainer.core.wonging import Wonging
    from trainer.strategy import StrategyTable
    from trainer.strategy.indexplay import IndexPlay
    from trainer.table.edge_line import CountEdges, EdgeWatch
    from trainer.table.tournament_checks import TournamentChecks
    from trainer.tournament.game import Tournament

DEFAULT_TABLE_SEATS = 3
DEFAULT_PLAYERS = 4

LoadChart = Callable[..., "StrategyTable"]
"""`(rules, quiet=bool)`: the rule set's exact chart (from a cache, or computed with a progress bar)."""
LoadIndexPlays = Callable[..., "tuple[tuple[IndexPlay, ...], str]"]
"""`(rules, system, source, estimation=, rounding=, quiet=, last_deck=)`: the index plays and where they
come from."""
LoadCountEdges = Callable[..., "CountEdges | None"]
"""`(rules, system, indices, estimation=, rounding=, last_deck=)`: the game's edge per true count from
the stored per-count statistics `plan` uses (None: the store has none for this game)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayOptions:
    """What `cutcard play` was asked for (its options, as given)."""

    ruleset: str
    seats: int | None = None
    """Seats at the table (1-7), or the tournament's players (2-8); None: the default."""
    decks: int | None = None
    """Decks to deal from, within the rule set's range; None: the rule set's own."""
    seed: int | None = None
    system: str = "hi-lo"
    seat: int | None = None
    """The learner's seat from first base, counted from 1; None: the middle seat."""
    rounds: int | None = None
    host: bool = False
    names: str | None = None
    name: str = "Player"
    timer: int | None = None
    ramp: str = DEFAULT_RAMP
    estimation: str = "half"
    rounding: str = "floor"
    last_deck: str | None = None
    """The estimation once fewer than 52 cards are left (None: as `estimation`)."""
    indices: str | None = None
    dealer_errors: float = 0.0
    dealer_errors_typed: bool = False
    """`--dealer-errors` was typed for this command, not a remembered setting (`set dealer-errors`),
    which a table without a dealer leaves aside."""
    jsonl: bool = False
    wong: bool = False
    wong_in: int | None = None
    wong_out: int | None = None
    spots: int | None = None
    bet_count: bool = False
    """Every bet's grade shows the counts (`--bet-count`); otherwise only a wrong bet's does."""
    distract: bool = False
    """The casino interrupts about one round in three (`--distract`)."""
    distract_typed: bool = False
    """`--distract` was typed for this command, not remembered (`set distract on`): the chat-host
    tournament, with no count to keep, refuses only a typed one."""
    """Spread to up to this many hands where the plan in force plays several (None: one hand)."""


def wonging_for(options: PlayOptions, home: Path) -> Wonging | None:
    """The learner's back-counting policy: `--wong-in` / `--wong-out`, or the entry and exit counts of
    the plan in force (`plan --wong-in ... [--wong-out ...] --save`); None without --wong."""
    from trainer.core.wonging import Wonging

    if not options.wong:
        if options.wong_in is not None or options.wong_out is not None:
            raise InvalidInputError("--wong-in and --wong-out go with --wong")
        return None
    entry, exit_count = options.wong_in, options.wong_out
    if entry is None and exit_count is None:
        from trainer.planner import load_plan

        try:
            document = load_plan(home)
        except InvalidInputError:
            document = {}
        entry, exit_count = document.get("wong_in"), document.get("wong_out")
        if not isinstance(entry, int):
            raise InvalidInputError("--wong needs your entry count: --wong-in T (and --wong-out T to leave), "
                                    "or a plan in force made with `plan --wong-in T --save`")
        exit_count = exit_count if isinstance(exit_count, int) else None
    return Wonging(entry=entry, exit=exit_count)


def run_play(options: PlayOptions, settings: HasDbPath, *, chart: LoadChart,
             index_plays: LoadIndexPlays, count_edges: LoadCountEdges | None = None) -> None:
    """Check the options, seat the learner and run the session to its end; a bad option raises
    `InvalidInputError` before anything is computed or recorded. `count_edges`: the per-count
    statistics for the edge line after each round (None: the line shows no count's edge)."""
    from trainer.core.rulesfile import load_ruleset
    from trainer.render import make_console

    rules = load_ruleset(options.ruleset)
    if options.decks is not None:
        rules = rules.with_decks(options.decks)
    ramp = BetRamp.parse(options.ramp)
    console = make_console()
    if rules.tournament is not None:
        if options.distract and options.distract_typed:
            raise InvalidInputError(f"--distract interrupts the count at a table; the {rules.name} "
                                    "tournament keeps no count")
        if options.dealer_errors and options.dealer_errors_typed:  # the chat host's dealer is a bot that
            # settles by its rules (a remembered `set dealer-errors` is for the tables that have a dealer)
            raise InvalidInputError(f"--dealer-errors is for a table with a dealer, not the {rules.name} "
                                    "tournament")
        _tournament(options, rules, settings, chart)
        return
    if options.host or options.names or options.timer:
        raise InvalidInputError(f"--host, --names and --timer are for the chat-host tournament, "
                                f"not {rules.name}")
    from trainer.screens.table import TableUI
    from trainer.table.session import TableSession, check_seats

    seats = options.seats or DEFAULT_TABLE_SEATS
    check_seats(rules, seats)  # before a chart that may take seconds to compute
    wonging = wonging_for(options, settings.home)
    spots = None
    if options.spots is not None:
        from trainer.planner import load_plan
        from trainer.table.spot_bets import spot_ramp

        spots = spot_ramp(load_plan(settings.home), options.spots)
    table_chart = chart(rules, quiet=options.jsonl)
    plays, words = None, ""
    if options.indices is not None:
        plays, words = index_plays(rules, options.system, options.indices, estimation=options.estimation,
                                   rounding=options.rounding, quiet=options.jsonl,
                                   last_deck=options.last_deck)
        if not options.jsonl:
            console.print(f"Index plays: {words}.")
    from trainer.screens.ask import plain_input, plain_key, plain_line

    pace = "script" if options.jsonl or plain_input() else "learner"  # whose answer times
    edges = _edge_watch(rules, options, count_edges)
    with open_store(settings) as store:
        session = TableSession(rules, table_chart, seats=seats, rng=rng_for(options.seed),
                               system=options.system,
                               learner_seat=None if options.seat is None else options.seat - 1, ramp=ramp,
                               estimation=options.estimation, rounding=options.rounding,
                               last_deck=options.last_deck, recorder=store,
                               index_plays=plays, indices_words=words, dealer_errors=options.dealer_errors,
                               pace=pace, wonging=wonging, spots=spots, distract=options.distract)
        if options.jsonl:
            from trainer.table.machine import TableMachine

            TableMachine(session, sys.stdin, sys.stdout, edges=edges).run(options.rounds)
            return
        if not plain_input():
            TableUI(session, console, bet_count=options.bet_count, edges=edges).run(options.rounds)
            return
        TableUI(session, console, line=plain_line, key=plain_key,
                bet_count=options.bet_count, edges=edges).run(options.rounds)


def _edge_watch(rules: Ruleset, options: PlayOptions, count_edges: LoadCountEdges | None) -> EdgeWatch:
    """The edge line's reader: the stored statistics of the learner's game (a balanced count where
    counting helps), and the exact engine in the background at a terminal, at once in machine mode."""
    from trainer.core.counting import load_system
    from trainer.strategy import chart_for
    from trainer.table.edge_line import EdgeWatch

    edges = None
    if count_edges is not None and rules.counting_helps and load_system(options.system).balanced:
        edges = count_edges(rules, options.system, options.indices, estimation=options.estimation,
                            rounding=options.rounding, last_deck=options.last_deck)
    return EdgeWatch(rules, chart_for(rules), edges, background=not options.jsonl)


def _tournament(options: PlayOptions, rules: Ruleset, settings: HasDbPath, chart: LoadChart) -> None:
    """The chat-host game: the learner's plays and attacks graded and recorded (not in a host's game)."""
    from trainer.render import make_console
    from trainer.screens.ask import plain_input
    from trainer.screens.tournament import play_tournament, seat_tournament
    from trainer.table.tournament_checks import TournamentChecks

    players = options.seats or DEFAULT_PLAYERS
    rng: random.Random = rng_for(options.seed)
    if options.host:
        if options.jsonl:
            raise InvalidInputError("--host runs a chat's game by hand; --jsonl is for playing in it")
        play_tournament(rules, make_console(), players=players, rng=rng, host=True, names=options.names,
                        name=options.name, timer=options.timer)
        return
    game_chart = chart(rules, quiet=options.jsonl)
    with open_store(settings) as store:
        def checks(tournament: Tournament) -> TournamentChecks:
            pace = "script" if options.jsonl or plain_input() else "learner"  # whose answer times
            return TournamentChecks(tournament, options.name, game_chart, rng=rng, recorder=store, pace=pace)

        if options.jsonl:
            from trainer.table.machine import TournamentMachine

            if options.names:
                raise InvalidInputError("--names lists the people of a --host game; use --name for your own")
            tournament = seat_tournament(rules, players=players, rng=rng, name=options.name,
                                         timer=options.timer)
            TournamentMachine(checks(tournament), sys.stdin, sys.stdout).run(options.rounds)
            return
        play_tournament(rules, make_console(), players=players, rng=rng, host=False, names=options.names,
                        name=options.name, timer=options.timer, checks=checks)
