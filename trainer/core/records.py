"""`record`: the project's dataclass decorator, a slotted `dataclasses.dataclass` that is quick to
define and quick to make.

Why not `dataclasses.dataclass` itself: on Python 3.11 it compiles a fresh function from source for
each method it writes (`__init__`, `__repr__`, `__eq__`, `__hash__` and a frozen class's `__setattr__`
and `__delattr__`), some 0.5 ms a frozen class, and a fresh process that computes a chart defines some
thirty of them before its first card (measured: 14 ms of its 36 ms of imports). `record` lets
`dataclasses` do everything else (fields, defaults, `__match_args__`, slots, `fields()`, `replace()`,
`asdict()`) and compiles, in one piece, only the methods that are called often; the others are closures
over the fields' names. All behave as the generated ones:

- `__init__`: the dataclass's parameters (names, order, keyword-only or not, defaults and default
  factories) and errors, fields with `init=False` set from their default or factory, `__post_init__`
  called; a frozen record's slots are set through their descriptors, faster than the generated
  `object.__setattr__(self, name, value)` (a round makes its events, hands and seat views by the
  million), a mutable one's by plain assignment, as the generated code does;
- `__eq__` (same class, field tuples equal) and `__hash__` (the compared fields' tuple; None where a
  mutable record compares by value), compiled with `__init__` (as closures over a field getter they
  took twice as long: cards are compared all the time), and `__repr__` (`Name(field=value, ...)`,
  `...` on recursion), each only where the class does not write its own, as `dataclasses` decides;
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
    hash_of = own.get("__hash__", dataclasses.MISSING)
    explicit_hash = not (hash_of is dataclasses.MISSING or (hash_of is None and "__eq__" in own))
    hashed = None
    if eq and frozen and not explicit_hash:  # as `dataclasses` does without unsafe_hash
        hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
    compared = tuple(f.name for f in fields if f.compare) if eq and "__eq__" not in own else None
    for name, method in _compiled(made, fields, compared, hashed, frozen=frozen).items():
        _set(made, own, name, method)
    if eq and not frozen and not explicit_hash:
        made.__hash__ = None  # compared by value, yet mutable: unhashable
    _set(made, own, "__repr__", _repr(tuple(f.name for f in fields if f.repr)))
    if frozen:
        made.__setattr__, made.__delattr__ = _frozen(made, frozenset(f.name for f in fields))
        _set(made, own, "__getstate__", _getstate(fields))
        _set(made, own, "__setstate__", _setstate(made, fields))
    if not own.get("__doc__"):  # `dataclasses` wrote it from the signature it saw: init's is ours
        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    result: type[T] = made
    return result


def _set(cls: type, own: dict[str, Any], name: str, method: Any) -> None:
    """Give `cls` a method unless its own body wrote one (`__hash__`: unless it wrote one besides an
    `__eq__`, which alone leaves it None)."""
    if name not in own or (name == "__hash__" and own[name] is None):
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        method.__module__ = cls.__module__
        setattr(cls, name, method)


def _compiled(cls: Any, fields: tuple[dataclasses.Field[Any], ...], compared: tuple[str, ...] | None,
              hashed: tuple[str, ...] | None, *, frozen: bool) -> dict[str, Any]:
    """The methods a record calls often, compiled together: `__init__` as `dataclasses` would write it
    (but a frozen record's sets each slot through its descriptor, not `object.__setattr__`, which looks
    the name up on every call), and where asked `__eq__` over the fields `compared` and `__hash__` over
    the fields `hashed`, as `dataclasses` writes them (one compilation, not three: compiling is what a
    class costs)."""
    scope: dict[str, Any] = {"_FACTORY": _FACTORY}
    positional: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    for field in fields:
        name = field.name
        if frozen:
            scope[f"_set_{name}"] = getattr(cls, name).__set__
        has_factory = field.default_factory is not dataclasses.MISSING
        if has_factory:
            scope[f"_factory_{name}"] = field.default_factory
        if not field.init:
            if has_factory:
                body.append(_store(name, f"_factory_{name}()", frozen=frozen))
            elif field.default is not dataclasses.MISSING:
                scope[f"_default_{name}"] = field.default
                body.append(_store(name, f"_default_{name}", frozen=frozen))
            continue
        param = name
        if has_factory:
            param = f"{name}=_FACTORY"
            body.append(_store(name, f"_factory_{name}() if {name} is _FACTORY else {name}", frozen=frozen))
        else:
            if field.default is not dataclasses.MISSING:
                scope[f"_default_{name}"] = field.default
                param = f"{name}=_default_{name}"
            body.append(_store(name, name, frozen=frozen))
        (keywords if field.kw_only else positional).append(param)
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    params = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    source = [f"def __init__({params}):\n    {'; '.join(body) or 'pass'}\n"]
    if compared is not None:
        mine, theirs = _fields_tuple("self", compared), _fields_tuple("other", compared)
        source.append(f"def __eq__(self, other):\n    if other.__class__ is self.__class__:\n"
                      f"        return {mine} == {theirs}\n    return NotImplemented\n")
    if hashed is not None:
        source.append(f"def __hash__(self):\n    return hash({_fields_tuple('self', hashed)})\n")
    exec("".join(source), scope)
    scope["__init__"].__annotations__ = {**{f.name: f.type for f in fields if f.init}, "return": None}
    return {name: scope[name] for name in ("__init__", "__eq__", "__hash__") if name in scope}


def _store(name: str, value: str, *, frozen: bool) -> str:
    """Source setting a field in `__init__`: through its slot's descriptor where the record is frozen
    (its `__setattr__` refuses), else by plain assignment (the quickest)."""
    return f"_set_{name}(self, {value})" if frozen else f"self.{name} = {value}"


def _fields_tuple(instance: str, names: tuple[str, ...]) -> str:
    """Source for the tuple of an instance's fields: `(self.rank, self.suit,)`."""
    return "(" + "".join(f"{instance}.{name}," for name in names) + ")"


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
