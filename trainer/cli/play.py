"""`cutcard play`: a full table with computer seats, or the chat-host tournament (seed 002).

The command reads its options and makes one call, `trainer.table.launch.run_play`, which checks them
and runs the session; this module only says what each option means."""

from __future__ import annotations

import click
from click.core import ParameterSource

from trainer.cli.common import (
    DEFAULT_SYSTEM,
    db_option,
    distract_option,
    estimation_option,
    last_deck_option,
    load_chart,
    rounding_option,
    ruleset_option,
    seed_option,
    settings,
)
from trainer.core.betting import DEFAULT_RAMP
from trainer.table.launch import DEFAULT_PLAYERS, DEFAULT_TABLE_SEATS


@click.command("play")
@ruleset_option
@click.option("--seats", type=click.IntRange(1, 8), default=None,
              help=f"Seats at the table, yours included: 1-7 (default {DEFAULT_TABLE_SEATS}). "
                   f"chat-host: players, 2-8 (default {DEFAULT_PLAYERS}).")
@click.option("--decks", type=click.IntRange(1, 8), default=None,
              help="Deal from this many decks (within the rule set's range). casino at 1 or 2 decks is a "
                   "pitch game: the players' cards are dealt face down.")
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
@last_deck_option
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
@click.option("--wong", is_flag=True,
              help="Back-count: before each round sit, stay, watch or leave, graded against your entry and "
                   "exit counts (--wong-in, --wong-out, or the plan in force's entry count). Watched rounds "
                   "are dealt to the other seats; after a shuffle you are watching.")
@click.option("--wong-in", type=int, default=None, metavar="T",
              help="With --wong: your entry count (true count; running count for KO, Red 7).")
@click.option("--wong-out", type=int, default=None, metavar="T",
              help="With --wong: your exit count: below it you leave until the shuffle.")
@click.option("--spots", type=click.IntRange(2, 7), is_flag=False, flag_value=2, default=None, metavar="[N]",
              help="Spread to two (or N) hands at the counts where the plan in force (`plan --spots 2:2 "
                   "--save`) plays more; each hand's bet is graded against the plan.")
@distract_option
@click.option("--jsonl", is_flag=True,
              help="Machine mode: one JSON line per decision, one answer line, one JSON grade line.")
@db_option
def command(ruleset: str, seats: int | None, decks: int | None, seed: int | None, system: str,
            seat: int | None, rounds: int | None, host: bool, names: str | None, name: str,
            timer: int | None, ramp: str, estimation: str, last_deck: str | None, rounding: str,
            indices: str | None, dealer_errors: float, wong: bool, wong_in: int | None, wong_out: int | None,
            spots: int | None, jsonl: bool, bet_count: bool = False, distract: bool = False) -> None:
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
    from trainer.cli.indices import index_source
    from trainer.cli.plan import stored_count_edges
    from trainer.core.counting import check_last_deck
    from trainer.core.errors import InvalidInputError, UnknownNameError
    from trainer.table.launch import PlayOptions, run_play

    try:  # a setting that cannot go together is a usage error (2), before any chart is computed
        check_last_deck(estimation, last_deck)
    except InvalidInputError as e:
        raise UnknownNameError(str(e)) from None
    source = click.get_current_context().get_parameter_source
    typed = source("dealer_errors") is ParameterSource.COMMANDLINE
    options = PlayOptions(ruleset=ruleset, seats=seats, decks=decks, seed=seed, system=system, seat=seat,
                          rounds=rounds, host=host, names=names, name=name, timer=timer, ramp=ramp,
                          estimation=estimation, rounding=rounding, last_deck=last_deck, indices=indices,
                          dealer_errors=dealer_errors, dealer_errors_typed=typed, jsonl=jsonl, wong=wong,
                          wong_in=wong_in, wong_out=wong_out, spots=spots, bet_count=bet_count,
                          distract=distract, distract_typed=source("distract") is ParameterSource.COMMANDLINE)
    run_play(options, settings(), chart=load_chart, index_plays=index_source, count_edges=stored_count_edges)
