"""What the window draws fits where it is drawn and says what is true, in real frames at 800x600 and
1200x800: texts that covered each other, a label cut short, a result read from the wrong side."""

from __future__ import annotations

import random

import pygame
import pytest

from battle.online.protocol.codes import format_code
from battle.rules.board import Position
from battle.rules.deal import deal
from battle.rules.game import Game
from battle.ui.match import Match, new_match
from battle.ui.title.resume_labels import resume_labels
from battle.ui.title.title_scene import TitleScene
from battle.ui.widgets.buttons import TEXT_MARGIN
from tests import ui_harness as ui
from tests.online_server import ServerThread, a_legal_move
from tests.ui.drawn_text import record_texts, rect_of
from tests.ui.test_ui_online import WAIT, hosted_game, window_moves_first

SIZES = [(800, 600), (1200, 800)]
LEGEND = ("★ best", "2 worse", "10 worse", "~ estimate")


@pytest.mark.parametrize("size", SIZES)
def test_the_analysis_panels_more_line_and_legend_do_not_overlap(size, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size, demo="analysis", autosave=False)
        recorder = record_texts(app, monkeypatch)
        scene = app.stack.top
        # the demo's position has a long best line: wait until the panel cuts it short
        ui.run_until(app, lambda: len(scene.analysis.pv) > 12, timeout=300)
        drawn = recorder.frame()
        more = [rect for text, rect in drawn if text.endswith(" more") and text.startswith("+")]
        assert len(more) == 1, [text for text, _ in drawn]
        panel = app.layout.panel.rect
        panel_right = panel.x + panel.w
        for text, rect in drawn:
            if text in LEGEND:
                assert not rect.colliderect(more[0]), f"{text!r} covers the '+N more' line"
                assert rect.right <= panel_right, f"{text!r} runs past the panel"
        assert more[0].right <= panel_right


def last_pair_won_by_player_2() -> Position:
    """A numbered deal played down to its last free pair, player 2 to move and winning with it."""
    rng = random.Random(45)
    while True:
        position = deal(rng.randrange(1 << 32))
        while not position.is_over():
            moves = position.legal_moves()
            probe = position.copy()
            probe.push(moves[0])
            if probe.is_over():
                if position.to_move == 2 and probe.scores[1] > probe.scores[0] and len(moves) == 1:
                    return position.copy()
                break
            position.push(rng.choice(moves))


