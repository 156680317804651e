"""The 12x9 board: cells, free tiles, legal moves, and applying/taking back moves.

Cells are numbered column-major (``col * 9 + row``) so that sorting cell numbers
gives the notation's board order (column first, then row). Only the two ends of
a column are ever removed, so each column is one contiguous run and is
described by its top and bottom row; we keep those up to date instead of
scanning the column on every query.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from battle.i18n import N_
from battle.rules.errors import IllegalMoveError, NotationError, Phrase, PositionError
from battle.rules.tiles import COPIES, EMPTY, KIND_COUNT, kind_name, kind_value

COLS: int = 12
ROWS: int = 9
CELL_COUNT: int = COLS * ROWS
COLUMN_LETTERS: str = "abcdefghijkl"

Move = tuple[int, int]
"""A move: the two cells of the removed pair, lower cell number first."""


def cell_index(col: int, row: int) -> int:
    """The cell number of a column (0-11) and row (0-8, top first)."""
    return col * ROWS + row


def cell_col(cell: int) -> int:
    return cell // ROWS


def cell_row(cell: int) -> int:
    return cell % ROWS


def cell_name(cell: int) -> str:
    """Notation of a cell: ``a1`` is top-left, ``l9`` bottom-right."""
    return f"{COLUMN_LETTERS[cell // ROWS]}{cell % ROWS + 1}"


def parse_cell(text: str) -> int:
    """Read a cell name such as ``c7``."""
    if len(text) != 2 or text[0] not in COLUMN_LETTERS or text[1] not in "123456789":
        raise NotationError(N_("{text} is not a cell (expected a column a-l and a row 1-9, e.g. c7)"), text=repr(text))
    return cell_index(COLUMN_LETTERS.index(text[0]), int(text[1]) - 1)


def move_name(move: Move) -> str:
    """Notation of a move, ``c1-c9``."""
    return f"{cell_name(move[0])}-{cell_name(move[1])}"


def parse_move(text: str) -> Move:
    """Read a move: two cells separated by a hyphen or spaces, in any order.

    The result is normalised to board order, so ``c9-c1`` and ``c1 c9`` are the
    same move; whether it is legal is a question for a position.
    """
    parts = text.replace("-", " ").split()
    if len(parts) != 2:
        raise NotationError(N_("{text} is not a move (expected two cells, e.g. c1-c9)"), text=repr(text))
    a, b = parse_cell(parts[0]), parse_cell(parts[1])
    if a == b:
        raise NotationError(N_("{text} is not a move: the two cells must differ"), text=repr(text))
    return (a, b) if a < b else (b, a)


def find_layout_problem(cells: Sequence[int]) -> tuple[int, Phrase] | None:
    """The first rule the cells break, as ``(row, reason)``; None if valid.

    Reported in reading order (row by row) so that a file parser can name the
    line where the problem shows; gaps are reported at the tile after the gap.
    """
    if len(cells) != CELL_COUNT:
        return (0, Phrase(N_("expected {expected} cells, got {count}"), expected=CELL_COUNT, count=len(cells)))
    counts = [0] * KIND_COUNT
    last_tile_row = [-1] * COLS
    for row in range(ROWS):
        for col in range(COLS):
            cell = cell_index(col, row)
            kind = cells[cell]
            if kind == EMPTY:
                continue
            if not 0 <= kind < KIND_COUNT:
                return (
                    row,
                    Phrase(N_("{cell} holds {kind}, which is not a tile kind"), cell=cell_name(cell), kind=repr(kind)),
                )
            counts[kind] += 1
            if counts[kind] > COPIES:
                return (
                    row,
                    Phrase(
                        N_("a fifth {tile} at {cell} (only {copies} of each kind exist)"),
                        tile=kind_name(kind),
                        cell=cell_name(cell),
                        copies=COPIES,
                    ),
                )
            above = last_tile_row[col]
            if above >= 0 and above != row - 1:
                letter = COLUMN_LETTERS[col]
                return (
                    row,
                    Phrase(
                        N_("column {column} has a gap between {above} and {below}"),
                        column=letter,
                        above=f"{letter}{above + 1}",
                        below=f"{letter}{row + 1}",
                    ),
                )
            last_tile_row[col] = row
    return None


class Position:
    """A board, the player to move, and both scores; moves are pushed and popped.

    The scores are the points taken so far by player 1 and player 2. A composed
    position may hold any subset of tiles, so nothing requires the scores and the
    board to add up to 270.
    """

    __slots__ = ("cells", "to_move", "scores", "_tops", "_bottoms", "_stack")

    def __init__(self, cells: Iterable[int], to_move: int = 1, scores: Sequence[int] = (0, 0)) -> None:
        cells = list(cells)
        problem = find_layout_problem(cells)
        if problem is not None:
            raise PositionError(problem[1].message, **problem[1].values)
        if to_move not in (1, 2):
            raise PositionError(N_("to-move must be 1 or 2, not {value}"), value=repr(to_move))
        if len(scores) != 2 or any(not isinstance(s, int) or s < 0 for s in scores):
            raise PositionError(N_("scores must be two whole numbers >= 0, not {value}"), value=repr(tuple(scores)))
        self.cells: list[int] = cells
        """Kind in each cell (column-major), ``EMPTY`` where taken."""
        self.to_move: int = to_move
        """The player to move, 1 or 2."""
        self.scores: list[int] = list(scores)
        """Points taken so far by player 1 and player 2."""
        self._tops: list[int] = [ROWS] * COLS
        self._bottoms: list[int] = [-1] * COLS
        self._stack: list[tuple[Move, int]] = []
        for col in range(COLS):
            self._rescan_column(col)

    # -- construction and comparison -------------------------------------------------

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], to_move: int = 1, scores: Sequence[int] = (0, 0)) -> Position:
        """Build from 9 rows of 12 kinds, top row first (the order of a file)."""
        cells = [EMPTY] * CELL_COUNT
        for row, line in enumerate(rows):
            for col, kind in enumerate(line):
                cells[cell_index(col, row)] = kind
        return cls(cells, to_move, scores)

    def rows(self) -> list[list[int]]:
        """The kinds as 9 rows of 12, top row first."""
        return [[self.cells[cell_index(col, row)] for col in range(COLS)] for row in range(ROWS)]

    def copy(self) -> Position:
        """An independent copy of the current state (without the undo stack)."""
        return Position(self.cells, self.to_move, self.scores)

    def key(self) -> tuple[tuple[int, ...], int, tuple[int, int]]:
        """Everything that defines the position, hashable."""
        return (tuple(self.cells), self.to_move, (self.scores[0], self.scores[1]))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<Position to_move={self.to_move} scores={self.scores} tiles={self.tiles_left()}>"

    # -- queries ---------------------------------------------------------------------

    def column_run(self, col: int) -> tuple[int, int]:
        """Top and bottom row of the column's run; top > bottom when empty."""
        return self._tops[col], self._bottoms[col]

    def is_free(self, cell: int) -> bool:
        """Whether the tile in the cell may be taken: the top or bottom of its column."""
        if self.cells[cell] == EMPTY:
            return False
        col, row = divmod(cell, ROWS)
        return row == self._tops[col] or row == self._bottoms[col]

    def free_cells(self) -> list[int]:
        """Every free cell, in board order."""
        free: list[int] = []
        for col in range(COLS):
            top, bottom = self._tops[col], self._bottoms[col]
            if top <= bottom:
                free.append(cell_index(col, top))
                if bottom != top:
                    free.append(cell_index(col, bottom))
        return free

    def legal_moves(self) -> list[Move]:
        """Every pair of identical free tiles, in board order.

        When three or four copies are free, each choice of two is its own move.
        """
        by_kind: dict[int, list[int]] = {}
        for cell in self.free_cells():
            by_kind.setdefault(self.cells[cell], []).append(cell)
        moves = [pair for cells in by_kind.values() for pair in combinations(cells, 2)]
        moves.sort()
        return moves

    def has_moves(self) -> bool:
        seen: set[int] = set()
        for cell in self.free_cells():
            kind = self.cells[cell]
            if kind in seen:
                return True
            seen.add(kind)
        return False

    def is_over(self) -> bool:
        """The game ends when no pair of identical free tiles is left."""
        return not self.has_moves()

    def tiles_left(self) -> int:
        return sum(1 for kind in self.cells if kind != EMPTY)

    def points_on_board(self) -> int:
        """Points the remaining tiles are worth if all of them are paired off."""
        return sum(kind_value(kind) for kind in self.cells if kind != EMPTY) // 2

    def move_points(self, move: Move) -> int:
        return kind_value(self.cells[move[0]])

    def illegal_reason(self, move: Move) -> Phrase | None:
        """Why the move is not allowed here, or None if it is legal: a sentence that starts with the
        notation (a cell, or a number that is none), so it reads the same alone and after a colon."""
        a, b = move
        for cell in (a, b):
            if not 0 <= cell < CELL_COUNT:
                return Phrase(N_("{number} is not a cell number"), number=repr(cell))
        if a == b:
            return Phrase(N_("{cell} is given twice: the two cells must differ"), cell=cell_name(a))
        for cell in (a, b):
            if self.cells[cell] == EMPTY:
                return Phrase(N_("{cell} is empty"), cell=cell_name(cell))
        for cell in (a, b):
            if not self.is_free(cell):
                return Phrase(
                    N_("{cell} is not free (only the top-most and bottom-most tile of a column are)"),
                    cell=cell_name(cell),
                )
        if self.cells[a] != self.cells[b]:
            return Phrase(
                N_("{first} is {first_tile} and {second} is {second_tile}, not a pair"),
                first=cell_name(a),
                first_tile=kind_name(self.cells[a]),
                second=cell_name(b),
                second_tile=kind_name(self.cells[b]),
            )
        return None

    # -- changing the position -------------------------------------------------------

    def push(self, move: Move) -> int:
        """Play a move for the player to move; returns the points it scored.

        Raises ``IllegalMoveError`` naming the reason if the move is not legal.
        """
        a, b = move
        if a > b:
            a, b = b, a
        reason = self.illegal_reason((a, b))
        if reason is not None:
            raise IllegalMoveError(N_("{move}: {reason}"), move=_safe_move_name((a, b)), reason=reason)
        kind = self.cells[a]
        points = kind_value(kind)
        self.cells[a] = EMPTY
        self.cells[b] = EMPTY
        self._rescan_column(a // ROWS)
        self._rescan_column(b // ROWS)
        self.scores[self.to_move - 1] += points
        self.to_move = 3 - self.to_move
        self._stack.append(((a, b), kind))
        return points

    def pop(self) -> Move:
        """Take back the last pushed move and return it."""
        if not self._stack:
            raise IndexError("no move to take back")
        (a, b), kind = self._stack.pop()
        self.cells[a] = kind
        self.cells[b] = kind
        self._rescan_column(a // ROWS)
        self._rescan_column(b // ROWS)
        self.to_move = 3 - self.to_move
        self.scores[self.to_move - 1] -= kind_value(kind)
        return (a, b)

    @property
    def move_stack(self) -> list[Move]:
        """Moves pushed since construction (or the last copy), oldest first."""
        return [move for move, _ in self._stack]

    @property
    def pushed(self) -> int:
        """How many moves ``move_stack`` holds, without building it (a server asks once a move)."""
        return len(self._stack)

    def _rescan_column(self, col: int) -> None:
        base = col * ROWS
        top, bottom = ROWS, -1
        for row in range(ROWS):
            if self.cells[base + row] != EMPTY:
                if top == ROWS:
                    top = row
                bottom = row
        self._tops[col] = top
        self._bottoms[col] = bottom


def biggest_pair(position: Position) -> Move:
    """The legal move worth the most points, the first in board order among equals.

    A greedy player, and a deterministic one: demos, the survey's smaller starts and the
    kernels' warm-up all play deals down with it, so each replays the same line. Raises
    ``ValueError`` when the position has no move.
    """
    moves = position.legal_moves()
    if not moves:
        raise ValueError("no legal move: the position is over")
    return max(moves, key=position.move_points)  # max keeps the first of equals; moves are sorted


def _safe_move_name(move: Move) -> str:
    try:
        return move_name(move)
    except (IndexError, TypeError):
        return repr(move)
