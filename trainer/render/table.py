"""The table as rich text: the dealer and every seat with its cards and bet, and one line per event."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from rich.table import Table
from rich.text import Text

from trainer.core.cards import Card
from trainer.core.events import (
    CardsTurned,
    DealerDrew,
    DealerStood,
    Dealt,
    Declined,
    Doubled,
    Event,
    Hit,
    HoleCardTurned,
    InsuranceSettled,
    Insured,
    Peeked,
    Settled,
    Shuffled,
    SplitHand,
    Stood,
    Surrendered,
    TookEvenMoney,
    TurnedFor,
)
from trainer.core.hands import Hand, total_words
from trainer.core.money import Money, dollars, signed_dollars
from trainer.core.narration import (
    OUTCOME_WORDS,
    SURRENDERS,
    TAKES_EVEN_MONEY,
    dealer_result,
    stands_on,
    whose_hand,
)
from trainer.core.round import Round
from trainer.render.cards import card_text, cards_text


def money_text(amount: Money, *, signed: bool = False) -> Text:
    """The core's words for an amount ('$25', '+$12.50', '-$10'), styled: losses red, a signed win green."""
    style = "bad" if amount < 0 else ("good" if signed and amount > 0 else "money")
    return Text(signed_dollars(amount) if signed else dollars(amount), style=style)


def table_picture(round_: Round, names: Sequence[str], *, learner: int | None = None,
                  dealer_cards: Sequence[Card] | None = None) -> Table:
    """The dealer's cards (hole card face down until turned) and each seat's bet, hands and totals;
    in a pitch game the other seats' face-down cards stay face down until turned (the `learner` sees
    their own). `dealer_cards`: the dealer's cards as it showed them, when it stopped drawing too soon."""
    grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
    grid.add_column(no_wrap=True)
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    dealer = round_.dealer_hand if dealer_cards is None else Hand(tuple(dealer_cards))
    hidden = 1 if round_.ruleset.dealer.hole_card and not round_.hole_card_shown else 0
    shown = total_words(dealer, natural=round_.ruleset.dealer.natural) if not hidden else ""
    grid.add_row(Text("dealer", style="title"), "", cards_text(dealer.cards, hidden=hidden),
                 Text(shown, style="muted"))
    in_turn = None if round_.finished else (round_.seat_in_turn, round_.hand_in_turn)
    for seat, name in enumerate(names):
        view = round_.view(seat)
        for number, (hand, bet) in enumerate(zip(view.hands, view.bets, strict=True)):
            label = Text(name if number == 0 else "", style="key" if seat == learner else "")
            marker = Text("  ◀", style="warn") if in_turn == (seat, number) else Text("")
            down = 0 if seat == learner else round_.face_down(seat, number)
            if down:  # a pitch game: another seat's cards stay face down until turned
                held = Text(" ".join(["▒▒"] * down), style="muted")
                if hand.cards[down:]:
                    held.append(" ").append_text(cards_text(hand.cards[down:]))
                grid.add_row(label, money_text(bet), held, marker)
                continue
            grid.add_row(label, money_text(bet), cards_text(hand.cards),
                         Text(total_words(hand), style="muted") + marker)
    return grid


_SECOND_PERSON = {"wins": "win", "loses": "lose", "pushes": "push", "has": "have", "busts": "bust",
                  "surrenders": "surrender", "takes": "take", "hits": "hit", "doubles": "double",
                  "splits": "split", "stands": "stand", "gets": "get", "insures": "insure",
                  "declines": "decline", "turns": "turn"}


def _agree(subject: str, verb_phrase: str) -> str:
    """`you wins` -> `you win`: the learner's seat is called "you"; punctuation after the verb stays.

    >>> _agree("you", "splits; hand 1 gets "), _agree("you (hand 2)", "has blackjack")
    ('you split; hand 1 gets ', 'you (hand 2) have blackjack')
    >>> _agree("Hard (seat 3)", "splits")
    'Hard (seat 3) splits'
    """
    if subject.split(" ")[0].lower() != "you":
        return f"{subject} {verb_phrase}"
    verb = verb_phrase.split(" ")[0].rstrip(";,:.")
    return f"{subject} {_SECOND_PERSON.get(verb, verb)}{verb_phrase[len(verb):]}"


