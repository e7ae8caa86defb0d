"""The interactive trainer: the prompt-toolkit REPL that runs the commands (their screens: `trainer.screens`)."""
