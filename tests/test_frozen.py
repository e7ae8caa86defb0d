"""`trainer.core.frozen.quick_init`: the faster `__init__` it gives the core's frozen dataclasses takes
the very parameters the dataclass's own would, raises the same errors and leaves instances as frozen.
Each class is checked against a twin that `dataclasses` builds from the same fields."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest

from trainer.core import events, hands, round, shoe_depths
from trainer.core.cards import parse_card
from trainer.core.frozen import quick_init


def _frozen_classes() -> list[type]:
    found = []
    for module in (events, hands, round, shoe_depths):
        for value in vars(module).values():
            params = getattr(value, "__dataclass_params__", None)
            if isinstance(value, type) and value.__module__ == module.__name__ and params is not None \
                    and params.frozen and hasattr(value, "__slots__"):
                found.append(value)
    return found


CLASSES = _frozen_classes()


def _twin(cls: type) -> Any:
    """The same fields as a plain frozen, slotted dataclass of the same name (its own `__init__`)."""
    fields = [(f.name, f.type, dataclasses.field(default=f.default, kw_only=f.kw_only))
              for f in dataclasses.fields(cls)]
    twin = dataclasses.make_dataclass(cls.__name__, fields, frozen=True, slots=True)
    twin.__qualname__ = cls.__qualname__
    twin.__init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return twin


def _parameters(cls: Any) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(cls.__init__).parameters.values()]


def _error(make: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(TypeError) as raised:
        make(*args, **kwargs)
    return str(raised.value)


def test_the_round_s_hot_classes_are_among_those_checked() -> None:
    names = {cls.__name__ for cls in CLASSES}
    assert {"Dealt", "Hit", "Settled", "Hand", "SeatView", "ShoeMoment"} <= names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_the_init_takes_and_refuses_what_the_dataclass_s_own_does(cls: Any) -> None:
    twin = _twin(cls)
    assert _parameters(cls) == _parameters(twin)
    assert _error(cls) == _error(twin)  # the missing arguments, named
    assert _error(cls, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) == _error(twin, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    assert _error(cls, nonsense=1) == _error(twin, nonsense=1)


def test_instances_stay_frozen_and_compare_as_before() -> None:
    ace = parse_card("A")
    dealt = events.Dealt(card=ace, seat=0, hand=0, face_up=True)
    assert dealt == events.Dealt(card=ace, seat=0, hand=0, face_up=True)
    assert hash(dealt) == hash(events.Dealt(card=ace, seat=0, hand=0, face_up=True))
    assert repr(dealt) == repr(_twin(events.Dealt)(card=ace, seat=0, hand=0, face_up=True))
    with pytest.raises(dataclasses.FrozenInstanceError):
        dealt.seat = 1  # type: ignore[misc]
    hand = hands.Hand((ace, ace))
    assert hand.from_split is False  # the default
    with pytest.raises(dataclasses.FrozenInstanceError):
        hand.cards = ()  # type: ignore[misc]


def test_a_class_it_cannot_speed_up_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        x: list[int] = dataclasses.field(default_factory=list)

    for cls in (NoSlots, Factory):
        with pytest.raises(TypeError):
            quick_init(cls)
