"""The chat-host tournament of seed 002, played on the core's `Round`: the d13 dice (`dice`), the
players' cash and standing (`standings`), the computer players (`players`), attacks between rounds
(`attacks`), the host's posts (`posts`) and the tournament's state machine (`tournament`).

Pure like the rest of the core: no I/O, randomness from injected dice.
"""
