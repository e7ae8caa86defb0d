"""Running drills: one drill run (`session`), the drivers for a pipe and for machine mode (`batch`), and
what the drill-running commands share to launch a run (`launch`: the store, the random source, the
driver). The interactive driver is a screen (`trainer.screens.drill`).
"""
