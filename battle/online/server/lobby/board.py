"""The lobby's list, pure: open challenges and games on show, and what each change does to the part shown.

Every change (a challenge opened, taken or gone; a game started or over) returns a ``BoardChange`` of
the entries that entered and left the part shown: the oldest ``shown`` challenges and the newest
``games_shown`` games, with counts of the rest. The challenges shown are the ones waiting longest,
as in a queue: a challenge opened later, however many and however often replaced, never pushes an
older one out of view (50 networks replacing theirs every 25 s hid a real one after 26 s when the
newest were shown). Working it out costs O(``shown``) whatever the
number of followers; the adapter (``desk``) has ``wire`` word it as ``lobby_news`` and
encodes it once for all of them.

Nothing here reads a clock or a socket: the time is an argument, and a refusal changes nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from battle.online.protocol.lobby_messages import ChallengeEntry, GameEntry
from battle.online.protocol.messages import ErrorCode, ProtocolError


@dataclass(frozen=True)
class LobbyLimits:
    """What the lobby holds and shows."""

    shown: int = 50
    """Open challenges listed to followers (the oldest); the rest are counted."""
    games_shown: int = 10
    """Games being played listed to watch (the newest started); the rest are counted."""
    per_network: int = 2
    """Challenges one client network may have open at once."""
    open_challenges: int = 2_000
    """Challenges open at once on the server."""
    challenge_seconds: float = 15 * 60.0
    """How long a challenge stays listed untaken."""
    grace_seconds: float = 30.0
    """How long a challenge stays listed after its challenger's last connection to it closed (a reload
    or a lost line comes back well within it)."""
    followers: int = 5_000
    """Connections following the lobby at once."""


LOBBY_LIMITS = LobbyLimits()


@dataclass(frozen=True)
class OpenOffer:
    """An open challenge: its entry as listed, the game it opens and the challenger's network."""

    game_id: str
    network: str
    entry: ChallengeEntry


@dataclass(frozen=True)
class GameOnShow:
    """A game started from the lobby, listed to watch until it ends."""

    game_id: str
    entry: GameEntry


@dataclass(frozen=True)
class BoardView:
    """The part of the lobby shown, as a follower first sees it, and counts of the rest."""

    challenges: tuple[ChallengeEntry, ...]
    """The challenges waiting longest, oldest first."""
    more_challenges: int
    games: tuple[GameEntry, ...]
    """The games started last, newest first."""
    more_games: int


@dataclass(frozen=True)
class BoardChange:
    """What one change did to the part shown: entries that came into view, the codes of those that left
    it (invite codes of challenges, watch codes of games), and counts of the rest."""

    added: tuple[ChallengeEntry, ...]
    removed: tuple[str, ...]
    games_added: tuple[GameEntry, ...]
    games_removed: tuple[str, ...]
    more_challenges: int
    more_games: int

    @property
    def seen(self) -> bool:
        """Something came into view or left it (a change to the counts alone is told with the next)."""
        return bool(self.added or self.removed or self.games_added or self.games_removed)


V = TypeVar("V")
NO_CHANGE = BoardChange((), (), (), (), 0, 0)


