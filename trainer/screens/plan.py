"""The plan as a screen (the REPL's `plan`): keys nudge the bankroll, the risk, the spread and the minimum
bet, and every figure is planned again at once from the statistics in memory (no simulation).

Keys: b/B bankroll down/up (10%), r/R target risk down/up (a step of a list), s/S spread down/up
(one unit; up to the table's maximum, where the spread no longer binds), m/M minimum bet down/up (a
step of the usual table minimums), x/X maximum bet down/up, z simplify on/off, c the risk curve or
the ramp, Enter keeps the plan as the plan in force, Esc or q leaves. The screen is 24 lines at
most, each under 80 columns.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl

from trainer.core.errors import TrainerError
from trainer.planner import PlanReport, plan_game
from trainer.planning.ramp import CountRow, TableLimits, default_chip
from trainer.render.plan import curve_lines, figure_lines, heading_lines, ramp_lines

RISKS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.135, 0.2, 0.3, 0.5)
MINIMUMS = (1, 2, 5, 10, 15, 25, 50, 100, 200, 500, 1000)
MAXIMUMS = (50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 25000, 50000)
HELP = "b/B bankroll r/R risk s/S spread m/M min x/X max z simplify c curve ⏎ keep q"


@dataclasses.dataclass(slots=True)
class _State:
    limits: TableLimits
    simplify: bool
    curve: bool = False
    report: PlanReport | None = None
    message: str = ""
    millis: float = 0.0


def _step(values: Sequence[float], now: float, up: bool) -> float:
    """The next value of a list above (or below) `now`; `now` itself at the ends.

    >>> _step((1, 5, 10), 5, True), _step((1, 5, 10), 7, False), _step((1, 5, 10), 10, True)
    (10, 5, 10)
    """
    if up:
        return next((v for v in values if v > now + 1e-12), now)
    return next((v for v in reversed(values) if v < now - 1e-12), now)


def plan_screen(rows: Sequence[CountRow], limits: TableLimits, *, simplify: bool, ruleset: str, system: str,
                statistics: str, keep: Callable[[PlanReport], Path], bet_count: str = "",
                bet_count_name: str | None = None) -> PlanReport | None:
    """Run the screen until Esc or q; the plan last shown (None if it never planned); `bet_count` and
    `bet_count_name`, which count the ramp's true counts are (`PlanReport`'s)."""
    state = _State(limits=limits, simplify=simplify)

    def replan() -> None:
        started = time.perf_counter()
        try:
            chip = default_chip(state.limits.min_bet) if state.simplify else None
            state.report = plan_game(rows, state.limits, chip=chip, statistics=statistics, ruleset=ruleset,
                                     system=system, bet_count=bet_count, bet_count_name=bet_count_name)
        except TrainerError as e:
            state.message = str(e)
        state.millis = 1000 * (time.perf_counter() - started)

    def change(**what: float | None) -> None:
        try:
            state.limits = dataclasses.replace(state.limits, **what)  # type: ignore[arg-type]
            state.message = ""
        except TrainerError as e:
            state.message = str(e)
            return
        replan()

    bindings = KeyBindings()

    def on(*keys: str) -> Callable[[Callable[[], None]], None]:
        def register(action: Callable[[], None]) -> None:
            def handler(event: KeyPressEvent) -> None:
                action()

            for key in keys:
                bindings.add(key)(handler)

        return register

    def lim() -> TableLimits:
        """The limits as they are when a key is pressed (after the keys before it)."""
        return state.limits

    on("b")(lambda: change(bankroll=max(round(lim().bankroll / 1.1), 1)))
    on("B")(lambda: change(bankroll=round(lim().bankroll * 1.1)))
    on("r")(lambda: change(ror=_step(RISKS, lim().ror, False)))
    on("R")(lambda: change(ror=_step(RISKS, lim().ror, True)))
    def widest() -> float:
        return lim().max_bet // lim().min_bet

    def narrower() -> None:
        spread = lim().spread
        now = spread if spread is not None else widest()
        change(spread=max(now - 1, 1))

    def wider() -> None:
        now = lim().spread
        change(spread=None if now is None or now + 1 >= widest() else now + 1)

    on("s")(narrower)
    on("S")(wider)
    on("m")(lambda: change(min_bet=_step(MINIMUMS, lim().min_bet, False)))
    on("M")(lambda: change(min_bet=min(_step(MINIMUMS, lim().min_bet, True), lim().max_bet)))
    on("x")(lambda: change(max_bet=max(_step(MAXIMUMS, lim().max_bet, False), lim().min_bet)))
    on("X")(lambda: change(max_bet=_step(MAXIMUMS, lim().max_bet, True)))

    def toggle_simplify() -> None:
        state.simplify = not state.simplify
        replan()

    def toggle_curve() -> None:
        state.curve = not state.curve

    def keep_plan() -> None:
        if state.report is not None:
            try:
                state.message = f"kept as the plan in force: {keep(state.report)}"
            except TrainerError as e:
                state.message = str(e)

    on("z", "Z")(toggle_simplify)
    on("c", "C")(toggle_curve)
    on("enter")(keep_plan)

    @bindings.add("escape", eager=True)
    @bindings.add("q")
    @bindings.add("Q")
    @bindings.add("c-c")
    @bindings.add("c-d")
    def _leave(event: KeyPressEvent) -> None:
        event.app.exit()

    @bindings.add("<any>")
    def _ignore(event: KeyPressEvent) -> None:
        """A key that means nothing here changes nothing."""

    def text() -> StyleAndTextTuples:
        return _screen(state)

    replan()
    window = Window(FormattedTextControl(text), wrap_lines=False)
    app: Application[None] = Application(layout=Layout(window), key_bindings=bindings, full_screen=False,
                                         erase_when_done=False)
    app.run()
    return state.report


def _screen(state: _State) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []

    def line(text: str, style: str = "") -> None:
        out.append((style, text[:79] + "\n"))

    report = state.report
    if report is None:
        line(state.message or "no plan", "fg:ansired")
        line(HELP, "reverse")
        return out
    head, source = heading_lines(report)
    line(head, "bold")
    line(source, "fg:ansibrightblack")
    if report.bet_count:
        line(report.bet_count, "fg:ansibrightblack")
    if state.curve:
        for text in curve_lines(report):
            line(text)
    else:
        ramp = ramp_lines(report.plan, report.limits.min_bet)
        shown = ramp if len(ramp) <= 11 else [*ramp[:9], (f"  ... {len(ramp) - 10} more steps", ""), ramp[-1]]
        for text, style in shown:
            line(text, "bold" if style else "")
    for text in figure_lines(report):
        style = "fg:ansired bold" if text.startswith(("UNREACHABLE", "no bankroll")) else ""
        line(text, style)
    line(state.message or f"planned in {state.millis:.0f} ms", "fg:ansiyellow" if state.message else
         "fg:ansibrightblack")
    line(HELP, "reverse")
    return out
