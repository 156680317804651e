"""The puzzle screen, headless, through the real window: a puzzle solved by clicks, a wrong move with
its loss and refutation, Try again and Show solution, and the filters.

Puzzles come from the shipped set. The refutation is checked against an exact search of the
position after the wrong move, which a 20-tile puzzle makes quick.
"""

from __future__ import annotations

import pygame

from battle.history.store import History
from battle.puzzles import puzzle_words as words
from battle.puzzles.puzzle import Puzzle
from battle.rules.board import move_name
from battle.rules.wording import plural
from battle.ui.app import App
from battle.ui.puzzles.puzzle_scene import ANY_THEME, PuzzleScene, shipped_puzzles
from battle.ui.title.title_scene import TitleScene
from solver import Engine, Limits
from tests import ui_harness as ui


def open_puzzles(app: App) -> PuzzleScene:
    """The Puzzles button on the title, pressed as a user presses it."""
    title = app.stack.top
    assert isinstance(title, TitleScene)
    ui.click_button(app, title.widgets["puzzles"])
    scene = app.stack.top
    assert isinstance(scene, PuzzleScene)
    return scene


def pick(app: App, menu: object, label: str) -> None:
    """Open a drop-down list with a click and click one of its options."""
    ui.click_button(app, menu)
    expanded = menu.menu_states["expanded"]  # type: ignore[attr-defined]
    assert menu.current_state is expanded, "the click opens the list"  # type: ignore[attr-defined]
    item = next(item for item in expanded.options_selection_list.item_list if item["text"] == label)
    ui.click_button(app, item["button_element"])
    ui.settle(app, 2)  # the list tells the menu, which tells the screen, a frame each


def smallest_puzzle() -> Puzzle:
    """A 20-tile puzzle of one move with a wrong move that changes the result, if there is one."""
    small = [puzzle for puzzle in shipped_puzzles() if puzzle.start().tiles_left() == 20 and puzzle.length == 1]
    assert small
    return small[0]