@pytest.mark.parametrize("size", SIZES)
def test_the_result_reads_from_your_side_when_you_are_player_2(size, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    position = last_pair_won_by_player_2()
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        scene = app.start_match(Match(Game(position, "Solver (club)", "You"), 1, "club"))
        recorder = record_texts(app, monkeypatch)
        ui.play_move(app, position.legal_moves()[0])
        assert scene.match.game.is_over()
        first, second = scene.match.position.scores
        assert second > first
        said = [text for text in recorder.texts() if "Game over" in text]
        assert len(said) == 1 and f"Game over: You win {second}-{first} (by " in said[0], said


@pytest.mark.parametrize("size", SIZES)
def test_a_game_against_the_solver_loaded_does_not_say_the_solver_plays_the_solver(size, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        game = Game(deal(9), "You", "Solver (club)")
        game.play(game.position.legal_moves()[0])  # the solver to move: the screen waits on it
        game.play(game.position.legal_moves()[0])
        record = tmp_path / "against the solver.mbg"
        record.write_text(game.to_text())
        scene = app.start_match(new_match(1, "solver", ("You", "You"), level="club"))
        recorder = record_texts(app, monkeypatch)
        ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
        ui.choose_file(app, scene.files.dialog, record)
        loaded = ui.play_scene(app)
        assert loaded.match.game.moves == game.moves
        assert loaded.status.text.endswith("You to move. The solver (club) plays on as player 2."), loaded.status.text
        drawn = " ".join(recorder.texts())  # the status line wraps at 800x600
        assert "The solver (club) plays on as player 2." in drawn and "plays Solver" not in drawn


@pytest.mark.parametrize("size", SIZES)
def test_the_resume_button_names_the_opponent_whole(size, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        scene = app.start_match(new_match(12, "solver", ("You", "You"), level="beginner"))
        ui.play_move(app, scene.position.legal_moves()[0])
        ui.run_until(app, lambda: scene.match.human_to_move(), timeout=600)  # the solver's reply
        ui.key(app, pygame.K_n)
        title = app.stack.top
        assert isinstance(title, TitleScene)
        button = title.widgets["resume"]
        shown = button.text
        assert button.font.size(shown)[0] <= button.relative_rect.width - TEXT_MARGIN
        assert not shown.endswith("...") and "Solver (beginner)" in shown, shown
        assert shown in resume_labels(title.resume.game)


@pytest.mark.parametrize("size", SIZES)
def test_the_opponents_question_hides_no_column_letter(size, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        scene, guest, state = hosted_game(app, server)
        window_moves_first(app, scene, guest, state)
        guest.send({"type": "move", "move": a_legal_move(state), "id": "b1"})
        guest.send({"type": "takeback_request"})
        ui.run_until(app, lambda: scene.online.notice() is not None and "asks" in scene.online.notice()[0], WAIT)
        recorder = record_texts(app, monkeypatch)
        drawn = recorder.frame()
        pill = "Bob asks to take back their last move — Y yes · N no"
        question = rect_of(drawn, pill)
        layout = app.layout
        band = layout.board.x - layout.mat.x  # the column letters' centres, as the board draws them
        letters = [
            (layout.board.x + col * layout.pitch_x + layout.tile_w // 2, y)
            for col in range(12)
            for y in (layout.mat.y + band // 2, layout.mat.y + layout.mat.h - band // 2)
        ]
        assert not any(question.inflate(band, band).collidepoint(letter) for letter in letters)
        status = app.layout.status
        assert pygame.Rect(status.x, status.y, status.w, status.h).contains(question)
        for text, rect in drawn:  # and the status message beside it keeps clear of it
            if rect.top >= status.y and text != pill:
                assert not rect.colliderect(question), text


@pytest.mark.parametrize("size", SIZES)
def test_with_the_server_down_the_opponent_is_not_shown_connected(size, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    with ui.session(tmp_path, monkeypatch) as new_app:
        server = ServerThread(tmp_path / "games.sqlite3").__enter__()
        app = new_app(size)
        scene, _, _ = hosted_game(app, server)
        recorder = record_texts(app, monkeypatch)
        assert "Player 2 · connected" in recorder.texts()
        server.stop()
        ui.run_until(app, lambda: scene.online.link.state == "retrying", WAIT)
        texts = recorder.texts()
        assert "Player 2 · unknown" in texts and not any("connected" in text for text in texts), texts


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["de", "en"])
def test_the_waiting_rooms_words_keep_clear_of_each_other(size, language, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """The host's waiting room: the instructions (two lines in German) above the watch code, the
    connection line and the buttons, none of them drawn over another."""
    from tests.ui.test_ui_online import host_in_window

    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size, language=language)
        lobby = host_in_window(app, server.url)
        ui.run_until(app, lambda: lobby.watch is not None, WAIT)
        recorder = record_texts(app, monkeypatch)
        # a line's box holds the font's spacing above and below its letters: only the middle counts
        drawn = [(text, rect.inflate(0, -round(rect.h * 0.3))) for text, rect in recorder.frame() if text.strip()]
        card = lobby.card_rect()
        inside = [(text, rect) for text, rect in drawn if card.contains(rect)]
        assert any(text.endswith(format_code(lobby.watch)) for text, _ in inside), [text for text, _ in inside]
        for index, (text, rect) in enumerate(inside):
            for other, other_rect in inside[index + 1 :]:
                assert not rect.colliderect(other_rect), f"{text!r} is drawn over {other!r}"
            for button in lobby.buttons.values():
                assert not rect.colliderect(button.rect), f"{text!r} is drawn over the button {button.text!r}"
