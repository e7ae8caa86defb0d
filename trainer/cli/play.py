"""`cutcard play`: a full table with computer seats, or the chat-host tournament (seed 002)."""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from trainer.cli.common import (
    DEFAULT_SYSTEM,
    db_option,
    estimation_option,
    load_chart,
    rounding_option,
    ruleset_option,
    seed_option,
    settings,
)
from trainer.core.betting import DEFAULT_RAMP

if TYPE_CHECKING:
    from trainer.core.rules import Ruleset
    from trainer.tournament.game import Tournament

DEFAULT_TABLE_SEATS = 3
DEFAULT_PLAYERS = 4


@click.command("play")
@ruleset_option
@click.option("--seats", type=click.IntRange(1, 8), default=None,
              help=f"Seats at the table, yours included: 1-7 (default {DEFAULT_TABLE_SEATS}). "
                   f"chat-host: players, 2-8 (default {DEFAULT_PLAYERS}).")
@seed_option
@click.option("--system", default=DEFAULT_SYSTEM, show_default=True, help="The count system you keep.")
@click.option("--seat", "seat", type=click.IntRange(1, 7), default=None,
              help="Your seat, 1 being first base (default: the middle seat).")
@click.option("--rounds", type=click.IntRange(min=1), default=None, help="Stop after this many rounds.")
@click.option("--host", is_flag=True,
              help="chat-host: run a game in a chat. Prints each line to post; you type the dice bot's "
                   "rolls and the players' bets and choices.")
@click.option("--names", default=None, metavar="ANN,BOB,...", help="chat-host --host: the players' names.")
@click.option("--name", default="Player", show_default=True, help="chat-host: your name in the game.")
@click.option("--timer", type=click.IntRange(1, 600), default=None,
              help="chat-host: seconds to bet (default: the rule set's shortest timer).")
@click.option("--ramp", default=DEFAULT_RAMP, show_default=True, metavar="TC:UNITS,...",
              help="Your bet ramp, as `sim --ramp` takes it: from each true count up, bet that many units "
                   "(one unit = the table minimum). Every bet is graded against it; `set ramp` in the "
                   "REPL remembers yours.")
@estimation_option
@rounding_option
@click.option("--indices", type=click.Choice(["published", "computed"]), default=None,
              help="The index plays judged at your true count: the published Illustrious 18 and Fab 4 (for "
                   "Hi-Lo, the default), or those computed for this table and count (`cutcard indices`).")
@click.option("--bet-count", "bet_count", is_flag=True, default=False,
              help="Show the true and running count in every bet's grade (by default only a wrong bet's, "
                   "so that a right one does not give the next count check away); `set bet-count on` in "
                   "the REPL remembers it.")
@click.option("--dealer-errors", "dealer_errors", type=click.FloatRange(0, 1), default=0.0, metavar="RATE",
              help="The share of rounds in which the dealer makes a realistic mistake (0.2: one round in "
                   "five; default 0, never). Call it with f and the seat (f 3, f dealer) before the next "
                   "round; catches, misses and false calls are graded and recorded as the catch drill's. "
                   "`set dealer-errors` in the REPL remembers it. Not at chat-host.")
@click.option("--jsonl", is_flag=True,
              help="Machine mode: one JSON line per decision, one answer line, one JSON grade line.")
