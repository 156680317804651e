"""Games shared by the test modules that play numbered deals through the real program."""

from __future__ import annotations

from battle.rules.board import move_name
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
