"""Mahjong Battle: the rules model, the user's files, the command line and the window.

``battle.rules`` is the pure model and what a script needs, re-exported here
(``from battle import Game, parse_position``); ``battle.storage`` keeps the user's
files; ``battle.cli`` and ``battle.ui`` are the front ends, which reach the solver
only through ``battle.players``. Importing ``battle`` loads neither pygame nor numba.

The rules' names load when first asked for: ``import battle`` runs no other module, so the
``mahjong-battle`` command's own code starts before any of the package's imports (a Ctrl-C
during them ends it with one line, ``battle.cli.entry_point``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from battle.rules import *  # noqa: F403 - the rules model's public names, listed once in battle.rules
    from battle.rules import __all__ as __all__

__version__ = "0.2.0.dev0"
"""The next release's, with ``.dev0`` until it is made (CHANGELOG.md's "Unreleased"): a build from the
source between releases says it is not 0.1.0."""


def __getattr__(name: str) -> object:
    """A name of the rules model (``__all__`` included, for ``from battle import *``)."""
    import battle.rules as rules

    if name == "__all__":
        return rules.__all__
    if name in rules.__all__:
        return getattr(rules, name)
    raise AttributeError(f"module 'battle' has no attribute {name!r}")
