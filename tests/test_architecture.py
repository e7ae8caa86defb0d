"""The layering of DESIGN §4, enforced by reading every module's imports with `ast`."""

from __future__ import annotations

import ast
import functools
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("trainer", "drills", "rulesets")

pytestmark = pytest.mark.xdist_group("architecture")  # one worker reads each module once, not each worker


def _modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


@dataclass(frozen=True)
class _Read:
    """What the checks here look at in one module, from one parse of it."""

    imports: frozenset[str]
    """Every module name it imports, lazily inside functions included (`_imports`)."""
    runtime_imports: tuple[ast.Import | ast.ImportFrom, ...]
    """Its imports that run (`_runtime_imports`), for the import graph."""
    called: tuple[str, ...]
    """The plain names it calls: `print(...)` is print."""
    attributes: tuple[tuple[str, str], ...]
    """(name, attribute) of each `name.attribute` it reads: `time.time` is (time, time)."""


@functools.cache
def _read(path: Path) -> _Read:
    """A module of the tree, parsed once for every check that reads it: each was parsed by two to four
    checks (some 500 parses of 200 files, a third of this file's time). Only the tree's own modules,
    which no test changes; the cycle check's own tests write and rewrite theirs and are read afresh.
    The parse itself is not kept (the trees of the whole tree were some 50 MB)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    called: list[str] = []
    attributes: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            called.append(node.func.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            attributes.append((node.value.id, node.attr))
    return _Read(imports=frozenset(names), runtime_imports=tuple(_runtime_imports(tree)),
                 called=tuple(called), attributes=tuple(attributes))


def _imports(path: Path) -> frozenset[str]:
    """Top-level package names a module imports, lazily inside functions included."""
    return _read(path).imports


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _top(name: str) -> str:
    return name.split(".")[0]


# Which outer-layer library each part of the tree may import.
ALLOWED = {
    "rich": ("trainer/render/", "trainer/repl/", "trainer/screens/"),
    "prompt_toolkit": ("trainer/render/", "trainer/repl/", "trainer/screens/"),
    "click": ("trainer/cli/",),
    "sqlite_utils": ("trainer/storage/",),
    "sqlite3": ("trainer/storage/",),
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


def _is_pure(rel: str) -> bool:
    """The core and the packages kept as pure as it: planning's formulas (stdlib and the core only)."""
    return rel.startswith(("trainer/core/", "trainer/planning/"))


@pytest.mark.parametrize("path", [p for p in _modules() if _is_pure(_rel(p))], ids=_rel)
def test_core_uses_only_the_standard_library_and_itself(path: Path) -> None:
    import sys

    own = "trainer.core" if _is_core(_rel(path)) else ("trainer.core", "trainer.planning")
    for name in _imports(path):
        top = _top(name)
        if name.startswith(own) or top in sys.stdlib_module_names or top == "__future__":
            continue
        raise AssertionError(f"{_rel(path)} imports {name}: the core (and planning) import only the "
                             "standard library and the core")


@pytest.mark.parametrize("path", [p for p in _modules() if _is_pure(_rel(p))], ids=_rel)
def test_core_does_no_io(path: Path) -> None:
    """No print, no open, no clock and no global random in the core or planning (randomness is injected)."""
    read = _read(path)
    for name in read.called:
        assert name not in ("print", "open", "input"), f"{_rel(path)} calls {name}"
    for name, attr in read.attributes:
        if name == "time":
            raise AssertionError(f"{_rel(path)} reads the clock (time.{attr})")
        if name == "random" and attr not in ("Random", "SystemRandom"):
            raise AssertionError(f"{_rel(path)} uses the global random.{attr}")
    # planning handles calendar days (a journal's dates) as values, never the clock: its dates come in
    banned = ("time", "os", "subprocess", "socket") + (("datetime",) if _is_core(_rel(path)) else ())
    for name in _imports(path):
        assert _top(name) not in banned, f"{_rel(path)} imports {name}"
    for _name, attr in read.attributes:
        assert attr not in ("today", "now", "utcnow"), f"{_rel(path)} reads the clock (.{attr})"


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
    for name, attr in _read(path).attributes:
        if name == "random":
            assert attr in ("Random", "SystemRandom"), f"{_rel(path)} uses the global random.{attr}"


