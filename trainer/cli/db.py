"""`cutcard db check / backup [FILE] / restore FILE / backups`: the progress database's health and copies."""

from __future__ import annotations

from pathlib import Path

import click

from trainer.cli.common import FilePath, db_option, echo_fitted, emit_json, json_option, settings


@click.group("db")
def command() -> None:
    """The progress database: a full check, backups, restoring one; the automatic daily backups."""


def _database() -> Path:
    path = settings().db_path
    if not path.exists():
        from trainer.core.errors import StorageError

        raise StorageError(f"{path} does not exist yet: answer a drill first")
    return path


@command.command("check")
@db_option
def check() -> None:
    """Run SQLite's full integrity check on the database (it is never written to here)."""
    from trainer.core.errors import StorageError
    from trainer.practice.launch import backup_shelf
    from trainer.storage.backups import check_database
    from trainer.storage.integrity import damaged_message

    path = _database()
    found, answers = check_database(path)
    if found:
        for problem in found:
            click.echo(f"  {' '.join(problem.split())}")
        raise StorageError(damaged_message(path, found, backup_shelf(settings()).newest()))
    echo_fitted(f"{path}: ok (full integrity check passed; {answers:,} answers)")


@command.command("backup")
@click.argument("file", type=FilePath(dir_okay=False, path_type=Path), required=False)
@db_option
def backup(file: Path | None) -> None:
    """Copy the database, consistently even while a drill writes to it, to FILE (default: a manual
    backup beside the automatic ones); the copy is checked before it is kept."""
    from trainer.practice.launch import backup_shelf

    path = _database()
    target = backup_shelf(settings()).take(file)
    echo_fitted(f"backed up {path} to {target} ({target.stat().st_size:,} bytes, checked)")


@command.command("restore")
@click.argument("file", type=FilePath(dir_okay=False, path_type=Path))
@db_option
def restore_backup(file: Path) -> None:
    """Put the backup FILE in place of the database, after checking it. The database it replaces is
    kept beside it (`progress.db.replaced-<time>`). FILE may be a name listed by `cutcard db backups`."""
    from trainer.core.errors import StorageError
    from trainer.practice.launch import backup_shelf
    from trainer.storage.backups import restore

    shelf = backup_shelf(settings())
    source = file if file.exists() or file.is_absolute() else shelf.folder / file
    if not source.exists():
        raise StorageError(f"{file} does not exist (the backups are listed by `cutcard db backups`)")
    db = settings().db_path
    kept = restore(source, db)
    replaced = f"; the database it replaced is kept as {kept}" if kept else ""
    echo_fitted(f"restored {db} from {source}{replaced}")


@command.command("backups")
@json_option
@db_option
def list_backups(as_json: bool) -> None:
    """The backups of the database: one a day when a session ends, the last 7 days and 4 weeks kept."""
    from datetime import datetime

    from trainer.practice.launch import backup_shelf
    from trainer.storage.integrity import load_state

    shelf = backup_shelf(settings())
    backups = shelf.backups()
    state = load_state(settings().db_path)
    if as_json:
        checked = (datetime.fromtimestamp(state.last_full_ts).isoformat(timespec="seconds")
                   if state.last_full_ts else None)
        emit_json({"folder": str(shelf.folder),
                   "backups": [{"path": str(b.path), "day": b.day.isoformat(), "kind": b.kind,
                                "bytes": b.size} for b in backups],
                   "last_full_check": checked, "failure": state.failure or None})
        return
    if not backups:
        echo_fitted(f"No backups yet in {shelf.folder}: one is taken each day a drill or review ends.")
    else:
        echo_fitted(f"Backups of {shelf.db} in {shelf.folder} (newest first):")
        for b in backups:
            click.echo(f"  {b.day.isoformat()}  {b.kind:<6}  {b.size / 2**20:8.1f} MiB  {b.path.name}")
    if state.last_full_ts:
        when = datetime.fromtimestamp(state.last_full_ts).isoformat(sep=" ", timespec="minutes")
        echo_fitted(f"Last full integrity check passed {when}.")
    if state.failure:
        echo_fitted(f"Last failure: {state.failure} (the next session checks the whole file first)")
