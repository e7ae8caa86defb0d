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
    all_imports: tuple[ast.Import | ast.ImportFrom, ...]
    """Every import it states (`_all_imports`), for the import graph."""
    called: tuple[str, ...]
    """The plain names it calls: `print(...)` is print."""
    attributes: tuple[tuple[str, str], ...]
    """(name, attribute) of each `name.attribute` it reads: `time.time` is (time, time)."""


@functools.cache
def _read(path: Path) -> _Read:
    """A module of the tree, parsed once for every check that reads it (two to four checks read each).
    Only the tree's own modules, which no test changes; the cycle check's own tests write and rewrite
    theirs and are read afresh. The parse itself is not kept (the whole tree's would be large)."""
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
    return _Read(imports=frozenset(names), all_imports=tuple(_all_imports(tree)),
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
    "dask": ("trainer/compare/chunks.py",),  # the optional cluster (the `cluster` extra), imported when asked
    "distributed": ("trainer/compare/chunks.py",),
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
            assert name.startswith(("trainer.core", "trainer.strategy")) or (
                _rel(path).startswith("drills/") and name.startswith("trainer.tournament")), \
                f"{_rel(path)} imports {name}: drills and strategy import core and strategy only "\
                "(and the drills the tournament)"


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


@pytest.mark.parametrize("path", [p for p in _modules() if _rel(p).startswith("trainer/compare/")], ids=_rel)
def test_the_comparison_is_a_library_under_the_cli(path: Path) -> None:
    """Comparing games is a service: the simulator, the planner and the statistics store, never the CLI,
    the REPL, rendering or the progress database; dask only where the cluster is run, and lazily."""
    for name in _imports(path):
        if name.startswith("trainer"):
            assert name.startswith(("trainer.core", "trainer.strategy", "trainer.sim", "trainer.planning",
                                    "trainer.planner", "trainer.statstore", "trainer.compare")), \
                f"{_rel(path)} imports {name}: the comparison imports the simulator, planning and the store only"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:  # dask at the top of a module would load it for every local run
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            assert not any(_top(n) in ("dask", "distributed") for n in names), \
                f"{_rel(path)} imports dask at the top: import it where the cluster is asked for"


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
    "drills/counting": "counting drills: running count to counting a whole table",
    "drills/dealing": "dealer drills: payouts, colour-up, cut, settle, catch",
    "drills/strategy": "playing drills: basic strategy and the index plays",
    "drills/quiz": "the rules quiz and its question bank",
    "drills/tournament": "tournament drills: the chat-host attack phase",
    "rulesets": "the built-in rule sets as data",
    "trainer": "the package: the program's entry (`__main__`), the file caches (`chartcache`, `statstore`), "
               "the bet planner's service (`planner`) and safe scratch files (`files`)",
    "trainer/cli": "the click commands, one registry; never the REPL",
    "trainer/compare": "comparing games: specs and grids, seeded chunks on processes or a Dask cluster",
    "trainer/core": "the rules of blackjack: the standard library only, no I/O",
    "trainer/tournament": "the chat-host tournament of seed 002, a game mode: core only, no I/O",
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


def _all_imports(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import a module states: at the top, inside functions and classes, and under
    `if TYPE_CHECKING:` (what annotations name is a dependency too)."""
    return (node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom))


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    """Module → the modules of `packages` it imports (function-level and `TYPE_CHECKING` imports counted)."""
    paths = {_module_name(p, root): p for pkg in packages for p in sorted((root / pkg).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        stated = (_read(path).all_imports if root == ROOT
                  else _all_imports(ast.parse(path.read_text(encoding="utf-8"))))
        for node in stated:
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


def test_no_module_imports_itself_back_even_from_inside_a_function_or_for_its_types() -> None:
    graph = import_graph(ROOT, PACKAGES)
    cycle = find_cycle(graph)
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
    assert graph["pkg.quiet"] == {"pkg.cli"}  # for its annotations: a dependency all the same
    assert find_cycle(graph) == ["pkg.cli", "pkg.repl.app", "pkg.repl.commands", "pkg.cli"]
    _write(tmp_path, {"pkg/cli.py": "def main():\n    pass\n"})
    assert find_cycle(import_graph(tmp_path, ["pkg"])) is None


def test_the_cycle_check_finds_a_cycle_of_type_only_imports(tmp_path: Path) -> None:
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/session.py": "from pkg.bets import grade\n",
        "pkg/bets.py": """
            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                from pkg.session import Session

            def grade(session: Session) -> None:
                pass
            """,
    })
    assert find_cycle(import_graph(tmp_path, ["pkg"])) == ["pkg.bets", "pkg.session", "pkg.bets"]


def test_the_cycle_check_reads_relative_imports(tmp_path: Path) -> None:
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": "from . import b\n",
                      "pkg/b.py": "def f():\n    from .a import x\n"})
    assert find_cycle(import_graph(tmp_path, ["pkg"])) == ["pkg.a", "pkg.b", "pkg.a"]


# --- the tournament: a game mode of its own, played on the core ------------------------------------

def _is_tournament(rel: str) -> bool:
    return rel.startswith("trainer/tournament/")


@pytest.mark.parametrize("path", [p for p in _modules() if _is_tournament(_rel(p))], ids=_rel)
def test_the_tournament_imports_only_the_standard_library_the_core_and_itself(path: Path) -> None:
    import sys

    for name in _imports(path):
        top = _top(name)
        if name.startswith(("trainer.core", "trainer.tournament")) or top in sys.stdlib_module_names \
                or top == "__future__":
            continue
        raise AssertionError(f"{_rel(path)} imports {name}: the tournament imports the core and itself only")


@pytest.mark.parametrize("path", [p for p in _modules() if _is_tournament(_rel(p))], ids=_rel)
def test_the_tournament_does_no_io(path: Path) -> None:
    test_core_does_no_io(path)


TOURNAMENT_WORDS = ("chat_host", "chathost", "tournament", "attack")
RULE_RECORD = ("trainer/core/rules.py", "trainer/core/rulesfile.py", "trainer/core/describe.py")
"""The rule set's own record of the tournament's rules: its type, reading it from a file, describing it."""


def _names(path: Path) -> set[str]:
    """Every name a module's code uses or defines, and its short string constants (keys, not prose)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.update((node.name, node.asname or ""))
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and " " not in node.value:
            names.add(node.value)
    return names


@pytest.mark.parametrize("path", [p for p in _modules() if _is_core(_rel(p))], ids=_rel)
def test_nothing_in_the_core_is_about_the_tournament(path: Path) -> None:
    """The chat-host tournament is a game mode (`trainer/tournament/`), not the rules of blackjack: no module
    of the core is it or imports it, and no name in the core's code speaks of it, but in the rule set's
    own record of its rules."""
    rel = _rel(path)
    assert not any(word in rel for word in TOURNAMENT_WORDS), f"{rel}: the tournament lives in trainer/tournament/"
    assert not any(name.startswith("trainer.tournament") for name in _imports(path)), f"{rel} imports the tournament"
    if rel in RULE_RECORD:
        return
    about = sorted(n for n in _names(path) if any(word in n.lower() for word in TOURNAMENT_WORDS))
    assert not about, f"{rel} names the tournament: {about}"


def test_the_tournament_check_sees_a_name(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def attack_chance(cash):\n    return cash\n", encoding="utf-8")
    assert "attack_chance" in _names(tmp_path / "m.py")
    assert all(rel.startswith("trainer/core/") and (ROOT / rel).is_file() for rel in RULE_RECORD)


# --- one class per name ---------------------------------------------------------------------------

def class_homes(paths: Iterable[Path], root: Path) -> dict[str, list[str]]:
    """Class name → the modules that define a class of that name (nested classes included)."""
    homes: dict[str, list[str]] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                homes.setdefault(node.name, []).append(path.relative_to(root).as_posix())
    return homes


def test_no_two_classes_share_a_name() -> None:
    """One class per name across trainer/ and drills/: a reader (and a traceback) never has to ask which
    `Shoe` or `Tally` it is."""
    paths = [p for p in _modules() if _rel(p).startswith(("trainer/", "drills/"))]
    shared = {name: homes for name, homes in class_homes(paths, ROOT).items() if len(homes) > 1}
    assert not shared, f"classes sharing a name: {shared}"


def test_the_name_check_sees_two_classes_of_one_name(tmp_path: Path) -> None:
    _write(tmp_path, {"a.py": "class Shoe:\n    pass\n", "b.py": "def f():\n    class Shoe:\n        pass\n"})
    assert class_homes(sorted(tmp_path.glob("*.py")), tmp_path) == {"Shoe": ["a.py", "b.py"]}


# --- the drills by family -------------------------------------------------------------------------

def test_every_drill_lives_in_a_family_and_every_family_holds_a_drill() -> None:
    """`drills/__init__.py` is the one index: each drill it names is a module of a family subpackage
    (`drills/counting/...`), and each family holds at least one registered drill."""
    from drills import DRILLS

    families = {_rel(p.parent) for p in (ROOT / "drills").glob("*/__init__.py")}
    used = set()
    for name, (target, _) in DRILLS.items():
        module, _, cls = target.partition(":")
        path = ROOT / (module.replace(".", "/") + ".py")
        assert path.is_file() and f"class {cls}(" in path.read_text(encoding="utf-8"), f"{name}: {target}"
        assert _rel(path.parent) in families, f"drill {name} lives outside a family: {_rel(path)}"
        used.add(_rel(path.parent))
    assert used == families, f"families with no drill: {families - used}"


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



def _suppressions(text: str) -> list[int]:
    """The lines of `text` whose comments silence mypy (`# type: ignore`)."""
    import io
    import tokenize

    return [tok.start[0] for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type == tokenize.COMMENT and tok.string.lstrip("#").strip().startswith("type: ignore")]


def test_no_test_silences_a_checker_that_does_not_read_it() -> None:
    """mypy checks `trainer` and `drills`, not `tests/` (`.ci/run`): a `# type: ignore` there checks
    nothing, and only says that the line did not type-check once."""
    found = [f"{path.relative_to(ROOT)}:{line}" for path in sorted((ROOT / "tests").glob("*.py"))
             for line in _suppressions(path.read_text(encoding="utf-8"))]
    assert not found, f"# type: ignore in tests, which mypy does not check: {found}"


def test_the_suppression_check_sees_a_comment_and_not_a_string() -> None:
    text = 'x = f()  # type: ignore[arg-type]\ny = "# type: ignore"\n'
    assert _suppressions(text) == [1]
