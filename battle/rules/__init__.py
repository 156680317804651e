"""The rules model: tiles, the board and its moves, numbered deals, games, the text notation.

Pure Python with no other dependency: it imports neither pygame, nor numba, nor the
solver, nor any front end (``lint-imports`` checks it), so the rules can be used,
tested and scripted anywhere.
"""

from battle.rules.board import COLS, ROWS, Move, Position, cell_name, move_name, parse_cell, parse_move
from battle.rules.deal import deal
from battle.rules.errors import BattleError, IllegalMoveError, NotationError, PositionError, RecordError
from battle.rules.game import Game, Result
from battle.rules.notation import Record, format_position, format_record, parse_any, parse_position, parse_record

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
