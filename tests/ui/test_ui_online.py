"""Online play in the window, headless, against a real server on 127.0.0.1: the title's Play online,
hosting with the invite code shown, joining by a typed code, moves both ways, the takeback request,
a dropped connection and its return, coming back from the list of online games, resigning, and the
one-line messages for a bad address or code. The opponent is a raw WebSocket client
(``online_server.Client``); the window is driven by real clicks, keys and typing, frame by frame.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from battle import i18n
from battle.history.store import History
from battle.online.client.seats import Seat, load_seats, remember_seat
from battle.online.client.state_game import result_of_state
from battle.online.protocol.codes import format_code
from battle.online.protocol.messages import ErrorCode
from battle.online.protocol.server_messages import Error, GameResult, Offers, PlayerInfo, State
from battle.online.server.limits.server import ServerLimits
from battle.online.server.rooms.room import REMATCH_RETRY_SECONDS
from battle.rules.board import move_name, parse_move
from battle.rules.game import Game
from battle.ui.choice_scene import ChoiceScene
from battle.ui.files.settings import MIN_SIZE, Settings, load_settings, save_settings
from battle.ui.online import connection, lobby_scene
from battle.ui.online.connection import ONLINE_EVENT
from battle.ui.online.lobby_scene import LobbyScene
from battle.ui.online.online_mode import WATCHING
from battle.ui.online.online_result import OnlineResultScene
from battle.ui.online.online_scene import OnlineScene
from battle.ui.online.online_state import (
    clock_text,
    common_prefix,
    describe_end,
    expected_moves,
    game_terms,
    open_question,
)
from battle.ui.online.setup_form import FormProblem, kept_game_line, read_address, read_code
from battle.ui.online.setup_scene import OnlineSetupScene
from battle.ui.review.review_scene import ReviewScene
from battle.ui.title.title_scene import TitleScene
from tests import ui_harness as ui
from tests.online_server import Client, ServerThread, a_legal_move, host_and_join
from tests.ui.drawn_text import record_texts
from tests.ui.test_ui_labels import assert_labels_fit
from tests.ui.test_ui_language import drawn_texts

WAIT = 10.0


def open_setup(app) -> OnlineSetupScene:  # noqa: ANN001
    title = app.stack.top
    assert isinstance(title, TitleScene)
    ui.click_button(app, title.widgets["online"])
    setup = app.stack.top
    assert isinstance(setup, OnlineSetupScene)
    return setup


def fill(app, entry, text: str) -> None:  # noqa: ANN001
    """Click a text field, select what it holds and type ``text`` over it."""
    ui.click(app, entry.rect.center)
    ui.key(app, pygame.K_a, pygame.KMOD_CTRL)
    ui.type_text(app, text)


def setup_with_code(app, url: str, code: str) -> OnlineSetupScene:  # noqa: ANN001
    """Play online from the title, with the server and a code typed in."""
    setup = open_setup(app)
    fill(app, setup.widgets["server"], url)
    fill(app, setup.widgets["code"], code)
    return setup


def host_in_window(app, url: str, deal: str = "5") -> LobbyScene:  # noqa: ANN001
    setup = open_setup(app)
    fill(app, setup.widgets["server"], url)
    fill(app, setup.widgets["deal"], deal)
    ui.click_button(app, setup.widgets["host"])
    lobby = app.stack.top
    assert isinstance(lobby, LobbyScene)
    ui.run_until(app, lambda: lobby.invite is not None and lobby.link.state == "connected", WAIT)
    return lobby


def guest_joins(url: str, invite: str, name: str = "Bob") -> tuple[Client, dict]:
    guest = Client(url, name)
    guest.send({"type": "join", "code": invite, "name": name})
    guest.expect("joined")
    return guest, guest.expect("state")


def ann_hosts(url: str) -> tuple[Client, dict, dict]:
    """Ann, a raw client, hosts deal 7 and moves first: her client, the ``created`` message and the state."""
    host = Client(url, "Ann")
    host.send({"type": "create", "deal": {"number": 7}, "first": "creator", "name": "Ann"})
    created = host.expect("created")
    return host, created, host.expect("state")


def game_screen(app) -> OnlineScene:  # noqa: ANN001
    ui.run_until(app, lambda: isinstance(app.stack.top, OnlineScene), WAIT)
    scene = app.stack.top
    assert isinstance(scene, OnlineScene)
    return scene


def hosted_game(app, server: ServerThread) -> tuple[OnlineScene, Client, dict]:  # noqa: ANN001
    """The window hosts deal 5 and moves first; Bob, a raw client, joins."""
    lobby = host_in_window(app, server.url)
    guest, state = guest_joins(server.url, lobby.invite or "")
    return game_screen(app), guest, state


def window_moves_first(app, scene, guest: Client, state: dict) -> str:  # noqa: ANN001
    """The window plays its first legal move; Bob sees it and ``state`` follows. Returns the move."""
    move = move_name(scene.position.legal_moves()[0])
    ui.play_move(app, parse_move(move))
    guest.expect("moved")
    state["moves"].append(move)
    return move


def press(app, scene, name: str) -> None:  # noqa: ANN001
    button = scene.buttons[name]
    assert button.is_enabled, f"{name} is disabled: {scene.status.text}"
    ui.click_button(app, button)


# -- the form's readers ----------------------------------------------------------------------


def test_addresses_and_codes_read_as_people_type_them() -> None:
    assert read_address(" ws://example.org:8765 ") == "ws://example.org:8765"
    assert read_address("wss://example.org") == "wss://example.org"
    for bad, words in (
        ("http://example.org", "not a ws:// or wss://"),
        ("example.org:8765", "not a ws://"),
        ("ws://:8765", "names no host"),
        ("ws://host:99999", "not an address"),
        ("", "type the"),
    ):
        with pytest.raises(FormProblem, match=words):
            read_address(bad)
    assert read_code("k7qm-2xpd") == "K7QM2XPD"
    assert read_code("I0LO 1234") == "10101234"
    with pytest.raises(FormProblem, match="Invite code: .* expected 8 characters, got 3"):
        read_code("abc")
    with pytest.raises(FormProblem, match="Invite code: .*'U' is not one of"):
        read_code("UUUU-UUUU")


def players(first: str | None, second: str | None) -> tuple[PlayerInfo, ...]:
    return tuple(
        PlayerInfo(seat, name, "connected" if name else "open", seat == 1) for seat, name in ((1, first), (2, second))
    )


def a_state(**fields: Any) -> State:
    """A ``state`` with Ann in seat 1 (the window's) and Bob in seat 2, changed by ``fields``."""
    given: dict[str, Any] = {
        "game": "g1",
        "you": 1,
        "status": "playing",
        "start": "",
        "deal": 5,
        "moves": (),
        "to_move": 1,
        "scores": (0, 0),
        "players": players("Ann", "Bob"),
    }
    return State(**{**given, **fields})


def test_the_board_shows_the_servers_moves_and_the_own_move_on_its_way() -> None:
    state = a_state(moves=("a1-a9",))
    assert expected_moves(state, []) == [parse_move("a1-a9")]
    assert expected_moves(state, [("m1", "b9-b1")]) == [parse_move("a1-a9"), parse_move("b1-b9")]
    # once the server has the move the turn has passed: its list holds the move (or refused it)
    assert expected_moves(replace(state, to_move=2), [("m1", "b9-b1")]) == [parse_move("a1-a9")]
    assert common_prefix([parse_move("a1-a9"), parse_move("b1-b9")], [parse_move("a1-a9")]) == 1


def test_the_end_reads_from_the_servers_result() -> None:
    state = a_state(status="finished", to_move=None, result=GameResult(2, "resign", (40, 62)))
    assert describe_end(state) == "You resigned; Bob wins, 40-62."
    state = replace(state, result=GameResult(1, "time", (20, 50)))
    assert describe_end(state) == "Bob ran out of time; you win, 20-50."
    result = result_of_state(state)
    assert result is not None and result.winner == 1 and result.scores == (20, 50)  # fewer points, still the winner
    state = replace(state, result=GameResult(1, "no_pair", (140, 130)))
    assert describe_end(state) == "You win 140-130 (by 10)."
    assert open_question(replace(state, offers=Offers(rematch=2))) == "rematch"
    assert open_question(replace(state, offers=Offers(rematch=1))) is None  # your own offer


def test_the_end_and_refusals_are_whole_sentences_in_the_readers_language_told_by_seat() -> None:
    resigned = a_state(status="finished", to_move=None, result=GameResult(1, "resign", (62, 40)))
    late = replace(resigned, you=2, result=GameResult(2, "time", (62, 40)))
    not_yours = Error(ErrorCode.NOT_YOUR_TURN, "not your turn: seat 1 is to move", {"seat": 1})
    as_you = a_state(players=players("You", "Bob"), you=2)  # the opponent's name is "You"
    try:
        i18n.set_language("de")
        assert describe_end(replace(resigned, you=2)) == "Du hast aufgegeben; Ann gewinnt, 40-62."
        assert describe_end(resigned) == "Bob hat aufgegeben; du gewinnst, 62-40."
        assert describe_end(late) == "Ann hat die Zeit überschritten; du gewinnst, 40-62."
        assert connection.refusal(not_yours, a_state(you=2)) == "Du bist nicht am Zug: Ann ist am Zug."
        assert describe_end(replace(as_you, status="finished", result=GameResult(1, "no_pair", (70, 60)))) == (
            "You gewinnt 60-70 (+10)."
        )
    finally:
        i18n.set_language("en")
    assert connection.refusal(not_yours, a_state(you=2)) == "It is not your turn: Ann is to move."
    assert describe_end(late) == "Ann ran out of time; you win, 40-62."


def test_clocks_terms_and_kept_games_in_words() -> None:
    assert [clock_text(s) for s in (41.2, 0.2, 0.0, 245, 86400)] == ["0:42", "0:01", "0:00", "4:05", "24:00:00"]
    assert game_terms(a_state(move_seconds=60, lose_on_time=True)) == "Deal 5 · 1 min a move, lose on time"
    assert game_terms(a_state(deal=None)) == "a composed start · no time limit"
    seat = Seat("ws://games.example.org:8765", "g", "t", 1, opponent="Bob", updated=1000.0)
    assert kept_game_line(seat, now=1000.0 + 2 * 86400 + 5) == "Bob · games.example.org:8765 · in play, 2 days ago"
    waiting = Seat("wss://x.org", "g", "t", 1)
    assert kept_game_line(waiting, now=5.0) == "no opponent yet · x.org · waiting for an opponent"


# -- hosting, joining, playing ---------------------------------------------------------------


def test_a_game_hosted_from_the_title_is_played_against_a_raw_client(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        lobby = host_in_window(app, server.url)
        assert lobby.heading() == "Waiting for your opponent..."
        assert "copy" in lobby.buttons and lobby.link_line() == (
            f"Connected to 127.0.0.1:{server.port} · waiting for your opponent...",
            "good",
        )
        ui.click_button(app, lobby.buttons["copy"])
        secret = lobby.invite_secret or ""  # the link carries the code's secret: no stranger can guess it
        assert len(secret) == 32 and secret.startswith(lobby.invite or "-")
        link = f"http://127.0.0.1:{server.port}/join/{format_code(secret)}"
        assert lobby.note.text == f"Copied {link}: paste it to your opponent."
        assert pygame.scrap.get_text() == link  # the invite link: it opens the game in a browser
        assert app.settings.online_server == server.url

        guest, state = guest_joins(server.url, format_code(lobby.invite or "").lower())
        scene = game_screen(app)
        assert scene.online.you == 1 and scene.game.deal_number == 5
        assert scene.game.names == ("Player 1", "Bob")  # "You" would read as Bob himself on his screen
        assert scene.online.panel_label() == f"online · you are Player 1 · server 127.0.0.1:{server.port}"
        # the panel's header shows the longest form that fits it
        assert scene.panel_info().start_label == f"online · Player 1 (you) · 127.0.0.1:{server.port}"
        assert [p.role for p in scene.panel_info().players] == [
            "you · connected",
            "Player 2 · connected",
        ]  # not "Player 1" twice

        move = scene.position.legal_moves()[0]
        ui.play_move(app, move)
        assert scene.game.ply == 1 and scene.status.text.startswith("You took")
        assert guest.expect("moved")["move"] == move_name(move)
        ui.run_until(app, lambda: scene.online.state.to_move == 2, WAIT)
        blocked = scene.position.legal_moves()[0]
        ui.click_cell(app, blocked[0])
        assert scene.status.text == "Wait: Bob is to move." and scene.selected is None

        state["moves"].append(move_name(move))
        reply = a_legal_move(state)
        guest.send({"type": "move", "move": reply, "id": "b1"})
        ui.run_until(app, lambda: scene.game.ply == 2, WAIT)
        assert move_name(scene.game.moves[-1]) == reply
        assert scene.status.text.startswith("Bob took") and "Your move" in scene.status.text
        assert any(type(a).__name__ == "Removal" for a in scene.animations)  # the opponent's move is animated


def test_a_typed_invite_code_joins_and_the_board_follows_both_sides(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        host, created, state = ann_hosts(server.url)
        app = new_app()
        typed = format_code(created["invite"]).lower().replace("1", "l").replace("0", "o")
        setup_with_code(app, server.url, typed)
        ui.key(app, pygame.K_RETURN)  # Enter in the code field joins
        scene = game_screen(app)
        assert scene.online.you == 2 and scene.game.deal_number == 7
        ui.click_cell(app, scene.position.legal_moves()[0][0])
        assert scene.status.text == "Wait: Ann is to move."

        host.expect("state")
        move = a_legal_move(state)
        host.send({"type": "move", "move": move, "id": "a1"})
        ui.run_until(app, lambda: scene.game.ply == 1, WAIT)
        assert host.expect("moved")["move"] == move  # the host's own, echoed
        mine = scene.position.legal_moves()[-1]
        ui.play_move(app, mine)
        assert host.expect("moved")["move"] == move_name(mine)
        ui.run_until(app, lambda: not scene.session.pending, WAIT)
        assert scene.game.ply == 2


def test_a_watch_code_shows_the_game_move_by_move_and_the_window_makes_none(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        host, created, state = ann_hosts(server.url)
        app = new_app()
        setup = setup_with_code(app, server.url, format_code(created["watch"]))
        ui.click_button(app, setup.widgets["watch"])
        lobby = app.stack.top
        assert isinstance(lobby, LobbyScene)
        ui.run_until(app, lambda: lobby.state is not None, WAIT)
        assert lobby.heading() == "Waiting for the players..."
        guest, _ = guest_joins(server.url, created["invite"])
        scene = game_screen(app)
        assert scene.online.watching and scene.game.deal_number == 7
        assert "watching" in scene.online.panel_label()
        assert scene.online.roles() == ("Player 1 · connected", "Player 2 · connected")
        assert scene.status.text == "You are watching: Ann is to move."
        assert not any(scene.buttons[name].is_enabled for name in ("takeback", "resign", "rematch", "yes", "no"))
        ui.click_cell(app, scene.position.legal_moves()[0][0])  # a click on the board moves nothing
        assert scene.status.text == WATCHING and scene.game.ply == 0 and not scene.session.pending
        ui.key(app, pygame.K_t)
        assert scene.status.text == WATCHING

        host.expect("state")
        move = a_legal_move(state)
        host.send({"type": "move", "move": move, "id": "a1"})
        ui.run_until(app, lambda: scene.game.ply == 1, WAIT)
        assert move_name(scene.game.moves[0]) == move
        guest.send({"type": "resign"})
        ui.run_until(app, lambda: isinstance(app.stack.top, OnlineResultScene), WAIT)
        assert app.stack.top.card_text() == ("Ann wins!", "Bob resigned.")
        assert History().games() == []  # a watched game is not the window's player's
        ui.key(app, pygame.K_ESCAPE)
        ui.key(app, pygame.K_l)
        assert isinstance(app.stack.top, TitleScene)


def test_help_from_the_solver_is_off_and_a_takeback_is_a_request(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene, guest, _ = hosted_game(app, server)
        for name in ("edit", "review", "takeback", "yes", "no", "rematch"):
            assert not scene.buttons[name].is_enabled, name
        assert {"undo", "redo", "hint", "analyse", "load"}.isdisjoint(scene.buttons)
        for key, words in (
            (pygame.K_u, "Undo is off"),
            (pygame.K_h, "Hints are off"),
            (pygame.K_a, "Analysis is off"),
            (pygame.K_v, "review opens once"),
            (pygame.K_e, "editor opens once"),
        ):
            ui.key(app, key)
            assert words in scene.status.text and app.stack.top is scene and scene.analysis is None
        ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
        assert "Loading a game is off" in scene.status.text and not scene.dialog_open()

        move = scene.position.legal_moves()[0]
        ui.play_move(app, move)
        guest.expect("moved")
        ui.run_until(app, lambda: scene.buttons["takeback"].is_enabled, WAIT)
        press(app, scene, "takeback")
        asked = guest.expect("state")
        assert asked["offers"]["takeback"] == 1
        ui.run_until(app, lambda: scene.online.notice() is not None, WAIT)
        assert scene.online.notice() == ("Waiting for Bob to answer your takeback request", "quiet")
        guest.send({"type": "takeback_answer", "accept": True})
        ui.run_until(app, lambda: scene.game.ply == 0, WAIT)
        assert scene.status.text.startswith(f"Bob let you take back {move_name(move)}.")
        assert scene.online.refusal() is None  # your move again


def test_the_opponent_asks_for_a_takeback_and_y_lets_them(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene, guest, state = hosted_game(app, server)
        window_moves_first(app, scene, guest, state)
        guest.send({"type": "move", "move": a_legal_move(state), "id": "b1"})
        guest.send({"type": "takeback_request"})
        ui.run_until(app, lambda: open_question(scene.online.state) == "takeback", WAIT)
        assert scene.buttons["yes"].is_enabled and scene.buttons["no"].is_enabled
        assert scene.online.notice() == ("Bob asks to take back their last move — Y yes · N no", "good")
        ui.key(app, pygame.K_y)
        ui.run_until(app, lambda: scene.game.ply == 1, WAIT)
        assert scene.online.state.to_move == 2


def _arrived_unread(scene, ready) -> None:  # noqa: ANN001
    """Wait, drawing no frame, until the window's connection holds a state where ``ready`` is true:
    every message meanwhile waits unread for one poll, as on a window busy for a moment."""
    deadline = time.monotonic() + WAIT
    while not ready(scene.online.session.state):
        assert time.monotonic() < deadline, scene.online.session.state
        time.sleep(0.01)
    time.sleep(0.05)  # the same message's delivery to the inbox follows its state


def test_takeback_answers_that_arrive_between_two_frames_are_all_told(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene, guest, state = hosted_game(app, server)
        window_moves_first(app, scene, guest, state)

        def ask_and_get(accept: bool, moves: int) -> None:
            ui.run_until(app, lambda: scene.buttons["takeback"].is_enabled, WAIT)
            press(app, scene, "takeback")
            assert guest.expect("state")["offers"]["takeback"] == 1
            guest.send({"type": "takeback_answer", "accept": accept})
            assert guest.expect("state")["offers"]["takeback"] is None
            _arrived_unread(
                scene,
                lambda now: now.offers.takeback is None and now.ply == (moves if not accept else moves - 1),
            )

        def bob_moves(move_id: str) -> None:
            ply = scene.game.ply
            guest.send({"type": "move", "move": move_name(scene.game.position.legal_moves()[0]), "id": move_id})
            ui.run_until(app, lambda: scene.game.ply == ply + 1, WAIT)

        ask_and_get(False, 1)  # asked and turned down: both states wait for the same frame
        ui.run_until(app, lambda: "said no to the takeback" in scene.status.text, WAIT)
        assert scene.status.text.startswith("Bob said no to the takeback.") and scene.game.ply == 1
        bob_moves("b0")  # a declined move is not asked about again; the window's next one may be
        second = move_name(scene.game.position.legal_moves()[0])
        ui.play_move(app, parse_move(second))
        guest.expect("moved")
        ask_and_get(True, 3)
        ui.run_until(app, lambda: scene.game.ply == 2, WAIT)
        assert scene.status.text.startswith(f"Bob let you take back {second}.")

        ui.play_move(app, parse_move(second))  # asked again, and Bob moves instead of answering
        guest.expect("moved")
        ui.run_until(app, lambda: scene.buttons["takeback"].is_enabled, WAIT)
        press(app, scene, "takeback")
        assert guest.expect("state")["offers"]["takeback"] == 1
        bob_moves("b1")
        ui.run_until(app, lambda: "moved instead" in scene.status.text, WAIT)
        assert "Bob moved instead: no takeback. Your move" in scene.status.text and scene.game.ply == 4
        assert scene.online.state.offers.takeback is None  # no state follows a move: the move ends it
        assert scene.online.refusal() is None and scene.online.notice() is None


def test_a_dropped_connection_is_retried_visibly_and_the_game_goes_on(tmp_path: Path, monkeypatch) -> None:
    database = tmp_path / "games.sqlite3"
    with ui.session(tmp_path, monkeypatch) as new_app:
        server = ServerThread(database).__enter__()
        port = server.port
        app = new_app()
        scene, guest, _ = hosted_game(app, server)
        joined = next(message for message in guest.seen if message.get("type") == "joined")
        token = joined["token"]
        server.stop()
        ui.run_until(app, lambda: scene.online.link.state == "retrying", WAIT)
        notice = scene.online.notice()
        assert notice is not None and notice[0].startswith("Connection lost — retrying in ") and notice[1] == "warn"
        assert "Connection lost" in scene.status.text
        assert scene.panel_info().players[0].role == "you · reconnecting"
        assert scene.next_frame_in() is not None  # the countdown keeps drawing

        move = scene.position.legal_moves()[0]
        ui.play_move(app, move)  # played while the server is down: sent once it is back
        assert scene.game.ply == 1 and scene.session.pending
        shown: list[str] = []

        def noting(done: Callable[[], bool]) -> Callable[[], bool]:
            """``done``, keeping each frame's status line on the way."""
            return lambda: bool(shown.append(scene.status.text)) or done()

        with ServerThread(database, port=port):
            back_on = noting(lambda: scene.online.link.state == "connected" and not scene.session.pending)
            ui.run_until(app, back_on, 20)
            # The link's news and the server's state come in one frame or in two, as the machine's
            # load has it: the status line says both at once, or one after the other.
            away = "Bob is away: the game waits for them."
            said = noting(lambda: scene.status.text in (away, f"Connected again. {away}"))
            ui.run_until(app, said, WAIT, shown=lambda: shown[-1])
            assert any(text.startswith("Connected again.") for text in shown), shown
            assert scene.online.notice() == ("Bob is away: the game waits", "quiet")
            back = Client(f"ws://127.0.0.1:{port}", "Bob")
            back.send({"type": "resume", "token": token})
            resumed = back.expect("state")
            ui.run_until(app, lambda: scene.online.notice() is None, WAIT)
            assert scene.status.text == "Bob is back. Bob is to move."
            assert resumed["moves"] == [move_name(move)]
            reply = a_legal_move(resumed)
            back.send({"type": "move", "move": reply, "id": "b2"})
            ui.run_until(app, lambda: scene.game.ply == 2, WAIT)
            assert move_name(scene.game.moves[-1]) == reply
            app.stop_background(5)


def test_while_the_server_is_down_the_status_line_and_the_notice_show_one_countdown(
    tmp_path: Path, monkeypatch
) -> None:
    """The tries come 0.5 s, 1 s, 2 s ... apart: once the wait is past a second, the notice counts
    it down and the status line, which stays from the first try, names no count of its own."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        server = ServerThread(tmp_path / "games.sqlite3").__enter__()
        app = new_app()
        scene, _guest, _ = hosted_game(app, server)
        server.stop()
        ui.run_until(app, lambda: scene.online.link.state == "retrying" and scene.online._retry_seconds() >= 2, 30)
        notice = scene.online.notice()
        assert notice is not None and notice[0].startswith("Connection lost — retrying in "), notice
        shown = scene.status.text
        assert shown.startswith("Connection lost (") and "connects again on its own" in shown, shown
        assert not re.search(r"\d+ s\b", shown), f"two countdowns: {shown!r} beside {notice[0]!r}"
        app.stop_background(5)


def test_hosting_online_as_alice_leaves_the_name_of_solver_games_alone(tmp_path: Path, monkeypatch) -> None:
    """Ann plays the solver, then hosts online as Alice; the next start of the window still
    names her Ann against the solver, and Alice online."""
    with ui.session(tmp_path, monkeypatch) as new_app, ServerThread(tmp_path / "games.sqlite3") as server:
        app = new_app()
        title = app.stack.top
        title.set_mode("solver")
        title.widgets["human_name"].set_text("Ann")
        title.widgets["deal"].set_text("21")
        ui.click_button(app, title.widgets["start"])
        assert "Ann" in ui.play_scene(app).match.game.names
        ui.key(app, pygame.K_n)  # N: back to the title
        ui.run_until(app, lambda: isinstance(app.stack.top, TitleScene), WAIT)
        setup = open_setup(app)
        fill(app, setup.widgets["server"], server.url)
        fill(app, setup.widgets["name"], "Alice")
        ui.click_button(app, setup.widgets["host"])
        lobby = app.stack.top
        assert isinstance(lobby, LobbyScene)
        ui.run_until(app, lambda: lobby.invite is not None, WAIT)
        ui.key(app, pygame.K_ESCAPE)  # out of the waiting room
        app.stop_background(5)

        again = new_app()  # the window's next start
        title = again.stack.top
        assert isinstance(title, TitleScene)
        title.set_mode("solver")
        assert title.widgets["human_name"].get_text() == "Ann"
        ui.click_button(again, title.widgets["start"])
        assert "Ann" in ui.play_scene(again).match.game.names
        ui.key(again, pygame.K_n)
        ui.run_until(again, lambda: isinstance(again.stack.top, TitleScene), WAIT)
        assert open_setup(again).widgets["name"].get_text() == "Alice"  # and Alice online


def test_a_game_left_is_resumed_from_the_list_of_online_games(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene, guest, _ = hosted_game(app, server)
        move = scene.position.legal_moves()[0]
        ui.play_move(app, move)
        guest.expect("moved")
        press(app, scene, "save")  # the record as the server keeps it, through the save dialog
        ui.run_until(app, lambda: scene.dialog_open(), WAIT)
        ui.choose_file(app, scene.files.dialog, tmp_path / "online-game")
        saved = Game.from_text((tmp_path / "online-game.mbg").read_text())
        assert saved.moves == [move] and saved.names == ("Player 1", "Bob") and saved.deal_number == 5
        assert scene.status.text.startswith("Saved the record as online-game.mbg")
        session = scene.session
        ui.key(app, pygame.K_l)
        title = app.stack.top
        assert isinstance(title, TitleScene) and "waits on the server" in title.status.text
        ui.run_until(app, lambda: session.link.state == "closed", WAIT)  # the screen closed its connection
        assert app.last_match is None  # an online game is not the title's Rematch

        kept, problem = load_seats()
        assert problem is None and len(kept) == 1 and kept[0].opponent == "Bob" and not kept[0].finished
        ui.key(app, pygame.K_o)  # the title's key for Play online
        setup = app.stack.top
        assert isinstance(setup, OnlineSetupScene)
        assert [seat.game for seat, _ in setup.kept_rows] == [kept[0].game]
        assert kept_game_line(kept[0]) == f"Bob · 127.0.0.1:{server.port} · in play"
        ui.click_button(app, setup.widgets["resume:0"])
        resumed = game_screen(app)
        assert resumed.game.moves == [move] and resumed.online.state.to_move == 2

        ui.key(app, pygame.K_l)
        ui.key(app, pygame.K_o)
        setup = app.stack.top
        ui.click_button(app, setup.widgets["forget:0"])
        question = app.stack.top
        assert isinstance(question, ChoiceScene) and question.title == "Forget this game?"
        ui.click_button(app, question.buttons["forget"])
        assert app.stack.top is setup and "resume:0" not in setup.widgets and load_seats()[0] == []


def test_resigning_asks_first_then_the_result_shows_and_a_rematch_follows(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene, guest, _ = hosted_game(app, server)
        ui.play_move(app, scene.position.legal_moves()[0])
        guest.expect("moved")
        guest.send({"type": "move", "move": move_name(scene.position.legal_moves()[0]), "id": "b1"})
        ui.run_until(app, lambda: scene.game.ply == 2, WAIT)  # past move 2 Abort reads Resign again
        assert scene.buttons["resign"].full_text == "Resign"
        press(app, scene, "resign")
        question = app.stack.top
        assert isinstance(question, ChoiceScene) and question.title == "Resign this game?"
        ui.key(app, pygame.K_RETURN)  # the focus starts on Play on
        assert app.stack.top is scene and scene.online.playing
        press(app, scene, "resign")
        ui.click_button(app, app.stack.top.buttons["resign"])
        over = guest.expect("state")
        assert over["result"]["reason"] == "resign" and over["result"]["winner"] == 2
        ui.run_until(app, lambda: isinstance(app.stack.top, OnlineResultScene), WAIT)
        card = app.stack.top
        assert card.card_text() == ("Bob wins!", "You resigned.")
        # the history keeps it as the player's loss, with the winner its scores do not say
        assert [(entry.front_end, entry.you, entry.winner) for entry in History().games()] == [("online", 1, 2)]
        assert History().games()[0].result_for(1) == -1
        assert scene.panel_info().players[1].winner
        ui.key(app, pygame.K_v)  # the review works once the game is over
        assert isinstance(app.stack.top, ReviewScene)
        ui.key(app, pygame.K_ESCAPE)
        assert app.stack.top is card
        ui.key(app, pygame.K_ESCAPE)  # the card closes; analysis is back now the game is over
        ui.key(app, pygame.K_a)
        assert app.stack.top is scene and scene.analysis is not None
        ui.key(app, pygame.K_a)
        assert scene.mode is scene.online and "resign" in scene.buttons

        guest.send({"type": "rematch_offer"})
        ui.run_until(app, lambda: scene.online.question() == "rematch", WAIT)
        assert scene.online.notice() == ("Bob offers a rematch — Y yes · N no", "good")
        press(app, scene, "rematch")  # Rematch accepts the offer
        ui.run_until(app, lambda: scene.game.ply == 0 and scene.online.playing, WAIT)
        assert app.stack.top is scene and scene.online.you == 2  # sides swapped: Bob moves first
        assert [seat.game for seat in load_seats()[0]] == [scene.online.game_id]


def test_an_opponent_named_you_is_told_apart_from_the_player_by_seat(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        lobby = host_in_window(app, server.url)
        guest, _state = guest_joins(server.url, lobby.invite or "", name="You")
        scene = game_screen(app)
        ui.play_move(app, scene.position.legal_moves()[0])
        assert scene.status.text.endswith(" You is to move."), scene.status.text  # never "You are to move."
        guest.expect("moved")
        ui.run_until(app, lambda: scene.online.state.to_move == 2, WAIT)
        ui.click_cell(app, scene.position.legal_moves()[0][0])
        assert scene.status.text == "Wait: You is to move."
        guest.send({"type": "resign"})
        ui.run_until(app, lambda: isinstance(app.stack.top, OnlineResultScene), WAIT)
        assert app.stack.top.card_text() == ("You win!", "You resigned.")  # the card is the reader's: seat 1 won
        guest.close()


def test_before_the_second_move_resign_reads_abort_and_calls_the_game_off(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene, guest, _ = hosted_game(app, server)
        assert scene.buttons["resign"].full_text == "Abort"
        ui.play_move(app, scene.position.legal_moves()[0])
        guest.expect("moved")
        assert scene.buttons["resign"].full_text == "Abort"  # one move: nobody has staked two yet
        press(app, scene, "resign")
        question = app.stack.top
        assert isinstance(question, ChoiceScene) and question.title == "Abort this game?"
        ui.click_button(app, question.buttons["abort"])
        over = guest.expect("state")
        assert over["result"] == {"winner": None, "reason": "aborted", "scores": over["result"]["scores"]}
        ui.run_until(app, lambda: not scene.online.playing, WAIT)
        assert History().games() == []  # an aborted game counts for nothing
        ui.run_until(app, lambda: isinstance(app.stack.top, OnlineResultScene), WAIT)
        card = app.stack.top
        assert card.card_text() == (
            "Called off",
            "You called the game off before its second move: it counts for nothing.",
        )  # the player who pressed Abort is told it was them
        drawn = drawn_texts(app, monkeypatch)
        ui.settle(app, 3)
        assert "it counts for nothing." in " ".join(drawn), drawn  # the whole sentence, on two lines if need be
        app.set_language("de")
        assert card.card_text() == (
            "Abgebrochen",
            "Du hast die Partie vor ihrem zweiten Zug abgebrochen: Sie zählt nicht.",
        )
        drawn.clear()
        ui.settle(app, 3)
        assert "Sie zählt nicht." in " ".join(drawn), drawn


def test_the_host_calls_off_a_waiting_game_from_the_waiting_room(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        lobby = host_in_window(app, server.url)
        invite = lobby.invite or ""
        ui.click_button(app, lobby.buttons["abort"])
        ui.run_until(app, lambda: isinstance(app.stack.top, OnlineSetupScene), WAIT)
        setup = app.stack.top
        assert setup.status.text == "You called the game off: its code no longer works."
        assert [seat for seat in load_seats()[0] if not seat.finished] == []  # nothing left to resume
        stranger = Client(server.url, "Bob")
        stranger.send({"type": "join", "code": invite})
        assert stranger.error()["code"] == "expired"


def rematch_offer(client: Client, seat: int | None) -> None:
    """Read the client's states until one has the rematch offered by ``seat`` (None: no offer)."""
    deadline = time.monotonic() + WAIT
    while client.expect("state", max(0.01, deadline - time.monotonic()))["offers"]["rematch"] != seat:
        assert time.monotonic() < deadline


def test_a_rematch_turned_down_either_way_is_told_and_may_come_again(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene, guest, _ = hosted_game(app, server)
        guest.send({"type": "resign"})
        ui.run_until(app, lambda: isinstance(app.stack.top, OnlineResultScene), WAIT)
        ui.key(app, pygame.K_ESCAPE)
        guest.send({"type": "rematch_offer"})
        ui.run_until(app, lambda: scene.online.question() == "rematch", WAIT)
        press(app, scene, "no")
        assert scene.status.text == "You turned down Bob's rematch." and scene.online.question() is None
        rematch_offer(guest, 2)  # Bob's own offer, then its withdrawal
        rematch_offer(guest, None)

        press(app, scene, "rematch")  # now the window offers (sent after its decline, so never taken as a yes)
        rematch_offer(guest, 1)
        guest.send({"type": "rematch_decline"})
        ui.run_until(app, lambda: "turned down the rematch" in scene.status.text, WAIT)
        assert scene.status.text.startswith("Bob turned down the rematch.")
        assert scene.buttons["rematch"].is_enabled

        server.offset += REMATCH_RETRY_SECONDS  # Bob's first offer was declined a minute ago
        guest.send({"type": "rematch_offer"})  # and a new offer is a new question
        ui.run_until(app, lambda: scene.online.question() == "rematch", WAIT)


def test_a_bad_address_or_code_gives_one_line_and_nothing_else(tmp_path: Path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        setup = open_setup(app)
        fill(app, setup.widgets["server"], "http://example.org")
        ui.click_button(app, setup.widgets["host"])
        assert app.stack.top is setup
        assert (
            setup.status.text
            == ("Server: 'http://example.org' is not a ws:// or wss:// address (such as ws://127.0.0.1:8765).")
            and setup.status.kind == "error"
        )
        fill(app, setup.widgets["server"], "ws://127.0.0.1:9")
        fill(app, setup.widgets["code"], "k7qm-2xp")
        ui.click_button(app, setup.widgets["join"])
        assert app.stack.top is setup
        assert setup.status.text == "Invite code: 'k7qm-2xp' is not a code: expected 8 characters, got 7."
        assert app.settings.online_server != "http://example.org"


def test_a_game_the_server_cannot_rebuild_is_said_so_in_the_waiting_room(tmp_path: Path, monkeypatch) -> None:
    database = tmp_path / "games.sqlite3"
    with ServerThread(database) as server:
        host, guest, created, _ = host_and_join(server.url)
        port = server.port
        host.close()
        guest.close()
    with sqlite3.connect(database) as connection:  # its options damaged, as a bad row would be
        connection.execute("UPDATE games SET options = '{\"bad\": 1}' WHERE id = ?", (created["game"],))
    with ServerThread(database, port=port) as server, ui.session(tmp_path, monkeypatch) as new_app:
        remember_seat(Seat(server.url, created["game"], created["token"], created["seat"], created["watch"]))
        app = new_app()
        setup = open_setup(app)
        ui.click_button(app, setup.widgets["resume:0"])
        lobby = app.stack.top
        assert isinstance(lobby, LobbyScene)
        ui.run_until(app, lambda: lobby.link.state == "closed", WAIT)  # trying again cannot help: no retries
        assert lobby.note.text == "The server could not load that game: its record there is damaged."
        assert lobby.next_frame_in() is None


def test_a_code_no_game_has_is_refused_in_the_waiting_room(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        setup = open_setup(app)
        fill(app, setup.widgets["server"], server.url)
        fill(app, setup.widgets["code"], "K7QM-2XPD")
        ui.click_button(app, setup.widgets["join"])
        lobby = app.stack.top
        assert isinstance(lobby, LobbyScene) and lobby.heading() == "Joining a game"
        ui.run_until(app, lambda: lobby.link.state == "closed", WAIT)
        assert lobby.link_line() == ("Closed: no game has this invite code", "error")
        assert lobby.next_frame_in() is None  # nothing more will come: the window sleeps
        ui.click_button(app, lobby.buttons["back"])
        assert app.stack.top is setup and load_seats()[0] == []


def test_an_unreachable_server_is_retried_in_the_waiting_room_and_back_leaves(tmp_path: Path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        setup = open_setup(app)
        fill(app, setup.widgets["server"], "ws://127.0.0.1:9")
        ui.click_button(app, setup.widgets["host"])
        lobby = app.stack.top
        assert isinstance(lobby, LobbyScene)
        ui.run_until(app, lambda: lobby.link.state == "retrying", WAIT)
        text, kind = lobby.link_line()
        assert text.startswith("Cannot reach 127.0.0.1:9 — retrying in ") and kind == "warn"
        ui.key(app, pygame.K_ESCAPE)
        assert app.stack.top is setup
        ui.run_until(app, lambda: lobby.session.link.state == "closed", WAIT)


def test_without_a_clipboard_the_waiting_room_says_so(tmp_path: Path, monkeypatch) -> None:
    def no_clipboard(text: str) -> None:
        raise pygame.error("no clipboard on this display")

    monkeypatch.setattr(lobby_scene, "clipboard_copy", no_clipboard)
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        lobby = host_in_window(app, server.url)
        ui.key(app, pygame.K_c)
        assert lobby.note.text == (
            "No clipboard here (no clipboard on this display): read the code or the link out instead."
        )
        assert app.stack.top is lobby


def test_the_form_works_from_the_keyboard_and_a_move_has_its_clock(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        setup = open_setup(app)
        ui.key(app, pygame.K_TAB)
        assert setup.ring.focus == "server" and setup.widgets["server"].is_focused
        ui.key(app, pygame.K_a, pygame.KMOD_CTRL)
        ui.type_text(app, server.url)
        while setup.ring.focus != "time":
            ui.key(app, pygame.K_TAB)
        ui.key(app, pygame.K_RETURN)  # open the list, two down: "1 min a move"
        ui.key(app, pygame.K_DOWN)
        ui.key(app, pygame.K_DOWN)
        ui.key(app, pygame.K_RETURN)
        assert setup.time == "1 min a move" and setup.widgets["lose"].is_enabled
        ui.key(app, pygame.K_TAB)
        ui.key(app, pygame.K_SPACE)  # the toggle
        assert setup.lose_on_time and setup.widgets["lose"].full_text == "Lose on time: yes"
        ui.key(app, pygame.K_ESCAPE)  # the ring goes; Enter with no code typed hosts
        ui.key(app, pygame.K_RETURN)
        lobby = app.stack.top
        assert isinstance(lobby, LobbyScene)
        ui.run_until(app, lambda: lobby.invite is not None, WAIT)
        guest, state = guest_joins(server.url, lobby.invite or "")
        assert state["move_seconds"] == 60 and state["lose_on_time"]
        scene = game_screen(app)
        role = scene.panel_info().players[0].role
        assert role.startswith("you · connected · ") and role.endswith(" left"), role
        assert scene.next_frame_in() == 0.5  # the clock shows whole seconds


def test_the_window_sleeps_until_the_server_has_news(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene, guest, state = hosted_game(app, server)
        ui.play_move(app, scene.position.legal_moves()[0])
        guest.expect("moved")
        ui.run_until(app, lambda: scene.online.state.to_move == 2 and not scene.animations, WAIT)
        ui.settle(app)
        assert scene.next_frame_in() is None  # connected, no clock: nothing to draw until news
        pygame.event.clear()
        state["moves"].append(scene.online.state.moves[-1])
        guest.send({"type": "move", "move": a_legal_move(state), "id": "b1"})
        deadline = time.monotonic() + WAIT
        while not pygame.event.peek(ONLINE_EVENT):  # the session's thread wakes the sleeping loop
            assert time.monotonic() < deadline
            time.sleep(0.01)
        app.step([], ui.DT)
        assert scene.game.ply == 2


@pytest.mark.parametrize("size", [MIN_SIZE, (1200, 800)])
def test_the_online_screens_buttons_fit(tmp_path: Path, monkeypatch, size) -> None:
    full = size == (1200, 800)
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        lobby = host_in_window(app, server.url)
        assert_labels_fit(app, "waiting room", full)
        guest_joins(server.url, lobby.invite or "")
        game_screen(app)
        assert_labels_fit(app, "online game", full)
        ui.key(app, pygame.K_l)
        ui.key(app, pygame.K_o)
        assert isinstance(app.stack.top, OnlineSetupScene)
        assert_labels_fit(app, "online setup", full)


def test_the_server_address_is_kept_in_the_settings_and_a_wrong_one_is_reset(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    assert save_settings(Settings(online_server="wss://games.example.org"), path) is None
    assert load_settings(path) == (Settings(online_server="wss://games.example.org"), None)
    path.write_text(json.dumps({"online_server": "http://games.example.org", "player1": "Ana"}))
    loaded, problem = load_settings(path)
    assert problem is not None and "online_server" in problem
    assert loaded.online_server == "ws://127.0.0.1:8765" and loaded.player1 == "Ana"


def test_the_waiting_room_link_names_an_address_a_friend_can_reach(tmp_path: Path, monkeypatch) -> None:
    """On a server for this machine only, the waiting room says its link works here only; behind a
    proxy (``--public-url``) it shows and copies the public link, though the window came in over loopback."""
    with ServerThread(tmp_path / "here.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        recorder = record_texts(app, monkeypatch)
        host_in_window(app, server.url)
        drawn = " ".join(recorder.texts())
        assert f"http://127.0.0.1:{server.port}/join/" in drawn
        assert "This link works on this machine only" in drawn
    limits = replace(ServerLimits(), public_url="https://games.example.org")
    with ServerThread(tmp_path / "proxied.sqlite3", limits) as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        recorder = record_texts(app, monkeypatch)
        lobby = host_in_window(app, server.url)
        link = f"https://games.example.org/join/{format_code(lobby.invite_secret or '')}"
        drawn = " ".join(recorder.texts())
        assert link in drawn and "this machine only" not in drawn
        ui.click_button(app, lobby.buttons["copy"])
        assert pygame.scrap.get_text() == link


def test_a_seat_without_a_name_reads_in_the_windows_language(tmp_path: Path, monkeypatch) -> None:
    """Neither player gives a name: the server keeps none, and a German window calls the seats
    "Spieler 1" and "Spieler 2"."""
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(language="de")
        lobby = host_in_window(app, server.url)
        guest = Client(server.url)
        guest.send({"type": "join", "code": lobby.invite})
        guest.expect("joined")
        assert [player["name"] for player in guest.expect("state")["players"]] == ["", ""]
        scene = game_screen(app)
        assert scene.game.names == ("Spieler 1", "Spieler 2")
        guest.close()
