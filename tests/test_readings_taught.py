"""Issue 41 (part B): no reading is taught as the source's word.

Every quiz question cites the sentence of its seed that states its fact (a table below pins the ones the
issue found citing the wrong one), every quoted phrase occurs in its seed, and the trainer's own way of
playing where no seed speaks (the dealer's draw with every hand settled, ties, attack ties, the order of
the eight-deck deal) is a labelled reading on the rule card, in `rules show --json` and in the quiz.
"""

from __future__ import annotations

import json
import tomllib
from importlib import resources

import pytest
from click.testing import CliRunner
from test_rule_basis import SEEDS, _flat, needs_seeds

from drills.quiz.drill import quiz_items
from trainer.cli import cli
from trainer.core import Action, Round, Shoe, builtin_rulesets, find_ruleset
from trainer.core.basis import BasisKind
from trainer.core.describe import rule_card
from trainer.core.events import DealerDrew

RULESETS = list(builtin_rulesets().values())

EXPECTED_SENTENCE = {
    ("bicycle", "dealer-blackjack-collects"): "If the dealer has a natural, they immediately collect the bets "
                                              "of all players who do not have naturals",
    ("european", "dealer-blackjack-collects"): "Jokainen käsi verrataan erikseen jakajan käteen.",
    ("eight-deck", "dealer-16"): "If the dealer's hand is 16 or less, the dealer must continue to \"hit\"",
    ("eight-deck", "split-bet"): "In order to \"split\", the initial bet has to be matched.",
    ("eight-deck", "even-money-declined"): "If the player chooses not to take even money and the dealer "
                                           "reveals a Blackjack, both hands tie.",
    ("chat-host", "split-bet"): "the Player mirrors the bet initially placed",
    ("bicycle", "dealer-16"): "If the total is 16 or under, they must take a card.",
    ("chat-host", "dealer-16"): "Hit until the total reaches at least 17.",
}
"""(rule set, question) -> a phrase of the sentence that states the question's fact."""

WRONG_SENTENCE = {
    ("bicycle", "dealer-blackjack-collects"): "both have naturals",
    ("european", "dealer-blackjack-collects"): "molemmilla",
    ("eight-deck", "dealer-16"): "soft 17",
    ("eight-deck", "split-bet"): "split once",
    ("eight-deck", "even-money-declined"): "is offered",
    ("chat-host", "split-bet"): "Can only be done",
}
"""The sentence each of the issue's six cited instead (a phrase of it), which states another fact."""


def _item(ruleset: str, key: str):
    return next(i for i in quiz_items(find_ruleset(ruleset)) if i.key == key)


@pytest.mark.parametrize(("ruleset", "key"), sorted(EXPECTED_SENTENCE))
def test_each_question_cites_the_sentence_that_states_its_fact(ruleset: str, key: str) -> None:
    item = _item(ruleset, key)
    assert item.basis.kind is BasisKind.SEED, item.source
    cited = " ".join(item.basis.quotes)
    assert EXPECTED_SENTENCE[ruleset, key] in cited, cited
    wrong = WRONG_SENTENCE.get((ruleset, key))
    if wrong:
        assert wrong.lower() not in cited.lower(), cited


def test_the_european_split_bet_is_a_reading_not_the_four_hands_sentence() -> None:
    item = _item("european", "split-bet")
    assert item.is_reading and item.basis.quotes == ()
    assert item.prompt.startswith("In this trainer's reading of the seed")
    assert "stake" in item.basis.why


@needs_seeds
def test_every_sentence_the_quiz_sources_name_occurs_in_its_seed() -> None:
    assert SEEDS is not None
    text = resources.files("drills").joinpath("data/quiz_sources.toml").read_text(encoding="utf-8")
    entries = tomllib.loads(text)["source"]
    assert len(entries) >= 8
    for entry in entries:
        if "reading" in entry:
            continue
        seed = _flat((SEEDS / entry["seed"]).read_text(encoding="utf-8"))
        quotes = [entry["quote"]] if isinstance(entry["quote"], str) else entry["quote"]
        for quote in quotes:
            assert _flat(quote) in seed, (entry["item"], quote)
        if "english" in entry:
            english = _flat((SEEDS / entry["seed"].replace(".txt", ".en.md")).read_text(encoding="utf-8"))
            for part in entry["english"].split("; "):
                assert _flat(part).lower() in english.lower(), part


