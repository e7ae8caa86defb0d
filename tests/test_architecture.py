"""The layering of DESIGN §4, enforced by reading every module's imports with `ast`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("trainer", "drills", "rulesets")


def _modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def _imports(path: Path) -> set[str]:
    """Top-level package names a module imports, lazily inside functions included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _top(name: str) -> str:
    return name.split(".")[0]


# Which outer-layer library each part of the tree may import.
ALLOWED = {
    "rich": ("trainer/render/", "trainer/repl/"),
    "prompt_toolkit": ("trainer/render/", "trainer/repl/"),
    "click": ("trainer/cli/",),
    "sqlite_utils": ("trainer/storage.py", "trainer/storage/"),
    "sqlite3": ("trainer/storage.py", "trainer/storage/"),
    "numba": ("trainer/sim/native.py", "trainer/sim/native_shoe.py"),  # the optional compiled simulator
}


@pytest.mark.parametrize("path", _modules(), ids=_rel)
def test_outer_libraries_stay_in_their_layer(path: Path) -> None:
    rel = _rel(path)
    for name in _imports(path):
        allowed = ALLOWED.get(_top(name))
        if allowed is not None:
            assert rel.startswith(allowed), f"{rel} imports {name}: only {allowed} may"


def _is_core(rel: str) -> bool:
    return rel.startswith("trainer/core/")


@pytest.mark.parametrize("path", [p for p in _modules() if _is_core(_rel(p))], ids=_rel)
def test_core_uses_only_the_standard_library_and_itself(path: Path) -> None:
    import sys

    for name in _imports(path):
        top = _top(name)
        if name.startswith("trainer.core") or top in sys.stdlib_module_names or top == "__future__":
            continue
        raise AssertionError(f"{_rel(path)} imports {name}: the core imports only the standard library")


@pytest.mark.parametrize("path", [p for p in _modules() if _is_core(_rel(p))], ids=_rel)
def test_core_does_no_io(path: Path) -> None:
    """No print, no open, no clock and no global random in the core (randomness is injected)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("print", "open", "input"), f"{_rel(path)} calls {node.func.id}"
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "time":
                raise AssertionError(f"{_rel(path)} reads the clock (time.{node.attr})")
            if node.value.id == "random" and node.attr not in ("Random", "SystemRandom"):
                raise AssertionError(f"{_rel(path)} uses the global random.{node.attr}")
    for name in _imports(path):
        assert _top(name) not in ("time", "datetime", "os", "subprocess", "socket"), \
            f"{_rel(path)} imports {name}"


@pytest.mark.parametrize(
    "path", [p for p in _modules() if _rel(p).startswith(("drills/", "trainer/strategy/"))], ids=_rel)
def test_drills_and_strategy_import_only_core_strategy_and_drills(path: Path) -> None:
    for name in _imports(path):
        if name.startswith("trainer"):
            assert name.startswith(("trainer.core", "trainer.strategy")), \
                f"{_rel(path)} imports {name}: drills and strategy import core and strategy only"


@pytest.mark.parametrize("path", [p for p in _modules() if _rel(p).startswith("trainer/sim/")], ids=_rel)
def test_simulation_imports_only_core_strategy_and_itself(path: Path) -> None:
    """The simulator is pure: no storage, rendering or CLI, and randomness only from an injected rng."""
    for name in _imports(path):
        if name.startswith("trainer"):
            assert name.startswith(("trainer.core", "trainer.strategy", "trainer.sim")), \
                f"{_rel(path)} imports {name}: the simulator imports core, strategy and itself only"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
            assert node.attr in ("Random", "SystemRandom"), f"{_rel(path)} uses the global random.{node.attr}"


READ_PATH = ("trainer/storage/progress.py", "trainer/storage/due.py",
             "trainer/storage/guard.py", "trainer/storage/figures.py", "trainer/stats.py",
             "trainer/stats_review.py", "trainer/readiness.py", "trainer/recap.py", "trainer/items.py",
             "trainer/cli/stats.py", "trainer/cli/ready.py", "trainer/repl/toolbar.py")


@pytest.mark.parametrize("rel", READ_PATH)
def test_the_read_path_stays_off_sqlite_utils_fsrs_and_numpy(rel: str) -> None:
    """Reading (stats, ready, the toolbar) opens the file with plain sqlite3 and loads nothing heavy: no
    sqlite-utils (numpy, plugins), no fsrs, no drills. (`trainer.storage.reader` loads the store's row
    decoder for `export` alone: tests/test_read_only.py checks what the stats path really loads.)"""
    for name in _imports(ROOT / rel):
        assert _top(name) not in ("sqlite_utils", "numpy", "fsrs", "drills"), f"{rel} imports {name}"
        assert name not in ("trainer.storage.store", "trainer.storage.schema", "trainer.storage.connection",
                            "trainer.scheduling"), f"{rel} imports {name}"


@pytest.mark.parametrize("path", [p for p in _modules() if _rel(p).startswith("trainer/indices/")], ids=_rel)
def test_index_computation_imports_only_core_strategy_and_itself(path: Path) -> None:
    """Computing indices is a library: no CLI, rendering, storage or simulator; randomness injected."""
    for name in _imports(path):
        if name.startswith("trainer"):
            assert name.startswith(("trainer.core", "trainer.strategy", "trainer.indices")), \
                f"{_rel(path)} imports {name}: the index computation imports core, strategy and itself only"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
            assert node.attr in ("Random", "SystemRandom"), f"{_rel(path)} uses the global random.{node.attr}"


def test_the_index_computation_package_exists() -> None:
    assert any(_rel(p).startswith("trainer/indices/") for p in _modules())
