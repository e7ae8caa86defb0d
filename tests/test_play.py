"""`cutcard play` end to end: the table and the chat-host tournament, driven by typed keys (pipe input)."""

from __future__ import annotations

import io
import random

import pytest
from click.testing import CliRunner
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from trainer.cli import cli, main
from trainer.core import load_ruleset
from trainer.render import make_console
from trainer.screens.ask import timed_line
from trainer.screens.tournament import TournamentUI
from trainer.tournament.dice import RandomDice, ScriptedDice
from trainer.tournament.game import Entrant, Stage, Tournament

CTRL_C = "\x03"


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


def play(args: list[str], keys: str) -> str:
    """Run `cutcard play ARGS` with `keys` typed at the terminal; what it printed."""
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text(keys)
        result = CliRunner().invoke(cli, ["play", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.output


def test_a_round_at_a_three_seat_table_with_bet_plays_and_summary() -> None:
    out = play(["--ruleset", "european", "--seats", "3", "--seed", "7", "--rounds", "1"], "5\r" + "s" * 6)
    assert "Seats from first base: 1 easy, 2 you, 3 normal" in out
    assert "dealer" in out and "you" in out and "Round over" in out
    assert "Session summary" in out and "1 round, net" in out
    assert "Traceback" not in out


def test_play_keeps_the_count_of_a_users_count_system_file(tmp_path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text('name = "my-count"\ntitle = "My count (mine)"\n'
                    "tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }\n")
    out = play(["--ruleset", "casino", "--seed", "1", "--system", str(mine)], "?\rq\r")
    assert "Keep the My count count" in out and "Bet ramp" in out and "0 rounds, net" in out


def test_a_bad_bet_is_asked_again_and_q_leaves() -> None:
    out = play(["--ruleset", "casino", "--seed", "1"], "5\rlots\r?\rq\r")
    assert "the bet is $10 to $500, not $5" in out and "'lots' is not an amount" in out
    assert "Bet ramp" in out and "0 rounds, net" in out


def test_ctrl_c_at_the_table_ends_the_session_with_its_summary() -> None:
    out = play(["--ruleset", "casino", "--seed", "1"], CTRL_C)
    assert "session stopped" in out and "Session summary" in out


def test_play_options_that_do_not_fit_the_rule_set_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--ruleset", "casino", "--host"]) == 1
    err = capsys.readouterr().err
    assert err == "cutcard: --host, --names and --timer are for the chat-host tournament, not casino\n"
    assert main(["play", "--ruleset", "casino", "--seats", "8"]) == 1
    assert capsys.readouterr().err == "cutcard: a casino table has 1 to 7 seats, not 8\n"


def test_the_tournament_from_the_command_line_until_ctrl_c() -> None:
    out = play(["--ruleset", "chat-host", "--seats", "3", "--seed", "4"], "20\r" + "s" * 4 + "\r" + CTRL_C)
    assert "You are Player, with Ace, Bix" in out
    assert "— Round 1 — bets, please: $10 minimum, 30 seconds." in out
    assert "Player: bets $20" in out and "Host: .roll 13 → " in out and "Player: .roll 2d13 → " in out
    assert "game stopped" in out and "Standings" in out


def test_eight_players_are_seated_even_when_the_learner_takes_a_computer_players_name() -> None:
    out = play(["--ruleset", "chat-host", "--seats", "8", "--name", "Eve", "--seed", "4"], CTRL_C)
    assert "You are Eve, with Ace, Bix, Coco, Dex, Fitz, Gus, Hal: $100 each." in out


def test_more_players_than_computer_names_is_refused_not_seated_short() -> None:
    from trainer.core.errors import InvalidInputError
    from trainer.screens.tournament import COMPUTER_NAMES, play_tournament

    with pytest.raises(InvalidInputError, match=f"names for {len(COMPUTER_NAMES)} computer players"):
        play_tournament(load_ruleset("chat-host"), make_console(io.StringIO()), players=len(COMPUTER_NAMES) + 2,
                        rng=random.Random(1), host=False, names=None, name="Player", timer=None)


def test_the_tournament_intro_reads_the_bankroll_and_minimum_of_the_rule_set(tmp_path) -> None:
    high = tmp_path / "high.toml"
    high.write_text('base = "chat-host"\nname = "high-roller"\ntitle = "High roller"\n\n'
                    "[table]\nbankroll = 500\nmin_bet = 25\n")
    out = play(["--ruleset", str(high), "--seats", "2", "--seed", "4"], CTRL_C)
    assert "You are Player, with Ace: $500 each." in out and "Enter bets the $25 minimum" in out


def test_the_host_mode_prints_the_posts_and_reads_the_bots_rolls() -> None:
    keys = ("20\r" "\r"            # Ann bets $20; Bob's timer runs out
            "10\r" "10 9\r" "10 9\r"  # the bot's rolls: the host's card, then 2d13 for each player
            "ss" "7\r"            # both stand; the host draws a 7: 17
            + CTRL_C)
    out = play(["--ruleset", "chat-host", "--host", "--names", "Ann,Bob", "--seed", "1"], keys)
    assert "» — Round 1 — bets, please" in out and "» .roll 13" in out and "» .roll 2d13" in out
    # the host posts the dealing order before rolling for the players, who are then dealt in that order
    assert out.index("» Dealing order: ") < out.index("» .roll 2d13")
    assert "Bob: no bet in time, so bets $10" in out
    assert "Ann wins: +$20 → $120" in out and "Bob wins: +$10 → $110" in out
    assert "» Two players are left: no attacks." in out


def test_the_host_mode_asks_again_for_an_impossible_roll() -> None:
    keys = "20\r20\r" "14\r" "0\r" "x\r" "10\r" + CTRL_C
    out = play(["--ruleset", "chat-host", "--host", "--names", "Ann,Bob"], keys)
    assert out.count("? type 1 whole number from 1 to 13") == 3


class Script:
    """Scripted answers for a TournamentUI: lines, keys, and the timed bet."""

    def __init__(self, lines: list[str], keys: list[str], bets: list[str | None]) -> None:
        self.lines, self.keys, self.bets = iter(lines), iter(keys), iter(bets)
        self.timeouts: list[float] = []

    def line(self, prompt: str) -> str:
        return next(self.lines)

    def key(self, prompt: str, keys: dict[str, str]) -> str:
        pressed = next(self.keys)
        assert pressed in keys, (pressed, keys)
        return pressed

    def timed(self, prompt: str, seconds: float) -> str | None:
        self.timeouts.append(seconds)
        return next(self.bets)


def tournament(rolls: list[int], computers: str = "") -> Tournament:
    entrants = [Entrant(name=n, computer=n in computers.split()) for n in ("Kim", "Lou", "Max")]

    class KeepOrder(random.Random):
        def shuffle(self, x: list[object]) -> None:
            return None

    return Tournament(load_ruleset("chat-host"), entrants, rng=KeepOrder(), dice=ScriptedDice(rolls),
                      bet_timer=45)


def test_the_betting_timer_bets_the_minimum_when_time_runs_out() -> None:
    t = tournament([10, 10, 9, 10, 7, 10, 8, 7], computers="Lou Max")
    ticks = iter([0.0, 0.0, 50.0])
    script = Script(lines=[""], keys=["s"], bets=["abc"])
    out = io.StringIO()
    ui = TournamentUI(t, make_console(out, width=200, color=False), line=script.line, key=script.key,
                      timed=script.timed, clock=lambda: next(ticks))
    ui.ask_next()  # Kim types a bad bet, then the clock has passed the 45 seconds
    assert script.timeouts == [45.0] and t.bets["Kim"] == 10
    assert "'abc' is not an amount" in out.getvalue()
    assert "Kim: no bet in time, so bets $10" in t.transcript


def test_when_only_computers_are_left_the_learner_can_watch_to_the_end() -> None:
    t = tournament([10, 10, 6, 10, 7, 10, 8, 10, 7], computers="Lou Max")
    t.bet("Kim", 100)
    script = Script(lines=[], keys=["h", "a"], bets=[])
    ui = TournamentUI(t, make_console(io.StringIO(), width=200, color=False), line=script.line,
                      key=script.key, timed=script.timed)
    t.dice = RandomDice(random.Random(3))
    ui.run()  # Kim hits 16 + 10 and is out; 'a' plays the computers to the end
    assert t.stage is Stage.OVER and t.winner in ("Lou", "Max")


def test_timed_line_returns_what_was_typed_or_none_when_time_is_up() -> None:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        assert timed_line("bet > ", 0) is None
        pipe.send_text("25\r")
        assert timed_line("bet > ", 30) == "25"



def test_ctrl_c_and_ctrl_d_at_the_timed_bet_stop_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text(CTRL_C)
        with pytest.raises(KeyboardInterrupt):
            timed_line("bet > ", 30)
        pipe.send_text("\x04")
        with pytest.raises(EOFError):
            timed_line("bet > ", 30)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out and "never retrieved" not in captured.err
