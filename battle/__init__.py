"""Mahjong Battle: the rules model, the user's files, the command line and the window.

``battle.rules`` is the pure model and what a script needs, re-exported here
(``from battle import Game, parse_position``); ``battle.storage`` keeps the user's
files; ``battle.cli`` and ``battle.ui`` are the front ends, which reach the solver
only through ``battle.players``. Importing ``battle`` loads neither pygame nor numba.
"""

from battle.rules import (
    COLS,
    ROWS,
    BattleError,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    Position,
    PositionError,
    Record,
    RecordError,
    Result,
    cell_name,
    deal,
    format_position,
    format_record,
    move_name,
    parse_any,
    parse_cell,
    parse_move,
    parse_position,
    parse_record,
)

__version__ = "0.1.0"

__all__ = [
    "COLS",
    "ROWS",
    "BattleError",
    "Game",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Position",
    "PositionError",
    "Record",
    "RecordError",
    "Result",
    "cell_name",
    "deal",
    "format_position",
    "format_record",
    "move_name",
    "parse_any",
    "parse_cell",
    "parse_move",
    "parse_position",
    "parse_record",
]
