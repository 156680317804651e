"""A slow, obviously-correct solver: plain negamax over the model, memoised on the board.

Every fast search is checked against this one. It uses nothing but
``Position.legal_moves``/``push``/``pop``, so its only assumptions are the rules.
"""

from __future__ import annotations

from battle.rules.board import Move, Position


def value(position: Position, memo: dict | None = None) -> int:
    """The mover's future points minus the opponent's, under perfect play."""
    memo = {} if memo is None else memo
    key = tuple(position.cells)
    if key in memo:
        return memo[key]
    best = 0
    moves = position.legal_moves()
    if moves:
        best = -(10**9)
        for move in moves:
            points = position.push(move)
            best = max(best, points - value(position, memo))
            position.pop()
    memo[key] = best
    return best


def move_values(position: Position) -> dict[Move, int]:
    """Every legal move's exact value for the mover."""
    memo: dict = {}
    result = {}
    for move in position.legal_moves():
        points = position.push(move)
        result[move] = points - value(position, memo)
        position.pop()
    return result


def best_moves(position: Position) -> tuple[int, list[Move]]:
    values = move_values(position)
    if not values:
        return 0, []
    best = max(values.values())
    return best, sorted(m for m, v in values.items() if v == best)
