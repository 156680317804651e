"""Analysis mode of the game screen: a study board beside the game, with live values.

While analysis is on, the board shows the *study position*: the game's position
plus a variation the player explores by playing moves. The game itself (its
moves, its undo history, its autosave) is never touched by exploring; "back to
game" drops the variation. On top of the study position the best line (PV) can
be stepped through as a preview, without playing it.

Everything here is plain data and rules (no pygame): which position is shown,
which values each pair gets, the projected final score. ``study_mode`` puts it on
the game screen and ``study_view`` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from battle.i18n import _
from battle.rules.board import Move, Position, move_name
from battle.rules.game import Game
from battle.ui.live_analysis import LiveAnalysis

if TYPE_CHECKING:
    from battle.players import Analysis, Bound

BOUND_SIGNS: dict[Bound, str] = {"exact": "", "estimate": "~", "upper": "≤"}
"""How a value's certainty is written in front of it (≤: at most, ~: a depth-limited estimate)."""


@dataclass(frozen=True)
class MoveBadge:
    """What the board shows for one playable pair."""

    move: Move
    value: int
    """The final margin from now for the mover if this pair is taken (``MoveValue.value``)."""
    bound: Bound
    """``"exact"``, ``"estimate"`` or ``"upper"``."""
    depth: int
    best: bool
    """One of the moves with the highest value."""
    loss: int
    """Points of final margin given away against the best pair (0 for a best pair)."""

    @property
    def exact(self) -> bool:
        return self.bound == "exact"

    @property
    def label(self) -> str:
        """``+3``, ``~+3``, ``≤+3``: the value with its certainty sign."""
        return f"{BOUND_SIGNS[self.bound]}{self.value:+d}"

    def describe(self) -> str:
        """The value in words, for the status line: ``+3 (exact)``, ``~+3 (estimate, depth 6)``."""
        if self.exact:
            return _("{value:+d} (exact)").format(value=self.value)
        if self.bound == "upper":
            return _("{label} (at most, depth {depth})").format(label=self.label, depth=self.depth)
        return _("{label} (estimate, depth {depth})").format(label=self.label, depth=self.depth)


def move_badges(analysis: Analysis | None) -> dict[Move, MoveBadge]:
    """One badge per move the analysis valued, keyed by move (cells in board order)."""
    if analysis is None or not analysis.move_values:
        return {}
    best = max(mv.value for mv in analysis.move_values)
    return {
        mv.move: MoveBadge(
            mv.move, mv.value, mv.bound, mv.depth, mv.value == best and mv.bound != "upper", best - mv.value
        )
        for mv in analysis.move_values
    }


@dataclass(frozen=True)
class Projection:
    """The evaluation bar: where the final scores are heading under perfect play."""

    scores: tuple[float, float]
    """Projected final scores of player 1 and player 2."""
    margin: int
    """Projected final margin for player 1 (player 1's score minus player 2's)."""
    exact: bool
    undecided: int
    """Points still on the board at the end of the known line (0 when exact)."""


def projection(position: Position, analysis: Analysis | None) -> Projection | None:
    """The projected final scores from an analysis of ``position``.

    ``Analysis.final_score`` replays the best line; when it is exact that line
    runs to the end of the game. A depth-limited line stops early: the points
    still on the board there are split evenly (the search knows nothing of
    them), so the bar stays honest about the margin, which is what it shows.
    """
    if analysis is None:
        return None
    first, second = analysis.final_score
    undecided = 0
    if not analysis.exact:
        end = position.copy()
        for move in analysis.pv:
            end.push(move)
        undecided = 0 if end.is_over() else end.points_on_board()
    scores = (first + undecided / 2, second + undecided / 2)
    return Projection(scores, first - second, analysis.exact, undecided)


