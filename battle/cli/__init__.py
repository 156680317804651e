"""The command line: ``mahjong-battle`` and its subcommands, terminal play, the text board.

``main`` runs a command line and returns its exit code; ``entry_point`` is the
installed script. The window (``battle.ui``) opens when no subcommand is given.
"""

from battle.cli.main import entry_point, main

__all__ = ["entry_point", "main"]
