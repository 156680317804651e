"""The lobby's list, pure: what each change does to the part shown, the caps, expiry, and the protocol's
round trip of its news."""

from __future__ import annotations

import pytest

from battle.online.protocol.lobby_messages import (
    ChallengeEntry,
    FollowLobby,
    GameEntry,
    LeaveLobby,
    OpenChallenge,
    lobby_news_json,
    parse_lobby_news,
)
from battle.online.protocol.messages import GivenPosition, NumberedDeal, ProtocolError
from battle.online.protocol.reader import parse_client_message
from battle.online.server.lobby.board import NO_CHANGE, GameOnShow, LobbyBoard, LobbyLimits, OpenOffer
from battle.online.server.lobby.wire import lobby_list, lobby_news


def offer(number: int, network: str = "net", opened: float = 0.0) -> OpenOffer:
    entry = ChallengeEntry(f"CODE{number}", f"P{number}", "number", number, "creator", None, opened)
    return OpenOffer(f"game{number}", network, entry)


def game(number: int) -> GameOnShow:
    return GameOnShow(f"game{number}", GameEntry(f"W{number}", ("Ann", "Bob"), 0.0))


def test_an_offer_is_added_and_a_close_removes_it() -> None:
    board = LobbyBoard()
    news = board.open(offer(1))
    assert [entry.code for entry in news.added] == ["CODE1"] and news.removed == ()
    news = board.close("game1")
    assert news.removed == ("CODE1",) and news.added == ()
    assert board.close("game1") == NO_CHANGE  # closing twice tells nothing


def test_the_list_shows_the_longest_waiting_and_counts_the_rest() -> None:
    board = LobbyBoard(LobbyLimits(shown=3, per_network=100))
    for number in range(3):
        board.open(offer(number, network=f"n{number}"))
    news = board.open(offer(3, network="n3"))
    assert news.added == () and news.removed == ()  # the newest waits behind the three shown ...
    assert news.more_challenges == 1  # ... and is counted
    listing = board.listing()
    assert [entry.code for entry in listing.challenges] == ["CODE0", "CODE1", "CODE2"]  # oldest first
    assert listing.more_challenges == 1
    news = board.close("game1")  # a shown one goes: the oldest hidden one comes into view
    assert news.removed == ("CODE1",)
    assert [entry.code for entry in news.added] == ["CODE3"]
    assert news.more_challenges == 0


def test_challenges_replaced_again_and_again_never_push_an_older_one_out_of_view() -> None:
    board = LobbyBoard(LobbyLimits(shown=50, per_network=2))
    board.open(offer(0, network="real"))
    number = 1
    for _ in range(20):  # 50 networks replace their two challenges, twenty times over
        for network in range(50):
            for _ in range(2):
                board.open(offer(number, network=f"crowd{network}"))
                number += 1
        for game in [game for game, held in board.offers.items() if held.network != "real"]:
            board.close(game)
        assert "CODE0" in [entry.code for entry in board.listing().challenges]


def test_a_change_outside_the_part_shown_sends_nothing_to_show() -> None:
    board = LobbyBoard(LobbyLimits(shown=2, per_network=100))
    for number in range(4):
        board.open(offer(number, network=f"n{number}"))
    news = board.close("game3")  # hidden: only the count changes
    assert news.added == () and news.removed == () and news.more_challenges == 1


def test_a_network_may_hold_its_share_of_open_challenges() -> None:
    board = LobbyBoard(LobbyLimits(per_network=2))
    board.open(offer(1, "home"))
    board.open(offer(2, "home"))
    with pytest.raises(ProtocolError) as refused:
        board.refuse_offer("home")
    assert refused.value.params == {"why": "challenges", "count": 2}
    board.refuse_offer("school")  # another network is not held back
    board.close("game1")
    board.refuse_offer("home")


def test_the_lobby_holds_a_bounded_number_of_challenges() -> None:
    board = LobbyBoard(LobbyLimits(per_network=10, open_challenges=3))
    for number in range(3):
        board.open(offer(number, network=f"n{number}"))
    with pytest.raises(ProtocolError) as refused:
        board.refuse_offer("n9")
    assert refused.value.params == {"why": "lobby_full"}


def test_challenges_expire_after_their_time() -> None:
    board = LobbyBoard(LobbyLimits(challenge_seconds=60, per_network=5))
    board.open(offer(1, opened=100.0))
    board.open(offer(2, opened=130.0))
    assert board.expired(159.0) == []
    assert board.expired(160.0) == ["game1"]
    assert board.expired(200.0) == ["game1", "game2"]


