"""The `cutcard` command line: a thin click layer over the library.

One registry (`COMMANDS`) names every command, its module and its one-line help; the CLI and the REPL
both read it. The CLI never imports the REPL: the program's entry (`trainer.__main__`) hands it in. A
command's module is imported only when that command runs, so `cutcard --help` and the REPL start
without loading the engine, rich or prompt-toolkit.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from trainer import __version__
from trainer.cli.common import DatabasePath, Settings, drop_stdout, run_guarded

COMMANDS: dict[str, tuple[str, str]] = {
    "rules": ("trainer.cli.rules", "The rule sets, and one rule set in full."),
    "chart": ("trainer.cli.chart", "The exact basic-strategy chart of a rule set, with EVs."),
    "ev": ("trainer.cli.ev", "Exact EV of each action for one hand, e.g. `ev 10,6 vs 10`."),
    "drill": ("trainer.cli.drill", "One drill session (counting, payouts, strategy, quiz, ...)."),
    "review": ("trainer.cli.review", "The spaced-repetition queue: due items of every drill."),
    "play": ("trainer.cli.play", "A full table with computer seats; count and strategy checks."),
    "stats": ("trainer.cli.stats", "Progress over time."),
    "export": ("trainer.cli.export", "Write every recorded attempt as CSV or JSON."),
    "ready": ("trainer.cli.ready", "Casino readiness: each criterion, your figure, the target, pass."),
    "sim": ("trainer.cli.sim", "Simulate rounds: EV and standard error, or what a count earns."),
    "plan": ("trainer.cli.plan", "Your bet ramp for a bankroll and a risk of ruin: win rate, SCORE, N0."),
    "compare": ("trainer.cli.compare", "Compare games for your bankroll and risk, on a cluster if need be."),
    "db": ("trainer.cli.db", "The progress database: check it, back it up, restore a backup."),
    "indices": ("trainer.cli.indices", "Index plays computed for your game and count, beside the published."),
    "risk": ("trainer.cli.risk", "Risk of ruin, trip ruin, a goal, the bankroll a risk needs: per round."),
    "journal": ("trainer.cli.journal", "Sessions of real play against the plan; `journal add` logs one."),
}
"""Command name -> (module defining `command`, one line of help)."""


class LazyGroup(click.Group):
    """A group whose subcommands are imported on use; `--help` lists them from `COMMANDS`."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a reader that stops reading (`cutcard export | head -1`) ends it quietly."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            drop_stdout()
            return None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        command: click.Command = importlib.import_module(COMMANDS[cmd_name][0]).command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=LazyGroup, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", "db", type=DatabasePath(dir_okay=False), default=None,
              help="Progress database to use instead of $CUTCARD_HOME/progress.db.")
@click.option("--no-pager", "no_pager", is_flag=True, default=False,
              help="Print long output as it is, not through $PAGER.")
@click.version_option(__version__, "--version", prog_name="cutcard")
@click.pass_context
def cli(ctx: click.Context, db: str | None, no_pager: bool) -> None:
    """cutcard: a terminal trainer for blackjack card counters and dealer trainees.

    Run without a command to start the interactive trainer.
    """
    settings = ctx.ensure_object(Settings)
    if db:
        settings.db = db
    if no_pager:
        settings.no_pager = True
    if ctx.invoked_subcommand is None:
        if settings.interactive is None:
            click.echo(ctx.get_help())
        else:
            settings.interactive(settings)


def main(argv: list[str] | None = None) -> Any:
    """The commands alone, every error turned into one line and an exit status (the `cutcard` program,
    which also starts the interactive trainer, is `trainer.__main__.main`)."""
    return run_guarded(cli, argv, debug=bool(os.environ.get("CUTCARD_DEBUG")))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
