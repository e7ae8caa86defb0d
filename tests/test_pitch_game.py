"""Pitch games: the players' cards dealt face down and held, as the two seed sentences describe them.

Seed 000: "In some games, played with only one deck, the players' cards are dealt face down and they get
to hold them." Seed 001: "Both of the players cards are usually dealt face down in a single-deck game and
face-up in multideck play" (casino reads "usually" as its default at 1 and 2 decks, labelled a reading).
Stacked shoes show what each seat sees at each event, that a counter's running count counts only public
cards, and that the dealer's settlement turns every hand still face down.
"""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from trainer.core.cards import Card, parse_cards
from trainer.core.count_systems import find_system
from trainer.core.deal import TableDeal
from trainer.core.events import (
    DEALER,
    CardsTurned,
    Dealt,
    Doubled,
    Settled,
    TurnedFor,
    cards_since_shuffle,
    seat_sees,
)
from trainer.core.round import Round
from trainer.core.rules import PlayerCards, Ruleset
from trainer.core.rulesfile import find_ruleset, load_ruleset
from trainer.core.shoe import Shoe
from trainer.render.table import table_picture

SEED_000 = "In some games, played with only one deck, the players’ cards are dealt face down and they get to hold them."
SEED_001 = "Both of the players cards are usually dealt face down in a single-deck game and face-up in multideck play"
SEEDS = Path(__file__).parent / "data" / "seeds"


def _words(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards)


def _count(cards: list[Card]) -> int:
    hi_lo = find_system("hi-lo")
    return int(sum(hi_lo.tag(c) for c in cards))


def _table(rules: Ruleset) -> Round:
    """Three seats: first base T 6 hits a K and busts; the middle 9 2 doubles and gets an 8; third base
    T T stands; the dealer 5 under a T draws a 7 and busts."""
    t, six, nine, two, eight, five, king, seven = parse_cards("T 6 9 2 8 5 K 7")
    deal = TableDeal(seats=((t, six), (nine, two), (t, t)), up=five, hole=t, draws=(king, eight),
                     dealer_draws=(seven,))
    return Round.start(rules, Shoe.stacked(rules, deal), bets=[10, 10, 10])


def test_the_two_sentences_are_the_seeds_own() -> None:
    assert SEED_000 in " ".join((SEEDS / "000_076d8b3af31bbb8c.txt").read_text(encoding="utf-8").split())
    assert SEED_001 in " ".join((SEEDS / "001_301e7e888be35da6.txt").read_text(encoding="utf-8").split())


def test_seed_001_single_deck_is_dealt_face_down_and_multideck_face_up() -> None:
    casino = find_ruleset("casino")
    assert casino.dealer.player_cards is PlayerCards.FACE_DOWN_HAND_HELD
    assert casino.basis_of("dealer.player_cards").is_reading
    assert "«Both of the players cards are usually dealt face down" in casino.basis_of("dealer.player_cards").why
    assert [casino.with_decks(d).players_face_down for d in (1, 2, 4, 6, 8)] == [True, True, False, False, False]
    shoe_game = _table(casino)
    assert all(e.face_up for e in shoe_game.events if isinstance(e, Dealt) and e.seat != DEALER)
    assert not [e for e in shoe_game.events if isinstance(e, CardsTurned)]


