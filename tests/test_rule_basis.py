"""Issue 14: every rule says whether the seed states it or the trainer reads it that way.

The seed files are read from `$CUTCARD_SEEDS`, else `../shared/seeds` beside the checkout (where CI has
them), else `/work/shared/seeds`; the quote checks skip, saying why, where none of them exists.
"""

from __future__ import annotations

import json
import os
import random
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from drills.base import DrillOptions
from drills.dealing.payout import PayoutDrill
from drills.quiz.bank import READING_WORDS, QuizItem
from drills.quiz.drill import QuizDrill, quiz_items
from trainer.cli import cli
from trainer.core import (
    Action,
    IllegalActionError,
    Round,
    RulesetError,
    Shoe,
    builtin_rulesets,
    find_ruleset,
    load_ruleset,
    ruleset_to_dict,
)
from trainer.core.basis import BasisKind
from trainer.core.events import InsuranceSettled, Peeked
from trainer.core.rulesfile import parse_ruleset

RULESETS = list(builtin_rulesets().values())
REPO = Path(__file__).resolve().parent.parent


def _seeds_dir() -> Path | None:
    candidates = [os.environ.get("CUTCARD_SEEDS", ""), REPO.parent / "shared" / "seeds", "/work/shared/seeds"]
    for candidate in candidates:
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


SEEDS = _seeds_dir()
needs_seeds = pytest.mark.skipif(SEEDS is None, reason="no seed documents here: set CUTCARD_SEEDS or put "
                                 "them in ../shared/seeds beside the checkout")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.output


# --- every rule has a basis, and every seed basis quotes its seed --------------------------------


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_rule_key_has_a_seed_or_reading_basis(ruleset: object) -> None:
    r = ruleset
    keys = r.rule_keys()
    assert len(keys) >= 29 and set(keys) == set(r.basis)
    for key in keys:
        basis = r.basis[key]
        assert basis.kind in (BasisKind.SEED, BasisKind.READING), key
        if basis.kind is BasisKind.SEED:
            assert basis.file == r.source and basis.quotes, key
        else:
            assert basis.why.strip() and "\n" not in basis.why, key


@needs_seeds
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_seed_basis_quotes_a_phrase_found_in_that_seed(ruleset: object) -> None:
    assert SEEDS is not None
    for key, basis in ruleset.basis.items():
        if basis.kind is not BasisKind.SEED:
            continue
        text = _flat((SEEDS / basis.file).read_text(encoding="utf-8"))
        for quote in basis.quotes:
            assert _flat(quote) in text, (key, quote)
        if basis.english:  # seed 003 is Finnish: its English reading is beside it
            english = _flat((SEEDS / basis.file.replace(".txt", ".en.md")).read_text(encoding="utf-8"))
            assert _flat(basis.english).lower() in english.lower(), (key, basis.english)


@needs_seeds
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_quiz_question_on_the_seed_quotes_it(ruleset: object) -> None:
    assert SEEDS is not None
    for item in quiz_items(ruleset):
        if item.basis.kind is BasisKind.SEED:
            text = _flat((SEEDS / item.basis.file).read_text(encoding="utf-8"))
            assert all(_flat(q) in text for q in item.basis.quotes), item.key


def test_the_readings_the_issue_found_are_labelled() -> None:
    eight, eu, chat = (find_ruleset(n) for n in ("eight-deck", "european", "chat-host"))
    assert eight.dealer.peek == {1} and eight.basis["dealer.peek"].kind is BasisKind.SEED
    assert eight.basis["dealer.blackjack_takes"].is_reading
    assert eight.basis["player.insurance_bet"].quotes == ("a second bet (of half the original bet)",)
    for key in ("shoe.reshuffle", "shoe.cut_card_from_end", "shoe.burn"):
        assert eu.basis[key].is_reading, key
    assert "sekoitettuna palvelimella" in eu.basis["shoe.reshuffle"].why
    for r in (eight, eu):
        assert r.basis["table.min_bet"].is_reading and "practice" in r.basis["table.min_bet"].why
    assert chat.basis["table.min_bet"].quotes == ("Minimum bet is $10",)
    assert find_ruleset("bicycle").basis["player.double"].is_reading  # the seed stops before doubling


