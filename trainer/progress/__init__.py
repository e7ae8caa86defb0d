"""What the trainer makes of the learner's recorded answers: review items and their names (`items`),
the spaced-repetition schedule and queue (`scheduling`, `review`), the figures of `cutcard stats`
(`stats`, `stats_review`, `stats_strategy`), readiness for a casino (`readiness`), the recap around a
run (`recap`), where a drill's practice should go (`drill_focus`), the measured error rates the
simulator plays with (`learner`), calendar days (`days`) and `cutcard export` (`export`).

The database itself is `trainer.storage`.
"""
