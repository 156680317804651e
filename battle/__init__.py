"""Mahjong Battle: the rules model, the user's files, the command line and the window.

``battle.rules`` is the pure model and what a script needs, re-exported here
(``from battle import Game, parse_position``); ``battle.storage`` keeps the user's
files; ``battle.cli`` and ``battle.ui`` are the front ends, which reach the solver
only through ``battle.players``. Importing ``battle`` loads neither pygame nor numba.
"""

from battle.rules import *  # noqa: F403 - the rules model's public names, listed once in battle.rules
from battle.rules import __all__ as __all__

__version__ = "0.1.0"