# --- user files and the reader -------------------------------------------------------------------


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_user_file_inherits_the_basis_of_keys_it_does_not_change(tmp_path: Path) -> None:
    mine = load_ruleset(_write(tmp_path, 'base = "casino"\nname = "mine"\ntitle = "Mine"\n'
                                         '[player]\nsurrender = "late"\n'))
    casino = find_ruleset("casino")
    assert mine.basis["player.surrender"].kind is BasisKind.USER
    assert mine.basis["player.surrender"].source == "your rule file mine.toml"
    assert mine.basis["dealer.hits_soft_17"] == casino.basis["dealer.hits_soft_17"]
    own = load_ruleset(_write(tmp_path, 'base = "casino"\nname = "mine"\ntitle = "Mine"\n[player]\n'
                                        'surrender = "late"\n[basis]\nplayer.surrender = { reading = '
                                        '"my club offers it" }\n'))
    assert own.basis["player.surrender"].source == "my club offers it"


BAD_BASIS = [
    ('[basis]\nplayer.colour = { reading = "x" }\n', r"\[basis\] player.colour is not a rule key"),
    ('[basis]\nplayer.surrender = "because"\n', r"\[basis\] player.surrender must be a table"),
    ('[basis]\nplayer.surrender = { reading = "x", seed = "y" }\n', "exactly one of seed, reading or user"),
    ('[basis]\nplayer.surrender = { seed = [] }\n', "seed must be the phrase"),
]


@pytest.mark.parametrize(("text", "message"), BAD_BASIS)
def test_a_bad_basis_is_one_error_naming_the_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, 'base = "casino"\nname = "x"\ntitle = "x"\n' + text)
    with pytest.raises(RulesetError, match=message) as info:
        load_ruleset(path)
    assert str(info.value).startswith("mine.toml") and "\n" not in str(info.value)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_the_basis_round_trips_through_rules_show_json(ruleset: object) -> None:
    document = ruleset_to_dict(ruleset)
    again = parse_ruleset({k: v for k, v in document.items() if k != "fingerprint"},
                          path=ruleset.path)
    assert again.basis == ruleset.basis


# --- rule cards -----------------------------------------------------------------------------------


def test_rules_show_marks_each_reading_and_json_carries_each_keys_basis() -> None:
    code, out = _run("rules", "show", "eight-deck")
    flat = _flat(out.replace("│", " "))
    assert code == 0 and "Insurance (exactly half the bet)" in flat
    assert "The dealer checks for blackjack with an ace up" in flat
    assert "With a ten up the hole card is turned after all players have acted" in flat
    assert "reading: the seed does not say what a dealer blackjack turned up under a ten" in flat
    assert "Practice limits: bets from 1 to 500." in flat
    code, out = _run("rules", "show", "eight-deck", "--json")
    basis = json.loads(out)["basis"]
    ruleset = find_ruleset("eight-deck")
    assert set(basis) == set(ruleset.rule_keys())
    assert basis["dealer.blackjack_takes"]["basis"] == "reading"
    assert basis["player.insurance_bet"] == {
        "basis": "seed", "source": "seed 004_8a82e99616e52ba9.txt, «a second bet (of half the original bet)»",
        "seed": ["a second bet (of half the original bet)"], "file": "004_8a82e99616e52ba9.txt"}


def test_the_chat_host_card_pays_by_its_rules_not_a_dealer_blackjack_it_does_not_have() -> None:
    code, out = _run("rules", "show", "chat-host")
    flat = _flat(out.replace("│", " "))
    assert code == 0 and "The dealer has no blackjack: a two-card 21 is an ordinary 21." in flat
    assert "dealer blackjack push" not in flat
    assert "Blackjack pays 3:2 and beats every other hand, the dealer's two-card 21 included." in flat
    assert "Minimum bet 10." in flat and "No maximum bet but the cash in hand." in flat
    casino = _flat(_run("rules", "show", "casino")[1].replace("│", " "))
    assert "a blackjack and a dealer blackjack push" in casino


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_seeds_are_cited_by_file_name_never_by_a_path_the_program_does_not_ship(ruleset: object) -> None:
    name = ruleset.name
    for args in (["rules", "show", name], ["rules", "show", name, "--json"]):
        assert "seeds/" not in _run(*args)[1]
    for item in quiz_items(ruleset):
        assert "seeds/" not in item.explanation + item.source


# --- the eight-deck game's insurance and peek, on stacked shoes ----------------------------------


