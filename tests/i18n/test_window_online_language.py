"""The window's online screens in one language, whole: the waiting room, the game (to move and
waiting), an opponent's takeback question, a refusal, the opponent's resignation with its status
line and result card, and a rematch offer, played against a real server and a raw client, each
read as a frame draws it (``window_screens.read``), under ``--lang de`` and ``--lang en``."""

from __future__ import annotations

from pathlib import Path

import pytest

from battle.ui.online.online_result import OnlineResultScene
from tests import ui_harness as ui
from tests.i18n.language_guard import report
from tests.i18n.window_screens import read
from tests.online_server import ServerThread
from tests.ui.drawn_text import record_texts
from tests.ui.test_ui_online import WAIT, game_screen, guest_joins, host_in_window, press


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_online_screen_of_the_window_is_in_one_language(language: str, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    with ServerThread(tmp_path / "games.sqlite3") as server, ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), language=language, autosave=False)
        recorder = record_texts(app, monkeypatch)
        screens = {}
        lobby = host_in_window(app, server.url)
        screens["waiting room"] = read(app, recorder)
        guest, state = guest_joins(server.url, lobby.invite or "")
        scene = game_screen(app)
        ui.settle(app)
        screens["game, to move"] = read(app, recorder)
        move = scene.position.legal_moves()[0]
        ui.play_move(app, move)
        guest.expect("moved")
        ui.run_until(app, lambda: scene.online.state.to_move == 2, WAIT)
        screens["game, waiting"] = read(app, recorder)
        guest.send({"type": "takeback_request"})  # not Bob's move to take back: refused to him
        guest.expect("error")
        press(app, scene, "takeback")
        ui.run_until(app, lambda: scene.online.state.offers.takeback == 1, WAIT)
        guest.send({"type": "takeback_answer", "accept": False})
        ui.run_until(app, lambda: scene.online.state.offers.takeback is None, WAIT)
        screens["takeback turned down"] = read(app, recorder)
        press(app, scene, "takeback")  # asked again for the same move: the server refuses
        ui.run_until(app, lambda: scene.status.kind == "error", WAIT)
        screens["a refusal"] = read(app, recorder)
        guest.send({"type": "resign"})
        ui.run_until(app, lambda: isinstance(app.stack.top, OnlineResultScene), WAIT)
        screens["result card"] = read(app, recorder)
        ui.key(app, 27)  # Esc: back to the finished game
        guest.send({"type": "rematch_offer"})
        ui.run_until(app, lambda: scene.online.question() == "rematch", WAIT)
        screens["a rematch offered"] = read(app, recorder)
        guest.close()
    problems = report((reading.screen(name) for name, reading in screens.items()), language)
    assert not problems, problems
