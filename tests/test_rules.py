"""Rule sets: the built-ins, the strict reader and its one-line errors, decks overrides, fingerprints."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.core import RulesetError, builtin_rulesets, find_ruleset, load_ruleset, ruleset_to_dict
from trainer.core.rulesfile import parse_ruleset

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
NAMES = ["bicycle", "casino", "casino-h17", "chat-host", "eight-deck", "european"]


def test_the_six_rule_sets_ship_and_each_cites_a_seed() -> None:
    rulesets = builtin_rulesets()
    assert list(rulesets) == NAMES
    for ruleset in rulesets.values():
        assert ruleset.source.endswith(".txt")
        if SEEDS.exists():
            assert (SEEDS / ruleset.source).exists(), ruleset.source


@pytest.mark.parametrize(("alias", "name"), [("eu", "european"), ("Finnish", "european"), ("h17", "casino-h17"),
                                             ("8d", "eight-deck"), ("d13", "chat-host"), ("CASINO", "casino")])
def test_rule_sets_are_found_by_name_or_alias(alias: str, name: str) -> None:
    assert find_ruleset(alias).name == name


def test_a_name_finds_one_rule_set_and_it_is_its_file_s() -> None:
    """What `find_ruleset`'s one-file path takes for granted: each built-in is named as its file, and no
    alias is another rule set's name or alias."""
    seen: dict[str, str] = {}
    for name, ruleset in builtin_rulesets().items():
        assert Path(ruleset.path).name == f"{name}.toml"
        for word in (name, *ruleset.aliases):
            assert word not in seen, (word, seen.get(word), name)
            seen[word] = name


@pytest.mark.parametrize("name", NAMES)
def test_a_built_in_asked_for_by_name_reads_its_own_file_and_is_the_one_all_of_them_hold(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.core import rulesfile

    monkeypatch.setattr(rulesfile, "_PARSED", {})  # as in a fresh process: nothing read yet
    monkeypatch.setattr(rulesfile, "_BUILTINS", None)
    found = find_ruleset(name.upper())
    bases = {"casino.toml"} if name == "casino-h17" else set()  # casino-h17 starts from casino
    assert set(rulesfile._PARSED) == {f"{name}.toml", *bases}
    everything = builtin_rulesets()
    assert everything[name] is found
    assert find_ruleset(name) is found


def test_a_built_in_whose_base_is_not_shipped_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.core import rulesfile

    shipped = Path(__file__).resolve().parents[1] / "rulesets"
    (tmp_path / "casino-h17.toml").write_text((shipped / "casino-h17.toml").read_text())  # casino missing
    monkeypatch.setattr(rulesfile, "_PARSED", {})
    monkeypatch.setattr(rulesfile, "_BUILTINS", None)
    monkeypatch.setattr(rulesfile, "shipped", lambda package: tmp_path)
    with pytest.raises(RulesetError, match=r"^rulesets/casino-h17.toml: base 'casino' is unknown$"):
        builtin_rulesets()


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(RulesetError, match=r"no rule set named 'nope'.*bicycle"):
        load_ruleset("nope")


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text)
    return path


def test_a_user_file_may_start_from_a_built_in_and_change_what_differs(tmp_path: Path) -> None:
    path = _write(tmp_path, 'base = "casino"\nname = "mine"\ntitle = "Mine"\n'
                            '[payouts]\nblackjack = "6:5"\n[shoe]\ndecks = 2\n')
    mine = load_ruleset(str(path))
    assert mine.name == "mine" and str(mine.payouts.blackjack) == "6:5" and mine.shoe.decks == 2
    assert mine.dealer == find_ruleset("casino").dealer
    assert mine.shoe.cut_card_from_end == (20, 25)  # the base's penetration, scaled to two decks


def test_a_complete_user_file_reads_like_a_built_in(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[1] / "rulesets" / "european.toml").read_text()
    mine = load_ruleset(_write(tmp_path, text.replace('name = "european"', 'name = "my-eu"')))
    assert ruleset_to_dict(mine)["player"] == ruleset_to_dict(find_ruleset("european"))["player"]


