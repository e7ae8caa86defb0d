"""Reading a TOML file a user names (a rule set, a count system), and finding the shipped ones.

This is the one place the core reads a file that is not package data: the DESIGN contract puts
`load_ruleset(name_or_path)` in `trainer.core`, and a user's own rule set or count system is a path.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from trainer.core.errors import TrainerError


def shipped(package: str) -> Path:
    """The folder of a package shipped with cutcard (`rulesets`, `trainer.core`), where its TOML files lie.

    Read off the package's module, as `importlib.resources` finds an installed or editable package's
    files; importing that (with tempfile and zipfile) would cost a fresh process's first chart some
    milliseconds."""
    import importlib

    module = importlib.import_module(package)
    assert module.__file__ is not None
    return Path(module.__file__).parent


def names_a_file(name_or_path: str | Path) -> bool:
    """True for a path (a Path, a '.toml' name, or anything with a '/'); False for a built-in's name.

    >>> names_a_file("casino"), names_a_file("mine.toml"), names_a_file("./rules/mine")
    (False, True, True)
    """
    text = str(name_or_path)
    return isinstance(name_or_path, Path) or text.endswith(".toml") or "/" in text


def read_toml(name_or_path: str | Path, *, what: str,
              error: type[TrainerError]) -> tuple[dict[str, Any], Path]:
    """The parsed file and its path; an unreadable or invalid file is one `error` naming it."""
    path = Path(str(name_or_path)).expanduser()
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as e:
        raise error(f"cannot read {what} {name_or_path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:  # a binary file, or a text file in another encoding
        raise error(f"cannot read {what} {name_or_path}: not UTF-8 text (byte 0x{e.object[e.start]:02x} "
                    f"at offset {e.start}); save it as UTF-8") from None
    try:
        return tomllib.loads(raw), path
    except tomllib.TOMLDecodeError as e:
        raise error(f"{path.name}: not valid TOML: {e}") from None
