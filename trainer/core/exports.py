"""A package's public names imported the first time they are read (PEP 562), so importing the package
loads none of its modules: `trainer.core` and `trainer.strategy` list each name's home module."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(namespace: dict[str, Any], homes: Mapping[str, tuple[str, ...]]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The package's module-level `__getattr__` and `__dir__` for the names `homes` lists by module; a
    name read once is kept in `namespace` (the package's `globals()`), so it is looked up only once."""
    package = namespace["__name__"]
    module_of = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted([*namespace, *module_of])

    return __getattr__, __dir__
