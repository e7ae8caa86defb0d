"""`cutcard export [--journal]`: write every recorded attempt (or the journal of real play) as CSV or
JSON, to a file or to stdout."""

from __future__ import annotations

from typing import IO

import click

from trainer.cli.common import FilePath, db_option, echo_fitted, settings
from trainer.practice.launch import newest_backup


@click.command("export")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True,
              help="CSV (one row per attempt) or a JSON array of attempts.")
@click.option("--output", "-o", type=FilePath(dir_okay=False, writable=True), default=None,
              help="Write to FILE (replaced only once the export is complete) instead of stdout.")
@click.option("--journal", "journal", is_flag=True,
              help="The journal of real play (`cutcard journal`) instead of the attempts.")
@db_option
def command(fmt: str, output: str | None, journal: bool) -> None:
    """Every recorded attempt, oldest first, with its prompt data, answers and answer time; with
    --journal, the sessions of real play with the plan figures each was logged under.

    Reads the progress database without writing to it (a read-only file or folder is fine).
    """
    import os
    import sys
    import tempfile
    from pathlib import Path

    from trainer.core.errors import InvalidInputError
    from trainer.progress.export import write_attempts, write_journal
    from trainer.storage.reader import open_read_only

    what = "sessions" if journal else "attempts"

    # reading never writes: no migration, nothing created
    view = open_read_only(settings().db_path, newest_backup=newest_backup(settings()))
    if view is None:
        if output is None:
            (write_journal if journal else write_attempts)(iter(()), sys.stdout, fmt)
            return
        click.echo("no progress database yet: nothing to export", err=True)
        return
    with view:
        records = ((stored.id, stored.attempt) for stored in view.attempts())

        def write(out: IO[str]) -> int:
            return write_journal(view.journal(), out, fmt) if journal else write_attempts(records, out, fmt)

        if output is None:
            write(sys.stdout)
            return
        target = Path(output).expanduser()
        try:
            fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
        except OSError as e:
            raise InvalidInputError(f"cannot write {target}: {e.strerror or e}") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
                count = write(out)
            os.replace(temp, target)
        except OSError as e:
            Path(temp).unlink(missing_ok=True)
            raise InvalidInputError(f"cannot write {target}: {e.strerror or e}") from None
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    echo_fitted(f"wrote {count} {what} to {target}", err=True)
