"""`cutcard db check / backup [FILE] / restore FILE / backups`: the progress database's health and copies."""

from __future__ import annotations

from pathlib import Path

import click

from trainer.cli.common import FilePath, db_option, echo_fitted, emit_json, json_option, one_line, settings


@click.group("db")
def command() -> None:
    """The progress database: a full check, backups, restoring one; the automatic daily backups."""


def _database() -> Path:
    import stat

    from trainer.core.errors import StorageError

    path = settings().db_path
    if not path.exists():
        raise StorageError(f"{path} does not exist yet: answer a drill first")
    if not stat.S_ISREG(path.stat().st_mode):
        raise StorageError(f"{path} is not a regular file (a folder, a device or a pipe), not a progress "
                           "database")
    return path


@command.command("check")
@db_option
def check() -> None:
    """Run SQLite's full integrity check on the database (it is never written to here), and tell apart
    what else keeps cutcard from using it: a newer cutcard's file, a read-only medium or folder, a stray
    journal, missing tables."""
    from trainer.core.errors import StorageError
    from trainer.practice.launch import backup_shelf
    from trainer.storage.diagnosis import diagnose

    path = _database()
    found = diagnose(path, newest_backup=backup_shelf(settings()).newest())
    if found.verdict != "ok":
        for problem in found.details[:5]:
            click.echo(f"  {one_line(problem)}")
        raise StorageError(found.message)
    echo_fitted(f"{path}: ok (full integrity check passed; {found.answers:,} answers)")


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
@click.option("--yes", "-y", is_flag=True, help="Replace without asking (needed when not at a terminal).")
@db_option
def restore_backup(file: Path, yes: bool) -> None:
    """Put the backup FILE in place of the database, after checking it and showing what each holds.
    The database it replaces is kept beside it (`progress.db.replaced-<time>`). FILE may be a name
    listed by `cutcard db backups`."""
    import sys

    from trainer.core.errors import StorageError, excerpt
    from trainer.practice.launch import backup_shelf
    from trainer.storage.restore import check_backup, holding, restore

    shelf = backup_shelf(settings())
    source = file if file.exists() or file.is_absolute() else shelf.folder / file
    if not source.exists():
        raise StorageError(f"{excerpt(str(file))} does not exist (the backups are listed by "
                           "`cutcard db backups`)")
    db = settings().db_path
    check_backup(source)
    if db.exists():
        _database()  # a regular file (a pipe would block the count below for ever)
        click.echo(f"The database: {db}")
        click.echo(f"  {holding(db).shown()}")
        click.echo(f"The backup:   {source}")
        click.echo(f"  {holding(source).shown()}")
        if not yes:
            if not sys.stdin.isatty():
                raise click.UsageError("restore replaces the database: add --yes to confirm when not "
                                       "at a terminal")
            if not click.confirm("Replace the database with the backup (it is kept beside it)?",
                                 default=False):
                click.echo("Nothing was changed.")
                return
    kept = restore(source, db)
    click.echo(f"Restored {db.name} from {source.name}.")
    if kept:
        click.echo("The database it replaced is kept as")
        click.echo(f"  {kept}")


@command.command("backups")
@json_option
@db_option
def list_backups(as_json: bool) -> None:
    """The backups of the database: taken when a session ends (daily, and when the newest is older than 30
    minutes); the last 7 days, 4 weeks and 12 sessions kept."""
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
        echo_fitted(f"No backups yet in {shelf.folder}: one is taken when a drill or review ends.")
    else:
        echo_fitted(f"Backups of {shelf.db}, newest first, in")
        click.echo(f"  {shelf.folder}:")
        for b in backups:
            click.echo(f"  {b.day.isoformat()}  {b.kind:<7}  {b.size / 2**20:8.1f} MiB  {b.path.name}")
    if state.last_full_ts:
        when = datetime.fromtimestamp(state.last_full_ts).isoformat(sep=" ", timespec="minutes")
        echo_fitted(f"Last full integrity check passed {when}.")
    if state.failure:
        echo_fitted(f"Last failure: {state.failure} (the next session checks the whole file first)")