READ_PATH = ("trainer/storage/progress.py", "trainer/storage/review_history.py", "trainer/storage/weeks.py",
             "trainer/storage/medians.py", "trainer/storage/due.py",
             "trainer/storage/guard.py", "trainer/storage/figures.py", "trainer/progress/stats.py",
             "trainer/progress/stats_review.py", "trainer/progress/readiness.py", "trainer/progress/recap.py", "trainer/progress/items.py",
             "trainer/cli/stats.py", "trainer/cli/ready.py", "trainer/repl/toolbar.py")


@pytest.mark.parametrize("rel", READ_PATH)
def test_the_read_path_stays_off_sqlite_utils_fsrs_and_numpy(rel: str) -> None:
    """Reading (stats, ready, the toolbar) opens the file with plain sqlite3 and loads nothing heavy: no
    sqlite-utils (numpy, plugins), no fsrs, no drills. (`trainer.storage.reader` loads the store's row
    decoder for `export` alone: tests/test_read_only.py checks what the stats path really loads.)"""
    for name in _imports(ROOT / rel):
        assert _top(name) not in ("sqlite_utils", "numpy", "fsrs", "drills"), f"{rel} imports {name}"
        assert name not in ("trainer.storage.store", "trainer.storage.schema", "trainer.storage.connection",
                            "trainer.progress.scheduling"), f"{rel} imports {name}"


@pytest.mark.parametrize("path", [p for p in _modules() if _rel(p).startswith("trainer/indices/")], ids=_rel)
def test_index_computation_imports_only_core_strategy_and_itself(path: Path) -> None:
    """Computing indices is a library: no CLI, rendering, storage or simulator; randomness injected."""
    for name in _imports(path):
        if name.startswith("trainer"):
            assert name.startswith(("trainer.core", "trainer.strategy", "trainer.indices")), \
                f"{_rel(path)} imports {name}: the index computation imports core, strategy and itself only"
    for name, attr in _read(path).attributes:
        if name == "random":
            assert attr in ("Random", "SystemRandom"), f"{_rel(path)} uses the global random.{attr}"


def test_the_index_computation_package_exists() -> None:
    assert any(_rel(p).startswith("trainer/indices/") for p in _modules())


# --- every package, named -----------------------------------------------------------------------

PACKAGE_ROLES = {
    "drills": "the drills behind one protocol: core and strategy only",
    "rulesets": "the built-in rule sets as data",
    "trainer": "the package: the program's entry (`__main__`), the file caches (`chartcache`, `statstore`) "
               "and the bet planner's service (`planner`)",
    "trainer/cli": "the click commands, one registry; never the REPL",
    "trainer/core": "the rules of blackjack: the standard library only, no I/O",
    "trainer/core/chat_host": "the chat-host tournament of seed 002, pure like the rest of the core",
    "trainer/indices": "index plays computed for a game: core and strategy only",
    "trainer/planning": "the money side's formulas (risk of ruin, bankroll): pure like the core",
    "trainer/practice": "running drills: a drill run, its drivers, launching it",
    "trainer/progress": "what the recorded answers say: review, schedule, stats, readiness, recap",
    "trainer/render": "rich rendering",
    "trainer/repl": "the prompt-toolkit REPL, which runs the CLI's commands",
    "trainer/screens": "the screens that commands open; neither the CLI nor the REPL",
    "trainer/sim": "the simulator: core and strategy only",
    "trainer/storage": "the progress database: the only sqlite user",
    "trainer/strategy": "the exact strategy engine: core only",
    "trainer/table": "the learner's table and the tournament as played at a terminal",
}


