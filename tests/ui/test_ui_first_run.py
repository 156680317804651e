"""The first game after an install, while the kernels still compile: the levels up to expert answer
from plain Python, master too within its 5 s (its card says so), perfect's card says the solver is
being prepared, and a player who waits raises the compile to the window's own priority, as a game
at master or perfect does from its start."""

from __future__ import annotations

import dataclasses
import re
import threading
import time

import pytest

from battle.players import LEVELS
from battle.ui import app as app_module
from battle.ui.match import new_match
from tests import ui_harness as ui
from tests.ui.drawn_text import record_texts

COMPILE = 600.0
"""The longest a test waits for an event (the blocked compile is released by the test itself)."""


@pytest.fixture
def compiling(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The window's kernels "compile" until the returned event is set: its ``prepare`` hook waits."""
    release = threading.Event()
    real = app_module.prepare_solver

    def prepare(closing: threading.Event, waited_on: threading.Event) -> None:
        while not (release.is_set() or closing.is_set()):
            release.wait(0.05)
        if not closing.is_set():
            real(closing, waited_on)

    monkeypatch.setattr(app_module, "prepare_solver", prepare)
    return release


@pytest.mark.parametrize(("size", "level"), [((800, 600), "club"), ((1200, 800), "club"), ((1200, 800), "expert")])
def test_a_level_up_to_expert_answers_while_the_kernels_compile(size, level, compiling, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        scene = app.start_match(new_match(7, "solver", ("You", "You"), level=level, human_first=False))
        match = scene.match
        for _ in range(2):  # the solver's move, then yours
            ui.run_until(app, lambda: match.human_to_move(), timeout=COMPILE)
            ui.play_move(app, match.position.legal_moves()[0])
        ui.run_until(app, lambda: match.human_to_move(), timeout=COMPILE)
        assert match.game.ply == 5 and not app.solver.ready  # three replies, the compile still running
        assert not app.solver.waited_on.is_set()  # nobody waited for it
        compiling.set()
        ui.run_until(app, lambda: app.solver.ready, timeout=COMPILE)
        ui.play_move(app, match.position.legal_moves()[0])
        ui.run_until(app, lambda: scene.game_mode.move_job is not None or match.human_to_move(), timeout=COMPILE)
        assert scene.game_mode.move_job is None or app.solver.current is scene.game_mode.move_job  # the kernel's


@pytest.mark.parametrize("size", [(800, 600), (1200, 800)])
def test_a_deep_levels_card_says_the_solver_is_being_prepared(size, compiling, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    # the card goes with the move, however long perfect thinks: its 10 s on two threads on a full
    # board were 15 of the test's 16 CPU seconds
    monkeypatch.setitem(LEVELS, "perfect", dataclasses.replace(LEVELS["perfect"], time_limit=0.5))
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        scene = app.start_match(new_match(7, "solver", ("You", "You"), level="perfect", human_first=False))
        recorder = record_texts(app, monkeypatch)
        ui.run_until(app, lambda: scene.game_mode.move_job is not None, timeout=COMPILE)
        texts = recorder.texts()
        assert "preparing the solver" in texts, texts
        assert any(text.startswith("(first run only) ") and text.endswith(" s") for text in texts), texts
        assert app.solver.waited_on.is_set()  # the compile's children go up to the window's priority
        compiling.set()
        ui.run_until(app, lambda: scene.match.human_to_move(), timeout=COMPILE)
        texts = recorder.texts()
        assert "preparing the solver" not in texts


@pytest.mark.parametrize("size", [(800, 600), (1200, 800)])
def test_master_answers_within_its_time_while_the_kernels_compile(size, compiling, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    # the card says the level's own time, whatever it is: 2 s here, as master's 5 s of plain Python's
    # search on a full board were most of the test's CPU
    monkeypatch.setitem(LEVELS, "master", dataclasses.replace(LEVELS["master"], time_limit=2.0))
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        scene = app.start_match(new_match(7, "solver", ("You", "You"), level="master", human_first=False))
        recorder = record_texts(app, monkeypatch)
        ui.run_until(app, lambda: scene.game_mode.move_job is not None, timeout=COMPILE)
        texts = recorder.texts()
        assert "(first run: at most 2 s)" in texts, texts
        assert "preparing the solver" not in texts
        ui.run_until(app, lambda: scene.match.human_to_move(), timeout=COMPILE)
        assert scene.match.game.ply == 1 and not app.solver.ready  # plain Python's move, the compile held
        assert "(first run: at most 2 s)" not in recorder.texts()
        compiling.set()


def test_kernels_ready_during_masters_plain_search_answer_its_move(compiling, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    # a plain search that outlasts any load of the kernels, however loaded the machine
    monkeypatch.setitem(LEVELS, "master", dataclasses.replace(LEVELS["master"], time_limit=3600.0))
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        scene = app.start_match(new_match(7, "solver", ("You", "You"), level="master", human_first=False))
        ui.run_until(app, lambda: scene.game_mode.move_job is not None, timeout=COMPILE)
        plain_job = scene.game_mode.move_job
        asked = []
        real_submit = app.solver.submit
        monkeypatch.setattr(app.solver, "submit", lambda run, **kw: asked.append(kw["label"]) or real_submit(run, **kw))
        compiling.set()  # the compile ends while plain Python searches
        ui.run_until(app, lambda: scene.match.human_to_move(), timeout=COMPILE)
        assert scene.match.game.ply == 1 and app.solver.ready
        assert asked == ["move"] and plain_job.cancelled.is_set()  # the kernels' search answered, plain's dropped


def test_a_game_at_a_level_that_waits_for_the_kernels_raises_the_compile_from_its_start(  # noqa: ANN201
    compiling,
    tmp_path,
    monkeypatch,  # noqa: ANN001
):
    """Master's player will wait for the compile: it runs at the window's priority from the game's start,
    before the player's first move (its first reply beside two busy loops 2.2 s, not 5.4)."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        scene = app.start_match(new_match(7, "solver", ("You", "You"), level="master", human_first=True))
        ui.run_until(app, lambda: scene.match.human_to_move(), timeout=COMPILE)
        assert scene.match.game.ply == 0 and scene.game_mode.move_job is None  # nothing asked of the solver yet
        assert app.solver.waited_on.is_set()
        compiling.set()


def test_the_first_run_counter_counts_wall_clock_seconds(compiling, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """On a busy machine each frame takes longer than ``MAX_DT`` and gets only that much screen time
    (4.7 times less than passed on one): the card's seconds are the wall clock's all the same, since
    the move was asked (the count "thinking" goes on with once the compile ends)."""
    frame_seconds, frames = 0.25, 12
    with ui.session(tmp_path, monkeypatch) as new_app:
        building = time.monotonic()  # the kernels' preparation starts as the window is built
        app = new_app((1200, 800))
        scene = app.start_match(new_match(7, "solver", ("You", "You"), level="perfect", human_first=False))
        recorder = record_texts(app, monkeypatch)
        ui.run_until(app, lambda: scene.game_mode.move_job is not None, timeout=COMPILE)
        asked = time.monotonic()
        for _frame in range(frames):
            time.sleep(frame_seconds)  # the frame's work on a loaded machine
            app.step([], frame_seconds)  # the loop's dt, which the frame cuts to MAX_DT
        assert scene.clock < frames * app_module.MAX_DT + 1  # screen time fell behind
        began = scene.game_mode.think_began  # the window's own moment of the ask, a frame or more before `asked`
        drawing = time.monotonic()
        shown = [text for text in recorder.texts(0.0) if text.startswith("(first run only) ")]
        counted = time.monotonic()
    assert building <= began <= asked
    assert len(shown) == 1, shown
    seconds = int(re.fullmatch(r"\(first run only\) (\d+) s", shown[0]).group(1))  # type: ignore[union-attr]
    # the card rounds the seconds from `began` to the moment the frame drew, between `drawing` and `counted`
    assert drawing - began - 0.5 <= seconds <= counted - began + 0.5, (shown, drawing - began, counted - began)
    assert seconds >= frames * frame_seconds - 0.5  # the wall clock's seconds, not the screen's
