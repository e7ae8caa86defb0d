"""The interactive trainer: the prompt-toolkit REPL and the interactive drill screens."""