def hidden_when(round_: Round, event: Stood) -> bool:
    """True when the hand standing was still face down to the table (a pitch game): no `CardsTurned`
    for it came before `event` in the round."""
    if not round_.ruleset.players_face_down:
        return False
    for earlier in round_.events:
        if earlier is event:
            return True
        if isinstance(earlier, CardsTurned) and earlier.seat == event.seat and (
                earlier.hand == event.hand or earlier.why is TurnedFor.SPLIT):  # a split shows both hands
            return False
    return True


def event_line(event: Event, round_: Round, names: Sequence[str]) -> Text | None:
    """One line for an event a player at the table would notice; None for the quiet ones (the deal)."""
    def who(seat: int, hand: int = 0) -> str:
        return whose_hand(names[seat], hand, len(round_.hands(seat)))

    match event:
        case Shuffled():
            cut = event.cards_behind_cut
            behind = f", the cut card {cut} cards from the end" if cut else ""
            burned = f", {len(event.burned)} card burned" if event.burned else ""
            return Text(f"The dealer shuffles{burned}{behind}.", style="warn")
        case Hit() | Doubled():
            verb = "hits" if isinstance(event, Hit) else f"doubles to {dollars(event.bet)}"
            return Text.assemble(_agree(who(event.seat, event.hand), verb) + ": ", card_text(event.card))
        case Dealt():
            if event.hand == 0:  # the deal itself is quiet: the picture shows it
                return None
            # the second card of a split hand, at its turn
            return Text.assemble(_agree(who(event.seat, event.hand), "gets "), card_text(event.card))
        case SplitHand():
            return Text.assemble(_agree(names[event.seat], f"splits; hand {event.hand + 1} gets "),
                                 card_text(event.card))
        case Stood():
            if hidden_when(round_, event):  # a held hand: the table does not know its total
                return Text(_agree(who(event.seat, event.hand), "stands"), style="muted")
            return Text(_agree(who(event.seat, event.hand), stands_on(event.total)), style="muted")
        case Surrendered():
            return Text(_agree(names[event.seat], SURRENDERS), style="muted")
        case Insured():
            return Text(_agree(names[event.seat], f"insures for {dollars(event.amount)}"), style="muted")
        case TookEvenMoney():
            return Text(_agree(names[event.seat], TAKES_EVEN_MONEY), style="muted")
        case Declined():
            return Text(_agree(names[event.seat], "declines"), style="muted")
        case Peeked():
            return Text("The dealer peeks: " + ("blackjack!" if event.natural else "no blackjack."),
                        style="warn")
        case CardsTurned():
            words = {TurnedFor.DOUBLE: "turns up to double", TurnedFor.SPLIT: "turns up to split"}.get(
                event.why, "turns up")
            return Text.assemble(_agree(who(event.seat, event.hand), words) + ": ", cards_text(event.cards))
        case HoleCardTurned():
            return Text.assemble("The dealer turns the hole card: ", card_text(event.card))
        case DealerDrew():
            return Text.assemble("The dealer draws ", card_text(event.card))
        case DealerStood():
            return Text(f"The dealer {dealer_result(event)}.", style="title")
        case Settled():
            line = Text(_agree(who(event.seat, event.hand), OUTCOME_WORDS[event.outcome]) + " ")
            return line.append_text(money_text(event.net, signed=True))
        case InsuranceSettled():
            verb = "insurance pays" if event.net > 0 else "insurance loses"
            line = Text(f"{names[event.seat]}: {verb} ")
            return line.append_text(money_text(event.net, signed=True))
        case _:
            assert_never(event)
