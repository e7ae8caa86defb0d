"""A learner at a full table (`cutcard play`): computer seats, a real shoe, bets, and checks of the
learner's plays and count. No terminal here: `trainer.screens.table` draws it and reads the keys."""
