"""Whether a feature the server groups share answered its last request from PostgreSQL, with its going
away said in the log once (not at every request while it is away, which on a busy group would be
hundreds of lines a second) and, where the feature says so, its return."""

from __future__ import annotations

import logging

log = logging.getLogger("mahjong-battle.server")


class SaidOnce:
    """``away`` the words of the warning (``{reason}`` in them takes what went wrong); ``back`` those
    of the line at its return, or empty to return in silence."""

    def __init__(self, away: str, back: str = "") -> None:
        self._away = away
        self._back = back
        self.down = False
        """The last request found it away (the feature then works on this group's own)."""

    def lost(self, reason: str = "") -> None:
        """A request found it away: said, unless it was away already."""
        if not self.down:
            log.warning(self._away.format(reason=reason))
            self.down = True

    def answered(self) -> None:
        """A request was answered: it is back (said, when it was away and ``back`` has words)."""
        if self.down and self._back:
            log.warning(self._back)
        self.down = False
