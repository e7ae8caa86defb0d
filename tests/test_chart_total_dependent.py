"""Issue 41: the chart's house edge says what strategy it is for, and gives the total-dependent optimum
(hands of three cards or more and split hands by their best total-dependent play) beside it, for
published tables."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from trainer.cli import cli
from trainer.core import builtin_rulesets, find_ruleset
from trainer.strategy.build import ChartBuilder
from trainer.strategy.evaluate import DOUBLE, HIT, STAND, evaluate


def _one_deck_h17() -> object:
    return find_ruleset("casino-h17").with_decks(1)


def test_one_deck_h17_gives_both_edges() -> None:
    """The issue's figures, those of the reference analyzer: 0.0440% played by the printed letters,
    0.0276% by the total-dependent optimum (a split hand takes the total's play from its second card)."""
    chart = ChartBuilder(_one_deck_h17()).build()
    assert chart.house_edge_pct == pytest.approx(0.0440, abs=5e-5)
    assert chart.total_dependent_edge_pct == pytest.approx(0.0276, abs=5e-5)


def test_three_card_hands_play_their_best_total_dependent_play() -> None:
    builder = ChartBuilder(_one_deck_h17())
    chart = builder.build()
    table = builder.engine.table
    decisions = builder.chart_decisions(chart)
    values = builder.total_dependent(decisions.copy(), evaluate(table, builder.engine.pay, decisions=decisions,
                                                                like=builder.engine.optimal))
    ten = 9  # the up card's column
    two_card = builder.engine.node((0, 0, 0, 0, 0, 1, 0, 0, 0, 1))  # 10-6
    three_card = builder.engine.node((0, 0, 0, 1, 1, 0, 1, 0, 0, 0))  # 4-5-7
    assert values.decision[two_card, ten] == HIT  # the two-card 16 hits, as the card says
    assert values.decision[three_card, ten] == STAND  # a 16 of three cards or more stands: the better play
    split_sixteen = np.flatnonzero(table.split & (table.cards == 2) & (table.total == 16) & ~table.soft)
    assert len(split_sixteen) and (values.decision[split_sixteen, ten] == STAND).all()  # 8-8 split, an 8 drawn
    later = (table.cards >= 3) | (table.split & (table.cards == 2))  # every hit or stand after the deal
    for total in range(4, 22):  # one play per total, soft or hard, and up card, split hands included
        for soft in (False, True):
            group = later & (table.total == total) & (table.soft == soft) & table.can_hit
            for up in range(10):
                plays = values.decision[group, up]
                plays = plays[plays != DOUBLE]  # a split hand still doubles where the card says
                assert (plays == plays[0]).all() if len(plays) else True, (total, soft, up)


@pytest.mark.parametrize("ruleset", list(builtin_rulesets().values()), ids=lambda r: r.name)
def test_the_total_dependent_optimum_never_costs_more_than_the_letters(ruleset: object) -> None:
    chart = ChartBuilder(ruleset).build()
    assert chart.total_dependent_edge_pct <= chart.house_edge_pct + 1e-9
    assert chart.house_edge_pct - chart.total_dependent_edge_pct < 0.05  # a small, not a wild, difference
    assert np.isfinite(chart.total_dependent_edge_pct)


def test_chart_says_what_strategy_each_edge_is_for_and_json_carries_both() -> None:
    result = CliRunner().invoke(cli, ["chart", "--ruleset", "bicycle"], env={"COLUMNS": "80"})
    flat = " ".join(result.output.replace("│", " ").split())
    assert "played by this chart, hands of three cards or more by the letter of their total" in flat
    assert "best total-dependent play" in flat
    assert "readings of the seed, not its words: player.double" in flat
    assert max(len(line) for line in result.output.splitlines()) <= 80
    document = json.loads(CliRunner().invoke(cli, ["chart", "--ruleset", "bicycle", "--json"]).output)
    assert document["house_edge_total_dependent_pct"] < document["house_edge_pct"]
    assert {"key": "player.double", "reading": find_ruleset("bicycle").basis_of("player.double").why} \
        in document["readings"]
