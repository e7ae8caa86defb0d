"""The chart in full: every composition-dependent exception (text and --json), a legend of the letters
the chart uses, and `ev TOTAL vs UP` for a total's most common hand."""

from __future__ import annotations

import json
import re

import pytest
from rich.console import Console

from trainer.cli import main
from trainer.core.cards import parse_card, parse_cards
from trainer.core.rulesfile import find_ruleset
from trainer.render import THEME
from trainer.render.strategy_chart import LEGEND, legend_table, print_chart
from trainer.strategy import chart_action, chart_for, hand_evs, legal_actions


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_chart_json_lists_every_exception_and_the_engine_agrees_with_each(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chart", "-r", "casino-h17", "--json")
    exceptions = json.loads(out)["exceptions"]
    rules = find_ruleset("casino-h17")
    assert code == 0 and len(exceptions) == len(chart_for(rules).exceptions) >= 10
    chart = chart_for(rules)
    for entry in exceptions:
        assert set(entry) == {"cards", "up", "chart", "best", "gain"}
        cards, up = parse_cards(entry["cards"]), parse_card(entry["up"])
        evs = {a.value: v for a, v in hand_evs(rules, cards, up).ev.items()}
        # the chart's play is what a player reading the card by total does with these cards
        assert chart_action(chart, cards, up, legal_actions(rules, cards)).value == entry["chart"]
        playable = evs if len(cards) == 2 else {a: evs[a] for a in ("hit", "stand")}
        assert max(playable, key=lambda a: playable[a]) == entry["best"]
        assert entry["gain"] == pytest.approx(evs[entry["best"]] - evs[entry["chart"]], rel=1e-9, abs=1e-12)
        assert entry["gain"] > 0


def test_a_two_card_exception_and_hands_that_are_none() -> None:
    rules = find_ruleset("casino")
    found = {(d.cards, d.up): d for d in chart_for(rules).exceptions}
    ten_two = found[((2, 10), 4)]  # the classic: 10-2 vs 4 hits in a 6-deck S17 game
    assert (ten_two.chart, ten_two.best) == ("stand", "hit")
    evs = hand_evs(rules, parse_cards("10 2"), parse_card("4")).ev
    assert ten_two.gain == pytest.approx(max(evs.values()) - evs[min(evs, key=lambda a: a.value != "stand")])
    for cards, up in (("9 3", "4"), ("9 7", "10"), ("8 8", "10")):  # played as the chart says
        hand = parse_cards(cards)
        assert hand_evs(rules, hand, parse_card(up)).best == chart_action(
            chart_for(rules), hand, parse_card(up), legal_actions(rules, hand))
        assert (tuple(sorted(c.value for c in hand)), parse_card(up).value) not in found


def test_an_infinite_deck_has_no_exceptions_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chart", "-r", "chat-host", "--json")
    assert code == 0 and json.loads(out)["exceptions"] == []  # no card removed changes the odds


def _text(chart_name: str, width: int = 120) -> str:
    console = Console(width=width, record=True, color_system=None, theme=THEME)
    rules = find_ruleset(chart_name)
    print_chart(console, chart_for(rules), rules)
    return console.export_text()


def test_the_chart_card_lists_every_exception_under_a_header_with_its_gain() -> None:
    text = _text("casino-h17")
    assert "Composition-dependent exceptions (10)" in text and "three-card hands" in text
    assert "… and" not in text
    for d in chart_for(find_ruleset("casino-h17")).exceptions:
        assert d.describe() in text
    assert "two-card hands" in _text("casino") and "2-10 vs 4: hit instead of stand" in _text("casino")


@pytest.mark.parametrize(("name", "absent", "present"), [
    ("bicycle", {"Rh", "Rs", "Rp", "Ds"}, {"H", "S", "Dh", "P"}),
    ("casino-h17", set(), {"H", "S", "Dh", "Ds", "P"}),
])
def test_the_legend_shows_only_the_letters_the_chart_uses(name: str, absent: set[str],
                                                          present: set[str]) -> None:
    chart = chart_for(find_ruleset(name))
    console = Console(width=100, record=True, color_system=None, theme=THEME)
    console.print(legend_table(chart))
    text = console.export_text()
    shown = {letter for letter, meaning in LEGEND if re.search(rf"\b{letter}\s+{meaning}\b", text)}
    assert shown == chart.letters() and present <= shown and not absent & shown
    assert all(meaning not in text for letter, meaning in LEGEND if letter not in shown)


def test_ev_of_a_total_answers_for_its_most_common_hand_and_says_which(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ev", "16", "vs", "10", "--json")
    document = json.loads(out)
    cards = [c for c in document["cards"]]
    assert code == 0 and document["total"] == "hard 16" and cards == ["T", "6"]
    assert "10-6, the most often dealt hard 16" in document["note"] and "9-7" in document["note"]
    assert document["ev"] == pytest.approx({a.value: v for a, v in hand_evs(
        find_ruleset("casino"), parse_cards("10 6"), parse_card("10")).ev.items()})
    code, out, _ = run(capsys, "ev", "soft", "17", "vs", "6")
    assert code == 0 and "the EVs of A-6" in out and "double" in out
    code, out, _ = run(capsys, "ev", "8,8", "vs", "10", "--json")
    assert code == 0 and "total" not in json.loads(out)  # cards are answered as given
    code, out, err = run(capsys, "ev", "soft", "25", "vs", "6")
    assert code == 1 and err.startswith("cutcard: no hand is soft 25") and err.count("\n") == 1
