"""Comparing games: many rule sets and their variants planned for one learner, simulated as seeded chunks
in local processes or on a Dask cluster (`cutcard compare`)."""
