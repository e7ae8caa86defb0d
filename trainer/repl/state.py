"""What one REPL run keeps between lines: its own module, so that the REPL's loop (`trainer.repl.app`)
and its commands (`trainer.repl.commands`) both name it without importing each other."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from trainer.cli.common import Settings
    from trainer.repl.prefs import Prefs
    from trainer.repl.toolbar import ToolbarFacts


@dataclass(slots=True, kw_only=True)
class ReplState:
    """What one REPL run keeps between lines."""

    settings: Settings
    console: Console
    prefs: Prefs
    started: float = field(default_factory=time.time)
    facts: ToolbarFacts | None = None
    """The toolbar's facts once read; until then it shows the settings alone."""
    reading: threading.Thread | None = None
    """The first read of the facts, on a thread of its own (`refresh_in_background`)."""

    def toolbar_facts(self) -> ToolbarFacts:
        from trainer.repl.toolbar import settings_facts

        return self.facts or settings_facts(self.prefs)

    def refresh(self) -> None:
        """Re-read the toolbar's facts (after each command, never while the prompt redraws)."""
        from trainer.repl.toolbar import read_facts

        self.wait_for_facts()
        self.facts = read_facts(self.prefs, self.settings.db_path, self.started)

    def refresh_in_background(self, then: Callable[[], None]) -> None:
        """Read the facts off the prompt's thread, so the first prompt does not wait for the storage
        layer to import, then call `then` (which redraws the toolbar). A failure only leaves the
        database's figures out until the next `refresh`."""

        from trainer.repl.toolbar import read_facts

        def read() -> None:
            try:
                self.facts = read_facts(self.prefs, self.settings.db_path, self.started)
            except Exception:  # never a traceback under the prompt: the next refresh reads again
                return
            then()

        self.reading = threading.Thread(target=read, name="toolbar facts", daemon=True)
        self.reading.start()

    def wait_for_facts(self) -> None:
        """Let a background read finish, so a later read is never overwritten by an older one."""
        if self.reading is not None:
            self.reading.join()
            self.reading = None
