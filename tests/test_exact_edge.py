"""The exact edge of the next round (`trainer.strategy.edge`) and the edge line at the table
(`trainer.table.edge_line`): the engine's own game EV of the composition left, the published effects of
removal, the mean `sim` measures over real shoes' round starts, and the line and JSON fields `play` shows.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer.cli import cli
from trainer.core import Shoe, load_ruleset
from trainer.core.errors import InvalidInputError
from trainer.strategy import chart_for
from trainer.strategy.composition import Composition
from trainer.strategy.edge import exact_edge, round_starts
from trainer.table.edge_line import CountEdges, EdgeReading, EdgeWatch, edge_line, pending_line

GRIFFIN_ONE_DECK = {1: -0.61, 2: 0.38, 3: 0.44, 4: 0.55, 5: 0.69, 6: 0.46, 7: 0.28, 8: 0.00, 9: -0.18,
                    10: -0.51}
"""The effect of removing one card of each value on the player's edge, in percent, one deck, dealer
stands on soft 17, the full-deck basic strategy played (P. Griffin, The Theory of Blackjack, the
effects-of-removal table; the figures every point-count system is fitted to)."""


def _less(shoe: Composition, **removed: int) -> Composition:
    """`shoe` less `removed` cards of some ranks (keys r1..r13, ace first)."""
    ranks = list(shoe.ranks)
    for key, n in removed.items():
        ranks[int(key[1:]) - 1] -= n
    return Composition(ranks=tuple(ranks))


def test_the_full_shoe_s_exact_edge_is_the_chart_s_own_figure() -> None:
    rules = load_ruleset("casino").with_decks(1)
    chart = chart_for(rules)
    assert exact_edge(rules, Composition.full(rules)) == pytest.approx(chart.ev, abs=1e-12)


def test_a_depleted_shoe_s_exact_edge_is_the_engine_s_game_ev_of_that_composition() -> None:
    """Two decks less one of each card are one deck: the depleted path (an engine built for that
    composition, played by the one-deck chart) gives the one-deck chart's own game EV, which the
    engine computed off its full-shoe engine."""
    two = load_ruleset("casino").with_decks(2)
    one = two.with_decks(1)
    chart = chart_for(one)
    less_a_deck = _less(Composition.full(two), **{f"r{r}": 4 for r in range(1, 14)})
    assert less_a_deck == Composition.full(one)
    assert exact_edge(two, less_a_deck, chart=chart) == pytest.approx(chart.ev, abs=1e-12)


def test_one_card_removed_moves_the_edge_by_the_published_effect_of_removal() -> None:
    rules = load_ruleset("casino").with_decks(1)
    chart = chart_for(rules)
    full = Composition.full(rules)
    for value, published in GRIFFIN_ONE_DECK.items():
        shoe = _less(full, **{f"r{value}": 1})
        effect = (exact_edge(rules, shoe, chart=chart) - chart.ev) * 100
        assert effect == pytest.approx(published, abs=0.04), value  # these rules double after a split


def test_a_shoe_without_a_card_value_leaves_out_the_hands_it_cannot_deal_and_a_tiny_shoe_is_refused() -> None:
    rules = load_ruleset("casino").with_decks(1)
    no_aces = _less(Composition.full(rules), r1=4)
    assert exact_edge(rules, no_aces) < exact_edge(rules, _less(Composition.full(rules), r1=3)) < 0
    with pytest.raises(InvalidInputError, match="too few"):
        exact_edge(rules, Composition(ranks=(1,) * 9 + (0,) * 4))


@pytest.mark.slow
def test_the_mean_exact_edge_over_real_round_starts_is_what_sim_measures() -> None:
    """The exact edge is the noise-free expectation of each round: its mean over the round starts of
    real shoes (cut card, burn card, the seat playing the chart) is the mean result `sim` measures for
    the same game, within their standard errors (each a tenth of a percent or so). Bicycle rules (one
    split, no doubling after it) keep each edge cheap."""
    from trainer.sim.game import make_game
    from trainer.sim.results import summarize
    from trainer.sim.runner import Plan, letters_of, simulate

    rules = load_ruleset("bicycle")
    chart = chart_for(rules)
    starts = list(round_starts(rules, random.Random(40), 300))[::5]  # spread over the shoe's depth
    edges = [exact_edge(rules, shoe, chart=chart) for shoe in starts]
    mean, se = statistics.fmean(edges), statistics.stdev(edges) / len(edges) ** 0.5
    figures = summarize(simulate(Plan(ruleset=rules, chart=letters_of(chart.lookup)), 3_000_000, seed=40,
                                 jobs=1), make_game(rules).scale)
    band = 3 * (se ** 2 + figures.se ** 2) ** 0.5
    assert se < 0.002 and figures.se < 0.0008
    assert abs(mean - figures.ev) < band, f"exact {mean:+.4%} ± {se:.4%}, sim {figures.ev:+.4%} ± {figures.se:.4%}"


def test_the_table_s_edge_is_the_engine_s_on_the_shoe_s_undealt_cards_and_its_line_fits_80_columns() -> None:
    rules = load_ruleset("casino").with_decks(1)
    chart = chart_for(rules)
    shoe = Shoe.shuffled(rules, random.Random(3))
    for _ in range(20):
        shoe.draw()
    left = Composition.of(shoe.remaining_cards())
    assert left.size == 52 - 1 - 20  # the burn card is not among them
    stats = CountEdges(by_count={-1: -0.012, 0: -0.004, 2: 0.0085}, rounds=4_000_000)
    now = EdgeWatch(rules, chart, stats, background=False).after_round(shoe, 2)
    assert now == EdgeReading(true_count=2, count_edge=0.0085, exact_edge=exact_edge(rules, left))
    line = edge_line(now)
    assert line == f"  Next round: true count +2 gives +0.85% (stats) · exact edge {now.exact_edge:+.2%}"
    later = EdgeWatch(rules, chart, stats, background=True)
    reading = later.after_round(shoe, 7)
    assert reading.computing and edge_line(reading).endswith("exact edge computing")
    shown = None
    for _ in range(1200):  # the thread's tenth of a second, on however busy a machine
        if (shown := later.pending()) is not None:
            break
        time.sleep(0.05)
    assert shown == f"  This round's exact edge: {now.exact_edge:+.2%}" and later.pending() is None
    later.close()
    every = [EdgeReading(true_count=tc, count_edge=count, exact_edge=exact, stats=stats, computing=computing,
                         fresh_shoe=fresh)
             for tc in (None, -13, 0, 12) for count in (None, -0.1234) for stats in (True, False)
             for exact, computing, fresh in ((None, True, False), (None, False, False), (-0.1234, False, True),
                                             (-0.1234, False, False))]
    assert max(len(text) for r in every for text in (edge_line(r), pending_line(r))) <= 80


def test_when_the_shoe_is_shuffled_next_the_round_is_off_the_top_at_the_full_shoe_s_edge() -> None:
    rules = load_ruleset("eight-deck")  # shuffled after every round
    shoe = Shoe.shuffled(rules, random.Random(1))
    watch = EdgeWatch(rules, chart_for(rules), None, background=False)
    shoe.end_round([shoe.draw() for _ in range(9)])
    assert shoe.needs_shuffle
    reading = watch.after_round(shoe, 4)
    assert reading == EdgeReading(true_count=0, count_edge=None, exact_edge=chart_for(rules).ev, stats=False,
                                  fresh_shoe=True)
    assert edge_line(reading) == f"  Next round: true count 0 (no stats: see `plan`) · exact {reading.exact_edge:+.2%}, fresh shoe"


def test_play_jsonl_round_lines_carry_the_true_count_and_both_edges(tmp_path: Path, cutcard_home: Path) -> None:
    """Before `plan` has simulated the game the count's edge is null; after, it is the stored statistics'
    mean at the learner's true count (the same game key: count, estimation, rounding, index plays)."""
    def round_line() -> dict[str, object]:
        result = CliRunner().invoke(cli, ["--db", f"{tmp_path}/p.db", "play", "--jsonl", "--seats", "1",
                                          "--decks", "1", "--seed", "5", "--rounds", "1"],
                                    input="10\n" + "stand\n" * 6)
        assert result.exit_code == 0, result.output
        return next(json.loads(t) for t in result.output.splitlines() if t.startswith('{"round"'))

    before = round_line()
    assert isinstance(before["true_count"], int) and before["count_edge"] is None
    assert isinstance(before["exact_edge"], float) and -0.2 < before["exact_edge"] < 0.2
    planned = CliRunner().invoke(cli, ["plan", "--decks", "1", "--rounds", "20000", "--json"])
    assert planned.exit_code == 0, planned.output
    after = round_line()
    stored = json.loads(next((cutcard_home / "stats").glob("*.json")).read_text())  # the one game planned
    mean = {tc: net / (n * stored["scale"]) for tc, n, net, _ in stored["sums"]}
    assert after["count_edge"] == pytest.approx(mean[after["true_count"]])
    assert after["exact_edge"] == before["exact_edge"]


