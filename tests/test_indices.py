"""Index plays computed for the learner's own game (`trainer.indices`, `cutcard indices`).

Small and fast: a pool of a few shoes and a few samples per play. What is checked is the pipeline:
the per-sample EV difference is the engine's full EV computation for that very shoe, the grouping is the
count system's own true count, and the crossing is found by the published convention.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from drills.strategy.index_plays import index_plays
from trainer.cli import main
from trainer.core import find_ruleset
from trainer.core.actions import Action
from trainer.core.cards import Card, Rank, card, parse_card, parse_cards
from trainer.core.counting import estimate_decks_left, find_system, true_count
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.core.shoe import Shoe
from trainer.indices.asked import Asked, combos, parse_cell
from trainer.indices.compute import Dealer, TrueCountMethod, compute_play, differences
from trainer.indices.crossing import CountGroup, crossing, group, threshold
from trainer.indices.run import IndexRun, ResultCache, cached_indices, table_for
from trainer.indices.shoes import card_of, deal_pool
from trainer.sim.counter import chart_changes
from trainer.strategy import hand_evs
from trainer.strategy.depleted import depleted_evs
from trainer.strategy.indexplay import IndexPlay

CASINO = find_ruleset("casino")


def _removed_rows(ruleset: Ruleset, n: int, seed: int) -> tuple[list[list[int]], list[list[Card]]]:
    rng = random.Random(seed)
    rows, gone = [], []
    for _ in range(n):
        shoe = Shoe.shuffled(ruleset, rng)
        cards = [shoe.draw() for _ in range(rng.randint(10, 52 * ruleset.shoe.decks - 80))]
        counts = [0] * 10
        for c in cards:
            counts[c.value - 1] += 1
        rows.append(counts)
        gone.append(cards)
    return rows, gone


def _late(ruleset: Ruleset) -> Ruleset:
    return table_for(ruleset, Asked(kind="hard", total=15, up=10, first=Action.SURRENDER, second=Action.HIT))


@pytest.mark.parametrize(("name", "hand", "up"), [
    ("casino", "10 6", "10"), ("casino", "7 5", "4"), ("casino", "6 4", "A"), ("casino", "5 4", "7"),
    ("casino", "10 10", "6"), ("casino-h17", "6 5", "A"), ("european", "6 4", "10"),
    ("bicycle", "10 10", "5"), ("late", "10 5", "10"), ("late", "9 6", "A"),
])
def test_depleted_evs_are_hand_evs_for_every_shoe(name: str, hand: str, up: str) -> None:
    """The batched per-hand evaluation gives, shoe by shoe, exactly the full engine's numbers."""
    ruleset = _late(CASINO) if name == "late" else find_ruleset(name)
    cards, up_card = parse_cards(hand), parse_card(up)
    rows, gone = _removed_rows(ruleset, 5, seed=len(hand) + len(name))
    got = depleted_evs(ruleset, cards, up_card, rows)
    for i, removed in enumerate(gone):
        expected = hand_evs(ruleset, cards, up_card, removed=removed).ev
        assert set(got) == set(expected)
        for action, value in expected.items():
            assert got[action][i] == pytest.approx(value, abs=1e-12), (action, i)


def _dealer(ruleset: Ruleset, system: str = "hi-lo", estimation: str = "half",
            rounding: str = "floor", shoes: int = 6) -> Dealer:
    pool = deal_pool(ruleset, 5, shoes, random.Random(7))
    return Dealer(ruleset, pool, TrueCountMethod(system=find_system(system), estimation=estimation,
                                                 rounding=rounding))


def _state_cards(dealer: Dealer, state: int) -> tuple[list[Card], int]:
    shoe, at = dealer.pool.states[state]
    order = dealer.pool.orders[shoe]
    return [card_of(code) for code in order], at


