"""What a click on a tile means when a pair is being picked: the rules of selection, shared by
every screen with a playable board (the game, the puzzles), so they answer a click the same way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from battle.i18n import _
from battle.rules.board import Move, Position, cell_name
from battle.rules.wording import capital, tile_words
from battle.ui.widgets.hud import StatusLine


@dataclass(frozen=True)
class Pick:
    """The outcome of a click on a tile: exactly one of ``move``, ``select``, ``deselect`` or a refusal
    in ``status`` (``select`` may carry ``status``'s text as the prefix of its own message)."""

    move: Move | None = None
    select: int | None = None
    deselect: bool = False
    prefix: str = ""
    status: StatusLine | None = None


def pick_tile(position: Position, selected: int | None, cell: int) -> Pick:
    """A click on the tile on ``cell`` (not an empty cell) with ``selected`` picked before, if any."""
    kind = position.cells[cell]
    if selected is None:
        if not position.is_free(cell):
            return Pick(
                status=StatusLine(
                    _(
                        "{cell_name} ({tile_words}) is not free: only the top-most and bottom-most "
                        "tile of a column can be taken."
                    ).format(cell_name=cell_name(cell), tile_words=tile_words(kind)),
                    "warn",
                )
            )
        return Pick(select=cell)
    if cell == selected:
        return Pick(deselect=True)
    move = (min(cell, selected), max(cell, selected))
    reason = position.illegal_reason(move)
    if reason is None:
        return Pick(move=move)
    reason = capital(reason)
    if position.is_free(cell):  # another free tile of a different kind: the new selection, and why
        return Pick(select=cell, prefix=f"{reason}. ")
    return Pick(status=StatusLine(f"{reason}.", "warn"))


def selection_status(position: Position, cell: int, prefix: str = "") -> StatusLine:
    """What the status line says once the tile on ``cell`` is selected: where its free twins are."""
    kind = position.cells[cell]
    twins = [other for other in position.free_cells() if other != cell and position.cells[other] == kind]
    if twins:
        where = " or ".join(cell_name(other) for other in twins)
        return StatusLine(
            _("{prefix}{tile_words} on {cell_name}: now its twin on {where}.").format(
                prefix=prefix, tile_words=tile_words(kind), cell_name=cell_name(cell), where=where
            ),
            "warn" if prefix else "info",
        )
    return StatusLine(
        _("{prefix}{tile_words} on {cell_name} has no free twin yet.").format(
            prefix=prefix, tile_words=tile_words(kind), cell_name=cell_name(cell)
        ),
        "warn",
    )


class PickingScreen(Protocol):
    """What a screen with a playable board does with a pick."""

    status: StatusLine

    def play(self, move: Move) -> None: ...

    def select(self, cell: int, prefix: str = "") -> None: ...

    def deselect(self) -> None: ...


def apply_pick(screen: PickingScreen, pick: Pick) -> None:
    """Carry out ``pick`` on ``screen``: play the pair, change the selection, or say why not."""
    if pick.move is not None:
        screen.play(pick.move)
    elif pick.select is not None:
        screen.select(pick.select, prefix=pick.prefix)
    elif pick.deselect:
        screen.deselect()
    elif pick.status is not None:
        screen.status = pick.status
