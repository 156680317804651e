"""Games and positions shared by the test modules."""

from __future__ import annotations

import random

from battle.rules.board import Position, move_name
from battle.rules.deal import deal


def opening_moves(number: int, count: int) -> list[str]:
    """The first ``count`` moves of deal ``number``, each the last legal move in notation order."""
    position = deal(number)
    names = []
    for _ in range(count):
        move = position.legal_moves()[-1]
        names.append(move_name(move))
        position.push(move)
    return names


def random_positions(count: int, seed: int, most_moves: int) -> list[Position]:
    """``count`` random deals, each played 0 to ``most_moves`` random moves in, none over."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = deal(rng.randrange(1 << 32))
        for _ in range(rng.randrange(0, most_moves + 1)):
            if position.is_over():
                break
            position.push(rng.choice(position.legal_moves()))
        if not position.is_over():
            found.append(position.copy())
    return found
