"""The lobby's messages (``wire``'s sibling): its entries, its list and its news, built from the
facts the board and its desk hold (a room, the challenge asked, a time, the entries shown)."""

from __future__ import annotations

from battle.online.protocol.lobby_messages import ChallengeEntry, DealKind, GameEntry, LobbyList, LobbyNews, LobbyPage
from battle.online.protocol.messages import Create, DealChoice, GivenPosition, NumberedDeal
from battle.online.server.lobby.board import BoardChange, BoardView
from battle.online.server.rooms.room import Room


def deal_kind(deal: DealChoice) -> DealKind:
    """How a challenge's deal is listed: by its number, as random (its number shows once the game
    starts), or as a given position."""
    if isinstance(deal, NumberedDeal):
        return "number"
    return "position" if isinstance(deal, GivenPosition) else "random"


def challenge_entry(room: Room, asked: Create, opened: float) -> ChallengeEntry:
    """``room``'s game, just created as the challenge ``asked``, as the lobby lists it from ``opened``."""
    deal = asked.deal
    return ChallengeEntry(
        code=room.invite,
        name=room.seats[room.creator_seat].name,
        deal_kind=deal_kind(deal),
        deal=deal.number if isinstance(deal, NumberedDeal) else None,
        first=asked.first,
        move_seconds=asked.move_seconds,
        opened=opened,
    )


def game_entry(room: Room, started: float) -> GameEntry:
    """``room``'s game, being played since ``started``, as the lobby shows it to watch."""
    return GameEntry(room.watch, (room.seats[1].name, room.seats[2].name), started)


def lobby_list(view: BoardView) -> LobbyList:
    """The lobby as a follower first sees it: the entries shown (challenges oldest first, games newest
    first) and counts of the rest."""
    return LobbyList(
        challenges=view.challenges, more_challenges=view.more_challenges, games=view.games, more_games=view.more_games
    )


def lobby_news(change: BoardChange) -> LobbyNews:
    """What a change did to the part of the lobby shown: entries added, codes gone, counts of the rest."""
    return LobbyNews(
        added=change.added,
        removed=change.removed,
        games_added=change.games_added,
        games_removed=change.games_removed,
        more_challenges=change.more_challenges,
        more_games=change.more_games,
    )


def lobby_page(start: int, challenges: tuple[ChallengeEntry, ...], total: int) -> LobbyPage:
    """The open challenges from the ``start``-th waiting longest, as they stand, and how many are open."""
    return LobbyPage(start=start, challenges=challenges, total=total)
