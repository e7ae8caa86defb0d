"""The index-play data (Illustrious 18, Fab 4; S17 and H17) and the deviations drill built on it."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner
from stacking import custom

from drills.base import DrillOptions
from drills.strategy.deviations import DeviationsDrill, offered_plays
from drills.strategy.index_plays import IndexPlay, deal_hand, fits, game_of, index_plays, plays_for, source
from trainer.core import Ruleset, builtin_rulesets, find_ruleset, hand_total
from trainer.core.errors import InvalidInputError

RULESETS = list(builtin_rulesets().values())

SCHLESINGER_S17 = {  # Blackjack Attack: the Illustrious 18 in order, then the Fab 4 (index, play at/above)
    "insurance": (3, "insure"), "16 vs 10": (0, "stand"), "15 vs 10": (4, "stand"),
    "10,10 vs 5": (5, "split"), "10,10 vs 6": (4, "split"), "10 vs 10": (4, "double"),
    "12 vs 3": (2, "stand"), "12 vs 2": (3, "stand"), "11 vs A": (1, "double"), "9 vs 2": (1, "double"),
    "10 vs A": (4, "double"), "9 vs 7": (3, "double"), "16 vs 9": (5, "stand"), "13 vs 2": (-1, "stand"),
    "12 vs 4": (0, "stand"), "12 vs 5": (-2, "stand"), "12 vs 6": (-1, "stand"), "13 vs 3": (-2, "stand"),
}
FAB_4_S17 = {"14 vs 10": 3, "15 vs 10": 0, "15 vs 9": 2, "15 vs A": 1}


def test_the_s17_table_is_schlesingers() -> None:
    plays = index_plays("s17")
    eighteen = [p for p in plays if p.set == "illustrious-18"]
    assert [p.number for p in eighteen] == list(range(1, 19))
    assert {p.name: (p.index, p.above) for p in eighteen} == SCHLESINGER_S17
    assert {p.name: p.index for p in plays if p.set == "fab-4"} == FAB_4_S17
    assert "Schlesinger" in source("s17")[1] and "wizardofodds.com" in source("s17")[1]


def test_the_h17_table_moves_the_plays_h17_changes() -> None:
    h17 = {p.name: p for p in index_plays("h17")}
    s17 = {p.name: p for p in index_plays("s17")}
    assert h17["11 vs A"].index < s17["11 vs A"].index  # H17 basic strategy doubles 11 vs A
    assert h17["10 vs A"].index < s17["10 vs A"].index
    assert h17["15 vs A"].index < s17["15 vs A"].index  # and surrenders 15 vs A
    assert "12 vs 6" not in h17 and "13 vs 3" not in h17  # the H17 chart gives them no index
    assert "Blackjack Apprenticeship" in source("h17")[1]


@pytest.mark.parametrize("game", ["s17", "h17"])
def test_every_play_is_well_formed(game: str) -> None:
    words = {"hit", "stand", "double", "split", "surrender", "insure", "decline"}
    for play in index_plays(game):
        assert play.above in words and play.below in words and play.above != play.below
        assert play.when in ("", "surrender", "no-surrender")
        assert (play.when == "surrender") == (play.set == "fab-4")
        assert play.play_at(play.index) == play.above and play.play_at(play.index - 1) == play.below


def test_h17_and_s17_tables_follow_the_dealers_soft_17_rule() -> None:
    assert game_of(find_ruleset("casino")) == "s17" and game_of(find_ruleset("casino-h17")) == "h17"


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_only_plays_the_table_allows_are_asked(ruleset: Ruleset) -> None:
    names = {p.name for p in plays_for(ruleset)}
    assert not any(p.set == "fab-4" for p in plays_for(ruleset))  # no shipped rule set offers surrender
    assert ("insurance" in names) == ruleset.player.insurance
    peeks = set(ruleset.dealer.peek) if ruleset.dealer.natural else set()
    assert ("11 vs A" in names) == (1 in peeks)  # eight-deck checks under an ace only (seed 004)
    assert ("10 vs 10" in names) == (10 in peeks)


def test_late_surrender_practice_swaps_in_the_fab_4() -> None:
    drill = DeviationsDrill(DrillOptions(extra={"surrender": "late"}))
    asked = {(q.data["set"], q.data["play"]) for q in (drill.ask(random.Random(n), find_ruleset("casino"))
                                                       for n in range(400))}
    assert {("fab-4", name) for name in FAB_4_S17} <= asked
    replaced = {("illustrious-18", name) for name in ("16 vs 10", "15 vs 10", "16 vs 9")}
    assert not replaced & asked  # a surrender table plays these by the Fab 4 (16 vs 10 surrenders)
    assert any("Practice: late surrender" in line for line in drill.intro(find_ruleset("casino")))


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_each_question_has_the_index_play_among_the_engines_options(ruleset: Ruleset) -> None:
    drill = DeviationsDrill()
    plays = {p.name: p for p in plays_for(ruleset)}
    rng = random.Random(7)
    for _ in range(150):
        question = drill.ask(rng, ruleset)
        play = plays[question.data["play"]]
        count = question.data["true_count"]
        expected = play.play_at(count)
        if question.data["cards"][0] == "A" and play.hand == "insurance":
            expected = {"insure": "even-money"}.get(expected, expected)
        assert question.expected == expected and expected in question.data["options"]
        assert question.data["game"] == game_of(ruleset) and question.data["up"] == str(play.up_card)
        json.dumps(question.to_json("q"))


@pytest.mark.parametrize("play", index_plays("s17") + index_plays("h17"), ids=lambda p: f"{p.game} {p.name}")
def test_dealt_hands_are_the_plays_hand(play: IndexPlay) -> None:
    rng = random.Random(1)
    for _ in range(20):
        cards = deal_hand(play, rng)
        total, soft = hand_total(cards)
        if play.hand == "pair of 10s":
            assert cards[0].rank == cards[1].rank and cards[0].value == 10  # splittable on same-rank tables
        elif play.hand != "insurance":
            assert f"hard {total}" == play.hand and not soft and cards[0].value != cards[1].value


def test_counts_cluster_at_the_index_boundary() -> None:
    drill = DeviationsDrill()
    rng = random.Random(3)
    offsets: Counter[int] = Counter()
    plays = {p.name: p for p in plays_for(find_ruleset("casino"))}
    for _ in range(1500):  # the -2 and -3 offsets differ by over 2 SE at this size
        data = drill.ask(rng, find_ruleset("casino")).data
        offsets[data["true_count"] - plays[data["play"]].index] += 1
    assert offsets[0] > offsets[1] > offsets[2] and offsets[-1] > offsets[-2] > offsets[-3]
    assert offsets[0] + offsets[-1] > sum(offsets.values()) / 2  # the two counts where the play flips


def test_answers_accept_words_and_letters_and_refuse_others() -> None:
    drill = DeviationsDrill()
    casino = find_ruleset("casino")
    question = next(q for q in (drill.ask(random.Random(n), casino) for n in range(200))
                    if q.data["play"] == "10,10 vs 6")
    for text, value in (("p", "split"), ("Split", "split"), ("s", "stand"), ("d", "double"), ("h", "hit")):
        assert drill.parse(question, text).value == value
    for bad in ("abc", "surrender", "r", "insure", ""):
        with pytest.raises(InvalidInputError, match="one of hit, stand, double, split"):
            drill.parse(question, bad)


def test_insurance_and_even_money_answers() -> None:
    drill = DeviationsDrill()
    casino = find_ruleset("casino")
    questions = [q for q in (drill.ask(random.Random(n), casino) for n in range(600))
                 if q.data["play"] == "insurance"]
    naturals = [q for q in questions if q.data["cards"][0] == "A"]
    others = [q for q in questions if q.data["cards"][0] != "A"]
    assert naturals and others
    for question in naturals:
        assert question.data["options"] == ["even-money", "decline"]
        assert drill.parse(question, "y").value == drill.parse(question, "insure").value == "even-money"
        assert question.expected == ("even-money" if question.data["true_count"] >= 3 else "decline")
    for question in others:
        assert question.data["options"] == ["insure", "decline"]
        assert drill.parse(question, "yes").value == "insure"
        assert drill.parse(question, "n").value == "decline"


def test_offered_plays_come_from_the_engine() -> None:
    from trainer.core import parse_cards

    bicycle, casino = find_ruleset("bicycle"), find_ruleset("casino")
    queen, king, six, two, three = parse_cards("Q K 6 2 3")
    assert offered_plays(bicycle, (king, queen), six) == ("hit", "stand")  # same-rank splits; no double on 20
    assert offered_plays(casino, (king, queen), six) == ("hit", "stand", "double", "split")
    assert offered_plays(bicycle, (two, three), six) == ("hit", "stand")  # doubles only on 9-11


def test_a_review_item_asks_the_same_play() -> None:
    drill = DeviationsDrill()
    casino = find_ruleset("casino-h17")
    first = drill.ask(random.Random(5), casino)
    assert all(drill.ask(random.Random(n), casino, first.item).data["play"] == first.data["play"]
               for n in range(10))


def test_intro_says_when_counting_cannot_help_and_what_is_left_out() -> None:
    drill = DeviationsDrill()
    assert any("Counting cannot help" in line for line in drill.intro(find_ruleset("eight-deck")))
    assert any("does not check for blackjack" in line for line in drill.intro(find_ruleset("european")))
    assert not any("Counting cannot help" in line for line in drill.intro(find_ruleset("casino")))
    with pytest.raises(InvalidInputError):
        DeviationsDrill(DrillOptions(extra={"surender": "late"}))


@pytest.mark.parametrize("double, nine, eleven", [("any-two", True, True), ("9-11", True, True),
                                                  ("10-11", False, True), ("none", False, False)])
def test_fits_needs_the_double_rule(double: str, nine: bool, eleven: bool) -> None:
    """A double index play fits only where the table lets that hand double; the stand/hit ones always."""
    plays = {p.name: p for p in index_plays("s17")}
    table = custom("casino", player={"double": double})
    assert fits(plays["9 vs 2"], table) is nine and fits(plays["9 vs 7"], table) is nine
    assert fits(plays["11 vs A"], table) is eleven and fits(plays["10 vs 10"], table) is eleven
    assert fits(plays["12 vs 3"], table) and fits(plays["16 vs 10"], table)
    assert fits(plays["9 vs 2"], find_ruleset("bicycle")) and fits(plays["9 vs 2"], find_ruleset("casino"))


def test_cutcard_drill_deviations_jsonl() -> None:
    from trainer.cli import cli

    runner = CliRunner()
    first = runner.invoke(cli, ["drill", "deviations", "--seed", "4", "--count", "1", "--jsonl"], input="")
    question = json.loads(first.output.splitlines()[0])
    assert {"cards", "up", "true_count", "game"} <= set(question["data"])
    result = runner.invoke(cli, ["drill", "deviations", "--seed", "4", "--count", "1", "--jsonl"],
                           input="banana\nstand\n")
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert "error" in lines[1] and lines[2]["given"] == "stand"


_WORD = {"H": "hit", "S": "stand", "Dh": "double", "Ds": "double", "P": "split", "Rh": "surrender",
         "Rs": "surrender", "Rp": "surrender"}


@pytest.mark.parametrize("ruleset", [r for r in RULESETS if r.counting_helps], ids=lambda r: r.name)
@pytest.mark.parametrize("surrender", [False, True], ids=["no-surrender", "late-surrender"])
def test_the_plays_away_from_the_index_are_the_engines_basic_strategy(ruleset: Ruleset,
                                                                      surrender: bool) -> None:
    """A full shoe is a true count of about 0: a play indexed above 0 is not yet made there (the chart
    plays `below`), a play indexed below 0 already is (the chart plays `above`). Index 0 is a coin flip."""
    from drills.settings import with_late_surrender
    from trainer.strategy import chart_for

    table = with_late_surrender(ruleset) if surrender else ruleset
    chart = chart_for(table)
    checked = 0
    for play in plays_for(table):
        if play.hand == "insurance" or play.index == 0:
            continue
        up = "A" if play.up == "A" else "10" if play.up == "T" else play.up
        cell = f"pair 10-10 vs {up}" if play.hand == "pair of 10s" else f"{play.hand} vs {up}"
        basic = _WORD[chart.cells[cell].action]
        assert basic == (play.below if play.index > 0 else play.above), (play.name, play.index, basic)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("surrender", ["none", "late"])
def test_every_listed_review_item_asks_itself(ruleset: Ruleset, surrender: str) -> None:
    drill = DeviationsDrill(DrillOptions(extra={"surrender": surrender}))
    items = drill.items(ruleset)
    assert len(items) == len(set(items)) == len(plays_for(drill_table(ruleset, surrender == "late")))
    for item in items:
        assert drill.ask(random.Random(2), ruleset, item).item == item


def drill_table(ruleset: Ruleset, surrender: bool) -> Ruleset:
    from drills.settings import with_late_surrender

    return with_late_surrender(ruleset) if surrender else ruleset
