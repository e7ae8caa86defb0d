"""Count systems against their published tables, the true count on worked examples, and the TOML reader."""

from __future__ import annotations

import random
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.core.cards import Rank, Suit, card, full_deck
from trainer.core.counting import (
    builtin_systems,
    estimate_decks_left,
    find_system,
    format_count,
    load_system,
    parse_count,
    parse_decks,
    round_decks,
    true_count,
)
from trainer.core.errors import InvalidInputError

DATA = Path(__file__).parent / "data"
PUBLISHED = tomllib.loads((DATA / "count_tags.toml").read_text(encoding="utf-8"))
TRUE_COUNTS = tomllib.loads((DATA / "true_counts.toml").read_text(encoding="utf-8"))["case"]
ROW_ORDER = (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE,
             Rank.TEN, Rank.ACE)


def _row(text: str) -> dict[Rank, Fraction]:
    tags = [Fraction(word) for word in text.split()]
    table = dict(zip(ROW_ORDER, tags, strict=True))
    for picture in (Rank.JACK, Rank.QUEEN, Rank.KING):
        table[picture] = table[Rank.TEN]
    return table


def test_every_built_in_system_has_a_published_table() -> None:
    assert set(PUBLISHED) == set(builtin_systems())
    assert next(iter(builtin_systems())) == "hi-lo"


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_tags_match_the_published_table_card_by_card(name: str) -> None:
    published = PUBLISHED[name]
    black = _row(published["row"])
    red = _row(published.get("red_row", published["row"]))
    system = find_system(name)
    for each in full_deck():
        want = red[each.rank] if each.suit in (Suit.HEARTS, Suit.DIAMONDS) else black[each.rank]
        assert system.tag(each) == want, f"{name}: {each}"
    assert system.balanced is published["balanced"]


@pytest.mark.parametrize("name", [n for n in sorted(PUBLISHED) if "irc" in PUBLISHED[n]])
def test_unbalanced_counts_start_and_end_where_published(name: str) -> None:
    published = PUBLISHED[name]
    system = find_system(name)
    for decks, irc in published["irc"].items():
        assert system.initial_running_count(int(decks)) == irc
    for decks in range(1, 9):
        assert system.end_count(decks) == published["end_count"]
    for decks, key in published.get("key_counts", {}).items():
        assert system.key_count(int(decks)) == key
    assert system.key_count(3) is None


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(PUBLISHED)), decks=st.integers(1, 8), seed=st.integers(0, 2**32))
def test_a_full_shoe_counts_to_zero_balanced_or_to_the_end_count(name: str, decks: int, seed: int) -> None:
    system = find_system(name)
    shoe = list(full_deck() * decks)
    random.Random(seed).shuffle(shoe)
    end = system.running_count(shoe, decks=decks)
    if system.balanced:
        assert end == 0
    else:
        assert end == PUBLISHED[name]["end_count"]


def test_ko_counts_a_single_deck_from_zero_to_plus_four() -> None:
    assert find_system("ko").running_count(full_deck(), decks=1) == 4


def test_red_seven_needs_a_suit_for_sevens_only() -> None:
    red_7 = find_system("red-7")
    assert red_7.tag(card(Rank.SEVEN, Suit.HEARTS)) == 1
    assert red_7.tag(card(Rank.SEVEN, Suit.CLUBS)) == 0
    assert red_7.tag(card(Rank.KING)) == -1
    with pytest.raises(InvalidInputError, match="colour"):
        red_7.tag(card(Rank.SEVEN))


@pytest.mark.parametrize("alias, name", [("HiLo", "hi-lo"), ("knock-out", "ko"), ("Hi-Opt 2", "hi-opt-ii"),
                                         ("halves", "wong-halves"), ("red_seven", "red-7")])
def test_find_system_by_alias(alias: str, name: str) -> None:
    assert find_system(alias).name == name


def test_an_unknown_system_names_the_built_ins() -> None:
    with pytest.raises(InvalidInputError, match="hi-lo, ko"):
        find_system("uston-apc")


# --- true count --------------------------------------------------------------------------------------

ROUNDINGS = ("floor", "truncate", "round")


@pytest.mark.parametrize("case", TRUE_COUNTS, ids=lambda c: f"rc{c['running']}-{c['cards_left']}cards")
@pytest.mark.parametrize("estimation", ["full", "half", "quarter", "exact"])
def test_true_count_worked_examples(case: dict[str, object], estimation: str) -> None:
    running = case["running"]
    assert isinstance(running, int | float) and isinstance(case["cards_left"], int)
    decks = estimate_decks_left(case["cards_left"], estimation)
    got = [true_count(running, decks, rounding) for rounding in ROUNDINGS]
    assert got == case[estimation]


def test_the_issue_example_holds() -> None:
    assert true_count(7, 2.5, rounding="floor") == 2
    assert true_count(7, Fraction(5, 2)) == 2


@pytest.mark.parametrize("bad", [0, -1.5])
def test_no_true_count_without_decks_left(bad: float) -> None:
    with pytest.raises(InvalidInputError, match="more than 0"):
        true_count(3, bad)


