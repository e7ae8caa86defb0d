"""Counting drills: the running count at pace, countdown, speed count, true count, deck estimation,
the bet the count makes, and counting a whole table."""
