"""Planning a counter's game: risk of ruin, bankroll, goals and ranges of results, pure like the core."""
