"""The readiness checklist: a line per criterion with the learner's figure, the target and pass or not
yet; under each "not yet", the command that practises it."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from trainer.progress.readiness import TRACK_TITLES, Readiness


def print_readiness(console: Console, readiness: Readiness) -> None:
    verdict = "ready" if readiness.ready else "not ready yet"
    head = Text(f"Casino readiness, {readiness.ruleset}: ", style="title")
    head.append(verdict, style="good" if readiness.ready else "warn")
    passed = sum(c.passed for c in readiness.checks)
    head.append(f" ({passed} of {len(readiness.checks)} passed)", style="muted")
    console.print(head)
    track = ""
    for c in readiness.checks:
        if c.criterion.track != track:
            track = c.criterion.track
            console.print()
            console.print(Text(TRACK_TITLES.get(track, track), style="title"))
        line = Text("  ✓ pass    " if c.passed else "  ✗ not yet ", style="good" if c.passed else "bad")
        line.append(c.criterion.title, style="key")
        console.print(line)
        console.print(Text(f"      you: {c.figure}"))
        if c.timing:  # whose pace, then what was left out, each on its line
            whose, _, left_out = c.timing.partition("; ")
            console.print(Text(f"      timed: {whose}", style="muted"))
            if left_out:
                console.print(Text(f"      {left_out}", style="muted"))
        console.print(Text(f"      target: {c.target_text}", style="muted"))
        if not c.passed:
            console.print(Text(f"      practise: {c.practise}", style="count"))