@pytest.mark.parametrize(("cell", "first", "second"), [
    ("16v10", Action.STAND, Action.HIT), ("10v10", Action.DOUBLE, Action.HIT),
    ("10,10 vs 6", Action.SPLIT, Action.STAND), ("12v4", Action.STAND, Action.HIT),
])
def test_each_sample_is_the_engines_ev_of_that_shoe(cell: str, first: Action, second: Action) -> None:
    """The cards out of the shoe are rebuilt here from the shoe's own order (earlier rounds, the burn
    card, the other seats' cards); the sample's EV difference is hand_evs on exactly those."""
    dealer = _dealer(CASINO)
    asked = parse_cell(cell)
    found = dealer.candidates(asked, random.Random(3))[:6]
    assert found
    shoes = [dealer.shoe(c) for c in found]
    diffs = differences(CASINO, asked, first, second, shoes)
    for c, d in zip(found, diffs, strict=True):
        cards, at = _state_cards(dealer, c.state)
        hand = (cards[c.first], cards[c.second])
        assert tuple(sorted(x.value for x in hand)) in {tuple(sorted(p)) for p in combos(asked)}
        assert cards[c.up].value == asked.up
        removed = cards[:at] + [cards[i] for i in c.others]
        evs = hand_evs(CASINO, hand, cards[c.up], removed=removed).ev
        assert d == pytest.approx(evs[first] - evs[second], abs=1e-12)


def test_insurance_sample_is_the_bet_on_the_unseen_tens() -> None:
    dealer = _dealer(CASINO)
    asked = parse_cell("insurance")
    found = dealer.candidates(asked, random.Random(5))[:5]
    diffs = differences(CASINO, asked, Action.INSURE, Action.DECLINE, [dealer.shoe(c) for c in found])
    for c, d in zip(found, diffs, strict=True):
        cards, at = _state_cards(dealer, c.state)
        dealt = {c.first, c.second, c.up, *c.others}
        rest = [x for i, x in enumerate(cards) if i >= at and i not in dealt]
        p = Fraction(sum(x.value == 10 for x in rest), len(rest))
        assert d == pytest.approx(float((3 * p - 1) / 2))


