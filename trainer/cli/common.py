"""What every command shares: settings, option decorators, and the one-line error boundary."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import click

from trainer.core.errors import TrainerError, UsageError, excerpt

if TYPE_CHECKING:
    from trainer.core.rules import Ruleset
    from trainer.strategy import Chart

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_RULESET = "casino"
"""What `--ruleset` means when none is given."""
DEFAULT_SYSTEM = "hi-lo"
"""What `--system` means when none is given (the count drills and play)."""
SPEED_RANGE = (0.05, 5.0)
"""Seconds per flashed card that `--speed` accepts."""


class FilePath(click.Path):
    """`click.Path` whose check of a name the system cannot take (a NUL character: `os.stat` raises
    ValueError, which click lets through) is a usage error like any other bad path."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            text = os.fsencode(str(value))
        except UnicodeError:  # a lone surrogate no system name can hold
            self.fail(f"{excerpt(ascii(str(value)))} is no file name", param, ctx)
        if len(text) > 4095 or any(len(part) > 255 for part in text.split(b"/")):
            self.fail(f"{excerpt(repr(str(value)))} is no file name (longer than the system allows)",
                      param, ctx)
        try:
            return super().convert(value, param, ctx)
        except ValueError:
            self.fail(f"{excerpt(repr(str(value)))} is no file name (it holds a NUL character)", param, ctx)