@db_option
def command(ruleset: str, seats: int | None, seed: int | None, system: str, seat: int | None,
            rounds: int | None, host: bool, names: str | None, name: str, timer: int | None, ramp: str,
            estimation: str, rounding: str, indices: str | None, dealer_errors: float, jsonl: bool,
            bet_count: bool = False) -> None:
    """Sit at a table with computer seats (Easy, Normal, Hard): bet, play with single keys, and be
    told at once when a play leaves the chart or an index play; the count is asked at checkpoints and
    at each reshuffle. With --ruleset chat-host, play the chat tournament against computer players.

    Computer players of the tournament bet a fifth of their cash (in $5, at least the minimum), play
    the simple strategy card (split A-A and 8-8; double 10-11 against 2-9; stand on 17+, on 12-16
    against 2-6 and on soft 18+), and attack the rival they most likely beat when that chance is at
    least 2 in 3.

    Every bet, play and count answer is graded and recorded in the progress database as it is given
    (source "play"), under the same review items as the drills. With --jsonl, each decision is a JSON
    line and each answer one line (see the README).
    """
    from trainer.core.betting import BetRamp
    from trainer.core.errors import InvalidInputError
    from trainer.core.rulesfile import load_ruleset
    from trainer.practice.launch import open_store, rng_for
    from trainer.render import make_console

    rules = load_ruleset(ruleset)
    bet_ramp = BetRamp.parse(ramp)
    console = make_console()
    if rules.tournament is not None:
        source = click.get_current_context().get_parameter_source("dealer_errors")
        typed = source is ParameterSource.COMMANDLINE
        if dealer_errors and typed:  # the chat host's dealer is a bot that settles by its rules (the REPL's
            # `set dealer-errors` is for the tables that have a dealer, so it is left aside here)
            raise InvalidInputError(f"--dealer-errors is for a table with a dealer, not the {rules.name} "
                                    "tournament")
        _tournament(rules, seats or DEFAULT_PLAYERS, rng_for(seed), host=host, names=names, name=name,
                    timer=timer, jsonl=jsonl, rounds=rounds)
        return
    if host or names or timer:
        raise InvalidInputError(f"--host, --names and --timer are for the chat-host tournament, "
                                f"not {rules.name}")
    table_seats = seats or DEFAULT_TABLE_SEATS
    from trainer.screens.table import TableUI
    from trainer.table.session import TableSession, check_seats

    check_seats(rules, table_seats)  # before a chart that may take seconds to compute
    chart = load_chart(rules, quiet=jsonl)
    plays, words = None, ""
    if indices is not None:
        from trainer.cli.indices import index_source

        plays, words = index_source(rules, system, indices, estimation=estimation, rounding=rounding,
                                    quiet=jsonl)
        if not jsonl:
            console.print(f"Index plays: {words}.")
    with open_store(settings()) as store:
        session = TableSession(rules, chart, seats=table_seats, rng=rng_for(seed), system=system,
                               learner_seat=None if seat is None else seat - 1, ramp=bet_ramp,
                               estimation=estimation, rounding=rounding, recorder=store,
                               index_plays=plays, indices_words=words, dealer_errors=dealer_errors)
        from trainer.screens.ask import plain_input, plain_key, plain_line

        session.graded.pace = "script" if jsonl or plain_input() else "learner"  # whose answer times
        if jsonl:
            from trainer.table.machine import TableMachine

            TableMachine(session, sys.stdin, sys.stdout).run(rounds)
            return
        if not plain_input():
            TableUI(session, console, bet_count=bet_count).run(rounds)
            return
        TableUI(session, console, line=plain_line, key=plain_key, bet_count=bet_count).run(rounds)


def _tournament(rules: Ruleset, players: int, rng: random.Random, *, host: bool, names: str | None,
                name: str, timer: int | None, jsonl: bool, rounds: int | None) -> None:
    """The chat-host game: the learner's plays and attacks graded and recorded (not in a host's game)."""
    from trainer.core.errors import InvalidInputError
    from trainer.practice.launch import open_store
    from trainer.render import make_console
    from trainer.screens.ask import plain_input
    from trainer.screens.tournament import play_tournament, seat_tournament
    from trainer.table.tournament_checks import TournamentChecks

    if host:
        if jsonl:
            raise InvalidInputError("--host runs a chat's game by hand; --jsonl is for playing in it")
        play_tournament(rules, make_console(), players=players, rng=rng, host=True, names=names, name=name,
                        timer=timer)
        return
    chart = load_chart(rules, quiet=jsonl)
    with open_store(settings()) as store:
        def checks(tournament: Tournament) -> TournamentChecks:
            made = TournamentChecks(tournament, name, chart, rng=rng, recorder=store)
            made.graded.pace = "script" if jsonl or plain_input() else "learner"  # whose answer times
            return made

        if jsonl:
            from trainer.table.machine import TournamentMachine

            if names:
                raise InvalidInputError("--names lists the people of a --host game; use --name for your own")
            tournament = seat_tournament(rules, players=players, rng=rng, name=name, timer=timer)
            TournamentMachine(checks(tournament), sys.stdin, sys.stdout).run(rounds)
            return
        play_tournament(rules, make_console(), players=players, rng=rng, host=False, names=names, name=name,
                        timer=timer, checks=checks)
