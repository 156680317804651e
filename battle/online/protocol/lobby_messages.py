"""The lobby's part of the online protocol: open challenges anyone may take, and games to watch.

The client's requests (``challenge``, ``lobby_follow``, ``lobby_leave``) are read here for ``reader``,
which runs ``lobby_readers`` for their types with its strict fields; the server's news (``lobby``,
the list once, then ``lobby_news``, what changed) is written by ``lobby_news_json`` and read back by
``parse_lobby_news`` (a client's side, and the tests'). ``docs/protocol.md`` describes each with an
example.

A challenge is a friend's game (``create``'s fields) that the lobby lists for anyone: its entry
carries the game's invite code, and a ``join`` with that code takes it. A game on show carries its
watch code, and a ``watch`` with that code watches it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

from battle.online.protocol.messages import (
    FIRST_CHOICES,
    MAX_MOVE_SECONDS,
    MIN_MOVE_SECONDS,
    Create,
    ErrorCode,
    First,
    JsonObject,
    ProtocolError,
    RequestFields,
    fields_json,
    message_json,
    news_object,
)

DealKind = Literal["number", "random", "position"]
DEAL_KINDS: tuple[DealKind, ...] = ("number", "random", "position")
MAX_CODE_LENGTH = 32
MAX_NAME_LENGTH = 100


# -- what the client asks --------------------------------------------------------------------


@dataclass(frozen=True)
class OpenChallenge:
    """Create a friend's game (``create``'s fields) and list it in the lobby for anyone to take; it
    picks the connection's game as ``create`` does."""

    TYPE: ClassVar[str] = "challenge"
    create: Create


@dataclass(frozen=True)
class FollowLobby:
    """Send the lobby's list now (``lobby``) and what changes in it from now on (``lobby_news``)."""

    TYPE: ClassVar[str] = "lobby_follow"


@dataclass(frozen=True)
class LeaveLobby:
    """Send no more of the lobby's news."""

    TYPE: ClassVar[str] = "lobby_leave"


@dataclass(frozen=True)
class PageLobby:
    """Send the open challenges from the ``start``-th one waiting longest, ``PAGE_SIZE`` of them
    (``lobby_page``): the ones past the part every follower is told of are reached so."""

    TYPE: ClassVar[str] = "lobby_page"
    start: int


LobbyRequest = OpenChallenge | FollowLobby | LeaveLobby | PageLobby
PAGE_SIZE = 50
"""Challenges a ``lobby_page`` answer holds at most."""
MAX_START = 100_000
"""The largest ``start`` read (the lobby holds 2,000 challenges at most)."""


# -- what the server sends -------------------------------------------------------------------


@dataclass(frozen=True)
class ChallengeEntry:
    """One open challenge as the lobby lists it: ``code`` is the game's invite code (a ``join`` with it
    takes the challenge), ``deal`` the deal's number (None for a random deal, whose number shows once
    taken, or a given position), ``first`` who moves first as the challenger chose it (``creator``:
    the challenger), ``opened`` when it was opened (Unix seconds)."""

    code: str
    name: str
    deal_kind: DealKind
    deal: int | None
    first: First
    move_seconds: int | None
    opened: float


@dataclass(frozen=True)
class GameEntry:
    """One game being played, as the lobby shows it to watch: ``watch`` is its watch code, ``players``
    the names of seats 1 and 2 ("" for a player who gave none: each client words the default)."""

    watch: str
    players: tuple[str, str]
    started: float


@dataclass(frozen=True)
class LobbyList:
    """The lobby as it stands: the newest open challenges (newest first) and the newest games being
    played, each list bounded; ``more_challenges`` and ``more_games`` count those not listed."""

    TYPE: ClassVar[str] = "lobby"
    challenges: tuple[ChallengeEntry, ...]
    more_challenges: int
    games: tuple[GameEntry, ...]
    more_games: int


@dataclass(frozen=True)
class LobbyNews:
    """What changed in the lobby's list since the last ``lobby`` or ``lobby_news``: entries added (in
    the order they were opened), the codes of entries gone, and the counts of those not listed."""

    TYPE: ClassVar[str] = "lobby_news"
    added: tuple[ChallengeEntry, ...]
    removed: tuple[str, ...]
    games_added: tuple[GameEntry, ...]
    games_removed: tuple[str, ...]
    more_challenges: int
    more_games: int


@dataclass(frozen=True)
class LobbyPage:
    """The open challenges from the ``start``-th waiting longest (0: the longest), in that order, as
    they stand now (no news follows them), and ``total``, the challenges open."""

    TYPE: ClassVar[str] = "lobby_page"
    start: int
    challenges: tuple[ChallengeEntry, ...]
    total: int


LobbyMessage = LobbyList | LobbyNews | LobbyPage


# -- reading the client's requests -----------------------------------------------------------

F = TypeVar("F")


def lobby_readers(read_create: Callable[[F], Create]) -> dict[str, Callable[[F], LobbyRequest]]:
    """The readers of the lobby's requests, for ``reader``'s table; a challenge's fields are read as
    ``create``'s (``read_create``)."""
    return {
        OpenChallenge.TYPE: lambda fields: OpenChallenge(read_create(fields)),
        FollowLobby.TYPE: lambda fields: FollowLobby(),
        LeaveLobby.TYPE: lambda fields: LeaveLobby(),
        PageLobby.TYPE: _read_page,
    }


