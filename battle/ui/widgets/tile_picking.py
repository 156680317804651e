"""What a click on a tile means when a pair is being picked: the rules of selection, shared by
every screen with a playable board (the game, the puzzles), so they answer a click the same way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from battle.i18n import _, format_list
from battle.rules.board import Move, Position, cell_name
from battle.rules.wording import tile_words
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
    if selected is None:
        return Pick(select=cell)
    if cell == selected:
        return Pick(deselect=True)
    move = (min(cell, selected), max(cell, selected))
    reason = position.illegal_reason(move)
    if reason is None:
        return Pick(move=move)
    if position.is_free(selected) and position.cells[selected] != kind:
        # another free tile of a different kind: the new selection, and why the two are no move
        refusal = _("{first} ({first_tile}) and {second} ({second_tile}) are not a pair.").format(
            first=cell_name(selected),
            first_tile=tile_words(position.cells[selected]),
            second=cell_name(cell),
            second_tile=tile_words(kind),
        )
        return Pick(select=cell, prefix=refusal)
    return Pick(status=StatusLine(_("Not a legal move: {reason}.").format(reason=reason), "warn"))


def selection_status(position: Position, cell: int, prefix: str = "") -> StatusLine:
    """What the status line says once the tile on ``cell`` is selected: where its free twins are,
    after ``prefix`` (a sentence about the click before, if any)."""
    kind = position.cells[cell]
    twins = [other for other in position.free_cells() if other != cell and position.cells[other] == kind]
    if twins:
        sentence = _("{tile_words} on {cell_name}: now its twin on {where}.").format(
            tile_words=tile_words(kind), cell_name=cell_name(cell), where=format_list(map(cell_name, twins), "or")
        )
    else:
        sentence = _("{tile_words} on {cell_name} has no free twin yet.").format(
            tile_words=tile_words(kind), cell_name=cell_name(cell)
        )
    shown = f"{prefix} {sentence}" if prefix else sentence  # two whole sentences, each from the catalogue
    return StatusLine(shown, "warn" if prefix or not twins else "info")


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