def test_games_on_show_are_bounded_and_leave_when_over() -> None:
    board = LobbyBoard(LobbyLimits(games_shown=2))
    board.show(game(1))
    board.show(game(2))
    news = board.show(game(3))
    assert [entry.watch for entry in news.games_added] == ["W3"] and news.games_removed == ("W1",)
    assert news.more_games == 1
    news = board.ended("game3")
    assert news.games_removed == ("W3",) and [entry.watch for entry in news.games_added] == ["W1"]
    assert [entry.watch for entry in board.listing().games] == ["W2", "W1"]


def test_the_news_and_the_list_read_back_as_written() -> None:
    board = LobbyBoard(LobbyLimits(shown=2, per_network=5))
    board.open(offer(1))
    board.show(game(7))
    news = lobby_news(board.open(offer(2)))
    assert parse_lobby_news(lobby_news_json(news)) == news
    listing = lobby_list(board.listing())
    assert parse_lobby_news(lobby_news_json(listing)) == listing


def test_bad_news_is_refused_with_the_field_named() -> None:
    listing = lobby_news_json(lobby_list(LobbyBoard().listing()))
    listing["more_games"] = -1
    with pytest.raises(ProtocolError, match="more_games"):
        parse_lobby_news(listing)


@pytest.mark.parametrize("frame", ["{", "[]", "[" * 100_000 + "]" * 100_000, b"\xff"])
def test_a_frame_that_is_no_json_object_is_refused_in_one_line(frame: str | bytes) -> None:
    """As the solver's news are: a client reading a broken server never meets a RecursionError."""
    with pytest.raises(ProtocolError, match="JSON"):
        parse_lobby_news(frame)


def test_the_client_requests_read() -> None:
    challenge = parse_client_message('{"type": "challenge", "deal": {"number": 7}, "first": "joiner", "name": "Ann"}')
    assert isinstance(challenge, OpenChallenge)
    assert challenge.create.deal == NumberedDeal(7) and challenge.create.first == "joiner"
    assert challenge.create.name == "Ann"
    position = parse_client_message('{"type": "challenge", "deal": {"random": true}, "first": "random"}')
    assert isinstance(position, OpenChallenge) and not isinstance(position.create.deal, GivenPosition)
    assert parse_client_message('{"type": "lobby_follow"}') == FollowLobby()
    assert parse_client_message('{"type": "lobby_leave"}') == LeaveLobby()
    with pytest.raises(ProtocolError, match="first"):
        parse_client_message('{"type": "challenge", "deal": {"number": 7}, "first": "me"}')
    with pytest.raises(ProtocolError, match="unknown"):
        parse_client_message('{"type": "lobby_follow", "all": true}')


def test_a_challenge_taken_leaves_and_goes_on_show_in_one_piece_of_news() -> None:
    board = LobbyBoard()
    board.open(offer(1))
    news = board.taken(game(1))
    assert news.removed == ("CODE1",) and [entry.watch for entry in news.games_added] == ["W1"]
    assert board.offers == {}


def test_a_game_on_show_renamed_is_told_again_in_its_place() -> None:
    board = LobbyBoard()
    board.show(game(1))
    board.show(game(2))
    named = GameOnShow("game1", GameEntry("W1", ("Ann", "Dan"), 0.0))
    news = board.renamed(named)
    assert news.games_removed == ("W1",) and news.games_added == (named.entry,)
    assert [entry.players for entry in board.listing().games] == [("Ann", "Bob"), ("Ann", "Dan")]
    assert board.renamed(GameOnShow("game9", named.entry)) == NO_CHANGE


def test_a_page_reaches_every_challenge_past_the_part_shown() -> None:
    board = LobbyBoard(LobbyLimits(shown=3, per_network=100))
    for number in range(8):
        board.open(offer(number, network=f"n{number}"))
    shown = [entry.code for entry in board.listing().challenges]
    assert shown == ["CODE0", "CODE1", "CODE2"]
    pages = [board.page(start, 2) for start in (3, 5, 7, 9)]
    assert [[entry.code for entry in page] for page, _ in pages] == [
        ["CODE3", "CODE4"],
        ["CODE5", "CODE6"],
        ["CODE7"],
        [],
    ]
    assert {total for _, total in pages} == {8}
