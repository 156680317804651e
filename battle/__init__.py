"""Mahjong Battle: the rules model, notation and command line.

This package is pure Python: it imports neither pygame nor the solver, so the
rules can be used, tested and scripted anywhere.
"""

from battle.board import COLS, ROWS, Move, Position, cell_name, move_name, parse_cell, parse_move
from battle.deal import deal
from battle.errors import BattleError, IllegalMoveError, NotationError, PositionError, RecordError
from battle.game import Game, Result
from battle.notation import format_position, format_record, parse_position, parse_record

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
    "RecordError",
    "Result",
    "cell_name",
    "deal",
    "format_position",
    "format_record",
    "move_name",
    "parse_cell",
    "parse_move",
    "parse_position",
    "parse_record",
]
