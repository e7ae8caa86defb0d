"""The wong drill: sit, stay, watch or leave from a real shoe's count, by the learner's entry and exit
counts; the expected answer follows from the question's data, and every review item can be asked."""

from __future__ import annotations

import random

import pytest

from drills import make_drill
from drills.base import DrillOptions
from trainer.core import load_ruleset
from trainer.core.counting import estimate_decks_left, find_system, true_count
from trainer.core.errors import InvalidInputError
from trainer.core.wonging import Seat, Wonging

CASINO = load_ruleset("casino")


def drill(system: str = "hi-lo", **extra: str):
    return make_drill("wong", DrillOptions(system=system, extra=extra))


@pytest.mark.parametrize(("system", "extra"), [("hi-lo", {}), ("hi-lo", {"in": "+2", "out": "0"}),
                                               ("ko", {}), ("ko", {"in": "-2", "out": "-6"})])
def test_the_expected_move_follows_from_the_data(system: str, extra: dict[str, str]) -> None:
    wong = drill(system, **extra)
    rng = random.Random(7)
    seen = set()
    for _ in range(40):
        q = wong.ask(rng, CASINO)
        data = q.data
        if data["balanced"]:
            decks = estimate_decks_left(int(data["cards_left"]), "half")
            assert data["count"] == true_count(data["running_count"], decks, "floor")
        else:
            assert data["count"] == int(data["running_count"])
        policy = Wonging(entry=data["entry"], exit=data["exit"])
        move = policy.move(Seat(playing=bool(data["playing"]), gone=bool(data["gone"])), int(data["count"]))
        assert q.expected == move.value and q.expected in q.choices
        seen.add(q.expected)
    assert seen == {"sit", "stay", "watch", "leave"}


def test_ko_enters_at_its_key_count_by_default() -> None:
    q = drill("ko").ask(random.Random(1), CASINO)
    assert q.data["entry"] == find_system("ko").key_count(6) == -4 and q.data["exit"] is None


def test_every_review_item_is_asked_as_itself() -> None:
    wong = drill(**{"in": "1", "out": "-1"})
    items = wong.items(CASINO)
    assert "wong:hi-lo:gone" in items and "wong:hi-lo:playing:-2" in items
    rng = random.Random(3)
    for item in items:
        assert wong.cannot_ask(item, CASINO) is None
        q = wong.ask(rng, CASINO, item)
        assert q.item == item
        if item.endswith("gone"):
            assert q.expected == "watch" and q.data["gone"] is True
    assert wong.cannot_ask("wong:hi-lo:sitting:+9", CASINO) is not None


def test_answers_are_the_open_moves_and_short_letters() -> None:
    wong = drill()
    q = wong.ask(random.Random(5), CASINO, "wong:hi-lo:playing:+0")
    assert wong.parse(q, "s").value == "stay" and wong.parse(q, "L").value == "leave"
    assert wong.parse(q, "a").value == "stay" and wong.parse(q, "2").value == "leave"  # as review lists them
    with pytest.raises(InvalidInputError, match="not one of the choices"):
        wong.parse(q, "sit")
    assert wong.grade(q, wong.parse(q, "stay")).correct


def test_a_count_that_is_not_whole_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="whole count"):
        drill(**{"in": "1.5"})