def test_every_package_is_named_here_and_every_name_is_a_package() -> None:
    """A new package needs its line here (and its layering rule above); a stale name fails too."""
    found = {_rel(p.parent) for p in _modules() if p.name == "__init__.py"}
    assert found == set(PACKAGE_ROLES)


def test_the_lists_here_name_modules_that_exist() -> None:
    for rel in READ_PATH:
        assert (ROOT / rel).is_file(), f"READ_PATH names {rel}, which does not exist"
    for prefixes in ALLOWED.values():
        for prefix in prefixes:
            assert (ROOT / prefix).exists(), f"ALLOWED names {prefix}, which does not exist"
    assert set(PACKAGES) == {name for name in PACKAGE_ROLES if "/" not in name}


@pytest.mark.parametrize("path", [p for p in _modules() if _rel(p).startswith("trainer/cli/")], ids=_rel)
def test_the_cli_never_imports_the_repl_or_the_program_entry(path: Path) -> None:
    for name in _imports(path):
        assert not name.startswith(("trainer.repl", "trainer.__main__")), \
            f"{_rel(path)} imports {name}: the REPL imports the CLI, never the reverse"


@pytest.mark.parametrize("path", [p for p in _modules() if _rel(p).startswith(
    ("trainer/practice/", "trainer/progress/", "trainer/table/", "trainer/storage/"))], ids=_rel)
def test_the_services_import_neither_the_cli_nor_the_repl(path: Path) -> None:
    for name in _imports(path):
        assert not name.startswith(("trainer.cli", "trainer.repl", "trainer.__main__")), \
            f"{_rel(path)} imports {name}: commands call the services, not the reverse"


@pytest.mark.parametrize("path", [p for p in _modules() if _rel(p).startswith("trainer/screens/")], ids=_rel)
def test_screens_import_neither_the_cli_nor_the_repl(path: Path) -> None:
    for name in _imports(path):
        assert not name.startswith(("trainer.cli", "trainer.repl")), \
            f"{_rel(path)} imports {name}: a screen is opened by a command, it does not run one"


# --- no import cycles -----------------------------------------------------------------------------

def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import that runs: at the top, inside functions and classes, anywhere but under
    `if TYPE_CHECKING:` (annotations only, never executed)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        children: Iterable[ast.AST] = ast.iter_child_nodes(node)
        if isinstance(node, ast.If) and _is_type_checking(node):
            children = node.orelse
        stack.extend(children)


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    """Module → the modules of `packages` it imports when it runs (function-level imports counted)."""
    paths = {_module_name(p, root): p for pkg in packages for p in sorted((root / pkg).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        runtime = (_read(path).runtime_imports if root == ROOT
                   else _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))))
        for node in runtime:
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base
                           for alias in node.names]
            for target in targets:
                while target and target not in paths:  # `import a.b.c` of a name inside a.b
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as [a, b, ..., a], or None."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(module: str) -> list[str] | None:
        path.append(module)
        on_path.add(module)
        for target in sorted(graph.get(module, ())):
            if target in on_path:
                return [*path[path.index(target):], target]
            if target not in done and (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        on_path.discard(module)
        done.add(module)
        return None

    for module in sorted(graph):
        if module not in done and (cycle := visit(module)) is not None:
            return cycle
    return None


def test_no_module_imports_itself_back_even_from_inside_a_function() -> None:
    cycle = find_cycle(import_graph(ROOT, PACKAGES))
    assert cycle is None, "import cycle: " + " → ".join(cycle or [])


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text), encoding="utf-8")