def test_eight_deck_insurance_is_exactly_half_the_bet() -> None:
    r8 = find_ruleset("eight-deck")
    round_ = Round.start(r8, Shoe.stacked(r8, "T 7 7 A 5"), bets=[10])  # player T-7, hole 7, up A
    with pytest.raises(IllegalActionError, match="exactly half the bet"):
        round_.act(Action.INSURE, "1")
    assert round_.can_insure() and round_.view(0).insurance == 0  # nothing changed
    round_.act(Action.INSURE, "5")
    assert [e for e in round_.events if isinstance(e, InsuranceSettled)] == [
        InsuranceSettled(seat=0, net=Decimal(-5))]
    casino = find_ruleset("casino")  # "up to half" elsewhere: a partial bet is taken
    partial = Round.start(casino, Shoe.stacked(casino, "T A 7 7 5"), bets=[10])
    partial.act(Action.INSURE, "1")
    assert partial.view(0).insurance == 1


def test_the_payout_drill_asks_no_partial_insurance_on_eight_deck() -> None:
    drill = PayoutDrill()
    rng = random.Random(5)
    insured = [q for q in (drill.ask(rng, find_ruleset("eight-deck")) for _ in range(100))
               if q.data["situation"] == "insurance"]
    assert insured and all(Decimal(q.data["insurance"]) * 2 == Decimal(q.data["bet"]) for q in insured)
    assert drill.cannot_ask("payout:insurance 2:1:50:10", find_ruleset("eight-deck"))
    assert drill.cannot_ask("payout:insurance 2:1:50:25", find_ruleset("eight-deck")) is None
    assert drill.cannot_ask("payout:insurance 2:1:50:10", find_ruleset("casino")) is None


def _eight(cards: str, bets: list[int] | None = None) -> Round:
    r8 = find_ruleset("eight-deck")  # hole card first: seat, hole, seat, up, then draws
    return Round.start(r8, Shoe.stacked(r8, cards), bets=bets or [10])


def test_eight_deck_checks_under_an_ace_before_play() -> None:
    round_ = _eight("T K 7 A")  # hole K under an ace: found before anyone plays
    round_.act(Action.DECLINE)
    assert round_.finished and round_.results == (Decimal(-10),)
    assert [e.natural for e in round_.events if isinstance(e, Peeked)] == [True]


def test_eight_deck_does_not_check_under_a_ten_and_the_blackjack_found_later_takes_every_bet() -> None:
    doubled = _eight("6 A 5 T 9")  # 6-5 against a ten, an ace in the hole
    assert not doubled.finished and not any(isinstance(e, Peeked) for e in doubled.events)
    doubled.act(Action.DOUBLE)  # draws the 9: 20
    assert doubled.finished and doubled.results == (Decimal(-20),)  # the reading: all bets
    split = _eight("8 A 8 T 3 4")
    split.act(Action.SPLIT)
    while not split.finished:
        split.act(Action.STAND)
    assert split.results == (Decimal(-20),)
    both = _eight("A A K T")  # a blackjack against a ten with an ace underneath: a push, after play
    assert both.finished and both.results == (Decimal(0),)
    none = _eight("A 7 K T")  # no dealer blackjack: the natural is paid 3:2
    assert none.finished and none.results == (Decimal(15),)


# --- the quiz --------------------------------------------------------------------------------------


def _default_quiz(ruleset: object, **options: object) -> list[QuizItem]:
    drill = QuizDrill(DrillOptions(**options))
    return drill.questions(ruleset)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_no_default_question_rests_on_a_reading_unless_its_wording_says_so(ruleset: object) -> None:
    for item in _default_quiz(ruleset):
        assert not item.is_reading or READING_WORDS in item.prompt.lower(), item.key
        assert item.basis.kind is BasisKind.SEED, item.key
    readings = [i for i in quiz_items(ruleset) if i.is_reading]
    asked = {i.key for i in _default_quiz(ruleset, readings=True)}
    for item in readings:
        assert READING_WORDS in item.prompt.lower() and item.key in asked, item.key


def test_the_european_and_eight_deck_questions_carry_the_right_basis() -> None:
    eu = {i.key: i for i in quiz_items(find_ruleset("european"))}
    for key in ("reshuffle", "counting", "burn"):
        assert eu[key].is_reading and "sekoitettuna palvelimella" in eu[key].source + eu["reshuffle"].source
    assert eu["counting"].answer == "false" and "cut-card" not in eu
    assert eu["reshuffle"].prompt.startswith("In this trainer's reading of the seed, when are")
    assert {"min-bet", "max-bet"}.isdisjoint(eu)  # practice limits are not quiz facts
    eight = {i.key: i for i in quiz_items(find_ruleset("eight-deck"))}
    assert eight["peek-ten"].answer == "false" and eight["peek-ten"].basis.kind is BasisKind.SEED
    assert "After the player's final actions, the dealer reveals the down card." in eight["peek-ten"].source
    assert eight["peek-ace"].answer == "true"
    assert eight["blackjack-under-ten"].is_reading
    assert eight["blackjack-under-ten"].answer.startswith("both stakes")
    assert eight["insurance-exactly-half"].basis.kind is BasisKind.SEED and "insurance-most" not in eight
    assert {"min-bet", "max-bet"}.isdisjoint(eight)
    bicycle = {i.key: i for i in quiz_items(find_ruleset("bicycle"))}
    assert bicycle["min-bet"].answer == "$2" and bicycle["min-bet"].basis.kind is BasisKind.SEED


