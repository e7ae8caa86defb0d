"""The chat-host tournament of seed 002, a game mode played on the core's `Round`: the d13 dice (`dice`),
the players' cash and standing (`standings`), the computer players (`players`), attacks between rounds
(`attacks`), the host's posts (`posts`) and the tournament's state machine (`game`). Its rules are the rule
set's (`trainer.core.rules.TournamentRules`).

Pure like the core it plays on: no I/O, randomness from injected dice.
"""