def _read_page(fields: Any) -> PageLobby:
    read: RequestFields = fields
    start = read.get("start", True)
    if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start <= MAX_START:
        raise read.fail("start", f"a whole number from 0 to {MAX_START}", start)
    return PageLobby(start)


# -- writing the server's news ---------------------------------------------------------------


def challenge_json(entry: ChallengeEntry) -> JsonObject:
    """One challenge's JSON object, as the lobby's messages (and the groups' shared lobby) carry it."""
    return fields_json(entry)


def _game_json(entry: GameEntry) -> JsonObject:
    return fields_json(entry, players=list(entry.players))


def lobby_news_json(message: LobbyMessage) -> JsonObject:
    """The JSON object of a ``lobby``, ``lobby_news`` or ``lobby_page`` message: every field."""
    if isinstance(message, LobbyPage):
        return message_json(message, challenges=[challenge_json(entry) for entry in message.challenges])
    if isinstance(message, LobbyList):
        return message_json(
            message,
            challenges=[challenge_json(entry) for entry in message.challenges],
            games=[_game_json(entry) for entry in message.games],
        )
    return message_json(
        message,
        added=[challenge_json(entry) for entry in message.added],
        removed=list(message.removed),
        games_added=[_game_json(entry) for entry in message.games_added],
        games_removed=list(message.games_removed),
    )


# -- reading the server's news ---------------------------------------------------------------


def _fail(field: str, expected: str, value: object) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, f'"{field}": expected {expected}, got {str(value)[:40]!r}')


def _text(data: Mapping[str, Any], field: str, limit: int) -> str:
    value = data.get(field)
    if not isinstance(value, str) or len(value) > limit:
        raise _fail(field, f"a string of at most {limit} characters", value)
    return value


def _count(data: Mapping[str, Any], field: str) -> int:
    value = data.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _fail(field, "a whole number from 0", value)
    return value


def _seconds(data: Mapping[str, Any], field: str) -> float:
    value = data.get(field)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise _fail(field, "a number of seconds", value)
    return float(value)


def _list(data: Mapping[str, Any], field: str) -> list[Any]:
    value = data.get(field)
    if not isinstance(value, list):
        raise _fail(field, "a list", value)
    return value


def read_challenge(data: object) -> ChallengeEntry:
    """A challenge's JSON object as its entry; ``ProtocolError`` names what is wrong with it."""
    if not isinstance(data, dict):
        raise _fail("challenge", "an object", data)
    kind = data.get("deal_kind")
    if kind not in DEAL_KINDS:
        raise _fail("deal_kind", " or ".join(DEAL_KINDS), kind)
    deal = data.get("deal")
    if deal is not None and (not isinstance(deal, int) or isinstance(deal, bool) or deal < 0):
        raise _fail("deal", "null or a deal number", deal)
    first = data.get("first")
    if first not in FIRST_CHOICES:
        raise _fail("first", '"creator", "joiner" or "random"', first)
    seconds = data.get("move_seconds")
    if seconds is not None and (not isinstance(seconds, int) or not MIN_MOVE_SECONDS <= seconds <= MAX_MOVE_SECONDS):
        raise _fail("move_seconds", "null or whole seconds", seconds)
    return ChallengeEntry(
        code=_text(data, "code", MAX_CODE_LENGTH),
        name=_text(data, "name", MAX_NAME_LENGTH),
        deal_kind=kind,
        deal=deal,
        first=first,
        move_seconds=seconds,
        opened=_seconds(data, "opened"),
    )


def _read_game(data: object) -> GameEntry:
    if not isinstance(data, dict):
        raise _fail("game", "an object", data)
    players = data.get("players")
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(name, str) for name in players)):
        raise _fail("players", "two names", players)
    return GameEntry(_text(data, "watch", MAX_CODE_LENGTH), (players[0], players[1]), _seconds(data, "started"))


def _codes(data: Mapping[str, Any], field: str) -> tuple[str, ...]:
    codes = _list(data, field)
    if not all(isinstance(code, str) and len(code) <= MAX_CODE_LENGTH for code in codes):
        raise _fail(field, "a list of codes", codes)
    return tuple(codes)


def parse_lobby_news(value: object) -> LobbyMessage:
    """A ``lobby`` or ``lobby_news`` message (a decoded JSON object, or a frame's text) as its dataclass;
    ``ProtocolError`` names what is wrong with anything else."""
    value = news_object(value)
    kind = value.get("type")
    if kind == LobbyList.TYPE:
        return LobbyList(
            challenges=tuple(read_challenge(entry) for entry in _list(value, "challenges")),
            more_challenges=_count(value, "more_challenges"),
            games=tuple(_read_game(entry) for entry in _list(value, "games")),
            more_games=_count(value, "more_games"),
        )
    if kind == LobbyNews.TYPE:
        return LobbyNews(
            added=tuple(read_challenge(entry) for entry in _list(value, "added")),
            removed=_codes(value, "removed"),
            games_added=tuple(_read_game(entry) for entry in _list(value, "games_added")),
            games_removed=_codes(value, "games_removed"),
            more_challenges=_count(value, "more_challenges"),
            more_games=_count(value, "more_games"),
        )
    if kind == LobbyPage.TYPE:
        return LobbyPage(
            start=_count(value, "start"),
            challenges=tuple(read_challenge(entry) for entry in _list(value, "challenges")),
            total=_count(value, "total"),
        )
    raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"not a lobby message: {str(kind)[:40]!r}")