def test_e_in_the_true_count_drill_shows_the_shoe_just_answered_and_is_never_graded() -> None:
    import io

    from drills.base import DrillOptions
    from drills.counting.true_count import TrueCountDrill
    from trainer.practice.batch import repeat
    from trainer.practice.session import DrillRun, ListRecorder
    from trainer.render import make_console
    from trainer.screens.drill import run_interactive

    rules = load_ruleset("casino")
    one_deck = rules.with_decks(1)
    recorder = ListRecorder()
    session = DrillRun(drill=TrueCountDrill(DrillOptions(decks=1)), ruleset=rules, rng=random.Random(3),
                       recorder=recorder)
    out = io.StringIO()
    typed = iter(["e", "0", "e", "edge"])

    def answer(_prompt: str) -> str:
        for text in typed:
            return text
        raise EOFError  # the learner leaves at the second question
    stats = CountEdges(by_count={n: n / 200 for n in range(-20, 21)}, rounds=1)
    watch = EdgeWatch(one_deck, chart_for(one_deck), stats, background=False)
    run_interactive(repeat(session, 2), make_console(out, color=False, width=80), ask=answer,
                    edges=watch)
    shown = out.getvalue()
    assert "e shows the edge of a shoe once you have answered it" in shown
    assert len(recorder.attempts) == 1 and recorder.attempts[0].given == "0"  # the e's are not answers
    expected = int(recorder.attempts[0].expected)
    first, again = (t for t in shown.splitlines() if t.startswith("Last shoe:"))
    assert first == again
    line = first
    assert line.startswith(f"Last shoe: true count {expected:+d} gives {expected / 2:+.2f}% (stats) · exact edge ")
    assert len(line) <= 80
