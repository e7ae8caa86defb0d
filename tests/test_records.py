"""`trainer.core.records.record` makes the classes `dataclasses.dataclass` would: every record of the
trainer and the drills is checked against a twin `dataclasses` builds from the same fields (its
`__init__`'s parameters and errors, its parameters and match args), and a record with every kind of
field against its twin in behaviour (repr, equality, hash, freezing, pickling, copying, replace)."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil
from typing import Any

import pytest

import drills
import trainer
from trainer.core.records import record

_SKIPPED = {"trainer.sim.native_shoe"}  # numba's kernels: its import costs a second, and it holds no record


def _records() -> list[type]:
    found = []
    for package in (trainer, drills):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if info.name in _SKIPPED or info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if isinstance(value, type) and value.__module__ == module.__name__ \
                        and "__dataclass_fields__" in vars(value):
                    found.append(value)
    return found


RECORDS = _records()


def _twin(cls: Any, **namespace: Any) -> Any:
    """A `dataclasses` class of the same name, fields and parameters (and `namespace`'s methods)."""
    params = cls.__dataclass_params__
    fields = [(f.name, f.type, dataclasses.field(
        default=f.default, default_factory=f.default_factory, init=f.init, repr=f.repr, hash=f.hash,
        compare=f.compare, kw_only=f.kw_only)) for f in dataclasses.fields(cls)]
    twin = dataclasses.make_dataclass(cls.__name__, fields, namespace=namespace, frozen=params.frozen,
                                      eq=params.eq, slots=True)
    twin.__qualname__ = cls.__qualname__
    twin.__init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return twin


def _parameters(cls: Any) -> list[tuple[str, Any, str]]:
    return [(p.name, p.kind, repr(p.default)) for p in inspect.signature(cls.__init__).parameters.values()]


def _error(make: Any, *args: Any, **kwargs: Any) -> str:
    """The TypeError a call raises ("made" if it raises none)."""
    try:
        make(*args, **kwargs)
    except TypeError as error:
        return str(error)
    return "made"


def test_every_record_of_the_hot_paths_is_checked() -> None:
    names = {cls.__name__ for cls in RECORDS}
    assert {"Dealt", "Hit", "Settled", "Hand", "SeatView", "ShoeMoment", "Card", "Ruleset", "Chart"} <= names
    assert len(RECORDS) > 100


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_a_record_is_made_as_its_dataclass_twin(cls: Any) -> None:
    twin = _twin(cls)
    assert _parameters(cls) == _parameters(twin)
    assert str(inspect.signature(cls.__init__)) == str(inspect.signature(twin.__init__))
    assert repr(cls.__dataclass_params__) == repr(twin.__dataclass_params__)
    assert cls.__match_args__ == twin.__match_args__
    assert cls.__slots__ == twin.__slots__
    own = vars(cls)
    if "__post_init__" not in own:  # (the twin has none: its errors would differ past the arguments)
        assert _error(cls) == _error(twin)  # the missing arguments, named
        many = range(len(dataclasses.fields(cls)) + 2)
        assert _error(cls, *many) == _error(twin, *many)
        assert _error(cls, nonsense=1) == _error(twin, nonsense=1)
    if "__hash__" not in own or own["__hash__"] is None:
        assert (cls.__hash__ is None) == (twin.__hash__ is None)


@dataclasses.dataclass(frozen=True)
class _Leaf:
    name: str


class _Every:
    """Every kind of field."""

    count: int
    leaf: _Leaf | None = None
    tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
    hidden: int = dataclasses.field(default=7, repr=False, compare=False)
    total: int = dataclasses.field(init=False, default=0)
    made: tuple[int, ...] = dataclasses.field(init=False, default_factory=tuple)
    label: str = dataclasses.field(default="", kw_only=True)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", self.count * 2)


def _every_kind(name: str, *, frozen: bool) -> Any:
    """`_Every`'s body as a record of another name (module-level, so that pickle finds it)."""
    body = {k: v for k, v in vars(_Every).items() if k not in ("__dict__", "__weakref__", "__qualname__")}
    return record(frozen=frozen)(type(name, (), body))


Every = _every_kind("Every", frozen=True)
EveryMutable = _every_kind("EveryMutable", frozen=False)


@pytest.mark.parametrize("ours", [Every, EveryMutable], ids=["frozen", "mutable"])
def test_a_record_behaves_as_its_twin(ours: Any) -> None:
    frozen = ours.__dataclass_params__.frozen
    twin = _twin(ours, __post_init__=_Every.__post_init__)
    for make in (lambda cls: cls(3), lambda cls: cls(2, _Leaf("x"), ("a",), 5, label="b")):
        a, b = make(ours), make(twin)
        assert repr(a) == repr(b)
        assert dataclasses.asdict(a) == dataclasses.asdict(b)
        assert a.total == b.total and a.made == b.made == ()
        assert a == make(ours) and a != b  # (another class: NotImplemented both ways)
        if frozen:
            assert hash(a) == hash(b)
            for attempt in (lambda x: setattr(x, "count", 1), lambda x: delattr(x, "tags")):
                with pytest.raises(dataclasses.FrozenInstanceError) as ours_raised:
                    attempt(a)
                with pytest.raises(dataclasses.FrozenInstanceError) as twin_raised:
                    attempt(b)
                assert str(ours_raised.value) == str(twin_raised.value)
        else:
            assert ours.__hash__ is None and twin.__hash__ is None
        for copied in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
            assert copied == a and type(copied) is ours and copied.total == a.total
        replaced = dataclasses.replace(a, count=4)
        assert repr(replaced) == repr(dataclasses.replace(b, count=4)) and replaced.total == 8
    if not frozen:
        changed = ours(1)
        changed.count = 9
        assert changed.count == 9
    assert ours(1, tags=("t",)) != ours(1)
    assert ours(1, hidden=1) == ours(1, hidden=2)  # compare=False
    assert ours.__doc__ == "Every kind of field."


def test_a_record_s_own_methods_are_kept_and_its_repr_survives_recursion() -> None:
    @record(frozen=False)
    class Node:
        value: int
        children: list[Any] = dataclasses.field(default_factory=list)

    node = Node(1)
    node.children.append(node)
    assert repr(node) == "test_a_record_s_own_methods_are_kept_and_its_repr_survives_recursion.<locals>." \
                         "Node(value=1, children=[...])"

    @record
    class Own:
        value: int

        def __repr__(self) -> str:
            return "own"

        def __eq__(self, other: object) -> bool:
            return True

    assert repr(Own(1)) == "own" and Own(1) == Own(2)
    assert hash(Own(1)) == hash((1,))  # its __eq__ without a __hash__: the fields' hash, as dataclasses

    @record(eq=False)
    class Identity:
        value: int

    one = Identity(1)
    assert one == one and one != Identity(1) and hash(one) == object.__hash__(one)  # by identity


def test_undocumented_records_are_documented_by_their_signature_and_frozen_ones_refuse_setattr() -> None:
    @record(kw_only=True)
    class Plain:
        x: int
        y: int = 0

    twin = _twin(Plain)
    assert Plain.__doc__ == twin.__doc__ == "Plain(*, x: 'int', y: 'int' = 0)"
    with pytest.raises(TypeError, match="Cannot overwrite attribute __setattr__"):
        @record
        class Refused:
            x: int

            def __setattr__(self, name: str, value: Any) -> None:
                pass
