"""The window's sound, headless with SDL's dummy audio driver: each event of a game, a puzzle and an
online game plays its sound on a real mixer channel (``Sounds.played`` logs each one started), M
silences all, the volume and the mute are kept across a restart, and a mixer that cannot open (a
driver that does not exist, in a child process) changes nothing else in a game played by clicks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygame

from battle.rules.board import Position, biggest_pair
from battle.rules.deal import deal
from battle.rules.game import Game
from battle.rules.tiles import EMPTY, kind_value
from battle.ui.app import App
from battle.ui.match import Match
from battle.ui.puzzles.puzzle_scene import PuzzleScene
from battle.ui.sound.events import Event, end_event
from tests import ui_harness as ui
from tests.online_server import Client, ServerThread, a_legal_move
from tests.ui.test_ui_online import hosted_game
from tests.ui.test_ui_puzzles import smallest_puzzle

WAIT = 20.0
ROOT = Path(__file__).resolve().parents[2]


def sounding(app: App) -> App:
    """``app`` once its mixer is open (it opens on a thread of its own after the first frame)."""
    assert app.sounds.state != "idle", "the first frame starts opening the mixer"
    assert app.sounds.wait_ready(WAIT), app.sounds.problem
    return app


def heard(app: App, since: int = 0) -> list[tuple[Event, int]]:
    return app.sounds.played[since:]


def endgame(tiles: int = 10, number: int = 4) -> Position:
    """The first deal from ``number`` on that, played down to ``tiles`` tiles by the biggest pairs,
    still has moves, a tile that is not free and free tiles of two kinds: a game's last moves."""
    while True:
        position = deal(number)
        while position.tiles_left() > tiles and not position.is_over():
            position.push(biggest_pair(position))
        free_kinds = {position.cells[cell] for cell in position.free_cells()}
        blocked = any(kind != EMPTY and not position.is_free(cell) for cell, kind in enumerate(position.cells))
        if not position.is_over() and blocked and len(free_kinds) > 1:
            return position
        number += 1


def blocked_cell(position: Position) -> int:
    return next(cell for cell, kind in enumerate(position.cells) if kind != EMPTY and not position.is_free(cell))


def test_a_hot_seat_game_sounds_each_select_refusal_pair_hint_and_the_end(tmp_path, monkeypatch) -> None:
    from battle.ui.play import thinking  # a quick hint: this checks the sound, not the solver's strength

    monkeypatch.setattr(thinking, "HINT_QUICK_SECONDS", 0.3)
    monkeypatch.setattr(thinking, "HINT_SECONDS", 0.5)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = sounding(new_app())
        scene = app.start_match(Match(Game(endgame(), "Ann", "Ben")))
        game = scene.match.game
        mark = len(app.sounds.played)
        ui.click_cell(app, blocked_cell(game.position))
        assert heard(app, mark) == [(Event.REFUSED, 0)]
        move = game.position.legal_moves()[0]
        kind = game.position.cells[move[0]]
        other = next(cell for cell in game.position.free_cells() if game.position.cells[cell] != kind)
        ui.click_cell(app, move[0])
        ui.click_cell(app, other)  # a tile of another kind: refused, and it is the new selection
        ui.key(app, pygame.K_ESCAPE)
        assert heard(app, mark + 1) == [(Event.SELECT, 0), (Event.REFUSED, 0)]
        mark = len(app.sounds.played)
        ui.play_move(app, move)
        assert heard(app, mark) == [(Event.SELECT, 0), (Event.PAIR_TAKEN, kind_value(kind))]
        mark = len(app.sounds.played)
        ui.key(app, pygame.K_h)
        ui.run_until(app, lambda: scene.game_mode.hint is not None, timeout=120)  # a first search may load the solver
        assert heard(app, mark) == [(Event.HINT, 0)]
        values = []
        while not game.is_over():
            move = game.position.legal_moves()[-1]
            values.append(kind_value(game.position.cells[move[0]]))
            ui.play_move(app, move)
        mark_end = len(app.sounds.played)
        ui.run_until(app, lambda: len(app.sounds.played) > mark_end, timeout=5)
        result = game.result()
        assert result is not None
        pairs = [value for event, value in heard(app, mark) if event is Event.PAIR_TAKEN]
        assert pairs == values  # hot seat: both sides' pairs are the players' own
        assert heard(app, mark_end) == [(end_event(result.winner, None), 0)]