class LobbyBoard:
    """The open challenges (oldest first) and the games on show, and the news of each change."""

    def __init__(self, limits: LobbyLimits = LOBBY_LIMITS) -> None:
        self.limits = limits
        self.offers: dict[str, OpenOffer] = {}
        """Open challenges by game id, in the order they were opened."""
        self.games: dict[str, GameOnShow] = {}
        """Games on show by game id, in the order they started."""

    # -- questions -------------------------------------------------------------------------

    def refuse_offer(self, network: str) -> None:
        """Raise ``busy`` if ``network`` may not open another challenge now; changes nothing."""
        held = sum(1 for offer in self.offers.values() if offer.network == network)
        if held >= self.limits.per_network:
            raise ProtocolError(
                ErrorCode.BUSY,
                f"your address has {held} open challenges already; wait until one is taken or withdraw one",
                params={"why": "challenges", "count": held},
            )
        if len(self.offers) >= self.limits.open_challenges:
            raise ProtocolError(ErrorCode.BUSY, "the lobby is full; try again later", params={"why": "lobby_full"})

    def expired(self, now: float) -> list[str]:
        """The game ids of the challenges open for ``challenge_seconds`` or more at ``now``."""
        limit = now - self.limits.challenge_seconds
        return [game for game, offer in self.offers.items() if offer.entry.opened <= limit]

    def page(self, start: int, size: int) -> tuple[tuple[ChallengeEntry, ...], int]:
        """Up to ``size`` open challenges from the ``start``-th waiting longest, and how many are open:
        O(start + size)."""
        picked = itertools.islice(self.offers.values(), start, start + size)
        return tuple(offer.entry for offer in picked), len(self.offers)

    def listing(self) -> BoardView:
        """The lobby as a follower first sees it."""
        shown = self._shown_offers()
        games = self._shown_games()
        return BoardView(
            challenges=tuple(self.offers[game].entry for game in shown),
            more_challenges=len(self.offers) - len(shown),
            games=tuple(self.games[game].entry for game in reversed(games)),
            more_games=len(self.games) - len(games),
        )

    # -- changes ---------------------------------------------------------------------------

    def open(self, offer: OpenOffer) -> BoardChange:
        """List ``offer`` (after ``refuse_offer``)."""
        return self._changed(lambda: self.offers.__setitem__(offer.game_id, offer))

    def close(self, game_id: str) -> BoardChange:
        """The challenge of ``game_id`` is gone (taken, withdrawn, expired); no news if it was not listed."""
        if game_id not in self.offers:
            return NO_CHANGE
        return self._changed(lambda: self.offers.pop(game_id))

    def swap(self, gone: Iterable[str], opened: Iterable[OpenOffer]) -> BoardChange:
        """The challenges of ``gone`` (game ids or another group's keys) close and ``opened`` are listed
        (in that order, oldest first), in one piece of news: another group's whole list read afresh."""

        def swap() -> None:
            for game in gone:
                self.offers.pop(game, None)
            for offer in opened:
                self.offers[offer.game_id] = offer

        return self._changed(swap)

    def show(self, game: GameOnShow) -> BoardChange:
        """List ``game`` to watch."""
        return self._changed(lambda: self.games.__setitem__(game.game_id, game))

    def taken(self, game: GameOnShow) -> BoardChange:
        """The challenge of ``game`` was taken: it leaves the challenges and is on show, in one piece of news."""

        def take() -> None:
            self.offers.pop(game.game_id, None)
            self.games[game.game_id] = game

        return self._changed(take)

    def renamed(self, game: GameOnShow) -> BoardChange:
        """A player of a game on show named their seat: its entry is told again (removed and added in one
        piece of news, in its place); no news for a game not shown."""
        if game.game_id not in self.games:
            return NO_CHANGE
        self.games[game.game_id] = game
        if game.game_id not in self._shown_games():
            return NO_CHANGE
        more_challenges = len(self.offers) - len(self._shown_offers())
        more_games = len(self.games) - len(self._shown_games())
        watch = game.entry.watch
        return BoardChange((), (), (game.entry,), (watch,), more_challenges, more_games)

    def ended(self, game_id: str) -> BoardChange:
        """The game of ``game_id`` is over: no longer on show."""
        if game_id not in self.games:
            return NO_CHANGE
        return self._changed(lambda: self.games.pop(game_id))

    def _changed(self, change: Callable[[], object]) -> BoardChange:
        """Make ``change`` and return what it did to the part shown."""
        before_offers = {game: self.offers[game].entry.code for game in self._shown_offers()}
        before_games = {game: self.games[game].entry.watch for game in self._shown_games()}
        change()
        after_offers, after_games = self._shown_offers(), self._shown_games()
        offers_now, games_now = set(after_offers), set(after_games)
        return BoardChange(
            added=tuple(self.offers[game].entry for game in after_offers if game not in before_offers),
            removed=tuple(code for game, code in before_offers.items() if game not in offers_now),
            games_added=tuple(self.games[game].entry for game in after_games if game not in before_games),
            games_removed=tuple(watch for game, watch in before_games.items() if game not in games_now),
            more_challenges=len(self.offers) - len(after_offers),
            more_games=len(self.games) - len(after_games),
        )

    # -- the part shown --------------------------------------------------------------------

    def _shown_offers(self) -> list[str]:
        """The game ids of the challenges shown, oldest first."""
        return _oldest(self.offers, self.limits.shown)

    def _shown_games(self) -> list[str]:
        return _newest(self.games, self.limits.games_shown)


def _oldest(entries: dict[str, V], count: int) -> list[str]:
    """The first ``count`` keys of ``entries`` (in insertion order): O(count), not O(len)."""
    keys: list[str] = []
    for key in entries:
        if len(keys) == count:
            break
        keys.append(key)
    return keys


def _newest(entries: dict[str, V], count: int) -> list[str]:
    """The last ``count`` keys of ``entries`` (in insertion order), oldest first: O(count), not O(len)."""
    keys: list[str] = []
    for key in reversed(entries):
        if len(keys) == count:
            break
        keys.append(key)
    keys.reverse()
    return keys