class DatabasePath(FilePath):
    """`--db PATH`: a file in a folder that exists. A typo in the folder is a usage error, and nothing is
    created (the default database's folder under `$CUTCARD_HOME` is created on first use instead)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = super().convert(value, param, ctx)
        folder = Path(os.fsdecode(path)).expanduser().parent
        if not folder.is_dir():
            self.fail(f"the folder {str(folder)!r} does not exist: create it first, or give a database in "
                      "a folder that does", param, ctx)
        return path


class NameChoice(click.Choice):  # type: ignore[type-arg]
    """`click.Choice` over the names of one kind of thing (the drills): a misspelt name is answered with
    the closest one in one line (`no drill named 'stratgy'; did you mean 'strategy'?`), not with the
    list of every name."""

    def __init__(self, choices: list[str], kind: str) -> None:
        super().__init__(choices)
        self.kind = kind

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            from trainer.core.names import unknown_name

            self.fail(unknown_name(self.kind, str(value), [str(c) for c in self.choices]), param, ctx)


class Number(click.ParamType[float]):
    """A finite number (click's FLOAT takes 'nan' and 'inf'), at least `least` or above `above`: a value
    outside is a usage error naming the option, the value and what is allowed."""

    name = "number"

    def __init__(self, *, least: float | None = None, above: float | None = None) -> None:
        self.least = least
        self.above = above

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, float):
            return value
        text = str(value).strip().replace(",", "").replace("_", "")
        try:
            number = float(text) if len(text) <= 40 else float("nan")
        except ValueError:
            number = float("nan")
        if number != number or number in (float("inf"), float("-inf")):
            self.fail(f"{str(value)[:40]!r} is not a number", param, ctx)
        if self.least is not None and number < self.least:
            self.fail(f"{str(value)[:40]} is below {self.least:g}: give {self.least:g} or more", param, ctx)
        if self.above is not None and number <= self.above:
            self.fail(f"{str(value)[:40]} is not above {self.above:g}", param, ctx)
        return number


def cutcard_home() -> Path:
    """Where a user's data lives: `$CUTCARD_HOME`, else the platform's user-data directory."""
    home = os.environ.get("CUTCARD_HOME")
    if home:
        return Path(home).expanduser()
    from platformdirs import user_data_path

    return user_data_path("cutcard", appauthor=False)


def use_chart_cache() -> None:
    """Keep the strategy charts computed in `$CUTCARD_HOME/charts`, so they are computed once per rule
    set, not once per run: every command that may need a chart calls this before it does."""
    from trainer.chartcache import install_file_cache

    install_file_cache(cutcard_home() / "charts")


def load_chart(rules: Ruleset, *, quiet: bool = False) -> Chart:
    """The rule set's exact chart, from the file cache or computed, with a progress bar on a terminal
    while it is computed (unless `quiet`: `--json`)."""
    from trainer.strategy import chart_for, has_chart

    use_chart_cache()
    if quiet or has_chart(rules) or not sys.stderr.isatty():
        return chart_for(rules)
    from trainer.render import make_console
    from trainer.render.strategy_chart import chart_progress

    with chart_progress(make_console(sys.stderr), f"Computing the {rules.name} chart") as progress:
        return chart_for(rules, progress=progress)


@dataclass(slots=True)
class Settings:
    """Settings shared by the commands of one invocation (and by the REPL between commands)."""

    db: str | None = None
    """`--db PATH`; None means `$CUTCARD_HOME/progress.db`."""

    no_pager: bool = False
    """`--no-pager`: long output is printed as it is, even on a terminal (`trainer.render.pager`)."""

    interactive: Callable[[Settings], None] | None = None
    """What `cutcard` without a command runs: the interactive trainer, handed in by the program's entry
    (`trainer.__main__.main`) so that the CLI never imports the REPL, which imports the CLI; None (the
    CLI alone, `trainer.cli.main`) shows the help."""

    @property
    def home(self) -> Path:
        return cutcard_home()

    @property
    def db_path(self) -> Path:
        return Path(self.db).expanduser() if self.db else self.home / "progress.db"


def db_option(func: F) -> F:
    """`--db PATH` on a command (also accepted before the command name)."""

    def remember(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
        if value:
            ctx.ensure_object(Settings).db = value

    return click.option("--db", type=DatabasePath(dir_okay=False), default=None, expose_value=False,
                        callback=remember,
                        help="Progress database (default: $CUTCARD_HOME/progress.db).")(func)


def pager_option(func: F) -> F:
    """`--no-pager` on a command whose output may be taller than the terminal (also accepted before the
    command name, as git's)."""

    def remember(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
        if value:
            ctx.ensure_object(Settings).no_pager = True

    return click.option("--no-pager", is_flag=True, default=False, expose_value=False, callback=remember,
                        help="Print long output as it is, not through $PAGER.")(func)


def paging() -> bool:
    """Whether this command may page its output (no `--no-pager` given)."""
    return not settings().no_pager


def ruleset_option(func: F) -> F:
    return click.option("--ruleset", "-r", "ruleset", default=DEFAULT_RULESET, show_default=True,
                        metavar="NAME|PATH",
                        help="A built-in rule set, an alias, or a path to your own TOML file.")(func)


def estimation_option(func: F) -> F:
    """`--estimation`: how finely the decks left are estimated for a true count (DESIGN §5)."""
    from trainer.core.counting import Estimation

    return click.option("--estimation", type=click.Choice([e.value for e in Estimation]),
                        default=Estimation.HALF.value, show_default=True,
                        help="How finely the decks left are estimated for the true count.")(func)


def last_deck_option(func: F) -> F:
    """`--last-deck`: a finer estimation once fewer than 52 cards are left (DESIGN §5)."""
    from trainer.core.counting import Estimation

    return click.option("--last-deck", type=click.Choice([e.value for e in Estimation]), default=None,
                        cls=RememberedOption, fits=_last_deck_fits,
                        help="Estimation in the last deck (fewer than 52 cards left), no coarser "
                             "than --estimation [default: as --estimation].")(func)


def distract_option(func: F) -> F:
    """`--distract/--no-distract`: the casino interrupts the count (`drills.distraction`); `set distract on`
    in the REPL remembers it."""
    return click.option("--distract/--no-distract", "distract", default=False, show_default=True,
                        help="Interrupt about one count in three as a casino does (a sum of chips, a "
                             "player's question, a drink order, chatter), after the cards and before the "
                             "count; answer it, then give the count from memory. `stats` compares your "
                             "counts with and without; `set distract on` in the REPL remembers it.")(func)
class RememberedOption(click.Option):
    """An option whose value remembered with `set` gives way (to the option's own default) where it does
    not fit the options typed on the line: a last deck read more coarsely than a typed `--estimation`, a
    close call too wide for its units. A value typed on the line is left for the command to check."""

    def __init__(self, *args: Any, fits: Callable[[click.Context, Any], bool], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fits = fits

    def handle_parse_result(self, ctx: click.Context, opts: Any, args: list[str]) -> tuple[Any, list[str]]:
        value, rest = super().handle_parse_result(ctx, opts, args)
        remembered = ctx.get_parameter_source(self.name or "") is click.core.ParameterSource.DEFAULT_MAP
        if remembered and value is not None and self.name and not self.fits(ctx, value):
            ctx.params[self.name] = value = self.default
        return value, rest


def _last_deck_fits(ctx: click.Context, value: str) -> bool:
    from trainer.core.counting import check_last_deck

    try:
        check_last_deck(str(ctx.params.get("estimation", "half")), value)
    except TrainerError:
        return False
    return True


def close_call_option(func: F) -> F:
    """`--close-call CARDS`: the allowed error in cards for a tray near the line between two readings."""
    return click.option("--close-call", type=click.FloatRange(min=0, max=26), default=None, metavar="CARDS",
                        cls=RememberedOption, fits=_close_call_fits,
                        help="Allowed error in cards: a tray this close to the line between two deck "
                             "readings is graded by either [default: an eighth of the unit; 0: none].")(func)


def _close_call_fits(ctx: click.Context, value: float) -> bool:
    from drills.counting.count_drill import check_close_call

    try:
        check_close_call(value, str(ctx.params.get("estimation", "half")), ctx.params.get("last_deck"))
    except TrainerError:
        return False
    return True


def rounding_option(func: F) -> F:
    """`--rounding`: how a true count is made a whole number (DESIGN §5)."""
    from trainer.core.counting import Rounding

    return click.option("--rounding", type=click.Choice([r.value for r in Rounding]),
                        default=Rounding.FLOOR.value, show_default=True,
                        help="How the true count is made a whole number.")(func)


def seed_option(func: F) -> F:
    return click.option("--seed", type=int, default=None,
                        help="Make every random choice reproducible.")(func)


def money_options(own: str, seats_help: str) -> Callable[[F], F]:
    """The learner's money and table as `plan` and `compare` take them: bankroll, target risk, the table's
    limits (`own`: whose limits apply when none is typed), spread, trip hours, rounds an hour, seats."""
    options = [
        click.option("--bankroll", type=float, default=10_000, show_default=True,
                     help="Your bankroll, in money."),
        click.option("--ror", type=float, default=0.05, show_default=True,
                     help="Target risk of ruin for life, a fraction (0.05 = 5%)."),
        click.option("--min-bet", type=float, default=None, help=f"Table minimum [{own}]."),
        click.option("--max-bet", type=float, default=None, help=f"Table maximum [{own}]."),
        click.option("--spread", type=float, default=None,
                     help="Widest spread you dare: top bet / minimum (default: the table's maximum alone)."),
        click.option("--hours", type=float, default=100, show_default=True,
                     help="A trip, for the trip risk of ruin."),
        click.option("--rounds-per-hour", type=float, default=None,
                     help="Rounds you play an hour [by --seats: 209 heads-up ... 52 at seven]."),
        click.option("--seats", type=click.IntRange(1, 7), default=3, show_default=True, help=seats_help),
    ]

    def apply(func: F) -> F:
        for option in reversed(options):  # listed in --help in the order above
            func = option(func)
        return func

    return apply


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")(func)


def columns(stream: IO[str] | None = None) -> int | None:
    """The width to lay a stream's lines out to: the terminal's (`$COLUMNS` where set) when the stream is
    a terminal; None for a pipe or a file, whose readers take whole lines."""
    if not is_terminal(stream if stream is not None else sys.stdout):
        return None
    import shutil

    return max(20, shutil.get_terminal_size().columns)


def is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def fitted(text: str, width: int | None, indent: str = "  ") -> str:
    """`text` wrapped at word boundaries to `width` (continuation lines indented by `indent`); a word
    longer than the width (a path) is kept whole rather than cut. None: the text as it is."""
    if width is None or len(text) <= width:
        return text
    import textwrap

    lead = text[: len(text) - len(text.lstrip(" "))]
    return textwrap.fill(text.lstrip(" "), width=width, initial_indent=lead, subsequent_indent=lead + indent,
                         break_long_words=False, break_on_hyphens=False)


def echo_fitted(text: str, *, err: bool = False, indent: str = "  ") -> None:
    """`click.echo` of a line that may be long, wrapped at word boundaries to the terminal's width."""
    click.echo(fitted(text, columns(sys.stderr if err else sys.stdout), indent), err=err)


def settings() -> Settings:
    return click.get_current_context().ensure_object(Settings)


def emit_json(document: Any) -> None:
    """Print one JSON document on stdout."""
    import json

    click.echo(json.dumps(document, indent=2, ensure_ascii=False, default=str))


def run_guarded(command: click.Command, argv: list[str] | None, *, debug: bool = False,
                obj: Settings | None = None, default_map: dict[str, Any] | None = None) -> int:
    """Run a click command so that no traceback reaches a user; returns the exit status.

    `default_map` gives option defaults per subcommand (the REPL's `use` and `set` remembered settings).

    The one place errors become exit statuses. A `UsageError` (a rule set, count system, drill, setting
    or value the command does not know) prints `cutcard: <message>` and exits 2, as click's own usage
    errors (a bad option value, a missing argument: one line naming the option, the value and what is
    allowed) do; any other `TrainerError` (found while running: a broken rule file, an unusable database)
    exits 1; Ctrl-C (click turns it into `Abort`) exits 130;
    anything else is a bug and says so in one line (set CUTCARD_DEBUG=1 for the traceback). Output cut
    short by its reader (`cutcard export | head -1`) is not an error: the rest is dropped quietly and the
    status is 0 (the group's `invoke` sees the broken pipe before click's own handler, which would exit 1).
    """
    try:
        try:
            status = command.main(args=argv, prog_name="cutcard", standalone_mode=False, obj=obj,
                                  default_map=default_map)
        finally:
            sys.stdout.flush()
    except BrokenPipeError:  # the last buffered output, flushed after the reader left
        drop_stdout()
        return 0
    except UsageError as e:  # a name or value the command does not know, as a bad option
        echo_fitted(f"cutcard: {one_line(str(e))}", err=True)
        return 2
    except TrainerError as e:  # an error found while running
        echo_fitted(f"cutcard: {one_line(str(e))}", err=True)
        return 1
    except click.exceptions.Abort:
        click.echo("", err=True)
        return 130
    except click.UsageError as e:
        echo_fitted(one_line(usage_line(e)), err=True)
        return e.exit_code
    except click.ClickException as e:
        echo_fitted(f"cutcard: {one_line(e.format_message())}", err=True)
        return e.exit_code
    except Exception as e:  # a bug: one line for the user, the traceback on request
        if debug:
            raise
        echo_fitted(f"cutcard: internal error: {type(e).__name__}: {one_line(str(e))} "
                    "(set CUTCARD_DEBUG=1 to see the traceback)", err=True)
        return 70
    # not standalone, click returns an `Exit`'s status (--help, --version) or the command's own value
    return status if isinstance(status, int) else 0


MESSAGE_CHARS = 400
"""The longest one-line error printed: a message that quotes a huge value is cut (the value's own
excerpt is the first defence, `trainer.core.errors.excerpt`)."""


def one_line(message: str) -> str:
    """A message as one line on the terminal: runs of white space made one space, control characters
    escaped (a rule-set title could otherwise retitle the terminal), at most `MESSAGE_CHARS`."""
    return excerpt(message.replace("\n", " "), MESSAGE_CHARS)


def usage_line(error: click.UsageError) -> str:
    """A usage error in one line: 'cutcard drill: Invalid value for '--count' / '-n': -1 is not in the
    range x>=1. (cutcard drill --help)' (click's own shows the whole usage block first)."""
    path = error.ctx.command_path if error.ctx is not None else "cutcard"
    message = " ".join(error.format_message().split())
    return f"{path}: {message} (see '{path} --help')"


def drop_stdout() -> None:
    """The reader of stdout has gone: send whatever is still written to the null device, so that the
    interpreter's last flush at exit does not fail again (Python's advice for SIGPIPE)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # stdout is not a file (a test's capture): nothing will flush it
        pass
