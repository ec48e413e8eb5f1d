"""``python -m generator``: the rulebook command line."""

from .cli import command

command()
