"""Fast starts: `cutcard --help`, `cutcard rules list` and the REPL import nothing they do not need.

Each check runs a fresh interpreter and reads `sys.modules` afterwards (timings live in bench/startup.py).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

ENGINE = ("trainer.core.round", "trainer.core.shoe", "trainer.core.events", "trainer.strategy", "drills")


def modules_after(code: str) -> set[str]:
    script = f"{code}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def loaded(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if m.startswith(prefixes))


def test_cutcard_help_imports_neither_the_engine_nor_rich_nor_prompt_toolkit() -> None:
    modules = modules_after("from trainer.cli import main\n"
                            "import contextlib, io\n"
                            "with contextlib.redirect_stdout(io.StringIO()):\n"
                            "    main(['--help'])")
    assert loaded(modules, (*ENGINE, "trainer.core.rules", "rich", "prompt_toolkit", "sqlite_utils")) == []


def test_rules_list_reads_the_rule_sets_without_the_round_engine_or_prompt_toolkit() -> None:
    modules = modules_after("from trainer.cli import main\n"
                            "import contextlib, io\n"
                            "with contextlib.redirect_stdout(io.StringIO()):\n"
                            "    main(['rules', 'list'])")
    assert "trainer.core.rules" in modules
    assert loaded(modules, (*ENGINE, "prompt_toolkit", "sqlite_utils")) == []


@pytest.mark.parametrize("module", ["trainer.repl.app", "trainer.repl.commands", "trainer.repl.completer"])
def test_the_repl_starts_without_the_engine(module: str) -> None:
    modules = modules_after(f"import {module}")
    assert loaded(modules, (*ENGINE, "trainer.core.rules", "trainer.core.counting", "sqlite_utils")) == []