def test_an_unknown_rounding_is_named() -> None:
    with pytest.raises(InvalidInputError, match="'ceiling'"):
        true_count(3, 2, "ceiling")


@given(cards=st.integers(1, 416), estimation=st.sampled_from(["full", "half", "quarter"]))
def test_an_estimate_is_a_whole_number_of_units_near_the_exact_decks(cards: int, estimation: str) -> None:
    unit = {"full": Fraction(1), "half": Fraction(1, 2), "quarter": Fraction(1, 4)}[estimation]
    exact = Fraction(cards, 52)
    estimate = estimate_decks_left(cards, estimation)
    assert (estimate / unit).denominator == 1
    assert estimate >= unit
    if exact >= unit / 2:
        assert abs(estimate - exact) <= unit / 2


@given(running=st.integers(-60, 60), cards=st.integers(1, 416))
def test_floor_truncate_and_round_agree_with_their_definitions(running: int, cards: int) -> None:
    exact = Fraction(running * 52, cards)
    floor = true_count(running, Fraction(cards, 52), "floor")
    trunc = true_count(running, Fraction(cards, 52), "truncate")
    nearest = true_count(running, Fraction(cards, 52), "round")
    assert floor <= exact < floor + 1
    assert abs(trunc) <= abs(exact) < abs(trunc) + 1
    assert abs(nearest - exact) <= Fraction(1, 2)
    assert round_decks(Fraction(cards, 52), "exact") == Fraction(cards, 52)


# --- counts and decks as text -----------------------------------------------------------------------


@pytest.mark.parametrize("text, value", [
    ("+3", 3), ("-2", -2), ("0", 0), ("2.5", Fraction(5, 2)), ("−1", -1), ("+1½", Fraction(3, 2)),
    (" 7 ", 7), ("-½", Fraction(-1, 2)),
])
def test_parse_count(text: str, value: Fraction) -> None:
    assert parse_count(text) == value


@pytest.mark.parametrize("text", ["abc", "+-3", "", "3-", "1.5.2", "++2"])
def test_parse_count_rejects_with_a_hint(text: str) -> None:
    with pytest.raises(InvalidInputError, match="type a number such as"):
        parse_count(text)


@given(st.fractions(min_value=-40, max_value=40).map(lambda f: Fraction(round(f * 2), 2)))
def test_counts_round_trip_through_text(value: Fraction) -> None:
    assert parse_count(format_count(value)) == value
    assert parse_count(format_count(value, signed=False)) == value


@pytest.mark.parametrize("text, value", [
    ("3", 3), ("3.5", Fraction(7, 2)), ("3,5", Fraction(7, 2)), ("2½", Fraction(5, 2)),
    ("2 1/4", Fraction(9, 4)), (".5", Fraction(1, 2)),
])
def test_parse_decks(text: str, value: Fraction) -> None:
    assert parse_decks(text) == value


@pytest.mark.parametrize("text", ["0", "lots", "-1", "3/0", "2 1/0"])
def test_parse_decks_rejects(text: str) -> None:
    with pytest.raises(InvalidInputError):
        parse_decks(text)


# --- a user's own system -----------------------------------------------------------------------------

GOOD = """
name = "Hi-Lo-7"
title = "Hi-Lo with the sevens"
tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0.5, 8 = 0, 9 = 0, 10 = -1 }
[start]
offset = -2
"""


def test_a_user_system_loads_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(GOOD, encoding="utf-8")
    system = load_system(str(path))
    assert system.name == "hi-lo-7" and system.halves
    assert system.tag(card(Rank.SEVEN, Suit.CLUBS)) == Fraction(1, 2)
    assert system.tag(card(Rank.QUEEN)) == -1
    assert system.deck_total == 2 and not system.balanced
    assert system.initial_running_count(6) == -2


@pytest.mark.parametrize("text, message", [
    (GOOD.replace("title", "colour"), "mine.toml: unknown key 'colour'"),
    (GOOD.replace("7 = 0.5", "7 = 0.25"), "tags.7 = 0.25 is not allowed: expected a whole or half"),
    (GOOD.replace("7 = 0.5, ", ""), "mine.toml: missing key tags.7"),
    (GOOD.replace("10 = -1", "Z = -1"), "mine.toml: unknown key tags.Z"),
    (GOOD.replace("6 = 1", "6 = true"), "tags.6 = True is not allowed"),
    (GOOD.replace("offset", "irc"), "mine.toml: unknown key start.irc"),
    (GOOD.replace('"Hi-Lo-7"', '"my count!"'), "mine.toml: name = 'my count!' is not allowed"),
    (GOOD + "key_counts = { 12 = 1 }\n", "start.key_counts.12 is not allowed"),
    ("name = [", "mine.toml: not valid TOML"),
])
def test_a_bad_user_system_names_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInputError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load_system(path)


def test_a_missing_user_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="cannot read count system"):
        load_system(str(tmp_path / "absent.toml"))
