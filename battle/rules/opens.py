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

from battle.i18n import _, format_list, ngettext
from battle.rules.board import Move, Position, cell_name, move_name
from battle.rules.tiles import kind_name, kind_value
from battle.rules.wording import pair_words


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
    """One line in the reader's language: ``c1-c9 frees c2 (7p), c8 (3s): opponent gets a pair of
    7-circles (7)``. Moves and cells stay in notation, as on the board; the pairs the opponent gets
    are named in words, as every sentence of the game names tiles (``battle.rules.wording``)."""
    head = move_name(opening.move)
    cells = ", ".join(
        f"{cell_name(cell)} ({kind_name(kind)})" for cell, kind in zip(opening.freed, opening.freed_kinds, strict=True)
    )
    gifts = opening.new_pair_kinds()
    if opening.game_ends:
        said = (
            _("{move} frees {cells}: no pair left, the game ends")
            if cells
            else _("{move} frees nothing: no pair left, the game ends")
        )
    elif not gifts:
        said = (
            _("{move} frees {cells}: no new pair for the opponent")
            if cells
            else _("{move} frees nothing: no new pair for the opponent")
        )
    else:  # a new pair always uses a freed tile
        said = _("{move} frees {cells}: opponent gets {pairs}")
    return said.format(move=head, cells=cells, pairs=format_list(_gift(kind, ways) for kind, ways in gifts))


def _gift(kind: int, ways: int) -> str:
    """``a pair of 3-circles (3, 2 ways)``: a new pair of the opponent's, its points, its ways to be taken."""
    if ways > 1:
        return ngettext("{pair} ({value}, {ways} way)", "{pair} ({value}, {ways} ways)", ways).format(
            pair=pair_words(kind), value=kind_value(kind), ways=ways
        )
    return _("{pair} ({value})").format(pair=pair_words(kind), value=kind_value(kind))
