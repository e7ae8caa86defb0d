"""Reading a TOML file a user names (a rule set, a count system), and finding the shipped ones.

This is the one place the core reads a file that is not package data: the DESIGN contract puts
`load_ruleset(name_or_path)` in `trainer.core`, and a user's own rule set or count system is a path.
"""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path
from typing import Any

from trainer.core.errors import TrainerError, escaped, excerpt

MAX_BYTES = 256 * 1024
"""The largest rule-set, count-system or side-bet file read (the shipped ones are under 4 KB)."""
MAX_DEPTH = 16
"""How deeply tables and arrays may nest (the shipped files nest 3 deep)."""


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
    """The parsed file and its path; an unreadable or invalid file is one `error` naming it.

    Only a regular file is read (a folder, `/dev/zero` or a FIFO is refused before it is opened), at most
    `MAX_BYTES` of it; tables and arrays nest at most `MAX_DEPTH` deep; every string in it comes back
    with its control characters escaped (a title cannot retitle the terminal)."""
    shown = excerpt(str(name_or_path), 200)  # a path: long enough to keep a temporary folder's file name
    path = Path(str(name_or_path)).expanduser()
    try:
        info = path.stat()
    except OSError as e:
        raise error(f"cannot read {what} {shown}: {e.strerror or e}") from None
    except ValueError:  # a NUL character in the name
        raise error(f"cannot read {what} {shown}: not a file name") from None
    try:
        if not stat.S_ISREG(info.st_mode):
            raise error(f"cannot read {what} {shown}: not a regular file (a folder, a device or a pipe)")
        if info.st_size > MAX_BYTES:
            raise error(f"cannot read {what} {shown}: {info.st_size:,} bytes, more than any {what} file "
                        f"needs (at most {MAX_BYTES // 1024} KB)")
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise error(f"cannot read {what} {shown}: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise error(f"cannot read {what} {shown}: more than {MAX_BYTES // 1024} KB")
    try:
        raw = data.decode("utf-8")
    except UnicodeDecodeError as e:  # a binary file, or a text file in another encoding
        raise error(f"cannot read {what} {shown}: not UTF-8 text (byte 0x{e.object[e.start]:02x} "
                    f"at offset {e.start}); save it as UTF-8") from None
    name = escaped(path.name)
    try:
        document = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{name}: not valid TOML: {excerpt(str(e), 120)}") from None
    except RecursionError:
        raise error(f"{name}: tables or arrays nested too deeply (at most {MAX_DEPTH})") from None
    except ValueError:  # Python reads no integer of more than 4,300 digits
        raise error(f"{name}: a number of more than 4,300 digits, far beyond any setting") from None
    try:
        return _tidied(document, 0), path
    except _TooDeep:
        raise error(f"{name}: tables or arrays nested too deeply (at most {MAX_DEPTH})") from None


class _TooDeep(Exception):
    pass


def _tidied(value: Any, depth: int) -> Any:
    """`value` with its strings' control characters escaped; nesting deeper than `MAX_DEPTH` refused."""
    if isinstance(value, str):
        return escaped(value)
    if isinstance(value, dict | list):
        if depth >= MAX_DEPTH:
            raise _TooDeep
        if isinstance(value, dict):
            return {escaped(k): _tidied(v, depth + 1) for k, v in value.items()}
        return [_tidied(v, depth + 1) for v in value]
    return value
