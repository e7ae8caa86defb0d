"""Index plays computed for the learner's own game: exact EVs of real depleted shoes, grouped by count.

`shoes` deals the pool of round starts from real shoes; `compute` deals each play's hand at those states,
takes the learner's true count and the exact EVs of both plays (`trainer.strategy.depleted`); `crossing`
finds the index and its standard error; `run` spreads the plays over processes and caches the results
per rule set, count system and sample settings.
"""
