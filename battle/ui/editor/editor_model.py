"""The position editor's state: a board being set up, both scores, who moves, and what is wrong.

Unlike ``Position``, the editor must hold boards that break the rules (a gap in a
column, a fifth copy) while the user is half way through setting one up; it says
what is wrong (with ``battle.rules.board.find_layout_problem``'s reason) and offers a
``Position`` only once nothing is. Pure model code: no pygame, so the rules of the
editor are tested without a window.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from battle.i18n import _, ngettext
from battle.rules.board import CELL_COUNT, COLS, ROWS, Position, cell_index, cell_name, find_layout_problem
from battle.rules.deal import deal
from battle.rules.tiles import COPIES, EMPTY, KIND_COUNT, kind_name, kind_value

MAX_SCORE = 9999


@dataclass
class EditorModel:
    cells: list[int]
    to_move: int = 1
    scores: tuple[int, int] = (0, 0)
    last_placed: int | None = field(default=None, compare=False)
    """The cell of the tile placed last: a copy too many is named there, where the user is looking."""

    @classmethod
    def empty(cls) -> EditorModel:
        return cls([EMPTY] * CELL_COUNT)

    @classmethod
    def from_position(cls, position: Position) -> EditorModel:
        return cls(list(position.cells), position.to_move, (position.scores[0], position.scores[1]))

    # -- changes -----------------------------------------------------------------------------

    def place(self, cell: int, kind: int) -> None:
        """Put a tile of ``kind`` in ``cell`` (whatever was there goes); the result may be invalid."""
        if not 0 <= kind < KIND_COUNT:
            raise ValueError(f"{kind!r} is not a tile kind")
        self.cells[cell] = kind
        self.last_placed = cell

    def erase(self, cell: int) -> None:
        self.cells[cell] = EMPTY

    def clear(self) -> None:
        self.cells = [EMPTY] * CELL_COUNT

    def fill_from_deal(self, number: int) -> None:
        """The full board of a numbered deal; the scores and the mover are kept."""
        self.cells = list(deal(number).cells)

    def set_score(self, player: int, score: int) -> None:
        score = max(0, min(MAX_SCORE, int(score)))
        self.scores = (score, self.scores[1]) if player == 1 else (self.scores[0], score)

    def toggle_to_move(self) -> None:
        self.to_move = 3 - self.to_move

    # -- what it is --------------------------------------------------------------------------

    def count(self, kind: int) -> int:
        return sum(1 for cell_kind in self.cells if cell_kind == kind)

    def problem(self) -> str | None:
        """Why this is not a valid position, or None.

        A copy too many of the tile placed last is named at that tile; otherwise the first rule
        broken in reading order (which would name whichever copy comes last on the board).
        """
        found = find_layout_problem(self.cells)
        if found is None:
            return None
        placed = self.last_placed
        if placed is not None and self.cells[placed] != EMPTY:
            kind = self.cells[placed]
            count = self.count(kind)
            if count == COPIES + 1:
                return _("a fifth {kind_name} at {cell_name} (only {COPIES} of each kind exist)").format(
                    kind_name=kind_name(kind), cell_name=cell_name(placed), COPIES=COPIES
                )
            if count > COPIES:
                return _(
                    "{count} copies of {kind_name}, the last placed at {cell_name} (only {COPIES} of each kind exist)"
                ).format(count=count, kind_name=kind_name(kind), cell_name=cell_name(placed), COPIES=COPIES)
        return str(found[1])

    def problem_cells(self) -> set[int]:
        """Cells to mark on the board: the empty cells of every gap, and every copy of a kind with too many."""
        marked: set[int] = set()
        for col in range(COLS):
            rows = [row for row in range(ROWS) if self.cells[cell_index(col, row)] != EMPTY]
            if rows:
                marked.update(
                    cell_index(col, row)
                    for row in range(rows[0], rows[-1] + 1)
                    if self.cells[cell_index(col, row)] == EMPTY
                )
        for kind in range(KIND_COUNT):
            if self.count(kind) > COPIES:
                marked.update(cell for cell, cell_kind in enumerate(self.cells) if cell_kind == kind)
        return marked

    def free_cells(self) -> set[int]:
        """The top-most and bottom-most tile of each column (what would be free, gaps or not)."""
        free: set[int] = set()
        for col in range(COLS):
            rows = [row for row in range(ROWS) if self.cells[cell_index(col, row)] != EMPTY]
            if rows:
                free.update((cell_index(col, rows[0]), cell_index(col, rows[-1])))
        return free

    def position(self) -> Position:
        """The position being edited; raises ``PositionError`` (with the reason) while it is invalid."""
        return Position(self.cells, self.to_move, self.scores)

    def playable_problem(self) -> str | None:
        """Why a game cannot start from here (invalid, or no pair to take), or None."""
        problem = self.problem()
        if problem is not None:
            return problem
        if not self.position().has_moves():
            return _("no pair of free tiles: a game from here would be over at once")
        return None

    def summary(self) -> str:
        """Tiles, points and pairs, for the status line of a valid position."""
        position = self.position()
        pairs = len(position.legal_moves())
        tiles = position.tiles_left()
        points = sum(kind_value(kind) for kind in self.cells if kind != EMPTY) // 2
        return ngettext(
            "Valid: {tiles} tiles ({points} points in pairs), player {player} to move, {pairs} pair to "
            "take, scores {score1}-{score2}.",
            "Valid: {tiles} tiles ({points} points in pairs), player {player} to move, {pairs} pairs to "
            "take, scores {score1}-{score2}.",
            pairs,
        ).format(
            tiles=tiles, points=points, player=self.to_move, pairs=pairs, score1=self.scores[0], score2=self.scores[1]
        )
