"""Narrow error types: each subclasses ``ValueError`` so callers that only care
that the input was bad can catch one thing, while tests and the UI can tell
what kind of bad it was. Messages quote the offending input."""

from __future__ import annotations


class BattleError(ValueError):
    """Base class of every error the model raises about bad input."""


class NotationError(BattleError):
    """Text that does not follow the notation: a tile, cell, move or file."""


class PositionError(NotationError):
    """A position that breaks the rules of the board (gap in a column, fifth copy)."""


class IllegalMoveError(BattleError):
    """A well-formed move that the rules do not allow in this position."""


class RecordError(NotationError):
    """A game record that does not replay (illegal move, wrong points, wrong result)."""
