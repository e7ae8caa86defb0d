"""`cutcard play`: a full table with computer seats, or the chat-host tournament (seed 002)."""

from __future__ import annotations

import click

from trainer.cli.common import DEFAULT_SYSTEM, db_option, load_chart, ruleset_option, seed_option

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
@click.option("--indices", type=click.Choice(["published", "computed"]), default=None,
              help="Judge index plays by a list at your true count: the published Illustrious 18 and "
                   "Fab 4, or those computed for this table and count (`cutcard indices`). Default: by "
                   "the exact EVs of the cards seen.")
@db_option
def command(ruleset: str, seats: int | None, seed: int | None, system: str, seat: int | None,
            rounds: int | None, host: bool, names: str | None, name: str, timer: int | None,
            indices: str | None) -> None:
    """Sit at a table with computer seats (Easy, Normal, Hard): bet, play with single keys, and be
    told at once when a play leaves the chart or an index play; the count is asked at checkpoints and
    at each reshuffle. With --ruleset chat-host, play the chat tournament against computer players.

    Computer players of the tournament bet a fifth of their cash (in $5, at least the minimum), play
    the simple strategy card (split A-A and 8-8; double 10-11 against 2-9; stand on 17+, on 12-16
    against 2-6 and on soft 18+), and attack the rival they most likely beat when that chance is at
    least 2 in 3.
    """
    from trainer.core.errors import InvalidInputError
    from trainer.core.rulesfile import load_ruleset
    from trainer.render import make_console
    from trainer.runs import rng_for

    rules = load_ruleset(ruleset)
    console = make_console()
    if rules.tournament is not None:
        from trainer.repl.tournament_ui import play_tournament

        play_tournament(rules, console, players=seats or DEFAULT_PLAYERS, rng=rng_for(seed), host=host,
                        names=names, name=name, timer=timer)
        return
    if host or names or timer:
        raise InvalidInputError(f"--host, --names and --timer are for the chat-host tournament, "
                                f"not {rules.name}")
    table_seats = seats or DEFAULT_TABLE_SEATS
    from trainer.repl.table_ui import TableUI
    from trainer.table.session import TableSession, check_seats

    check_seats(rules, table_seats)  # before a chart that may take seconds to compute
    plays, words = None, "the exact EVs of the cards seen since the shuffle"
    if indices is not None:
        from trainer.cli.indices import index_source

        plays, words = index_source(rules, system, indices)
    session = TableSession(rules, load_chart(rules), seats=table_seats, rng=rng_for(seed), system=system,
                           learner_seat=None if seat is None else seat - 1, index_plays=plays,
                           indices_words=words)
    console.print(f"Index plays: {words}.")
    TableUI(session, console).run(rounds)
