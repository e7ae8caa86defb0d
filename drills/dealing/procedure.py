"""`cutcard drill procedure`: the next step, or the order of the steps, in a dealer's procedure (opening a
table, the deal, peeking, insurance, take-and-pay, a split and a double, a pitch game, the cut card, the
shuffle and the burn, a deck change). The items and their sources are data (`drills.dealing.dealer_bank`)."""

from __future__ import annotations

from drills.dealing.dealer_bank import DealerBankDrill


class ProcedureDrill(DealerBankDrill):
    """The dealer's procedure, step by step, each answer with its source."""

    name = "procedure"
    title = "Dealer procedure"
    target_ms = None
    bank = "procedure"