def test_seed_001_what_each_seat_sees_at_each_event() -> None:
    rules = find_ruleset("casino").with_decks(1)
    table = _table(rules)
    players = [e for e in table.events if isinstance(e, Dealt) and e.seat != DEALER]
    assert len(players) == 6 and not any(e.face_up for e in players)
    # after the deal: each seat sees its own two cards and the up card; nobody sees another's
    assert _words(cards_since_shuffle(table.events)) == "5"
    assert [_words(seat_sees(table.events, s)) for s in range(3)] == ["T 5 6", "9 5 2", "T 5 T"]
    assert _words(table.view(1).public_cards) == "5"
    table.hit()  # first base draws a K face up and busts: the cards are turned as the bet is taken
    turned = [e for e in table.events if isinstance(e, CardsTurned)]
    assert turned == [CardsTurned(seat=0, hand=0, cards=tuple(parse_cards("T 6")), why=TurnedFor.BUST)]
    settled = next(i for i, e in enumerate(table.events) if isinstance(e, Settled))
    assert table.events[settled - 1] == turned[0]
    assert _words(seat_sees(table.events, 2)) == "T 5 T K T 6"
    table.double()  # the middle seat turns its 9 2 up to double, then gets one card
    *_, turn, doubled = table.events
    assert isinstance(turn, CardsTurned) and turn.why is TurnedFor.DOUBLE and _words(turn.cards) == "9 2"
    assert isinstance(doubled, Doubled) and str(doubled.card) == "8"
    before_third = list(table.events)
    table.stand()  # third base stands: still face down to the table until the settlement
    public_at_stand = cards_since_shuffle(table.events[:len(before_third) + 1])
    assert _words(public_at_stand) == "5 K T 6 9 2 8" and _count(public_at_stand) == 1
    assert table.finished
    tail = table.events[len(before_third) + 1:]
    last_turn = [e for e in tail if isinstance(e, CardsTurned)]
    assert last_turn == [CardsTurned(seat=2, hand=0, cards=tuple(parse_cards("T T")), why=TurnedFor.SETTLEMENT)]
    # the settlement turned every hand still down: the counter's count now holds every card on the table
    everything = cards_since_shuffle(table.events)
    assert sorted(map(str, everything)) == sorted(map(str, table.table_cards()))
    assert _count(everything) == _count(list(table.table_cards())) == -2
    assert all(table.face_down(s, 0) == 0 for s in range(3))


def test_a_counter_at_a_checkpoint_counts_only_public_cards() -> None:
    rules = find_ruleset("casino").with_decks(1)
    table = _table(rules)
    table.hit()
    # the middle and third seats' 9 2 and T T are on the table but face down: a counter there counts
    # only 5 K T 6 (+1 -1 -1 +1); the hidden cards would move it to -1
    public = cards_since_shuffle(table.events)
    assert _words(public) == "5 K T 6" and _count(public) == 0
    assert _count(list(parse_cards("T 6 9 2 T T 5 K"))) == -1


def _natural_round(rules: Ruleset, dealer_hole: str) -> Round:
    a, k, nine, seven, t, six = parse_cards("A K 9 7 T 6")
    deal = TableDeal(seats=((a, k), (nine, seven), (t, six)), up=t, hole=parse_cards(dealer_hole)[0])
    return Round.start(rules, Shoe.stacked(rules, deal), bets=[10, 10, 10])


def test_seed_000_one_deck_face_down_and_the_dealer_natural_turns_every_hand() -> None:
    rules = find_ruleset("casino").with_decks(1)
    table = _natural_round(rules, "A")  # the peek finds the dealer's natural: the round ends at once
    assert table.finished
    turned = [e for e in table.events if isinstance(e, CardsTurned)]
    assert [(e.seat, _words(e.cards), e.why) for e in turned] == [  # third base first
        (2, "T 6", TurnedFor.SETTLEMENT), (1, "9 7", TurnedFor.SETTLEMENT), (0, "A K", TurnedFor.SETTLEMENT)]
    for turn in turned:  # each hand is turned just before it is settled
        index = table.events.index(turn)
        settled = table.events[index + 1]
        assert isinstance(settled, Settled) and settled.seat == turn.seat


def test_a_natural_is_turned_when_it_is_paid_and_the_rest_wait() -> None:
    rules = find_ruleset("casino").with_decks(1)
    table = _natural_round(rules, "7")  # no dealer natural under the ten: the player's natural is paid
    first = [e for e in table.events if isinstance(e, CardsTurned)]
    assert [(e.seat, e.why) for e in first] == [(0, TurnedFor.NATURAL)]
    assert _words(cards_since_shuffle(table.events)) == "T A K"


