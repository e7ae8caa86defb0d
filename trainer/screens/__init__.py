"""The screens that commands open at a terminal: a drill (`drill`), a seat at the table (`table`), the
chat-host tournament (`tournament`), and the line and key readers they share (`ask`, `keys`).

Commands open them (`trainer.cli`, `practice.launch`); the REPL (`trainer.repl`) runs those commands. A
screen imports neither: it draws with rich (`trainer.render`) and reads with prompt-toolkit.
"""
