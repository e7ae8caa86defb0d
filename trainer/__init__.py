"""cutcard: a terminal trainer for blackjack card counters and dealer trainees."""

__version__ = "0.1.0"
