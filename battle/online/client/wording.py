"""How the Python clients (the terminal and the window) word what the server states as facts:
how a game ended, and why a message was refused, from the ``result`` and the ``error`` code and
params, in the reader's language through the catalogue. The page has its own in JavaScript
(``battle/web/endings.js``).
"""

from __future__ import annotations

from battle.i18n import _
from battle.online.protocol.server_messages import State


def unplayed_end(state: State) -> str | None:
    """How a game that counts for nothing ended, in a sentence for the player; None for any other."""
    result = state.result
    if result is None or not result.unplayed:
        return None
    if result.reason == "expired":
        return _("Nobody joined in time: the game expired and counts for nothing.")
    return _("The game was aborted; it counts for nothing.")