def test_quiz_jsonl_data_has_basis_and_source() -> None:
    code, out = _run("drill", "quiz", "-r", "eight-deck", "--seed", "1", "--count", "60", "--jsonl",
                     "--readings", input="a\n" * 60)
    questions = [line for line in map(json.loads, out.splitlines()) if "prompt" in line]
    assert code == 0 and len(questions) == 60
    for question in questions:
        data = question["data"]
        assert data["basis"] in ("seed", "reading") and data["source"]
        if data["basis"] == "seed":
            assert data["source"].startswith("seed 004_8a82e99616e52ba9.txt, «")
        else:
            assert question["prompt"].lower().startswith(("in this trainer's reading",
                                                          "true or false: in this trainer's reading"))
    default = _run("drill", "quiz", "-r", "eight-deck", "--seed", "1", "--count", "40", "--jsonl",
                   input="a\n" * 40)[1]
    assert {json.loads(line)["data"]["basis"] for line in default.splitlines() if '"prompt"' in line} == {"seed"}


def test_the_cut_card_answer_scales_with_decks() -> None:
    def cut_card(*args: str) -> str:
        code, out = _run("drill", "quiz", "-r", "casino", "--seed", "1", "--count", "80", "--jsonl",
                         "--readings", *args, input="a\n" * 80)
        assert code == 0
        grades = [json.loads(line) for line in out.splitlines()]
        questions = {g["id"]: g for g in grades if "prompt" in g}
        cut = next(g for g in grades if "expected" in g and questions[g["id"]]["data"]["question"] == "cut-card")
        assert questions[cut["id"]]["data"]["basis"] == "reading"
        return str(cut["expected"])

    one_deck = cut_card("--decks", "1")
    assert one_deck == "toward the back, so that the last 10 to 12 cards are not dealt"
    shoe = Shoe.shuffled(find_ruleset("casino").with_decks(1), random.Random(3))
    assert 10 <= shoe.cards_behind_cut <= 12
    assert cut_card() == "toward the back, so that the last 60 to 75 cards are not dealt"
    assert _run("drill", "quiz", "-r", "european", "--decks", "2", "--jsonl", input="")[0] == 1


# --- counting notices in machine mode --------------------------------------------------------------


@pytest.mark.parametrize(("drill", "answer"), [("running-count", "0"), ("true-count", "0"),
                                               ("deck-estimation", "4"), ("deviations", "stand")])
def test_counting_drills_on_eight_deck_open_with_a_notice_and_mark_each_question(drill: str,
                                                                                 answer: str) -> None:
    code, out = _run("drill", drill, "-r", "eight-deck", "--seed", "2", "--count", "2", "--jsonl",
                     input=f"{answer}\n{answer}\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and set(lines[0]) == {"notice"} and "eight-deck" in lines[0]["notice"]
    questions = [line for line in lines if "prompt" in line]
    assert len(questions) == 2 and all(q["data"]["counting_helps"] is False for q in questions)
    assert sum("notice" in line for line in lines) == 1


def test_counting_drills_on_casino_have_no_notice_and_no_counting_helps_key() -> None:
    code, out = _run("drill", "running-count", "-r", "casino", "--seed", "2", "--count", "2", "--jsonl",
                     input="0\n0\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and not any("notice" in line for line in lines)
    assert all("counting_helps" not in line["data"] for line in lines if "prompt" in line)


def test_the_european_notice_says_the_reshuffle_is_a_reading() -> None:
    out = _run("drill", "true-count", "-r", "european", "--seed", "2", "--count", "1", "--jsonl",
               input="0\n")[1]
    notice = json.loads(out.splitlines()[0])["notice"]
    assert "this trainer's reading of “Blackjack, European variant (Finnish)”" in notice
    assert "sekoitettuna palvelimella" in notice


def test_a_drill_that_does_not_count_has_no_notice() -> None:
    out = _run("drill", "quiz", "-r", "eight-deck", "--seed", "2", "--count", "1", "--jsonl", input="a\n")[1]
    assert "notice" not in json.loads(out.splitlines()[0]) and "counting_helps" not in out