def test_a_split_turns_the_pair_up_first() -> None:
    rules = find_ruleset("casino").with_decks(2)
    eight, t, seven, two, three = parse_cards("8 T 7 2 3")
    deal = TableDeal(seats=((eight, eight),), up=seven, hole=t, draws=(two, three))
    table = Round.start(rules, Shoe.stacked(rules, deal), bets=[10])
    table.split()
    turn = next(e for e in table.events if isinstance(e, CardsTurned))
    assert turn.why is TurnedFor.SPLIT and _words(turn.cards) == "8 8"
    assert table.face_down(0, 0) == table.face_down(0, 1) == 0


def test_a_rule_file_sets_face_down_for_seed_000s_one_deck_game(tmp_path: Path) -> None:
    path = tmp_path / "pitch.toml"
    path.write_text('base = "bicycle"\nname = "pitch"\ntitle = "one deck, held"\n'
                    '[shoe]\ndecks = 1\n[dealer]\nplayer_cards = "face-down"\n', encoding="utf-8")
    pitch = load_ruleset(path)
    assert pitch.players_face_down and find_ruleset("bicycle").players_face_down is False
    assert pitch.fingerprint == find_ruleset("bicycle").with_decks(1).fingerprint  # the play is the same
    table = _natural_round(pitch, "7")
    assert not any(e.face_up for e in table.events if isinstance(e, Dealt) and e.seat != DEALER)


def test_the_table_screen_hides_other_seats_cards_until_turned() -> None:
    rules = find_ruleset("casino").with_decks(1)
    table = _table(rules)

    def screen() -> str:
        out = io.StringIO()
        Console(file=out, width=80, color_system=None).print(
            table_picture(table, ["Ann", "you", "Bob"], learner=1))
        return out.getvalue()

    shown = screen()
    assert "▒▒ ▒▒" in shown.splitlines()[1] and "9 2" not in shown.splitlines()[1]
    assert "9" in shown.splitlines()[2] and "▒▒" in shown.splitlines()[3]
    table.hit()
    assert "T 6 K" in screen().splitlines()[1] or "10" in screen().splitlines()[1]



def test_a_held_hand_stands_without_a_total_on_the_screen_and_in_the_transcript() -> None:
    from drills.counting.table_transcript import round_lines
    from trainer.core.events import Stood
    from trainer.render.table import event_line

    table = _table(find_ruleset("casino").with_decks(1))
    table.hit()
    table.double()
    table.stand()
    stood = next(e for e in table.events if isinstance(e, Stood))
    line = event_line(stood, table, ["Ann", "you", "Bob"])
    assert line is not None and line.plain == "Bob stands"
    lines = round_lines(table.events)
    assert lines[4:] == ["Seat 1: hits K, turns up 10 6, busts", "Seat 2: turns up 9 2, doubles, gets 8",
                         "Seat 3: stands", "Dealer: turns 10, draws 7, busts with 22", "Seat 3: turns up 10 10"]
    assert lines[:4] == ["Seat 1: ▒▒ ▒▒", "Seat 2: ▒▒ ▒▒", "Seat 3: ▒▒ ▒▒", "Dealer: 5 ▒▒"]
    face_up = _table(find_ruleset("casino"))
    face_up.hit()
    face_up.double()
    face_up.stand()
    shown = next(e for e in face_up.events if isinstance(e, Stood))
    assert (line := event_line(shown, face_up, ["Ann", "you", "Bob"])) is not None
    assert line.plain == "Bob stands on 20"


def test_the_rule_card_teaches_the_pitch_game_from_seed_001() -> None:
    from trainer.core.describe import rule_card

    said = [s for _, sentences in rule_card(find_ruleset("casino")) for s in sentences]
    pitch = next(s for s in said if "dealer.player_cards" in s.keys)
    assert "at 1 or 2 decks, dealt from the hand, face down" in pitch.text
    one_deck = [s.text for _, sentences in rule_card(find_ruleset("casino").with_decks(1)) for s in sentences]
    assert any(t.startswith("One card face down to each player") for t in one_deck)
    assert not any("dealer.player_cards" in s.keys for _, ss in rule_card(find_ruleset("european")) for s in ss)