def test_the_cycle_check_finds_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/cli.py": """
            def main():
                from pkg.repl import app  # the lazy import that hid the cycle

                app.run()
            """,
        "pkg/repl/__init__.py": "",
        "pkg/repl/app.py": "from pkg.repl.commands import run\n",
        "pkg/repl/commands.py": "from pkg import cli\n\nrun = cli.main\n",
        "pkg/quiet.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg import cli\n",
    })
    graph = import_graph(tmp_path, ["pkg"])
    assert graph["pkg.quiet"] == set()  # annotations only: not an import that runs
    assert find_cycle(graph) == ["pkg.cli", "pkg.repl.app", "pkg.repl.commands", "pkg.cli"]
    _write(tmp_path, {"pkg/cli.py": "def main():\n    pass\n"})
    assert find_cycle(import_graph(tmp_path, ["pkg"])) is None


def test_the_cycle_check_reads_relative_imports(tmp_path: Path) -> None:
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": "from . import b\n",
                      "pkg/b.py": "def f():\n    from .a import x\n"})
    assert find_cycle(import_graph(tmp_path, ["pkg"])) == ["pkg.a", "pkg.b", "pkg.a"]


# --- the table writes only its own objects ---------------------------------------------------------

_MUTATORS = frozenset({"append", "extend", "insert", "add", "update", "discard", "remove", "pop", "popitem",
                       "clear", "setdefault", "sort", "reverse"})
"""The methods of list, set and dict that change the object they are called on."""


def _foreign(node: ast.expr) -> bool:
    """True when writing to `node` changes an object reached through another: `a.b` for any `a` but
    `self`, `self.a.b`, and an item of either (`self.x`, a local name and their items are the module's
    own)."""
    if isinstance(node, ast.Subscript):
        return _foreign(node.value)
    return isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id == "self")


def foreign_writes(source: str) -> list[str]:
    """Each place a module assigns an attribute of an object it did not create, in the closest form a
    syntax check enforces: an assignment (plain, augmented or annotated) to anything but `self.x`, a
    local name or their items, or a list/set/dict mutator called on such a thing
    (`table.keeper.seen.extend(...)`, `self.tally.plays.append(...)`): an object changes through its
    own methods. It cannot see through an alias (`seen = table.seen; seen.append(c)` passes)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = [t for target in node.targets
                       for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _MUTATORS and _foreign(node.func.value):
            found.append((node.lineno, f"{ast.unparse(node.func)}(...)"))
        found.extend((node.lineno, f"{ast.unparse(t)} = ...") for t in targets if _foreign(t))
    return [f"line {line}: {what}" for line, what in sorted(found)]


@pytest.mark.parametrize("path", sorted((ROOT / "trainer" / "table").rglob("*.py")), ids=_rel)
def test_the_table_writes_no_other_modules_object(path: Path) -> None:
    """The session applies each decision's outcome through the methods of the objects it holds: no
    module of trainer/table writes an attribute of an object it did not create (DESIGN §4)."""
    writes = foreign_writes(path.read_text(encoding="utf-8"))
    assert not writes, f"{_rel(path)} writes another object's state: " + "; ".join(writes)


def test_the_write_check_finds_a_write_through_another_object() -> None:
    source = textwrap.dedent("""
        def call(table, cards):
            table.bankroll -= 5
            table.keeper.seen.extend(cards)
            table.fouls.called["3"] = True
            x, table.settled = 1, True

        class Session:
            def apply(self, grade):
                self.bankroll += 1
                self.seen.append(grade)
                self.tally.plays.append(grade)
                self.tally.rounds += 1
                lines = []
                lines.append(grade)
                data = {}
                data["round"] = 1
        """)
    assert [w.split(":")[0] for w in foreign_writes(source)] == [
        "line 3", "line 4", "line 5", "line 6", "line 12", "line 13"]


def test_the_table_has_no_import_cycle_not_even_one_for_types() -> None:
    """Each decision reads a `TableView`, never the session: among trainer/table's modules no import,
    whether it runs or only names a type (`if TYPE_CHECKING:`), comes back to where it started."""
    paths = {_module_name(p, ROOT): p for p in sorted((ROOT / "trainer" / "table").rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        graph[name] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names] \
                if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            graph[name].update(t for t in targets if t in paths and t != name)
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " → ".join(cycle or [])
