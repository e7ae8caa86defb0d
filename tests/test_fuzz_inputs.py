"""No internal error (exit 70) from any input (issue 34): CLI
arguments and the user's TOML files for every command that reads one (a rule set, a count system, a side
bet), fuzzed with hypothesis and run in-process; each is accepted or refused in one line, exit 1 or 2,
quoting at most a short excerpt of the bad value with its control characters escaped. The families the
issue found are pinned as examples."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from trainer.cli import main
from trainer.core.errors import TrainerError
from trainer.repl.prefs import Prefs, change

FOLDER = Path(tempfile.mkdtemp(prefix="cutcard-fuzz-"))
TOML = FOLDER / "mine.toml"
EXAMPLES = int(os.environ.get("CUTCARD_FUZZ_EXAMPLES", "20"))
"""Inputs per fuzzed family: a few seconds in the suite; set CUTCARD_FUZZ_EXAMPLES for a long run."""
LONGEST_LINE = 500
"""One-line errors quote at most a short excerpt of a bad value, however large."""

READERS = {
    "rule set": ["rules", "show", str(TOML)],
    "count system": ["drill", "true-count", "--count", "1", "--seed", "1", "--system", str(TOML)],
    "side bet": ["ev", "--sidebet", str(TOML)],
}
"""A command reading each kind of user file (they share one reader, `trainer.core.tomlfiles`)."""


def run(argv: list[str]) -> tuple[int, str]:
    with CliRunner().isolation(input="") as (_out, err, _both):
        status = main(argv)
        text = err.getvalue().decode("utf-8", "replace")
    return status, text


def assert_clean(argv: list[str], status: int, err: str) -> None:
    assert status != 70, (argv, err)
    assert status in (0, 1, 2), (argv, status, err)
    if status:
        lines = err.strip().splitlines()
        assert len(lines) == 1, (argv[:3], err[:300])
        assert len(lines[0]) <= LONGEST_LINE, (argv[:3], len(lines[0]))
        assert "\x1b" not in lines[0] and "\x07" not in lines[0]


KEYS = ["name", "title", "base", "aliases", "source", "tags", "red_tags", "start", "kind", "pays", "shoe",
        "dealer", "doubling", "splitting", "surrender", "insurance", "payouts", "decks", "x"]
SCALARS = st.one_of(st.integers(min_value=-10**40, max_value=10**40), st.floats(allow_nan=False),
                    st.booleans(), st.text(max_size=40))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4), max_leaves=12)


def toml_text(document: dict[str, object]) -> str:
    """A TOML rendering good enough to fuzz with (inline tables and arrays, strings escaped)."""

    def value(v: object) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}"
                                 for c in v) + '"'
        if isinstance(v, float):
            return repr(v) if v == v and abs(v) != float("inf") else "0.0"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + "}"
        return str(v)

    return "\n".join(f"{k} = {value(v)}" for k, v in document.items()) + "\n"


PINNED = [
    "x = " + "[" * 5000 + "]" * 5000,
    'name = "x"\nx = ' + "9" * 5000,
    'name = "evil"\ntitle = "\\u001b]0;OWNED\\u0007"\n',
    'name = "' + "n" * 100_000 + '"\n',
    "\x00\x01binary",
]


@pytest.mark.parametrize("kind", list(READERS))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(document=st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=6))
def test_fuzzed_user_files_are_accepted_or_refused_in_one_line(kind: str, document: dict[str, object]) -> None:
    TOML.write_text(toml_text(document), encoding="utf-8")
    argv = READERS[kind]
    assert_clean(argv, *run(argv))


@pytest.mark.parametrize("kind", list(READERS))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=st.one_of(st.sampled_from(PINNED), st.text(max_size=300)))
def test_fuzzed_raw_text_as_a_user_file_is_refused_in_one_line(kind: str, raw: str) -> None:
    TOML.write_text(raw, encoding="utf-8", errors="surrogatepass")
    argv = READERS[kind]
    assert_clean(argv, *run(argv))


ARGUMENTS = [
    ["rules", "show", "{}"],
    ["drill", "true-count", "--seed", "1", "--count", "{}"],
    ["drill", "true-count", "--count", "1", "--system", "{}"],
    ["drill", "payout", "--count", "1", "--seed", "1", "--set", "chips={}"],
    ["drill", "payout", "--count", "1", "--seed", "1", "--set", "{}"],
    ["review", "--dry-run", "--new", "{}"],
    ["db", "restore", "--yes", "{}"],
    ["export", "--format", "{}"],
    ["stats", "--since", "{}"],
]
ODD = ["a" * 300, "a" * 300 + ".toml", "9" * 5000, "pink=" + "9" * 29, "/dev/zero", "\x1b]0;OWNED\x07",
       "-1", "1e999", "nan", ""]


@pytest.mark.parametrize("template", ARGUMENTS, ids=[" ".join(t[:2]) for t in ARGUMENTS])
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(word=st.one_of(st.sampled_from(ODD), st.text(st.characters(exclude_characters="\x00"), max_size=60)))
@example(word="9" * 5000)
def test_fuzzed_arguments_are_accepted_or_refused_in_one_line(template: list[str], word: str) -> None:
    argv = [part.replace("{}", word) for part in template]
    assert_clean(argv, *run(argv))


def test_a_fifo_as_a_rule_set_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "rules.toml"
    os.mkfifo(fifo)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    for argv in (["rules", "show", str(fifo)], ["drill", "true-count", "--count", "1", "--system", str(fifo)],
                 ["stats", "--db", str(fifo)], ["db", "backup", "--db", str(fifo)]):
        status, err = run(argv)
        assert status == 1 and "not a regular file" in err, (argv, err)


@pytest.mark.parametrize(("key", "text"), [("ruleset", PINNED[0]), ("system", PINNED[0]),
                                            ("ruleset", PINNED[1]), ("system", PINNED[1])])
def test_the_repls_use_and_set_system_refuse_a_bad_file_in_one_line(tmp_path: Path, key: str, text: str) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TrainerError) as raised:
        change(Prefs(), key, str(path))
    assert "\n" not in str(raised.value) and len(str(raised.value)) < LONGEST_LINE


def test_a_rule_set_title_cannot_retitle_the_terminal(tmp_path: Path) -> None:
    """`title = "\\u001b]0;OWNED\\u0007"` shown raw would retitle the terminal."""
    path = tmp_path / "evil.toml"
    path.write_text('name = "evil"\nbase = "casino"\ntitle = "\\u001b]0;OWNED\\u0007 Evil"\n', encoding="utf-8")
    with CliRunner().isolation(input="") as (out, _err, _both):
        status = main(["rules", "show", str(path)])
        shown = out.getvalue().decode()
    assert status == 0 and "\x1b]0" not in shown and "\x07" not in shown
    assert "\\x1b]0;OWNED\\x07 Evil" in shown


def test_figures_for_absurd_sizes_are_true() -> None:
    """`indices --samples 10**12` must not claim 10**12 exact EVs the shoes cannot hold, nor `review
    --dry-run --new 10**12` estimate billions of minutes."""
    from types import SimpleNamespace

    from trainer.render.indices import samples_line

    line = samples_line(SimpleNamespace(samples=10**12), [2000, 3164])
    assert line.startswith("2,000 to 3,164 exact EVs a play (1,000,000,000,000 asked:") and "10**12" not in line
    assert samples_line(SimpleNamespace(samples=400), [400, 400]) == "400 exact EVs a play"
    status, err = run(["review", "--dry-run", "--new", str(10**12)])
    assert status == 2 and "9999" in err


def test_control_characters_stored_in_the_database_are_shown_escaped(cutcard_home: Path) -> None:
    from trainer.practice.session import Attempt
    from trainer.storage import Store

    cutcard_home.mkdir(parents=True)
    with Store.open(cutcard_home / "progress.db") as store:
        for item, ruleset in (("strategy:\x1b]0;OWNED\x07", "casino"), ("strategy:hard 16 vs 10", "casino\x1b[2J")):
            store.record(Attempt(session_id="s", drill="strategy", item=item, ruleset=ruleset, prompt="?",
                                 data={}, expected="a", given="b", correct=False, latency_ms=900,
                                 ts=1_780_000_000.0, target_ms=3000))
    with CliRunner().isolation(input="") as (out, _err, _both):
        assert main(["review", "--dry-run"]) == 0
        shown = out.getvalue().decode()
    assert "\\x1b]0;OWNED\\x07" in shown and "\x1b" not in shown and "\x07" not in shown
    with CliRunner().isolation(input="") as (out, _err, _both):
        assert main(["stats"]) == 0  # the rule set's stored name, through rich
        shown = out.getvalue().decode()
    assert "casino\\x1b[2J" in shown and "\x1b" not in shown
