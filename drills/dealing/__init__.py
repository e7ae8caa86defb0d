"""Dealer drills: payouts and colouring up, cutting cheques, settling a whole table, and catching
a dealer's mistakes."""
