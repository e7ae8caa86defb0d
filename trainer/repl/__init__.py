"""The interactive trainer: the prompt-toolkit REPL that runs the commands.

The screens the commands open are `trainer.screens`.
"""
