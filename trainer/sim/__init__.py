"""The simulator: millions of rounds dealt from real shoes and played by a chart, fast.

Pure like the core: it imports only `trainer.core`, `trainer.strategy` and itself, reads no clock and
draws randomness only from the `random.Random` it is given. The command line, the progress bar and the
learner's error rates from the progress database come in from the outer layer.
"""
