"""`record`: the project's dataclass decorator, a slotted `dataclasses.dataclass` that is quick to
define and quick to make.

Why not `dataclasses.dataclass` itself: on Python 3.11 it compiles a fresh function from source for
each method it writes (`__init__`, `__repr__`, `__eq__`, `__hash__` and a frozen class's `__setattr__`
and `__delattr__`), some 0.5 ms a frozen class, and a fresh process that computes a chart defines some
thirty of them before its first card (measured: 14 ms of its 36 ms of imports). `record` lets
`dataclasses` do everything else (fields, defaults, `__match_args__`, slots, `fields()`, `replace()`,
`asdict()`) and compiles only the `__init__`; the other methods are closures over the fields' names,
with the same behaviour as the generated ones:

- `__init__`: the dataclass's parameters (names, order, keyword-only or not, defaults and default
  factories) and errors, fields with `init=False` set from their default or factory, `__post_init__`
  called; each slot is set through its own descriptor, which is also faster than the generated
  `object.__setattr__(self, name, value)` of a frozen dataclass (a round makes its events, hands and
  seat views by the million);
- `__repr__` (`Name(field=value, ...)`, `...` on recursion), `__eq__` (same class, field tuples equal)
  and `__hash__` (the compared fields' tuple; None where a mutable record compares by value), each
  only where the class does not write its own, as `dataclasses` decides;
- frozen: assigning or deleting an attribute raises `dataclasses.FrozenInstanceError`, and pickling
  and copying go through `__getstate__` / `__setstate__`;
- `__dataclass_params__` says what the class is (frozen, eq, ...), not how it was built.

>>> @record(kw_only=True)
... class Point:
...     x: int
...     y: int = 0
>>> Point(x=1), Point(x=1, y=2) == Point(x=1, y=2)
(Point(x=1, y=0), True)
>>> Point(1)
Traceback (most recent call last):
TypeError: Point.__init__() takes 1 positional argument but 2 were given
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")


@overload
@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, frozen: bool = True, eq: bool = True,
           kw_only: bool = False) -> Callable[[type[T]], type[T]]: ...


def record(cls: type[T] | None = None, /, *, frozen: bool = True, eq: bool = True, kw_only: bool = False,
           ) -> type[T] | Callable[[type[T]], type[T]]:
    """Make `cls` a slotted dataclass: frozen unless `frozen=False`, compared by its fields unless
    `eq=False`, its fields keyword-only with `kw_only=True` (see the module docstring)."""

    def make(cls: type[T]) -> type[T]:
        return _make(cls, frozen=frozen, eq=eq, kw_only=kw_only)

    return make if cls is None else make(cls)


def _make(cls: type[T], *, frozen: bool, eq: bool, kw_only: bool) -> type[T]:
    own = dict(cls.__dict__)
    if frozen:
        for name in ("__setattr__", "__delattr__"):
            if name in own:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    made: Any = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=True, kw_only=kw_only)
    fields = dataclasses.fields(made)
    params = made.__dataclass_params__
    params.init, params.repr, params.eq, params.frozen = True, True, eq, frozen
    _set(made, own, "__init__", _init(made, fields))
    shown = tuple(f.name for f in fields if f.repr)
    _set(made, own, "__repr__", _repr(shown))
    compared = _tuple_of(tuple(f.name for f in fields if f.compare))
    if eq:
        _set(made, own, "__eq__", _eq(compared))
    hash_of = own.get("__hash__", dataclasses.MISSING)
    explicit_hash = not (hash_of is dataclasses.MISSING or (hash_of is None and "__eq__" in own))
    if eq and not explicit_hash:  # as `dataclasses` does without unsafe_hash
        hashed = _tuple_of(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))
        made.__hash__ = _hash(made, hashed) if frozen else None
    if frozen:
        names = frozenset(f.name for f in fields)
        made.__setattr__, made.__delattr__ = _frozen(made, names)
        _set(made, own, "__getstate__", _getstate(fields))
        _set(made, own, "__setstate__", _setstate(made, fields))
    if not own.get("__doc__"):  # `dataclasses` wrote it from the signature it saw: init's is ours
        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    result: type[T] = made
    return result


def _set(cls: type, own: dict[str, Any], name: str, method: Any) -> None:
    """Give `cls` a method unless its own body wrote one."""
    if name not in own:
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        method.__module__ = cls.__module__
        setattr(cls, name, method)


def _tuple_of(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function from an instance to its fields `names` as a tuple (as the generated methods build)."""
    if not names:
        return lambda _: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    getter: Callable[[Any], tuple[Any, ...]] = attrgetter(*names)
    return getter


def _init(cls: Any, fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    """The `__init__` `dataclasses` would write, setting each slot through its descriptor."""
    scope: dict[str, Any] = {"_FACTORY": _FACTORY}
    positional: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    for field in fields:
        name = field.name
        scope[f"_set_{name}"] = getattr(cls, name).__set__
        has_factory = field.default_factory is not dataclasses.MISSING
        if has_factory:
            scope[f"_factory_{name}"] = field.default_factory
        if not field.init:
            if has_factory:
                body.append(f"_set_{name}(self, _factory_{name}())")
            elif field.default is not dataclasses.MISSING:
                scope[f"_default_{name}"] = field.default
                body.append(f"_set_{name}(self, _default_{name})")
            continue
        param = name
        if has_factory:
            param = f"{name}=_FACTORY"
            body.append(f"_set_{name}(self, _factory_{name}() if {name} is _FACTORY else {name})")
        else:
            if field.default is not dataclasses.MISSING:
                scope[f"_default_{name}"] = field.default
                param = f"{name}=_default_{name}"
            body.append(f"_set_{name}(self, {name})")
        (keywords if field.kw_only else positional).append(param)
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    params = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    exec(f"def __init__({params}):\n    {'; '.join(body) or 'pass'}\n", scope)
    init = scope["__init__"]
    init.__annotations__ = {**{f.name: f.type for f in fields if f.init}, "return": None}
    return init


class _Factory:
    """The default of a parameter whose field has a default factory (as `dataclasses`' own marker)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _repr(names: tuple[str, ...]) -> Any:
    @recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq(key: Callable[[Any], tuple[Any, ...]]) -> Any:
    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(cls: type, key: Callable[[Any], tuple[Any, ...]]) -> Any:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
    return __hash__


def _frozen(cls: type[Any], names: frozenset[str]) -> tuple[Any, Any]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    for method in (__setattr__, __delattr__):
        method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
    return __setattr__, __delattr__


def _getstate(fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    names = tuple(f.name for f in fields)

    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]

    return __getstate__


def _setstate(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Any:
    setters = tuple(getattr(cls, f.name).__set__ for f in fields)

    def __setstate__(self: Any, state: list[Any]) -> None:
        for set_slot, value in zip(setters, state, strict=True):
            set_slot(self, value)

    return __setstate__
