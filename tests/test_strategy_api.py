"""The engine's public API: chart documents, lookup, the cache protocol, hand EVs and chart reading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import trainer.strategy.build as build_module
from trainer.chartcache import FileCache
from trainer.core import Action, IllegalActionError, InvalidInputError, load_ruleset, parse_card, parse_cards
from trainer.strategy import (
    cache_key,
    chart_action,
    chart_for,
    ev_cost,
    forget_charts,
    hand_evs,
    install_cache,
    legal_actions,
)
from trainer.strategy.chart import ACTIONS
from trainer.strategy.letters import LETTERS


class DictCache:
    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def load(self, key: str) -> bytes | None:
        return self.files.get(key)

    def save(self, key: str, data: bytes) -> None:
        self.files[key] = data


@pytest.fixture
def no_cache() -> object:
    yield
    install_cache(None)


def test_chart_json_document() -> None:
    document = json.loads(json.dumps(chart_for(load_ruleset("casino")).to_json()))
    assert set(document) == {"ruleset", "ev", "house_edge_pct", "house_edge_total_dependent_pct", "cells",
                             "exceptions"}
    assert document["house_edge_pct"] == pytest.approx(-100 * document["ev"])
    cells = document["cells"]
    assert len(cells) == (17 + 9 + 10) * 10
    assert {"hard 5 vs 2", "hard 21 vs A", "soft 13 vs 10", "pair 10-10 vs 6", "pair A-A vs A"} <= set(cells)
    for cell in cells.values():
        assert cell["action"] in LETTERS and set(cell["ev"]) == set(ACTIONS)
    assert cells["hard 16 vs 10"]["ev"]["split"] is None  # not a pair
    assert cells["hard 16 vs 10"]["ev"]["surrender"] is None  # casino has no surrender
    assert cells["soft 21 vs 6"]["ev"]["double"] is None  # three cards
    assert cells["pair 8-8 vs 10"]["ev"]["split"] is not None
    bicycle = chart_for(load_ruleset("bicycle")).to_json()["cells"]
    assert bicycle["soft 18 vs 4"]["ev"]["double"] is None and bicycle["hard 10 vs 4"]["ev"]["double"]


def test_lookup_reads_cells_and_takes_aces_as_1_or_11() -> None:
    chart = chart_for(load_ruleset("casino-h17"))
    assert chart.lookup("hard", 11, 1) == chart.lookup("hard", 11, 11) == "Dh"
    assert chart.lookup("pair", 11, 6) == chart.lookup("pair", 1, 6) == "P"
    assert chart.lookup("soft", 19, 6) == "Ds"
    with pytest.raises(KeyError):
        chart.lookup("hard", 3, 6)


def test_chart_for_uses_and_fills_the_installed_cache(no_cache: object, charts_put_back: object,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = load_ruleset("eight-deck")
    cache = DictCache()
    install_cache(cache)
    forget_charts()
    steps: list[tuple[int, int]] = []
    first = chart_for(ruleset, progress=lambda done, total: steps.append((done, total)))
    assert cache_key(ruleset) in cache.files
    assert steps[-1][0] == steps[-1][1] and [d for d, _ in steps] == sorted(d for d, _ in steps)
    forget_charts()

    def fail(*_: object) -> None:
        raise AssertionError("computed again despite the cache")

    monkeypatch.setattr(build_module.ChartBuilder, "build", fail)
    again = chart_for(ruleset)
    assert again.to_json() == first.to_json() and again.exceptions == first.exceptions


def test_a_damaged_cache_entry_is_recomputed(no_cache: object, charts_put_back: object) -> None:
    ruleset = load_ruleset("eight-deck")
    cache = DictCache()
    cache.files[cache_key(ruleset)] = b"{not json"
    install_cache(cache)
    forget_charts()
    assert chart_for(ruleset).house_edge_pct > 0
    assert json.loads(cache.files[cache_key(ruleset)])["ruleset"] == "eight-deck"


def test_file_cache_round_trip(tmp_path: Path, no_cache: object) -> None:
    cache = FileCache(tmp_path / "charts")
    assert cache.load("chart-v1-abc") is None
    cache.save("chart-v1-abc", b"{}")
    assert cache.load("chart-v1-abc") == b"{}"
    with pytest.raises(ValueError):
        cache.load("../outside")


def test_the_same_rules_under_another_name_share_a_chart() -> None:
    import dataclasses

    casino = load_ruleset("casino")
    mine = dataclasses.replace(casino, name="my-casino")
    assert chart_for(mine).ruleset == "my-casino" and chart_for(mine).ev == chart_for(casino).ev


# --- hand EVs ------------------------------------------------------------------------------------


def test_hand_evs_best_play_and_cost() -> None:
    casino = load_ruleset("casino")
    evs = hand_evs(casino, parse_cards("T 6"), parse_card("K"))
    assert evs.best is Action.HIT and evs.peeked
    assert evs.legal == {Action.STAND, Action.HIT, Action.DOUBLE}
    cost = ev_cost(casino, parse_cards("T 6"), parse_card("K"), Action.STAND)
    assert 0 < cost < 0.01  # standing gives up about 0.6% of the bet
    assert ev_cost(casino, parse_cards("T 6"), parse_card("K"), Action.HIT) == 0
    with pytest.raises(IllegalActionError):
        ev_cost(casino, parse_cards("T 6"), parse_card("K"), Action.SPLIT)


def test_hand_evs_matches_the_chart_cell_for_a_single_composition_cell() -> None:
    casino = load_ruleset("casino")
    cell = chart_for(casino).cells["hard 5 vs 6"]  # only 2-3 makes hard 5
    evs = hand_evs(casino, parse_cards("2 3"), parse_card("6"))
    assert evs.ev[Action.HIT] == pytest.approx(cell.ev["hit"], abs=1e-12)
    assert evs.ev[Action.DOUBLE] == pytest.approx(cell.ev["double"], abs=1e-12)


def test_natural_and_removed_cards() -> None:
    european = load_ruleset("european")
    natural = hand_evs(european, parse_cards("A K"), parse_card("A"))
    assert natural.natural and set(natural.ev) == {Action.STAND}
    assert natural.ev[Action.STAND] < 1.5  # no peek: a dealer natural pushes it
    casino = load_ruleset("casino")
    plain = hand_evs(casino, parse_cards("T 6"), parse_card("T"))
    rich = hand_evs(casino, parse_cards("T 6"), parse_card("T"), removed=parse_cards("T T T T T T T T"))
    assert rich.ev[Action.HIT] > plain.ev[Action.HIT]  # fewer tens left to bust the 16


@pytest.mark.parametrize(("cards", "problem"), [("T 6 K 9", "bust"), ("T", "two cards"),
                                                ("A A A A A", "no A left")])
def test_hand_evs_rejects_impossible_hands(cards: str, problem: str) -> None:
    one_deck = load_ruleset("casino").with_decks(1)
    with pytest.raises(InvalidInputError, match=problem):
        hand_evs(one_deck, parse_cards(cards), parse_card("6"))


@pytest.mark.parametrize("name", ["casino", "bicycle", "european", "chat-host", "eight-deck"])
@pytest.mark.parametrize("hand", ["T 6", "8 8", "K Q", "A 7", "5 5", "A A", "9 2"])
def test_legal_actions_agree_with_the_round(name: str, hand: str) -> None:
    from trainer.core import Round, Shoe
    from trainer.core.deal import TableDeal

    ruleset = load_ruleset(name)
    six, nine = parse_cards("6 9")
    deal = TableDeal(seats=[parse_cards(hand)], up=six, hole=nine, draws=[nine] * 5)
    round_ = Round.start(ruleset, Shoe.stacked(ruleset, deal), bets=[10])
    assert legal_actions(ruleset, parse_cards(hand)) == round_.legal_actions()


# --- reading a chart -------------------------------------------------------------------------------


class Card:
    def __init__(self, cells: dict[tuple[str, int, int], str]) -> None:
        self.cells = cells

    def lookup(self, kind: str, number: int, up: int) -> str:
        return self.cells[(kind, number, up)]


H, S, D, P, R = Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER


@pytest.mark.parametrize(("cells", "hand", "up", "legal", "expected"), [
    ({("hard", 11, 10): "Dh"}, "6 5", "T", {H, S, D}, D),
    ({("hard", 11, 10): "Dh"}, "6 5", "T", {H, S}, H),
    ({("soft", 18, 10): "Ds"}, "A 7", "T", {H, S}, S),
    ({("hard", 16, 10): "Rh"}, "T 6", "T", {H, S, R}, R),
    ({("hard", 16, 10): "Rh"}, "T 6", "T", {H, S}, H),
    ({("hard", 16, 10): "Rs"}, "T 6", "T", {H, S}, S),
    ({("pair", 8, 10): "Rp", ("hard", 16, 10): "H"}, "8 8", "T", {H, S, P}, P),
    ({("pair", 8, 10): "Rp", ("hard", 16, 10): "Rh"}, "8 8", "T", {H, S}, H),
    ({("pair", 8, 10): "P", ("hard", 16, 10): "S"}, "8 8", "T", {H, S}, S),
    ({("pair", 1, 10): "P"}, "A A", "T", {H, S}, H),  # soft 12 that may not split: hit
    ({("hard", 16, 10): "S"}, "T 4 2", "T", {H, S}, S),
    ({("pair", 2, 3): "Ph"}, "2 2", "3", {H, S, P}, P),
    ({("soft", 13, 10): "H"}, "A A A", "T", {S}, S),  # a hand that may only stand (split aces)
])
def test_chart_action_fallbacks(cells: dict[tuple[str, int, int], str], hand: str, up: str,
                                legal: set[Action], expected: Action) -> None:
    assert chart_action(Card(cells), parse_cards(hand), parse_card(up), legal) is expected


def test_chart_action_reads_ph_by_double_after_split() -> None:
    card = Card({("pair", 2, 3): "Ph", ("hard", 4, 3): "H", ("hard", 5, 3): "H"})
    assert chart_action(card, parse_cards("2 2"), parse_card("3"), {H, S, P}, double_after_split=False) is H
