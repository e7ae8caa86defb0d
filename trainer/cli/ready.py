"""`cutcard ready`: the casino-readiness checklist, read from the progress database (read-only)."""

from __future__ import annotations

import click

from trainer.cli.common import db_option, emit_json, json_option, settings
from trainer.practice.launch import newest_backup


@click.command("ready")
@click.option("--ruleset", "-r", "ruleset", default=None, metavar="NAME|PATH",
              help="The rule set to check the table criteria for (default: the one you last played).")
@json_option
@db_option
def command(ruleset: str | None, as_json: bool) -> None:
    """Are you ready for a casino? Each criterion: your figure, the target, pass or not yet, and the
    command that practises it. Each counts only the answers in the window it names."""
    from trainer.progress.readiness import assess, readiness_to_json
    from trainer.storage.reader import read_consistently

    path = settings().db_path
    readiness = read_consistently(path, lambda view: assess(view, ruleset=ruleset),
                                  newest_backup=newest_backup(settings()))
    if readiness is None:
        if as_json:
            emit_json({"progress": False, "message": "no progress yet"})
        else:
            click.echo("No progress yet: drill, review and play first; `cutcard ready` then shows what "
                       "is left.")
        return
    if as_json:
        emit_json(readiness_to_json(readiness))
        return
    from trainer.render import make_console
    from trainer.render.ready import print_readiness

    print_readiness(make_console(), readiness)