def test_a_puzzle_played_right_by_clicks_is_solved_rated_and_stored(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        ui.key(app, pygame.K_p)  # P on the title opens the puzzles too
        assert isinstance(app.stack.top, PuzzleScene)
        ui.key(app, pygame.K_ESCAPE)
        scene = open_puzzles(app)
        app.resize((800, 600))  # the screen is laid out again; the clicks follow the new layout
        session = scene.session
        assert session is not None
        puzzle = session.puzzle
        assert scene.status.text == f"Find the best move for {words.name_of(puzzle.to_move)}."
        assert scene.puzzle_text().headline == f"Find the best move for {words.name_of(puzzle.to_move)}"
        while not session.finished:
            ui.play_move(app, session.expected())
            ui.run_until(app, lambda: not scene.busy(), timeout=5)
        ui.settle(app, 20)
        assert session.solved and scene.shown is not None and scene.shown.cells == session.position.cells
        outcome = scene.trainer.outcome
        assert outcome is not None and outcome.player_after.rating > outcome.player_before.rating == 1500
        assert outcome.streak == 1 and scene.trainer.streak == 1
        assert f"Solved! Your puzzle rating: 1500 → {outcome.player_after.describe()}" in scene.status.text
        assert scene.puzzle_text().headline == "Solved!"
        assert words.themes(puzzle) in scene.puzzle_text().details
        stored = History().attempts()
        assert [(attempt.puzzle_id, attempt.solved) for attempt in stored] == [(puzzle.id, True)]
        assert stored[0].player == outcome.player_after
        assert not scene.widgets["solution"].is_enabled and not scene.widgets["retry"].is_enabled
        ui.click_button(app, scene.widgets["next"])
        assert scene.session is not None and scene.session.puzzle.id != puzzle.id  # a new one first
        ui.click_button(app, scene.widgets["back"])
        assert isinstance(app.stack.top, TitleScene)


def test_a_wrong_move_shows_its_loss_and_the_refutation_then_try_again_and_the_solution(tmp_path, monkeypatch) -> None:
    puzzle = smallest_puzzle()
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        scene = PuzzleScene(app, [puzzle])
        app.stack.push(scene)
        session = scene.session
        assert session is not None
        wrong, loss = max(puzzle.losses[0].items(), key=lambda item: item[1])
        points = session.position.move_points(wrong)
        ui.play_move(app, wrong)
        # what it loses is said at once; the board shows the position after it, not the puzzle's
        assert scene.status.text.startswith(f"{move_name(wrong)} ({points}) loses {plural(loss, 'point')}")
        assert session.step == 0 and session.mistakes == 1
        after = session.position.copy()
        after.push(wrong)
        assert scene.shown is not None and scene.shown.cells == after.cells
        # the attempt is decided, rated and stored at once
        assert [attempt.solved for attempt in History().attempts()] == [False]
        ui.run_until(app, lambda: scene.wrong is not None and not scene.wrong.searching, timeout=60)
        refutation = scene.wrong.refutation
        assert refutation is not None
        best = Engine(table_bits=18).search(after, Limits())
        assert best.exact and refutation in best.best_moves
        replier = words.name_of(3 - puzzle.to_move)
        assert (
            f"Refutation: {replier} replies {move_name(refutation)} ({after.move_points(refutation)})."
            in scene.status.text
        )
        assert scene.board_state().hint == refutation and scene.board_state().last_move == wrong
        app.step([], ui.DT)  # the ringed refutation draws

        ui.click_button(app, scene.widgets["retry"])
        assert scene.wrong is None and scene.shown.cells == session.position.cells
        assert not scene.widgets["retry"].is_enabled
        assert scene.status.text == f"Find the best move for {words.name_of(puzzle.to_move)}."

        ui.click_button(app, scene.widgets["solution"])
        ui.run_until(app, lambda: not scene.busy(), timeout=5)
        assert session.finished and not session.solved
        assert scene.status.text.startswith(words.solution(puzzle.start(), puzzle.line))
        assert "Not solved at the first try." in scene.status.text
        assert scene.shown.cells == session.position.cells
        assert len(History().attempts()) == 1  # decided once, stored once
        ui.key(app, pygame.K_n)
        assert scene.session is not None and scene.session.step == 0 and not scene.session.finished


def test_show_solution_before_any_try_says_what_it_costs_and_counts_at_the_second_press(tmp_path, monkeypatch) -> None:
    """A viewed solution is a miss (as on lichess): the first press says so with the rating it leaves
    and counts nothing; the second shows the line and costs exactly what was said."""
    puzzle = smallest_puzzle()
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        scene = PuzzleScene(app, [puzzle])
        app.stack.push(scene)
        session = scene.session
        assert session is not None
        button = scene.widgets["solution"]
        assert button.text == "Show solution"
        ui.click_button(app, button)
        warning = scene.status.text
        assert warning.startswith(
            "Showing the solution counts this puzzle as missed: your puzzle rating goes from 1500"
        )
        assert History().attempts() == [] and scene.trainer.outcome is None  # nothing counted yet
        assert not session.finished and scene.shown is not None and scene.shown.cells == session.position.cells
        assert button.text == "Yes, show it" and button.is_enabled
        costs = [(label, value) for label, value, _colour in scene.puzzle_text().rows if label == "With the solution"]
        assert len(costs) == 1  # said beside the button too

        ui.click_button(app, button)
        ui.run_until(app, lambda: not scene.busy(), timeout=5)
        assert session.finished and not session.solved
        outcome = scene.trainer.outcome
        assert outcome is not None and [attempt.solved for attempt in History().attempts()] == [False]
        assert f"from 1500 to {outcome.player_after.describe()}." in warning  # it cost what was said
        assert costs[0][1] == outcome.player_after.describe()
        assert button.text == "Show solution" and not button.is_enabled

        ui.key(app, pygame.K_n)  # the next puzzle asks again
        ui.key(app, pygame.K_s)
        assert scene.status.text.startswith("Showing the solution counts this puzzle as missed")
        assert len(History().attempts()) == 1


def test_the_filters_draw_puzzles_of_a_theme_and_a_length(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        scene = open_puzzles(app)
        pick(app, scene.widgets["theme"], "tempo")
        assert scene.session is not None and "tempo" in scene.session.puzzle.themes
        pick(app, scene.widgets["length"], "2 moves to find")
        assert scene.session is not None
        assert "tempo" in scene.session.puzzle.themes and scene.session.puzzle.length == 2
        pick(app, scene.widgets["length"], "3 moves to find")  # no tempo puzzle is that long
        assert scene.session is None and scene.shown is None
        assert scene.status.text.startswith("No puzzle has theme tempo and 3 moves to find (600 puzzles")
        assert not scene.widgets["next"].is_enabled and not scene.widgets["solution"].is_enabled
        app.step([], ui.DT)  # an empty board and the panel draw
        pick(app, scene.widgets["theme"], ANY_THEME)
        assert scene.session is not None and scene.session.puzzle.length == 3