@needs_seeds
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_quoted_phrase_of_every_question_and_rule_occurs_in_its_seed(ruleset: object) -> None:
    assert SEEDS is not None
    bases = [b for _, b in ruleset.basis.items()]
    bases += [i.basis for i in quiz_items(ruleset)]
    for basis in bases:
        if basis.kind is BasisKind.SEED:
            seed = _flat((SEEDS / basis.file).read_text(encoding="utf-8"))
            assert all(_flat(q) in seed for q in basis.quotes), basis.quotes
            for other in ("000", "001", "002", "003", "004"):  # the seed's word is its own seed's, not another's
                if not basis.file.startswith(other):
                    assert f"seed {other}" not in basis.why, basis.why


# --- the trainer's own readings: labelled on the card, in --json, and played as they say ------------


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_the_dealer_draw_with_every_hand_settled_is_a_labelled_reading(ruleset: object) -> None:
    r = ruleset
    basis = r.basis_of("dealer.draws_when_settled")
    assert basis.is_reading and "settled" in basis.why
    said = [s for _, sentences in rule_card(r) for s in sentences
            if "dealer.draws_when_settled" in s.keys]
    assert len(said) == 1 and said[0].basis(r).is_reading
    code, out = _run("rules", "show", r.name, "--json")
    assert code == 0
    entry = json.loads(out)["basis"]["dealer.draws_when_settled"]
    assert entry["basis"] == "reading" and "settled" in entry["reading"]
    code, card = _run("rules", "show", r.name)
    flat = _flat(card.replace("│", " "))
    assert "already settled" in flat and "reading: " + _flat(basis.why)[:30] in flat


def test_the_dealer_does_not_draw_when_every_hand_is_settled() -> None:
    """A player's T-6 hits a ten and busts: the dealer's T-6 stands, the next cards stay in the shoe."""
    casino = find_ruleset("casino")
    round_ = Round.start(casino, Shoe.stacked(casino, "T T 6 6 T 5"), bets=[10])
    round_.act(Action.HIT)
    assert round_.finished and round_.results == (-10,)
    assert not any(isinstance(e, DealerDrew) for e in round_.events)


def test_bicycle_reshuffle_no_longer_quotes_another_seed() -> None:
    basis = find_ruleset("bicycle").basis_of("shoe.reshuffle")
    assert basis.is_reading and "001" not in basis.why and "completion of a hand" not in basis.why


def test_eight_deck_deal_order_is_a_reading_on_the_card() -> None:
    eight = find_ruleset("eight-deck")
    assert eight.basis_of("dealer.hole_card_first").is_reading
    said = next(s for _, ss in rule_card(eight) for s in ss if "dealer.hole_card_first" in s.keys)
    assert "second card to each player" in said.text and said.basis(eight).is_reading


def test_chat_host_attack_ties_and_pushes_are_labelled_readings() -> None:
    chat = find_ruleset("chat-host")
    card = {s.text: s for _, ss in rule_card(chat) for s in ss}
    ties = next(s for text, s in card.items() if "tie fails" in text)
    assert ties.basis(chat).is_reading
    attacks = next(s for text, s in card.items() if text.startswith("After each round, attacks"))
    assert "higher" not in attacks.text and not attacks.basis(chat).is_reading
    push = next(s for text, s in card.items() if "pushes" in text and "ties" in text)
    assert push.basis(chat).is_reading
    # where a seed states ties, the card quotes it
    for name in ("casino", "european", "eight-deck"):
        assert find_ruleset(name).basis_of("payouts.push").kind is BasisKind.SEED, name
    assert find_ruleset("bicycle").basis_of("payouts.push").is_reading


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output
