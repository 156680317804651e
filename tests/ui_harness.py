"""Helpers for the headless window tests: a dummy display, a private home, synthetic input.

Importing this module selects SDL's dummy video and audio drivers before pygame is
imported anywhere, so the tests run without a screen. Clicks are computed from
the layout functions (never hard-coded pixels), so they follow any layout change.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import random  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from battle.rules.board import Move  # noqa: E402
from battle.rules.deal import deal  # noqa: E402
from battle.rules.game import Game  # noqa: E402
from battle.ui.app import App  # noqa: E402
from battle.ui.play.play_scene import PlayScene  # noqa: E402
from battle.ui.review.review_scene import ReviewScene  # noqa: E402
from battle.ui.widgets.layout import cell_center  # noqa: E402

DT = 0.05


@contextmanager
def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., App]]:
    """A private home (settings and autosaves under ``tmp_path``) and a builder of apps.

    Every app built is shut down (its searches stopped) when the block ends. Apps
    built in one session share the home, as two runs of the program would.
    """
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    apps: list[App] = []

    def build(size: tuple[int, int] = (1200, 800), *, background_par: bool = False, **options: object) -> App:
        app = App(size, **options)
        # the par's background solve takes a core's spare time for minutes: only a test of it runs it
        app.settings.background_par = background_par
        apps.append(app)
        app.step(dt=0)
        return app

    try:
        yield build
    finally:
        for app in apps:
            app.stop_background(10)


def mouse_down(pos: tuple[int, int], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


def mouse_up(pos: tuple[int, int], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)


def click(app: App, pos: tuple[int, int], button: int = 1, dt: float = DT) -> None:
    """A press and release at ``pos``, then one more frame so widget events posted by it are handled."""
    pos = (int(pos[0]), int(pos[1]))
    motion = pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    app.step([motion, mouse_down(pos, button), mouse_up(pos, button)], dt)
    app.step([], dt)


def key(app: App, code: int, mod: int = 0, dt: float = DT, unicode: str = "") -> None:
    """A key pressed and released; ``unicode`` is the character SDL reports with it (``"?"`` for
    Shift+/ on a US layout), for handlers that go by the character rather than the key."""
    app.step(
        [
            pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode=unicode, scancode=0),
            pygame.event.Event(pygame.KEYUP, key=code, mod=mod, unicode=unicode, scancode=0),
        ],
        dt,
    )
    app.step([], dt)


def walk_cursor(app, scene, target: int) -> None:  # noqa: ANN001
    """Arrow keys until the keyboard cursor is on ``target`` (a free tile)."""
    if not scene.cursor_visible:
        key(app, pygame.K_RIGHT)
    for _ in range(60):
        if scene.cursor == target:
            return
        col, row = divmod(scene.cursor, 9)
        target_col, target_row = divmod(target, 9)
        if target_col != col:
            key(app, pygame.K_RIGHT if target_col > col else pygame.K_LEFT)
        else:
            key(app, pygame.K_DOWN if target_row > row else pygame.K_UP)
    assert scene.cursor == target


def click_cell(app: App, cell: int) -> None:
    click(app, cell_center(app.layout, cell))


def play_move(app: App, move: Move) -> None:
    click_cell(app, move[0])
    click_cell(app, move[1])


def click_button(app: App, button: object) -> None:
    """Press a pygame_gui button where it is on screen, like a user would."""
    rect = button.rect  # type: ignore[attr-defined]
    click(app, rect.center)


def play_scene(app: App) -> PlayScene:
    scene = app.stack.top
    if not isinstance(scene, PlayScene):
        scene = next(s for s in reversed(app.stack.scenes) if isinstance(s, PlayScene))
    return scene


def run_until(
    app: App, done: Callable[[], bool], timeout: float = 30.0, dt: float = DT, shown: Callable[[], object] | None = None
) -> None:
    """Step frames (with real time passing, for the solver thread) until ``done()``; a timeout says
    what ``shown()`` returns then (what the window shows instead)."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            instead = f": it shows {shown()!r}" if shown is not None else ""
            raise AssertionError(f"timed out waiting for the window{instead}")
        app.step([], dt)
        time.sleep(0.002)


def settle(app: App, frames: int = 12) -> None:
    """Let animations finish."""
    for _ in range(frames):
        app.step([], DT)


# -- dialogs, driven as a user drives them ------------------------------------------------


def type_text(app: App, text: str) -> None:
    """Characters typed into the focused text field, as SDL delivers them (one TEXTINPUT each)."""
    app.step([pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in text], DT)
    app.step([], DT)


def fill_path_box(app: App, dialog: object, path: Path | str) -> None:
    """Click a file dialog's path box, select what it holds (Ctrl+A) and type ``path`` over it."""
    box = dialog.file_path_text_line  # type: ignore[attr-defined]
    click(app, box.rect.center)
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    type_text(app, str(path))


def choose_file(app: App, dialog: object, path: Path | str, enter: bool = False) -> None:
    """Type ``path`` into the dialog and press its real OK button (or Enter in the path box)."""
    fill_path_box(app, dialog, path)
    if enter:
        key(app, pygame.K_RETURN)
    else:
        ok = dialog.ok_button  # type: ignore[attr-defined]
        assert ok.is_enabled, f"OK is disabled for {path}"
        click(app, ok.rect.center)
    settle(app, 2)


# -- the review screen ------------------------------------------------------------------


def short_game(seed: int = 12, tiles: int = 20) -> Game:
    """A deal played down to ``tiles`` tiles as a composed start, then to the end by seeded random moves."""
    rng = random.Random(seed)
    while True:
        position = deal(rng.randrange(1 << 32))
        while position.tiles_left() > tiles and not position.is_over():
            position.push(rng.choice(position.legal_moves()))
        if not position.is_over():
            break
    game = Game(position.copy(), "Ann", "Ben")
    while not game.is_over():
        game.play(rng.choice(game.position.legal_moves()))
    return game


def reviewed(app, scene: ReviewScene) -> ReviewScene:  # noqa: ANN001
    run_until(app, lambda: scene.review is not None or scene.failed is not None, timeout=30)
    assert scene.failed is None
    return scene