def test_the_solvers_moves_sound_as_the_opponents_and_the_end_is_the_players(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = sounding(new_app())
        match = Match(Game(endgame(12, 6), "Me", "Solver (beginner)"), solver_side=2, level="beginner")
        scene = app.start_match(match)
        game = scene.match.game
        while not game.is_over():
            if match.human_to_move():
                ui.play_move(app, game.position.legal_moves()[0])
            else:
                ply = game.ply
                ui.run_until(app, lambda: game.ply > ply, timeout=120)  # noqa: B023 (waits here)
        ui.run_until(app, lambda: heard(app)[-1][0] in (Event.GAME_WON, Event.GAME_LOST, Event.GAME_DRAWN), 5)
        start = endgame(12, 6)
        expected_moves = []
        for move in game.moves:
            event = Event.OPPONENT_MOVED if start.to_move == match.solver_side else Event.PAIR_TAKEN
            expected_moves.append((event, kind_value(start.cells[move[0]])))
            start.push(move)
        moves_heard = [key for key in heard(app) if key[0] in (Event.PAIR_TAKEN, Event.OPPONENT_MOVED)]
        assert moves_heard == expected_moves
        result = game.result()
        assert result is not None
        assert heard(app)[-1] == (end_event(result.winner, 1), 0)
        assert end_event(2, 1) is Event.GAME_LOST and end_event(1, 1) is Event.GAME_WON


def test_a_puzzle_missed_then_solved_sounds_each(tmp_path, monkeypatch) -> None:
    puzzle = smallest_puzzle()
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = sounding(new_app())
        scene = PuzzleScene(app, [puzzle])
        app.stack.push(scene)
        session = scene.session
        assert session is not None
        wrong, _ = max(puzzle.losses[0].items(), key=lambda item: item[1])
        mark = len(app.sounds.played)
        ui.play_move(app, wrong)
        assert heard(app, mark)[-1] == (Event.PUZZLE_MISSED, 0)
        ui.run_until(app, lambda: scene.wrong is not None and not scene.wrong.searching, timeout=60)
        ui.click_button(app, scene.widgets["retry"])
        assert scene.wrong is None
        mark = len(app.sounds.played)
        right = session.expected()
        ui.play_move(app, right)
        ui.run_until(app, lambda: session.finished, timeout=5)
        assert (Event.PAIR_TAKEN, kind_value(puzzle.start().cells[right[0]])) in heard(app, mark)
        # one mistake was made: the puzzle ends missed; a clean solve sounds solved
        assert heard(app, mark)[-1] == (Event.PUZZLE_MISSED if session.mistakes else Event.PUZZLE_SOLVED, 0)
        app.stack.pop()
        scene = PuzzleScene(app, [puzzle])  # the same puzzle afresh, played right at the first try
        app.stack.push(scene)
        clean = scene.session
        assert clean is not None and clean is not session
        mark = len(app.sounds.played)
        while not clean.finished:
            ui.play_move(app, clean.expected())
            ui.run_until(app, lambda: not scene.busy(), timeout=5)
        assert clean.solved and heard(app, mark)[-1] == (Event.PUZZLE_SOLVED, 0)


def test_the_online_opponent_arriving_leaving_and_coming_back_is_heard(tmp_path: Path, monkeypatch) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = sounding(new_app())
        scene, guest, state = hosted_game(app, server)
        assert heard(app)[-1] == (Event.OPPONENT_ARRIVED, 0)
        move = scene.position.legal_moves()[0]
        ui.play_move(app, move)
        ui.run_until(app, lambda: scene.online.state is not None and scene.online.state.to_move == 2, WAIT)
        state["moves"].append(f"{move[0]}-{move[1]}")
        token = next(message for message in guest.seen if message.get("type") == "joined")["token"]
        mark = len(app.sounds.played)
        guest.close()
        ui.run_until(app, lambda: (Event.OPPONENT_LEFT, 0) in heard(app, mark), WAIT)
        back = Client(server.url, "Bob")
        back.send({"type": "resume", "token": token})
        resumed = back.expect("state")
        ui.run_until(app, lambda: (Event.OPPONENT_ARRIVED, 0) in heard(app, mark), WAIT)
        mark = len(app.sounds.played)
        reply = a_legal_move(resumed)
        back.send({"type": "move", "move": reply, "id": "b1"})
        ui.run_until(app, lambda: scene.game.ply == 2, WAIT)
        assert [event for event, _ in heard(app, mark)] == [Event.OPPONENT_MOVED]
        back.close()
        app.stop_background(5)


def test_m_silences_every_sound_and_volume_and_mute_are_kept_across_a_restart(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = sounding(new_app())
        scene = app.start_match(Match(Game(endgame(20), "Ann", "Ben")))
        game = scene.match.game
        ui.key(app, pygame.K_MINUS, unicode="-")
        ui.key(app, pygame.K_MINUS, unicode="-")
        assert app.settings.volume == 0.5 and "Sound volume 50%" in scene.status.text
        ui.key(app, pygame.K_m, unicode="m")
        assert app.settings.muted and scene.status.text.startswith("Sound off")
        mark = len(app.sounds.played)
        ui.click_cell(app, blocked_cell(game.position))
        ui.play_move(app, game.position.legal_moves()[0])
        assert game.ply == 1 and heard(app, mark) == []  # muted: a refusal and a move, not a sound
        app.stop_background(5)
        app.close()

        again = sounding(new_app())
        assert again.settings.volume == 0.5 and again.settings.muted
        scene = again.start_match(Match(Game(endgame(20), "Ann", "Ben")))
        ui.key(again, pygame.K_m, unicode="m")
        assert not again.settings.muted
        ui.key(again, pygame.K_KP_PLUS)
        assert again.settings.volume == 0.6
        mark = len(again.sounds.played)
        ui.play_move(again, scene.match.game.position.legal_moves()[0])
        assert [event for event, _ in heard(again, mark)] == [Event.SELECT, Event.PAIR_TAKEN]


def test_m_typed_into_a_name_is_a_letter_not_a_mute(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        title = app.stack.top
        field = title.widgets["player1"]
        ui.click(app, field.rect.center)
        ui.key(app, pygame.K_m, unicode="m")
        assert not app.settings.muted


GAME_SCRIPT = """
import json, os, sys
from tests import ui_harness as ui
import pygame
from tests.ui.test_ui_sound import endgame
os.environ["SDL_AUDIODRIVER"] = sys.argv[1]  # read when the mixer opens, after the harness chose dummy
from battle.rules.game import Game
from battle.ui.app import App
from battle.ui.match import Match

app = App((1000, 700), autosave=False)
app.step(dt=0)
app.sounds.wait_ready(20)
for _ in range(5):
    app.step([], ui.DT)
title = app.stack.top.status.text
scene = app.start_match(Match(Game(endgame(12, 9), "Ann", "Ben")))
game = scene.match.game
said = []
while not game.is_over():
    blocked = [c for c, kind in enumerate(game.position.cells) if kind and not game.position.is_free(c)]
    ui.click_cell(app, blocked[0] if blocked else game.position.free_cells()[0])
    said.append(scene.status.text)
    ui.key(app, pygame.K_ESCAPE)
    ui.play_move(app, game.position.legal_moves()[0])
    said.append(scene.status.text)
ui.settle(app, 40)
print(json.dumps({"moves": [list(m) for m in game.moves], "result": game.result().describe(game.names),
                  "said": said, "top": type(app.stack.top).__name__, "title": title,
                  "state": app.sounds.state, "played": len(app.sounds.played)}))
app.stop_background(5)
"""


def play_in_children(home: Path, *drivers: str) -> list[dict]:
    """The game of ``GAME_SCRIPT`` in one child process per audio driver, side by side; what each saw."""
    children = []
    for driver in drivers:
        env = {
            **os.environ,
            "XDG_CONFIG_HOME": str(home / driver / "config"),
            "XDG_DATA_HOME": str(home / driver / "data"),
            "PYTHONPATH": str(ROOT),
        }
        children.append(
            subprocess.Popen(
                [sys.executable, "-c", GAME_SCRIPT, driver],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    seen = []
    for child in children:
        out, err = child.communicate(timeout=240)
        assert child.returncode == 0, err
        seen.append(json.loads(out.strip().splitlines()[-1]))
    return seen


def test_a_mixer_that_cannot_open_changes_nothing_else_and_is_told_once(tmp_path: Path) -> None:
    heard_game, silent_game = play_in_children(tmp_path, "dummy", "nonexistent")
    assert heard_game["state"] == "ready" and heard_game["played"] > 2 * len(heard_game["moves"])
    assert silent_game["state"] == "failed" and silent_game["played"] == 0
    for key in ("moves", "result", "said", "top"):
        assert silent_game[key] == heard_game[key], key
    assert silent_game["top"] == "ResultScene"
    assert "No sound" not in heard_game["title"]
    assert silent_game["title"].count("No sound (") == 1 and "plays on silently" in silent_game["title"]
    assert not any("No sound" in line for line in silent_game["said"])  # said once, on the title


def test_a_device_that_plays_other_samples_is_told_in_the_players_language(monkeypatch) -> None:
    from battle import i18n
    from battle.ui.files.settings import Settings
    from battle.ui.sound.player import Sounds

    monkeypatch.setattr(pygame.mixer, "init", lambda *args: None)
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: (44100, 8, 1))  # an 8-bit device
    i18n.set_language("de")
    try:
        sounds = Sounds(Settings(), lambda: None)
        sounds.prepare()
        assert not sounds.wait_ready(10)
        notice = sounds.take_notice()
    finally:
        i18n.set_language("en")
    assert notice == "Kein Ton (das Gerät spielt nur Töne mit 8 Bit): das Spiel läuft lautlos weiter."


def test_the_rules_card_sets_the_volume_and_mutes_and_the_choice_is_kept(tmp_path, monkeypatch) -> None:
    from battle.ui.help.help_scene import HelpScene

    with ui.session(tmp_path, monkeypatch) as new_app:
        app = sounding(new_app((800, 600)))
        ui.key(app, pygame.K_F1)
        card = app.stack.top
        assert isinstance(card, HelpScene) and card.sound is not None
        slider = card.sound.slider
        assert slider.get_current_value() == 7
        ui.click_button(app, slider.right_button)
        ui.settle(app, 2)  # the slider tells the card a frame later
        assert app.settings.volume == 0.8
        ui.click_button(app, card.buttons["sound_mute"])
        assert app.settings.muted and card.buttons["sound_mute"].text == "Sound on"
        ui.key(app, pygame.K_MINUS, unicode="-")  # the keys work over the card too, and it follows them
        assert app.settings.volume == 0.7 and not app.settings.muted
        assert slider.get_current_value() == 7 and card.buttons["sound_mute"].text == "Mute"
        ui.click_button(app, card.buttons["sound_mute"])
        app.stop_background(5)
        app.close()
        again = new_app((800, 600))
        assert (again.settings.volume, again.settings.muted) == (0.7, True)
