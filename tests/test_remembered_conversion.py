"""The true-count conversion remembered with `set` (estimation, last deck, rounding, close call): checked
as a whole when set, the default of every command that converts a running count, an option typed on the
line still winning; and the drills that read a tray honour each part and say it in their grades."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from drills.base import DrillOptions
from drills.counting.deck_estimation import DeckEstimationDrill
from drills.counting.wong import WongDrill
from trainer.core.counting import estimate_decks_left
from trainer.core.errors import InvalidInputError
from trainer.core.rulesfile import find_ruleset
from trainer.repl import prefs
from trainer.repl.prefs import Prefs, change, load_prefs, save_prefs

CASINO = find_ruleset("casino")


def test_each_part_is_remembered_and_reaches_the_commands_that_convert() -> None:
    chosen = Prefs()
    for key, value in (("estimation", "Quarter"), ("last-deck", "exact"), ("rounding", "round"),
                       ("close-call", "2.5")):
        chosen = change(chosen, key, value)
    assert (chosen.estimation, chosen.last_deck, chosen.rounding, chosen.close_call) == \
        ("quarter", "exact", "round", 2.5)
    defaults = chosen.default_map()
    for command in ("drill", "play", "sim", "indices", "plan"):
        assert {defaults[command][k] for k in ("estimation", "last_deck", "rounding")} == \
            {"quarter", "exact", "round"}, command
    assert defaults["drill"]["close_call"] == 2.5 and "close_call" not in defaults["play"]
    assert [chosen.shown(k) for k in ("estimation", "last-deck", "rounding", "close-call")] == \
        ["quarter", "exact", "round", "2.5 cards"]
    assert Prefs().shown("estimation") == "half (default)" and Prefs().shown("rounding") == "floor (default)"
    assert change(chosen, "last-deck", "default").last_deck is None


def test_it_survives_a_restart(cutcard_home: Path) -> None:
    save_prefs(cutcard_home, change(change(Prefs(), "estimation", "full"), "last-deck", "half"))
    again, warning = load_prefs(cutcard_home)
    assert warning is None and (again.estimation, again.last_deck) == ("full", "half")


@pytest.mark.parametrize("steps, message", [
    ((("estimation", "eighth"),), "not one of full, half, quarter, exact"),
    ((("rounding", "up"),), "not one of floor, truncate, round"),
    ((("close-call", "a few"),), "not a number of cards"),
    ((("close-call", "30"),), "out of range"),
    ((("last-deck", "full"),), "more coarsely"),  # the shoe is read to the half deck by default
    ((("estimation", "quarter"), ("last-deck", "half")), "more coarsely"),
    ((("last-deck", "quarter"), ("estimation", "exact")), "more coarsely"),
    ((("estimation", "quarter"), ("close-call", "7")), "under 6.5 cards for quarter decks"),
    ((("close-call", "12"), ("last-deck", "quarter")), "under 6.5 cards for quarter decks"),
    ((("estimation", "full"), ("last-deck", "full"), ("estimation", "default")), "more coarsely"),
])
def test_a_conversion_no_command_takes_is_refused_when_set(steps: tuple[tuple[str, str], ...],
                                                           message: str) -> None:
    chosen = Prefs()
    *first, last = steps
    for key, value in first:
        chosen = change(chosen, key, value)
    with pytest.raises(InvalidInputError, match=message):
        change(chosen, *last)


def _first_question(output: str) -> dict[str, object]:
    return dict(json.loads(output.splitlines()[0])["data"])


def test_a_drill_converts_by_the_remembered_settings_and_a_typed_option_wins(tmp_path: Path) -> None:
    from trainer.cli import cli

    chosen = change(change(change(Prefs(), "estimation", "quarter"), "rounding", "round"), "close-call", "2")
    args = ["drill", "true-count", "--jsonl", "-n", "1", "--seed", "3", "--db", str(tmp_path / "p.db")]
    run = CliRunner().invoke(cli, args, input="0\n", default_map=chosen.default_map())
    assert run.exit_code == 0, run.output
    data = _first_question(run.output)
    assert (data["estimation"], data["rounding"], data["close_call_cards"]) == ("quarter", "round", 2)
    assert "quarter decks, round" in json.loads(run.output.splitlines()[1])["explanation"]
    typed = CliRunner().invoke(cli, [*args, "--rounding", "floor"], input="0\n",
                               default_map=chosen.default_map())
    assert _first_question(typed.output)["rounding"] == "floor"


def test_a_remembered_part_too_coarse_for_a_typed_estimation_gives_way(tmp_path: Path) -> None:
    from trainer.cli import cli

    args = ["drill", "true-count", "--jsonl", "-n", "1", "--seed", "3", "--db", str(tmp_path / "p.db")]

    def data(chosen: Prefs, *typed: str) -> dict[str, object]:
        run = CliRunner().invoke(cli, [*args, *typed], input="0\n", default_map=chosen.default_map())
        assert run.exit_code == 0, run.output
        return _first_question(run.output)

    last_deck = change(Prefs(), "last-deck", "quarter")
    assert data(last_deck)["last_deck"] == "quarter"
    assert data(last_deck, "--estimation", "exact")["last_deck"] is None  # read as the rest of the shoe
    wide = change(Prefs(), "close-call", "7")  # under half of a half deck's 26 cards
    assert data(wide)["close_call_cards"] == 7
    assert data(wide, "--estimation", "quarter")["close_call_cards"] is None  # an eighth of the unit
    typed = CliRunner().invoke(cli, [*args, "--estimation", "exact", "--last-deck", "quarter"], input="0\n",
                               default_map=last_deck.default_map())
    assert "more coarsely" in str(typed.exception)  # typed on the line: refused, as without settings


def test_play_bets_by_the_remembered_conversion_and_says_it(tmp_path: Path) -> None:
    from trainer.cli import cli

    chosen = change(change(Prefs(), "estimation", "full"), "rounding", "truncate")
    run = CliRunner().invoke(cli, ["play", "--jsonl", "--rounds", "1", "--seed", "2", "--db",
                                   str(tmp_path / "p.db")], input="20\n", default_map=chosen.default_map())
    bet = json.loads(run.output.splitlines()[0])
    assert (bet["data"]["estimation"], bet["data"]["rounding"]) == ("full", "truncate")
    grade = json.loads(run.output.splitlines()[1])
    assert "full decks, truncate" in grade["explanation"]


def test_the_setting_is_for_every_command_with_that_option() -> None:
    from trainer.repl.commands import find_command

    for key in ("estimation", "last-deck", "rounding", "close-call"):
        for name in prefs.APPLIES_TO[key]:
            assert prefs.field_of(key) in {p.name for p in find_command((name,)).params}, (key, name)


# --- the tray drills honour each part ---------------------------------------------------------------


def test_the_wong_drill_reads_the_last_deck_finer_and_says_the_conversion() -> None:
    drill = WongDrill(DrillOptions(estimation="half", last_deck="quarter", rounding="round",
                                   decks=1, extra={"in": "+1"}))
    rng = random.Random(5)
    rules = find_ruleset("casino")
    last_deck = 0
    for _ in range(12):
        q = drill.ask(rng, rules)
        cards = int(q.data["cards_left"])
        assert q.data["decks_left"] == float(estimate_decks_left(cards, "half", "quarter"))
        assert q.data["last_deck"] == "quarter" and "half decks, quarter decks in the last deck, round" \
            in q.explanation
        last_deck += cards < 52
    assert last_deck  # a one-deck game is all last deck
    with pytest.raises(InvalidInputError, match="under 13 cards"):
        WongDrill(DrillOptions(close_call=13))


def test_deck_estimation_takes_the_allowed_error_of_a_close_call() -> None:
    def calls(within: float | None) -> int:
        drill = DeckEstimationDrill(DrillOptions(close_call=within))
        rng = random.Random(8)
        return sum("close_call" in drill.ask(rng, CASINO).data for _ in range(40))

    assert calls(0) == 0
    assert calls(None) < calls(12)
    drill = DeckEstimationDrill(DrillOptions(close_call=12))
    rng = random.Random(8)
    question = next(q for q in (drill.ask(rng, CASINO) for _ in range(40)) if "close_call" in q.data)
    close = question.data["close_call"]
    assert isinstance(close, dict)
    other = str(close["also_accepted_decks_left"])
    answer = drill.parse(question, other)
    assert drill.grade(question, answer).correct
