"""A seeded monkey: a couple of thousand random clicks, keys and resizes must break nothing.

Whatever the input, the window keeps running and the game stays a legal game: every
column one contiguous run, and the points taken plus the points on the board make 270.
The monkey also wanders into analysis mode (A, its variation and best-line keys), the
position editor and the review screen, and is led back out the way a user would go.
"""

from __future__ import annotations

import random

import pygame

from battle.rules.board import find_layout_problem
from battle.rules.tiles import TOTAL_POINTS
from battle.ui.choice_scene import ChoiceScene
from battle.ui.editor.editor_scene import EditorScene
from battle.ui.play.play_scene import PlayScene
from battle.ui.play.result_scene import ResultScene
from battle.ui.review.review_scene import ReviewScene
from battle.ui.title.title_scene import TitleScene
from battle.ui.widgets.layout import cell_center
from tests import ui_harness as ui

ACTIONS = 2000
KEYS = [
    pygame.K_LEFT,
    pygame.K_RIGHT,
    pygame.K_UP,
    pygame.K_DOWN,
    pygame.K_RETURN,
    pygame.K_SPACE,
    pygame.K_RETURN,
    pygame.K_SPACE,
    pygame.K_ESCAPE,
    pygame.K_u,
    pygame.K_r,
    pygame.K_h,
    pygame.K_a,
    pygame.K_HOME,
    pygame.K_END,
    pygame.K_RIGHT,
    pygame.K_LEFT,
    pygame.K_b,
    pygame.K_COMMA,
    pygame.K_PERIOD,
    pygame.K_p,
    pygame.K_e,
    pygame.K_v,
]


def check_legal(scene: PlayScene) -> None:
    position = scene.match.game.position
    assert find_layout_problem(position.cells) is None
    assert sum(position.scores) + position.points_on_board() == TOTAL_POINTS
    assert position.to_move in (1, 2)
    replay = scene.match.game.position_at(scene.match.game.ply)
    assert replay == position


def random_event(rng: random.Random, app) -> pygame.event.Event | list:  # noqa: ANN001
    width, height = app.layout.window
    roll = rng.random()
    if roll < 0.55:
        # mostly on tiles, where the game is; some anywhere (panel, gaps, buttons); and often
        # on a tile of a real pair, so that games move on and reach their end
        scene = app.stack.top
        moves = scene.board_position.legal_moves() if isinstance(scene, PlayScene) else []
        aim = rng.random()
        if aim < 0.3 and moves:
            events = []
            for cell in rng.choice(moves):
                x, y = cell_center(app.layout, cell)
                events += [ui.mouse_down((x, y)), ui.mouse_up((x, y))]
            return events
        if aim < 0.45 and moves:
            x, y = cell_center(app.layout, rng.choice(rng.choice(moves)))
        elif aim < 0.85:
            x, y = cell_center(app.layout, rng.randrange(108))
            x += rng.randint(-app.layout.tile_w // 2, app.layout.tile_w // 2)
            y += rng.randint(-app.layout.tile_h // 2, app.layout.tile_h // 2)
        else:
            x, y = rng.randrange(width), rng.randrange(height)
        button = rng.choice((1, 1, 1, 1, 3))
        return [
            pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0)),
            ui.mouse_down((x, y), button),
            ui.mouse_up((x, y), button),
        ]
    if roll < 0.92:
        code = rng.choice(KEYS)
        return [pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)]
    if roll < 0.97:
        return [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice((-3, -1, 1, 3)), flipped=False)]
    size = (rng.randint(320, 1900), rng.randint(240, 1100))
    return [pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size)]


def recover(app, rng: random.Random) -> None:  # noqa: ANN001
    """Leave screens the monkey wandered into, the way a user would."""
    top = app.stack.top
    if isinstance(top, ResultScene):
        top.choose(rng.choice(("rematch", "review", "close")))
    elif isinstance(top, TitleScene):
        top.command("resume" if top.resume is not None else "start")
    elif isinstance(top, ChoiceScene):
        top.answer(rng.choice([choice.key for choice in top.choices] + [None]))
    elif isinstance(top, PlayScene) and top.dialog_open():
        top.files.close()
    elif isinstance(top, ReviewScene):
        top.command("back")
    elif isinstance(top, EditorScene):
        if top.dialog_open():
            top.files.close()
        elif rng.random() < 0.2:
            top.command("back")


def test_random_input_breaks_nothing(tmp_path, monkeypatch) -> None:
    from battle.ui.play import thinking

    monkeypatch.setattr(thinking, "HINT_QUICK_SECONDS", 0.2)
    monkeypatch.setattr(thinking, "HINT_SECONDS", 0.2)
    rng = random.Random(20240611)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1000, 700))
        app.stack.top.command("start")
        games = 0
        finished = None
        seen: set[str] = set()
        for index in range(ACTIONS):
            app.step(random_event(rng, app), rng.choice((0.0, 0.02, 0.05, 0.3)))
            assert app.running
            seen.add(type(app.stack.top).__name__)
            scene = app.stack.top
            if isinstance(scene, PlayScene) and scene.analysis is not None:
                seen.add("analysis")
            recover(app, rng)
            scene = ui.play_scene(app)
            if index % 50 == 0:
                check_legal(scene)
            if scene.match.game.is_over() and scene is not finished:
                games += 1
                finished = scene
        for _ in range(30):
            app.step([], 0.1)
        check_legal(ui.play_scene(app))
        assert games > 0, "the monkey never finished a game: the clicks hardly reach the tiles"
        assert {"analysis", "EditorScene", "ReviewScene"} <= seen, seen