class AnalysisMode:
    """The study position, its variation from the game, the PV preview and the live values."""

    def __init__(self, game: Game, live: LiveAnalysis) -> None:
        self.game = game
        self.live = live
        self.variation: list[Move] = []
        """Moves explored from the game's position (never played in the game)."""
        self.undone: list[Move] = []
        """Variation moves taken back, for redo."""
        self.pv_step = 0
        """How many moves of the best line the preview shows (0: the study position itself)."""
        self._base_key = game.position.key()
        self._position = game.position.copy()
        self._pv_line: list[Move] = []
        self.live.analyse(self._position)

    # -- positions ---------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The study position: the game's position plus the variation."""
        return self._position

    @property
    def exploring(self) -> bool:
        """Whether the study position differs from the game's."""
        return bool(self.variation)

    @property
    def analysis(self) -> Analysis | None:
        """The latest analysis of the study position, or None yet."""
        return self.live.current_for(self._position)

    @property
    def pv(self) -> list[Move]:
        """The best line from the study position (frozen while it is being previewed)."""
        if self.pv_step:
            return self._pv_line
        analysis = self.analysis
        return list(analysis.pv) if analysis is not None else []

    @property
    def previewing(self) -> bool:
        return self.pv_step > 0

    def shown_position(self) -> Position:
        """What the board shows: the study position, or the PV preview after ``pv_step`` moves."""
        if not self.pv_step:
            return self._position
        shown = self._position.copy()
        for move in self._pv_line[: self.pv_step]:
            shown.push(move)
        return shown

    def badges(self) -> dict[Move, MoveBadge]:
        """Values of the study position's pairs (none while previewing the PV)."""
        return {} if self.pv_step else move_badges(self.analysis)

    def projection(self) -> Projection | None:
        return projection(self._position, self.analysis)

    # -- exploring ---------------------------------------------------------------------------

    def play(self, move: Move) -> int:
        """Play a move in the variation (the game is not changed); returns its points."""
        self.stop_preview()
        points = self._position.push(move)
        self.variation.append((min(move), max(move)))
        if self.undone and self.undone[-1] == self.variation[-1]:
            self.undone.pop()
        else:
            self.undone.clear()
        self._restart()
        return points

    def undo(self) -> Move | None:
        """Take back the last variation move; None when the variation is empty."""
        self.stop_preview()
        if not self.variation:
            return None
        move = self.variation.pop()
        self._position.pop()
        self.undone.append(move)
        self._restart()
        return move

    def redo(self) -> Move | None:
        self.stop_preview()
        if not self.undone:
            return None
        move = self.undone[-1]
        self.play(move)
        return move

    def back_to_game(self) -> None:
        """Drop the variation and the preview: the study position is the game's again."""
        self.pv_step = 0
        self.variation.clear()
        self.undone.clear()
        self._base_key = self.game.position.key()
        self._position = self.game.position.copy()
        self._restart()

    # -- the best line -----------------------------------------------------------------------

    def step_pv(self, delta: int) -> bool:
        """Move the preview along the best line; False if it cannot go that way."""
        line = self.pv
        target = max(0, min(len(line), self.pv_step + delta))
        if target == self.pv_step:
            return False
        if not self.pv_step:
            self._pv_line = list(line)
        self.pv_step = target
        return True

    def stop_preview(self) -> None:
        self.pv_step = 0

    def adopt_preview(self) -> list[Move]:
        """Play the previewed part of the best line into the variation (its first move if none)."""
        line = self._pv_line[: self.pv_step] if self.pv_step else self.pv[:1]
        self.stop_preview()
        for move in line:
            self.play(move)
        return line

    # -- time --------------------------------------------------------------------------------

    def tick(self) -> bool:
        """Once a frame: follow the game if it changed under us, collect new values. True on news."""
        changed = False
        if self.game.position.key() != self._base_key:
            self.back_to_game()  # undo/redo/load of the game itself: the variation no longer fits
            changed = True
        if self.live.key != self._position.key():
            self.live.analyse(self._position)
        return self.live.poll() or changed

    def close(self) -> None:
        self.live.stop()

    def _restart(self) -> None:
        self.live.analyse(self._position)

    # -- text --------------------------------------------------------------------------------

    def line_text(self, moves: list[Move]) -> str:
        return " ".join(move_name(move) for move in moves)


def pick_move(position: Position, cell: int | None, selected: int | None, badges: dict[Move, MoveBadge]) -> Move | None:
    """The pair a pointer means: over a tile (or with one selected), which of its pairs to explain.

    A selected tile and a hovered twin make one pair. A tile in several pairs
    (three or four free copies) stands for its best-valued one.
    """
    free = set(position.free_cells())
    if (
        selected is not None
        and cell is not None
        and cell != selected
        and cell in free
        and selected in free
        and position.cells[cell] == position.cells[selected]
    ):
        return (min(cell, selected), max(cell, selected))
    anchor = cell if cell is not None and cell in free else selected
    if anchor is None or anchor not in free:
        return None
    pairs = [move for move in position.legal_moves() if anchor in move]
    if not pairs:
        return None
    return max(pairs, key=lambda move: (badges[move].value if move in badges else -999, -move[0], -move[1]))
