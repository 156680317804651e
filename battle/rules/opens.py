"""What a move opens: the tiles it frees and the new pairs that gives the opponent.

The rule sheet's one piece of tactics is "look not only at the points you take,
but also at what your move frees for your opponent". Taking the end tile of a
column frees the tile behind it; if that tile has a free twin, the opponent can
take the pair next move. This module answers that question for one move, as
plain data (for the window's hover tooltip and outlines) and as one line of text.

Pure model code: no pygame, no solver.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from battle.i18n import _, ngettext
from battle.rules.board import Move, Position, cell_name, move_name
from battle.rules.tiles import kind_name, kind_value


@dataclass(frozen=True)
class Opening:
    """One move's consequences for the next player, before any search."""

    move: Move
    kind: int
    """The kind of the pair taken."""
    freed: tuple[int, ...]
    """Cells whose tiles are free after the move and were not before, in board order."""
    freed_kinds: tuple[int, ...]
    """The kind in each freed cell (same order as ``freed``)."""
    new_pairs: tuple[Move, ...]
    """The opponent's moves after this one that use a freed tile, in board order.

    Every pair the move makes available is one of these: a pair of tiles that
    were both free already was available before the move too.
    """
    opponent_moves: int
    """How many pairs the opponent can choose from after the move (0: the game ends)."""

    @property
    def points(self) -> int:
        return kind_value(self.kind)

    @property
    def game_ends(self) -> bool:
        return self.opponent_moves == 0

    def new_pair_kinds(self) -> list[tuple[int, int]]:
        """Each kind the opponent gets a new pair of, with how many ways to take it, in board order."""
        counts = Counter(self.kind_of_pair(pair) for pair in self.new_pairs)
        seen: list[int] = []
        for pair in self.new_pairs:
            kind = self.kind_of_pair(pair)
            if kind not in seen:
                seen.append(kind)
        return [(kind, counts[kind]) for kind in seen]

    def kind_of_pair(self, pair: Move) -> int:
        """The kind of one of ``new_pairs`` (one of its cells is always a freed one)."""
        for cell in pair:
            if cell in self.freed:
                return self.freed_kinds[self.freed.index(cell)]
        raise ValueError(f"{move_name(pair)} uses no freed tile")

    @property
    def points_offered(self) -> int:
        """The most points one new pair gives the opponent (0 when none)."""
        return max((kind_value(kind) for kind, _ in self.new_pair_kinds()), default=0)


def what_opens(position: Position, move: Move) -> Opening:
    """The tiles ``move`` frees and the new pairs that gives the opponent.

    Raises ``IllegalMoveError`` (naming the reason) if the move is not legal in
    ``position``; the position is left as it was either way.
    """
    before = set(position.free_cells())
    kind = position.cells[move[0]]
    position.push(move)
    try:
        freed = tuple(cell for cell in position.free_cells() if cell not in before)
        freed_kinds = tuple(position.cells[cell] for cell in freed)
        replies = position.legal_moves()
    finally:
        position.pop()
    fresh = set(freed)
    new_pairs = tuple(pair for pair in replies if pair[0] in fresh or pair[1] in fresh)
    return Opening((min(move), max(move)), kind, freed, freed_kinds, new_pairs, len(replies))


def describe_opening(opening: Opening) -> str:
    """One line: ``c1-c9 frees c2 (7p), c8 (3s): opponent gets 7p pair (7)``."""
    head = move_name(opening.move)
    if opening.freed:
        listed = ", ".join(
            f"{cell_name(cell)} ({kind_name(kind)})"
            for cell, kind in zip(opening.freed, opening.freed_kinds, strict=True)
        )
        text = _("{move} frees {cells}").format(move=head, cells=listed)
    else:
        text = _("{move} frees nothing").format(move=head)
    if opening.game_ends:
        return _("{opening}: no pair left, the game ends").format(opening=text)
    gifts = opening.new_pair_kinds()
    if not gifts:
        return _("{opening}: no new pair for the opponent").format(opening=text)
    parts = []
    for kind, ways in gifts:
        if ways > 1:
            parts.append(
                ngettext("{tile} pair ({value}, {ways} way)", "{tile} pair ({value}, {ways} ways)", ways).format(
                    tile=kind_name(kind), value=kind_value(kind), ways=ways
                )
            )
        else:
            parts.append(_("{tile} pair ({value})").format(tile=kind_name(kind), value=kind_value(kind)))
    return _("{opening}: opponent gets {pairs}").format(opening=text, pairs=", ".join(parts))
