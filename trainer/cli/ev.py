"""`cutcard ev 10,6 vs 10 [--ruleset R] [--json]`: the exact EV of every legal action for one hand."""

from __future__ import annotations

import click

from trainer.cli.common import emit_json, json_option, ruleset_option, use_chart_cache
from trainer.core.cards import Card, parse_card, parse_cards
from trainer.core.errors import InvalidInputError

_USAGE = "expected CARDS vs UP, e.g. `cutcard ev 10,6 vs 10`"


def parse_hand_vs_up(words: tuple[str, ...]) -> tuple[tuple[Card, ...], Card]:
    """('10,6', 'vs', '10') -> the hand and the up card; errors name what is wrong."""
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
    return parse_cards(before), up


@click.command("ev")
@click.argument("words", nargs=-1, required=True, metavar="CARDS vs UP")
@click.option("--removed", default="", metavar="CARDS",
              help="Cards also gone from the shoe (seen at the table), e.g. '5 5 6'.")
@ruleset_option
@json_option
def command(words: tuple[str, ...], removed: str, ruleset: str, as_json: bool) -> None:
    """Exact EV of each action for one hand, e.g. `cutcard ev 10,6 vs 10`."""
    from trainer.core.rulesfile import load_ruleset
    from trainer.strategy import hand_evs

    cards, up = parse_hand_vs_up(words)
    rules = load_ruleset(ruleset)
    use_chart_cache()
    gone = parse_cards(removed) if removed.strip() else ()
    evs = hand_evs(rules, cards, up, removed=gone)
    if as_json:
        emit_json({
            "ruleset": rules.name,
            "cards": [str(c) for c in cards],
            "up": str(up),
            "removed": [str(c) for c in gone],
            "ev": {a.value: v for a, v in evs.ev.items()},
            "best": evs.best.value,
            "conditioned_on_no_dealer_blackjack": evs.peeked,
        })
        return
    from trainer.render import make_console
    from trainer.render.chart import print_hand_evs

    print_hand_evs(make_console(), evs, rules)
