"""A misspelt name is answered in one line with the closest real one, and exits 2 (a usage error)."""

from __future__ import annotations

import pytest

from trainer.__main__ import main
from trainer.core.names import closest, unknown_name


@pytest.mark.parametrize(("args", "said"), [
    (["rules", "europian"], "did you mean 'european'?"),
    (["rules", "show", "europian"], "no rule set named 'europian'; did you mean 'european'?"),
    (["chart", "--ruleset", "europian"], "did you mean 'european'?"),
    (["drill", "stratgy"], "no drill named 'stratgy'; did you mean 'strategy'?"),
    (["drill", "running-coun"], "did you mean 'running-count'?"),
    (["sim", "--hands", "1000", "--count", "wong-halfs"], "no count system named 'wong-halfs'; did you mean 'wong-halves'?"),
    (["ev", "--sidebet", "perfect-pair"], "no side bet named 'perfect-pair'; did you mean 'perfect-pairs'?"),
])
def test_a_misspelt_name_gets_the_closest_and_exit_2(args: list[str], said: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_name_near_nothing_lists_the_names() -> None:
    assert closest("zzz", ["strategy", "quiz"]) is None
    assert unknown_name("drill", "zzz", ["strategy", "quiz"]) == "no drill named 'zzz' (built-in: strategy, quiz)"


def test_the_repl_offers_the_closest_command() -> None:
    from trainer.repl.commands import unknown_word_message

    assert "did you mean" in unknown_word_message("chrat") and "chart" in unknown_word_message("chrat")
