"""Every narrator of a round says every event: `mypy --strict` fails when an event type is added and a
narrator's `match` over `Event` does not say it (`trainer.core.narration`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from mypy import api

from trainer.core.events import Outcome
from trainer.core.narration import OUTCOME_WORDS

ROOT = Path(__file__).resolve().parent.parent

NARRATORS = ("drills/counting/table_transcript.py", "trainer/tournament/posts.py", "trainer/render/table.py")
"""The one narration of events per audience: the counter's transcript, the chat host's posts, the screen."""

FAKE_EVENT = '''
@dataclass(frozen=True, slots=True, kw_only=True)
class CardFlashed:
    """An event no narrator has heard of."""

    seat: int


Event = (
    CardFlashed |'''


def _mypy_on_the_narrators(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *,
                           new_event: bool) -> tuple[str, int]:
    """mypy's report on the narrators in a copy of the packages, with one more `Event` if `new_event`."""
    tree = tmp_path / "tree"
    for package in ("trainer", "drills"):
        shutil.copytree(ROOT / package, tree / package, ignore=shutil.ignore_patterns("__pycache__"))
    if new_event:
        events = tree / "trainer" / "core" / "events.py"
        text = events.read_text(encoding="utf-8")
        assert text.count("\nEvent = (\n") == 1, "the Event union is no longer written as `Event = (...)`"
        events.write_text(text.replace("\nEvent = (", FAKE_EVENT, 1), encoding="utf-8")
    # Strict as in CI; imported modules are analysed but only the narrators' errors are reported, and
    # rich is left out (its types are not what this proves), which keeps the run to a few seconds.
    (tree / "mypy.ini").write_text("[mypy]\nstrict = True\nfollow_imports = silent\n"
                                   "[mypy-rich.*]\nfollow_imports = skip\n", encoding="utf-8")
    monkeypatch.chdir(tree)
    out, err, status = api.run(["--config-file", "mypy.ini", "--no-incremental",
                                "--cache-dir", str(tmp_path / "cache"), *NARRATORS])
    return out + err, status


def test_mypy_fails_each_narrator_that_misses_a_new_event(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    out, status = _mypy_on_the_narrators(tmp_path, monkeypatch, new_event=True)
    assert status == 1, out
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert {line.split(":")[0] for line in errors} == set(NARRATORS), out
    # Nothing else fails: the union as it is passes (CI's `mypy --strict` checks that too).
    assert all('"assert_never" has incompatible type "CardFlashed"' in line for line in errors), out


def test_every_outcome_has_its_words() -> None:
    assert set(OUTCOME_WORDS) == set(Outcome)