BAD = [
    ('base = "casino"\nname = "x"\ntitle = "x"\ncolour = "red"\n', "unknown key 'colour'"),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[player]\ndubble = "any-two"\n', r"unknown key \[player\] dubble"),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[player]\ndouble = "sometimes"\n',
     r"\[player\] double = \"sometimes\" is not allowed: expected one of 'any-two', '9-11'"),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[shoe]\ndecks = 9\n', r"\[shoe\] decks = 9 .* from 0 to 8"),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[shoe]\ndecks = "six"\n', r"\[shoe\] decks = \"six\""),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[dealer]\nhits_soft_17 = "yes"\n', "expected true or false"),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[payouts]\nblackjack = "3-2"\n', "expected a ratio"),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[table]\nmin_bet = 2.5\n', r"min_bet = 2\.5"),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[table]\nmin_bet = 600\n', "min_bet = 600 is above max_bet"),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[dealer]\npeek = ["K"]\n', r"peek = \[.*\"A\" and \"T\""),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[dealer]\nhole_card = false\n', "peek and hole_card_first need"),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[shoe]\ncut_card_from_end = [75, 60]\n', "low <= high"),
    ('name = "x"\ntitle = "x"\n', r"missing section \[shoe\]"),
    ('base = "nowhere"\nname = "x"\ntitle = "x"\n', "no rule set named 'nowhere'"),
    ('name = "x"\ntitle = \n', "not valid TOML"),
    ('base = "casino"\nname = "x"\ntitle = "x"\n[shoe]\ndecks = 1\ncut_card_from_end = [60, 75]\n',
     r"cut_card_from_end = \[60, 75\] must leave at least 1 card behind the cut card and at least 10"),
    ('base = "european"\nname = "x"\ntitle = "x"\n[shoe]\ndecks = 2\n', r"decks_range = \[6, 6\] must contain"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_a_bad_rule_set_file_is_one_error_naming_the_file_and_the_key(tmp_path: Path, text: str,
                                                                      message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(RulesetError, match=message) as info:
        load_ruleset(str(path))
    assert "\n" not in str(info.value)
    if "no rule set named" not in message:
        assert str(info.value).startswith("mine.toml")


def test_a_missing_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="cannot read rule set"):
        load_ruleset(str(tmp_path / "absent.toml"))


@pytest.mark.parametrize("name", NAMES)
def test_a_rule_set_round_trips_through_its_words(name: str) -> None:
    """Every rule, enums and ratios included, reads back from the words `rules show --json` prints."""
    ruleset = find_ruleset(name)
    document = ruleset_to_dict(ruleset)
    data = {k: v for k, v in document.items() if k != "fingerprint"}
    again = parse_ruleset(data, path=ruleset.path)
    assert again == ruleset and again.fingerprint == ruleset.fingerprint


def test_the_fingerprint_follows_the_rules_not_the_names(tmp_path: Path) -> None:
    casino = find_ruleset("casino")
    renamed = load_ruleset(_write(tmp_path, 'base = "casino"\nname = "y"\ntitle = "y"\n'))
    assert renamed.fingerprint == casino.fingerprint
    assert find_ruleset("casino-h17").fingerprint != casino.fingerprint
    assert casino.with_decks(2).fingerprint != casino.fingerprint
    assert len({r.fingerprint for r in builtin_rulesets().values()}) == len(NAMES)


def test_decks_may_change_only_within_the_rule_sets_range() -> None:
    with pytest.raises(RulesetError, match="european cannot be played with 4 decks"):
        find_ruleset("european").with_decks(4)
    with pytest.raises(RulesetError, match="infinite"):
        find_ruleset("chat-host").with_decks(1)
    assert find_ruleset("bicycle").with_decks(6) is find_ruleset("bicycle")


def test_counting_helps_only_with_a_finite_shoe_and_a_cut_card() -> None:
    helps = {r.name: r.counting_helps for r in builtin_rulesets().values()}
    assert helps == {"bicycle": True, "casino": True, "casino-h17": True, "chat-host": False,
                     "eight-deck": False, "european": False}  # european: shuffled on the server, read as every round


@pytest.mark.parametrize(("ratio", "ok"), [("3:2", True), ("6:5", True), ("7:5", True), ("6:4", True),
                                           ("7:3", False), ("1:6", False)])
def test_a_payout_ratio_must_pay_exact_money(tmp_path: Path, ratio: str, ok: bool) -> None:
    path = _write(tmp_path, f'base = "casino"\nname = "x"\ntitle = "x"\n[payouts]\nblackjack = "{ratio}"\n')
    if ok:
        assert str(load_ruleset(str(path)).payouts.blackjack) == ratio
    else:
        with pytest.raises(RulesetError, match="expected a ratio"):
            load_ruleset(str(path))


@pytest.mark.parametrize(("cut", "ok"), [(42, True), (43, False)])
def test_the_cut_card_may_leave_exactly_ten_cards_in_front(tmp_path: Path, cut: int, ok: bool) -> None:
    path = _write(tmp_path, f'base = "casino"\nname = "x"\ntitle = "x"\n[shoe]\ndecks = 1\n'
                            f"cut_card_from_end = [{cut}, {cut}]\n")
    if ok:
        assert load_ruleset(str(path)).shoe.cut_card_from_end == (cut, cut)
    else:
        with pytest.raises(RulesetError, match="at least 10 in front"):
            load_ruleset(str(path))


def test_a_title_names_the_decks_actually_dealt() -> None:
    assert find_ruleset("casino").with_decks(1).title.startswith("Casino (1 deck, S17")
    assert find_ruleset("bicycle").with_decks(2).title.startswith("Bicycle rules (2 decks, S17")
