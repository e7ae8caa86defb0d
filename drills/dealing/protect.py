"""`cutcard drill protect`: game protection, a table situation to the right call (a bet changed after the
deal, chips outside the circle, a late bet, a player touching cards, doubling for less). The items and
their sources are data (`drills.dealing.dealer_bank`)."""

from __future__ import annotations

from drills.dealing.dealer_bank import DealerBankDrill


class ProtectDrill(DealerBankDrill):
    """Game protection: the situation, then the dealer's call, each answer with its source."""

    name = "protect"
    title = "Game protection"
    target_ms = None
    bank = "protect"
