"""Fixed demo screens for screenshots and docs: analysis mode, the review, the editor.

``MAHJONG_BATTLE_DEMO=analysis`` (or ``review``, ``editor``) opens one of these
instead of the title, with nothing random in it, so ``tools/screenshot.sh`` takes
the same picture every time. ``MAHJONG_BATTLE_DEMO=1`` is the plain game demo
(``app.demo_match``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from battle.rules.board import Move, Position, biggest_pair
from battle.rules.deal import deal
from battle.rules.game import Game
from battle.ui.match import Match

if TYPE_CHECKING:
    from battle.ui.navigator import Navigator

DEMOS = ("analysis", "review", "editor")


def _smallest(position: Position) -> Move:
    return min(position.legal_moves(), key=lambda move: (position.move_points(move), move))


def played_down(number: int, tiles: int) -> Position:
    """A numbered deal played by the greedy player down to ``tiles`` tiles (as a fresh position)."""
    position = deal(number)
    while position.tiles_left() > tiles and position.has_moves():
        position.push(biggest_pair(position))
    return position.copy()


def demo_analysis_game() -> Game:
    """Deal 1 played greedily down to 34 tiles: small enough to be solved in a moment, big enough to show."""
    return Game(played_down(1, 34), "Alice", "Bob")


def demo_review_game() -> Game:
    """A short game from a 40-tile position: a greedy player against one who takes the smallest pair.

    Twenty moves, every one solved in well under a second, with mistakes and blunders on both sides.
    """
    game = Game(played_down(1, 40), "Alice", "Bob")
    while not game.is_over():
        position = game.position
        game.play(biggest_pair(position) if position.to_move == 1 else _smallest(position))
    return game


def open_demo(navigator: Navigator, name: str) -> None:
    """Open the named demo screen (see ``DEMOS``)."""
    if name == "analysis":
        scene = navigator.start_match(Match(demo_analysis_game()))
        scene.set_analysis(True)
        position = scene.board_position
        moves = sorted(position.legal_moves(), key=lambda move: (-position.move_points(move), move))
        if moves:
            scene.hover_cell = moves[len(moves) // 2][0]
    elif name == "review":
        navigator.show_title()
        navigator.open_review(demo_review_game(), time_per_move=2.0).focus_turning_point = True
    elif name == "editor":
        navigator.show_title()
        position = played_down(2, 60)
        editor = navigator.open_editor(position)
        # an extra tile two rows below a column's run: a gap, which the editor marks and names
        col = next(c for c in range(12) if 0 <= position.column_run(c)[1] <= 5)
        kind = next(k for k in range(27) if editor.model.count(k) < 4)
        editor.model.place(col * 9 + position.column_run(col)[1] + 2, kind)
        editor.choose(kind)
