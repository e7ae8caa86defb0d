"""Fast starts: `cutcard --help`, `cutcard rules list` and the REPL import nothing they do not need.

Each check runs a fresh interpreter and reads `sys.modules` afterwards (timings live in bench/startup.py).
"""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = ("trainer.core.round", "trainer.core.shoe", "trainer.core.events", "trainer.strategy", "drills")


@functools.cache
def modules_after(code: str) -> frozenset[str]:
    """The modules a fresh interpreter has loaded after running `code` (read once per `code`: two checks
    here read what `import trainer.repl.app` loads, and they share one xdist worker)."""
    script = f"{code}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return frozenset(result.stdout.split())


def loaded(modules: frozenset[str], prefixes: tuple[str, ...]) -> list[str]:
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


REPL_APP = pytest.mark.xdist_group("startup-repl-app")


@pytest.mark.parametrize("module", [pytest.param("trainer.repl.app", marks=REPL_APP), "trainer.repl.commands",
                                    "trainer.repl.completer"])
def test_the_repl_starts_without_the_engine(module: str) -> None:
    modules = modules_after(f"import {module}")
    assert loaded(modules, (*ENGINE, "trainer.core.rules", "trainer.core.counting", "sqlite_utils")) == []


@REPL_APP
def test_the_repl_module_loads_neither_prompt_toolkit_nor_rich_before_the_first_prompt() -> None:
    """They load after `draw_first_prompt` has written the prompt (bench/startup.py times it)."""
    modules = modules_after("import trainer.repl.app")
    assert loaded(modules, ("prompt_toolkit", "rich", "trainer.repl.commands", "trainer.render")) == []


def test_keys_typed_at_the_first_prompt_reach_the_repl(tmp_path: Path) -> None:
    """On a terminal the prompt is written before prompt-toolkit loads; what is typed at it then is
    neither lost nor doubled once prompt-toolkit runs the prompt."""
    import os
    import pty
    import re
    import select
    import time

    env = {**os.environ, "CUTCARD_HOME": str(tmp_path), "TERM": "xterm", "COLUMNS": "80", "LINES": "24"}
    from trainer.repl.prefs import FILE_NAME

    (tmp_path / FILE_NAME).write_text('{"toured": true}')
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "trainer"], stdin=slave, stdout=slave, stderr=slave,
                            env=env, start_new_session=True)
    os.close(slave)
    seen, typed, deadline = b"", False, time.monotonic() + 120

    def plain() -> bytes:
        return re.sub(rb"\x1b\[[0-9;?]*[ -/]*[@-~]", b"", seen)

    try:
        # read until the command has run and the prompt is back (Ctrl-D is only a key at a prompt)
        while time.monotonic() < deadline and b"cutcard> " not in plain().partition(b"bicycle")[2]:
            if not select.select([master], [], [], 0.05)[0]:
                continue
            chunk = os.read(master, 65536)
            seen += chunk
            if b"\x1b[6n" in chunk:
                os.write(master, b"\x1b[1;1R")  # the cursor position, as a terminal answers
            if not typed and b"cutcard> " in plain():
                os.write(master, b"rules list\r")  # typed at once, before prompt-toolkit can run
                typed = True
        os.write(master, b"\x04")  # Ctrl-D leaves; read on meanwhile, so the REPL never waits to write
        while proc.poll() is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert typed and b"bicycle" in seen, seen[-600:]
