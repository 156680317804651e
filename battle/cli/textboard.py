"""The board as terminal text: free tiles marked, playable pairs marked, colours optional."""

from __future__ import annotations

from battle.i18n import N_, _, ngettext
from battle.rules.board import COLS, COLUMN_LETTERS, ROWS, Position, cell_index
from battle.rules.tiles import EMPTY, kind_name
from battle.rules.wording import about, shown_name

_SUIT_COLOURS = {"m": "\033[31m", "p": "\033[34m", "s": "\033[32m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"

LEGEND = N_("[5p] free with a free twin (playable)   (5p) free, no twin free   5p blocked")
"""The key under the board, looked up where it is printed: ``_(LEGEND)``."""


def render_board(position: Position, colour: bool = False) -> str:
    """The 12x9 grid with row and column labels and each column's tile count."""
    free = set(position.free_cells())
    playable = {cell for move in position.legal_moves() for cell in move}
    lines = ["     " + "".join(f"  {letter}  " for letter in COLUMN_LETTERS)]
    for row in range(ROWS):
        cells = []
        for col in range(COLS):
            cell = cell_index(col, row)
            kind = position.cells[cell]
            if kind == EMPTY:
                cells.append("  .  " if not colour else f"{_DIM}  .  {_RESET}")
                continue
            name = kind_name(kind)
            text = f"[{name}]" if cell in playable else f"({name})" if cell in free else f" {name} "
            if colour:
                style = _SUIT_COLOURS[name[1]] + (_BOLD if cell in free else _DIM)
                text = f"{style}{text}{_RESET}"
            cells.append(f"{text} ")
        lines.append(f" {row + 1:>2}  " + "".join(cells).rstrip())
    counts = []
    for col in range(COLS):
        top, bottom = position.column_run(col)
        counts.append(f"  {max(0, bottom - top + 1)}  ")
    lines.append(" " * 5 + "".join(counts).rstrip() + "   " + _("tiles per column"))
    return "\n".join(lines)


def render_status(position: Position, names: tuple[str, str] | None = None) -> str:
    """One line: scores, whose turn, what is left."""
    names = names if names is not None else ("Player 1", "Player 2")
    shown = (shown_name(names[0]), shown_name(names[1]))
    scores = f"{shown[0]} {position.scores[0]} - {position.scores[1]} {shown[1]}"
    tiles, points = position.tiles_left(), position.points_on_board()
    left = _("{tiles}, {points} on the board").format(
        tiles=ngettext("{count} tile", "{count} tiles", tiles).format(count=tiles),
        points=ngettext("{count} point", "{count} points", points).format(count=points),
    )
    if position.is_over():
        return _("{scores}   game over   {left}").format(scores=scores, left=left)
    pairs = len(position.legal_moves())
    playable = ngettext("{count} pair playable", "{count} pairs playable", pairs).format(count=pairs)
    mover = about(names[position.to_move - 1], _("You to move"), _("{name} to move"))
    return f"{scores}   {mover}   {playable}   {left}"
