"""The table as rich text: amounts and totals in the core's words (`trainer.core.money`, `trainer.core.hands`), styled."""

from __future__ import annotations

import io
from decimal import Decimal

from trainer.core import Action, Round, Shoe, load_ruleset
from trainer.core.hands import total_words
from trainer.core.money import dollars, signed_dollars
from trainer.render import make_console
from trainer.render.table import event_line, money_text, table_picture


def test_amounts_are_the_cores_words_with_losses_red_and_signed_wins_green() -> None:
    for amount in (Decimal(25), Decimal("12.50"), Decimal(-10), Decimal(0)):
        assert money_text(amount).plain == dollars(amount)
        assert money_text(amount, signed=True).plain == signed_dollars(amount)
    assert money_text(Decimal(-10)).style == "bad" and money_text(Decimal(5), signed=True).style == "good"
    assert money_text(Decimal(5)).style == "money" and money_text(Decimal(0), signed=True).style == "money"


def test_the_picture_names_each_total_as_the_core_does() -> None:
    casino = load_ruleset("casino")
    round_ = Round.start(casino, Shoe.stacked(casino, "T 9 6 6 9 5 T"), [10, 10])  # you T 6, seat 2 9 9
    round_.act(Action.HIT)  # T 6 + T: bust
    out = io.StringIO()
    make_console(out, width=120, color=False).print(table_picture(round_, ["you", "seat 2"], learner=0))
    busted, standing = round_.hands(0)[0], round_.hands(1)[0]
    assert total_words(busted) == "bust (26)" and total_words(busted) in out.getvalue()
    assert total_words(standing) in out.getvalue()


def test_the_learners_seat_is_told_in_the_second_person() -> None:
    """'you splits; hand 1 gets 2♣' was printed at the table: every verb agrees with 'you'."""
    casino = load_ruleset("casino")
    # you 8 8 against the dealer's 6 (hole 10); split: hand 1 gets 3 (11, doubles: 9), hand 2 gets 2, hits 10
    round_ = Round.start(casino, Shoe.stacked(casino, "8 6 8 T 3 9 2 T T 5"), [10])
    for action in (Action.SPLIT, Action.DOUBLE, Action.HIT, Action.STAND):
        if action in round_.legal_actions():
            round_.act(action)
    while not round_.finished:
        round_.act(Action.STAND)
    lines = [line.plain for e in round_.events if (line := event_line(e, round_, ["you"])) is not None]
    said = " | ".join(lines)
    assert "you split; hand 1 gets 3" in said
    for wrong in ("you splits", "you hits", "you doubles", "you stands", "you wins", "you loses", "you busts",
                  "you pushes", "you has", "you takes", "you insures", "you declines", "you gets"):
        assert wrong not in said, said
    assert any(line.startswith("you (hand 1) double") for line in lines), said
    assert "you (hand 2) get 2" in said  # the split hand's second card is told too