@pytest.mark.parametrize(("system", "estimation", "rounding"), [
    ("hi-lo", "half", "floor"), ("hi-lo", "quarter", "truncate"), ("wong-halves", "exact", "round"),
    ("omega-ii", "full", "floor"), ("ko", "half", "floor"), ("red-7", "half", "floor"),
])
def test_samples_are_grouped_by_the_systems_own_count(system: str, estimation: str, rounding: str) -> None:
    """The count of every sample, recomputed from the cards a player saw, by `trainer.core.counting`."""
    dealer = _dealer(CASINO, system, estimation, rounding)
    count = find_system(system)
    for c in dealer.candidates(parse_cell("16v10"), random.Random(11))[:40]:
        cards, at = _state_cards(dealer, c.state)
        seen = cards[CASINO.shoe.burn:at] + [cards[i] for i in (*c.others, c.first, c.second, c.up)]
        running = count.running_count(seen, decks=CASINO.shoe.decks)
        left = len(cards) - at - 3 - len(c.others) - 1  # the hole card is dealt, unseen
        if count.balanced:
            expected = true_count(running, estimate_decks_left(left, estimation), rounding)
        else:
            expected = int(running // 1)  # an unbalanced count plays by its running count
        assert c.count == expected


def _groups(means: dict[int, float], n: int = 50) -> list[CountGroup]:
    return [CountGroup(true_count=t, samples=n, mean=m, se=0.002, occurrences=100) for t, m in means.items()]


def test_the_crossing_follows_the_published_convention_on_synthetic_data() -> None:
    """`above` is played at the index and above: the first whole count at or past the zero crossing."""
    rising = _groups({t: 0.01 * (t - 2.4) for t in range(-4, 9)})
    assert threshold(rising) == 3 and crossing(rising, 3) == pytest.approx(2.4)
    exact = _groups({t: 0.02 * (t + 2) for t in range(-6, 5)})
    assert crossing(exact, threshold(exact) or 0) == pytest.approx(-2.0)  # d = 0 at -2: above from -2
    assert threshold(_groups({t: 0.01 for t in range(-3, 4)})) is None  # above at every count
    assert threshold(_groups({t: -0.01 for t in range(-3, 4)})) is None  # below at every count
    noisy = _groups({-2: -0.03, -1: -0.02, 0: 0.004, 1: -0.001, 2: 0.02, 3: 0.03})
    assert threshold(noisy) == 0  # the threshold that gains most overall, not the last sign change
    sparse = _groups({0: -0.01, 1: 0.01}, n=2)  # too few samples to say anything
    assert threshold(sparse) is None


def test_group_means_and_errors() -> None:
    [g] = group({2: [0.1, 0.3]}, {2: 40})
    assert (g.true_count, g.samples, g.mean, g.occurrences) == (2, 2, pytest.approx(0.2), 40)
    assert g.se == pytest.approx(0.1)


def test_compute_play_orients_the_plays_and_finds_an_index() -> None:
    dealer = _dealer(CASINO, shoes=40)
    result = compute_play(CASINO, dealer, parse_cell("12v4:hit/stand"), 150, random.Random(2))
    assert (result.above, result.below) == (Action.STAND, Action.HIT)  # high counts favour standing
    assert result.index is not None and -4 <= result.index <= 3  # published: 0
    assert result.samples >= 100 and sum(g.samples for g in result.groups) == result.samples
    means = {g.true_count: g.mean for g in result.groups if g.samples >= 6}
    assert means[min(means)] < 0 < means[max(means)]


class _Memory(ResultCache):
    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def load(self, key: str) -> bytes | None:
        return self.files.get(key)

    def save(self, key: str, data: bytes) -> None:
        self.files[key] = data


def test_results_are_cached_per_run_fingerprint() -> None:
    run = IndexRun(ruleset=CASINO, counting=TrueCountMethod(system=find_system("hi-lo")), seats=3, shoes=4,
                   samples=30, seed=1)
    cache = _Memory()
    plays = [parse_cell("insurance")]
    first, computed = cached_indices(run, plays, cache)
    again, recomputed = cached_indices(run, plays, cache)
    assert computed == 1 and recomputed == 0 and again[0].groups == first[0].groups
    other = IndexRun(ruleset=CASINO, counting=TrueCountMethod(system=find_system("ko")), seats=3, shoes=4,
                     samples=30, seed=1)
    assert other.fingerprint() != run.fingerprint()


def test_cells_parse_and_bad_cells_are_errors() -> None:
    assert parse_cell("hard 16 vs 10").key == "hard 16 vs 10"
    assert parse_cell("T,T v 5").key == "pair 10-10 vs 5"
    assert parse_cell("12v4:stand/hit").first is Action.STAND
    assert combos(parse_cell("16v10")) == ((6, 10), (7, 9))
    for bad in ("22v10", "16 vs", "12v4:stand/stand", "16v10:stand/fly"):
        with pytest.raises(InvalidInputError):
            parse_cell(bad)


def test_published_plays_are_typed_with_a_direction() -> None:
    plays = {p.name: p for p in index_plays("s17")}
    assert plays["16 vs 10"].direction == "+" and plays["16 vs 10"].basic is Action.HIT
    assert plays["12 vs 4"].direction == "-" and plays["12 vs 4"].basic is Action.STAND
    assert plays["13 vs 2"].direction == "-" and plays["10,10 vs 5"].direction == "+"
    assert plays["16 vs 10"].up_card == card(Rank.TEN) and plays["16 vs 10"].cell == "hard 16 vs 10"
    changes, insurance = chart_changes(tuple(plays.values()))
    assert insurance == 3 and len(changes) == len(plays) - 1
    ten_ten = next(c for c in changes if c.kind == "pair")
    assert (ten_ten.number, ten_ten.up, ten_ten.at_or_above, ten_ten.below) == (10, 5, "P", "S")


def test_an_index_play_needs_two_plays_and_a_basic_one() -> None:
    with pytest.raises(InvalidInputError):
        IndexPlay(kind="hard", total=16, up_value=10, index=0, above=Action.STAND, below=Action.STAND,
                  basic=Action.STAND, source="")
    with pytest.raises(InvalidInputError):
        IndexPlay(kind="hard", total=16, up_value=10, index=0, above=Action.STAND, below=Action.HIT,
                  basic=Action.DOUBLE, source="")


def test_cli_json_carries_the_index_and_the_groups(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["indices", "--plays", "12v4,insurance", "--samples", "40", "--shoes", "6", "--seats", "3",
            "--jobs", "1", "--json"]
    assert main(args) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["system"] == "hi-lo" and document["computed"] == 2
    for play in document["plays"]:
        assert {"index", "se", "counts", "above", "below", "published"} <= set(play)
        for row in play["counts"]:
            assert {"true_count", "mean_ev_difference", "samples"} <= set(row)
        assert play["samples"] == sum(row["samples"] for row in play["counts"])
    assert [p["published"] for p in document["plays"]] == [0, 3]
    assert main(args) == 0  # the second time from the cache
    assert json.loads(capsys.readouterr().out)["computed"] == 0


def test_cli_infinite_deck_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["indices", "--ruleset", "chat-host", "--plays", "16v10", "--json"]) == 0
    [play] = json.loads(capsys.readouterr().out)["plays"]
    assert play["index"] is None and play["always"] in ("hit", "stand") and "infinite" in play["note"]
    assert main(["indices", "--plays", "22v10"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cutcard: ") and err.count("\n") == 1


@pytest.fixture
def small_standard_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--indices computed` reads the standard run: make it a small one for the tests."""
    import trainer.cli.indices as indices

    monkeypatch.setattr(indices, "DEFAULT_SHOES", 8)
    monkeypatch.setattr(indices, "DEFAULT_SAMPLES", 24)


def test_the_deviations_drill_asks_computed_indices(small_standard_run: None,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("stand\nhit\nstand\n"))
    assert main(["drill", "deviations", "--indices", "computed", "--jsonl", "--seed", "3", "--count", "3"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    questions = [q for q in lines if "prompt" in q]
    assert questions and all(q["data"]["game"] == "computed" for q in questions)
    assert all(q["item"].startswith("deviations:computed:") for q in questions)


def test_sim_counts_with_computed_indices(small_standard_run: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--hands", "2000", "--seed", "1", "--jobs", "1", "--count", "ko", "--indices",
                 "computed", "--json"]) == 0
    counting = json.loads(capsys.readouterr().out)["counting"]
    assert counting["indices"].startswith("computed for casino and ko")


def test_the_table_reads_an_index_list_at_the_learners_count() -> None:
    from trainer.core import find_ruleset
    from trainer.table.advice import count_index

    casino = find_ruleset("casino")
    plays = [p for p in index_plays("s17") if p.name in ("16 vs 10", "insurance")]
    legal = frozenset({Action.HIT, Action.STAND})
    hand, ten = parse_cards("10 6"), parse_card("K")
    play = count_index(casino, "ko", hand, ten, legal, plays=plays)  # a list given: any count system
    assert play is not None and play.play_at(0) is Action.STAND and play.play_at(-1) is Action.HIT
    assert count_index(casino, "ko", hand, ten, legal) is None  # no list: the published are Hi-Lo's
    assert count_index(casino, "hi-lo", parse_cards("9 7"), parse_card("9"), legal, plays=plays) is None
    insurance = count_index(casino, "ko", None, parse_card("A"), frozenset(), plays=plays)
    assert insurance is not None and insurance.play_at(3) is Action.INSURE
    assert insurance.play_at(2) is not Action.INSURE


def test_results_do_not_depend_on_the_number_of_jobs() -> None:
    from trainer.indices.run import compute_indices

    run = IndexRun(ruleset=CASINO, counting=TrueCountMethod(system=find_system("hi-lo")), seats=3, shoes=60,
                   samples=24, seed=5)
    plays = [parse_cell("insurance"), parse_cell("12v4")]
    one = compute_indices(run, plays, jobs=1)
    two = compute_indices(run, plays, jobs=2)
    assert [(r.index, r.groups) for r in one] == [(r.index, r.groups) for r in two]
