"""The `cutcard` program, and `python -m trainer`: a command runs through the CLI (`trainer.cli`); no
command starts the interactive trainer (`trainer.repl`), which runs the same commands.

The REPL imports the CLI's registry and the CLI imports neither the REPL nor this module: the REPL is
handed to the CLI here, as `Settings.interactive`.
"""

from __future__ import annotations

import gc
import os
import sys

# numpy's OpenBLAS starts a thread per core when numpy is imported, and those threads spin before doing
# anything; every matrix product cutcard makes is small and runs on one thread anyway
# (`trainer.strategy.blas.one_blas_thread`). Set before anything imports numpy; a user's own setting is
# kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from trainer.cli import cli
from trainer.cli.common import Settings, run_guarded


def interactive(settings: Settings) -> None:
    """The interactive trainer (prompt-toolkit is loaded only when it starts)."""
    from trainer.repl.app import run_repl

    run_repl(settings)


def main(argv: list[str] | None = None) -> int:
    """The console script: the CLI, or the REPL without a command; every error one line and a status.

    When it is done the program only exits, so every object left is handed to the collector as permanent
    (`gc.freeze`): the interpreter's exit then frees them without first walking them all for reference
    cycles, which took as long as a quick command's own work (`cutcard stats`: ~30 ms of ~300)."""
    try:
        return run_guarded(cli, argv, debug=bool(os.environ.get("CUTCARD_DEBUG")),
                           obj=Settings(interactive=interactive))
    finally:
        gc.freeze()


if __name__ == "__main__":
    sys.exit(main())
