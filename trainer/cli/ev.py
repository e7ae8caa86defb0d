"""`cutcard ev 10,6 vs 10 [--ruleset R] [--json]`: the exact EV of every legal action for one hand."""

from __future__ import annotations

import click

from trainer.cli.common import emit_json, json_option, ruleset_option, use_chart_cache
from trainer.core.cards import Card, Rank, card, parse_card, parse_cards
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset

_USAGE = "expected CARDS vs UP or TOTAL vs UP, e.g. `cutcard ev 10,6 vs 10`, `ev 16 vs 10`, `ev soft 17 vs 6`"
TOTALS = {"hard": (4, 21), "soft": (12, 21)}
"""The totals `ev TOTAL vs UP` answers for (hard 4 is 2-2, soft 12 A-A, 21 a three-card hand)."""


def parse_total(words: list[str]) -> tuple[str, int] | None:
    """A hand named by its total ('16', 'hard 16', 'soft 17'), or None when the words are cards.

    A lone number from 4 to 21 is a hard total (a lone card is no hand); 'soft' or 'hard' says which.

    >>> parse_total(["16"]), parse_total(["soft", "17"]), parse_total(["10", "6"]), parse_total(["3"])
    (('hard', 16), ('soft', 17), None, None)
    """
    lowered = [w.lower() for w in words]
    if len(lowered) == 2 and lowered[0] in TOTALS and lowered[1].isdecimal():
        kind, number = lowered[0], int(lowered[1])
    elif len(lowered) == 1 and lowered[0].isdecimal() and TOTALS["hard"][0] <= int(lowered[0]) <= 21:
        kind, number = "hard", int(lowered[0])
    else:
        return None
    low, high = TOTALS[kind]
    if not low <= number <= high:
        raise InvalidInputError(f"no hand is {kind} {number}: {kind} totals run from {low} to {high}")
    return kind, number


def parse_hand_vs_up(words: tuple[str, ...]) -> tuple[tuple[Card, ...] | tuple[str, int], Card]:
    """('10,6', 'vs', '10') -> the hand and the up card, or ('16', 'vs', '10') -> ('hard', 16) and the up
    card; errors name what is wrong."""
    tokens = " ".join(words).replace(",", " ").split()
    lowered = [t.lower() for t in tokens]
    if "vs" not in lowered:
        raise InvalidInputError(f"no 'vs' between the hand and the up card: {_USAGE}")
    at = lowered.index("vs")
    before, after = tokens[:at], tokens[at + 1:]
    if not before:
        raise InvalidInputError(f"no cards before 'vs': {_USAGE}")
    if len(after) != 1:
        raise InvalidInputError(f"the dealer shows one up card after 'vs', not {len(after)}: {_USAGE}")
    try:
        up = parse_card(after[0])
    except InvalidInputError as e:
        raise InvalidInputError(f"bad up card: {e}") from None
    total = parse_total(before)
    return (total if total is not None else parse_cards(before)), up


def hand_for_total(rules: Ruleset, kind: str, number: int, up: Card) -> tuple[tuple[Card, ...], str]:
    """The most common composition of a total against `up`, and a line saying which it is."""
    from trainer.strategy.frequency import common_hand

    ranked = common_hand(rules, kind, number, up.value)
    hands = [tuple(card(Rank(v)) for v in sorted(h, key=lambda v: (v != 1, -v))) for h in ranked]
    named = ["-".join(c.pretty() for c in h) for h in hands]
    note = f"{kind} {number} vs {up.pretty()}: the EVs of {named[0]}, the most often dealt {kind} {number}"
    if len(named) > 1:
        note += f" (also {', '.join(named[1:4])}{', ...' if len(named) > 4 else ''})"
    return hands[0], note


@click.command("ev")
@click.argument("words", nargs=-1, metavar="CARDS vs UP")
@click.option("--removed", default="", metavar="CARDS",
              help="Cards also gone from the shoe (seen at the table), e.g. '5 5 6' (suited for a side bet).")
@click.option("--sidebet", default=None, metavar="NAME|PATH",
              help="Instead of a hand: the exact EV of a side bet (21+3, 21+3-tiered, perfect-pairs, "
                   "lucky-ladies, insurance, or your pay-table TOML) for the shoe less --removed.")
@ruleset_option
@json_option
def command(words: tuple[str, ...], removed: str, sidebet: str | None, ruleset: str, as_json: bool) -> None:
    """Exact EV of each action for one hand, e.g. `cutcard ev 10,6 vs 10`; or of a side bet (`--sidebet`)."""
    from trainer.core.rulesfile import load_ruleset

    if sidebet is not None:
        if words:
            raise InvalidInputError("--sidebet takes no hand: give the cards seen with --removed")
        _sidebet_ev(load_ruleset(ruleset), sidebet, removed, as_json)
        return
    if not words:
        raise InvalidInputError(f"no hand given: {_USAGE}, or --sidebet NAME")
    from trainer.strategy import hand_evs

    hand, up = parse_hand_vs_up(words)
    rules = load_ruleset(ruleset)
    use_chart_cache()
    note = None
    if isinstance(hand[0], str):
        kind, number = hand
        assert isinstance(kind, str) and isinstance(number, int)
        cards, note = hand_for_total(rules, kind, number, up)
    else:
        cards = tuple(c for c in hand if isinstance(c, Card))
    gone = parse_cards(removed) if removed.strip() else ()
    evs = hand_evs(rules, cards, up, removed=gone)
    if as_json:
        document = {
            "ruleset": rules.name,
            "cards": [str(c) for c in cards],
            "up": str(up),
            "removed": [str(c) for c in gone],
            "ev": {a.value: v for a, v in evs.ev.items()},
            "best": evs.best.value,
            "conditioned_on_no_dealer_blackjack": evs.peeked,
        }
        if note is not None:
            document["total"] = f"{hand[0]} {hand[1]}"
            document["note"] = note
        emit_json(document)
        return
    from trainer.render import make_console
    from trainer.render.strategy_chart import print_hand_evs

    console = make_console()
    if note is not None:
        console.print(note, style="muted", highlight=False)
    print_hand_evs(console, evs, rules)


def _sidebet_ev(rules: Ruleset, name: str, removed: str, as_json: bool) -> None:
    """`ev --sidebet NAME`: every paid outcome's exact chance and the EV, for the shoe less `removed`."""
    from trainer.core.sidebets import find_sidebet
    from trainer.strategy.sidebets import shoe_composition, sidebet_ev

    bet = find_sidebet(name)
    gone = parse_cards(removed) if removed.strip() else ()
    result = sidebet_ev(bet, shoe_composition(rules, gone, needs_suits=bet.needs_suits))
    if as_json:
        emit_json({
            "ruleset": rules.name,
            "sidebet": bet.name,
            "decks": rules.shoe.decks,
            "removed": [str(c) for c in gone],
            "cards_left": result.cards_left,
            "outcomes": [{"outcome": o, "pays": str(bet.ratio(o)), "chance": float(p)}
                         for o, p in result.chances],
            "ev": float(result.ev),
            "house_edge": float(-result.ev),
        })
        return
    from trainer.render import make_console
    from trainer.render.sidebets import print_sidebet_ev

    print_sidebet_ev(make_console(), result, rules, gone)
