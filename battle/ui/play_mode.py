"""The game screen's modes: what a mode decides, and what it may use of the screen.

The game screen (``PlayScene``) is always in one mode: playing the game
(``game_mode.GameMode``) or studying it (``battle.ui.analysis.study_mode.StudyMode``,
analysis on). The screen keeps what every mode shares (the match, the selection and
the cursor, browsing the moves, the running animations, the status line, the widgets)
and turns input into calls on its mode; the mode decides what a move, an undo or a hint
means, which panel buttons there are and which can be pressed, whether the game runs,
and what it adds to the drawing. ``PlayMode`` is that contract.

A mode reaches the screen only through ``PlayScreen``, the few things it may read and
set there, so neither mode depends on how the screen does the rest. What a mode's action
did comes back to the screen, which shows it: a move as ``Played`` (``PlayScreen.show_played``:
the lifting pair, the flying points, the status line), an undo, a redo, a hint or a command of
the mode's own as ``Shown`` (``PlayScreen.show``: the words, the selection, a rewound record).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from battle.i18n import N_

if TYPE_CHECKING:
    import pygame

    from battle.rules.board import Move, Position
    from battle.ui.match import Match
    from battle.ui.scene import Host
    from battle.ui.widgets.animations import Animation
    from battle.ui.widgets.hud import StatusLine

ButtonSpec = tuple[str, str, str]
"""A panel button: the command it sends, its label, its tool tip."""

TOOLS: tuple[ButtonSpec, ...] = (
    ("edit", N_("Edit position"), N_("Open this position in the position editor (E)")),
    ("review", N_("Review"), N_("Grade every move of this game against perfect play (V)")),
)
"""The last buttons of the panel in every mode, after the mode's own."""


@dataclass(frozen=True)
class Played:
    """A move a mode has played into its game or its study board, for the screen to show."""

    move: Move
    mover: int
    """The side that moved."""
    kind: int
    """The pair's tile kind."""
    points: int
    status: StatusLine | None
    """What the status line says of it; None when the mode words a batch of moves itself."""
    flying: bool = True
    """The points fly to the mover's score (a game's move; a study variation's pair only lifts off)."""
    record: bool = True
    """The game's record changed: the move list follows it (not a study variation)."""
    save: bool = False
    """The game is autosaved (a local game; an online game lives on its server)."""


@dataclass(frozen=True)
class Shown:
    """What a mode's undo, redo, hint or command changed, for the screen to show."""

    status: StatusLine | None = None
    """What the status line says now; None leaves it."""
    deselect: bool = False
    """The selection goes (the board it was on changed)."""
    rewound: bool = False
    """The game's record went back or forth: the selection goes, only the score pulses stay,
    the move list follows and the game is autosaved."""
    replayed: tuple[tuple[Move, int], ...] = ()
    """Moves played again and their pairs' kinds: each pair lifts off again."""
    played: tuple[Played, ...] = ()
    """New moves played into the game (a server's), shown one after the other after any rewind."""
    reset: bool = False
    """The board shows another game now (a rematch): the selection and every animation go first."""


class PlayScreen(Protocol):
    """What a mode may use of the game screen."""

    app: Host
    match: Match
    clock: float
    """The screen's time in seconds (animations start at it)."""
    status: StatusLine
    selected: int | None
    """The selected tile's cell; a mode clears it when a move is played."""
    hover_cell: int | None
    """The cell under the pointer, if any."""
    animations: list[Animation]

    @property
    def browsing(self) -> bool:
        """Whether the board shows an earlier position of the game, read-only."""
        ...

    def dialog_open(self) -> bool: ...

    def animating(self) -> bool:
        """Whether a pair is still lifting off or points are still flying."""
        ...

    def turn_status(self) -> StatusLine:
        """Whose turn it is, in the words of the screen's current mode."""
        ...

    def refresh(self) -> None:
        """The game changed: the move list follows it."""
        ...

    def autosave(self) -> None: ...

    def show_result(self) -> None:
        """Lay the result card over the finished game."""
        ...

    def show_played(self, played: Played) -> None:
        """Show a move a mode played: the pair lifting off, its points flying, the status line."""
        ...

    def show(self, shown: Shown) -> None:
        """Show what a mode's undo, redo, hint or command changed."""
        ...


class PlayMode(Protocol):
    """What the game screen asks of its mode."""

    @property
    def buttons(self) -> tuple[ButtonSpec, ...]:
        """The mode's own panel buttons, in order (the screen adds ``TOOLS`` after them)."""
        ...

    @property
    def keys(self) -> Mapping[int, str]:
        """Keys (without Ctrl) that send a command of the mode's own, beyond the screen's shortcuts."""
        ...

    @property
    def keys_help(self) -> str:
        """The shortcuts named beside the status line."""
        ...

    @property
    def runs_game(self) -> bool:
        """Whether the game goes on (the solver moves, the result card comes) rather than waits."""
        ...

    @property
    def shows_move_list(self) -> bool:
        """Whether the panel lists the game's moves (to point at and browse) rather than the mode's box."""
        ...

    @property
    def position(self) -> Position:
        """The position clicks act on."""
        ...

    @property
    def previewing(self) -> bool:
        """Whether the board shows moves ahead of ``position`` that are not played (read-only, like browsing)."""
        ...

    def shown_position(self) -> Position:
        """The position the board shows (``position``, or a preview ahead of it)."""
        ...

    def enabled_buttons(self) -> dict[str, bool]:
        """Which of the mode's buttons can be pressed now (buttons not named stay as they are)."""
        ...

    def refusal(self) -> StatusLine | None:
        """Why a click on a tile does nothing now (the game is over, the solver thinks), or None."""
        ...

    def play(self, move: Move) -> Played:
        """Play a legal move of ``position``; what happened, for the screen to show."""
        ...

    def undo(self) -> Shown: ...

    def redo(self) -> Shown: ...

    def request_hint(self) -> Shown: ...

    def command(self, name: str) -> Shown:
        """A button or key of the mode's own (names it does not know change nothing)."""
        ...

    def take_right_click(self) -> bool:
        """A right click: True when the mode used it (the screen otherwise drops the selection)."""
        ...

    def take_board_click(self) -> Shown | None:
        """A left click on a cell, before it selects: what it changed when the mode used it, else None."""
        ...

    def tick(self) -> StatusLine | None:
        """Once a frame while the screen is on top: the mode's own time; what the status line says
        of what came of it (the solver is missing, a record did not come), if anything."""
        ...

    def frame_due(self) -> bool:
        """Whether the mode needs every frame drawn (the solver to move, the result card due)."""
        ...

    def pulsing(self) -> bool:
        """Whether something of the mode's changes slowly (a pulse, values filling in)."""
        ...

    def turn_status(self) -> StatusLine:
        """The status line when nothing else is to be said: whose turn it is, or where the study is."""
        ...

    def status_line(self) -> tuple[StatusLine, str]:
        """The status line as drawn and the shortcuts beside it (empty for none)."""
        ...

    def notice(self) -> tuple[str, str] | None:
        """What must stay in sight until its cause is gone (a lost link, the opponent's question) and
        its kind, shown in a pill beside the status line; None for nothing."""
        ...

    def hint_move(self) -> Move | None:
        """The pair the board rings: the hint, or the next move of a previewed line."""
        ...

    def last_move(self) -> Move | None:
        """The move that led to ``position``, marked on the board."""
        ...

    def panel_label(self) -> str:
        """What the panel's header says the screen is doing: against the solver, two players, analysis."""
        ...

    def draw(self, surface: pygame.Surface) -> None:
        """The mode's own drawing over the board and the panel (before the status line)."""
        ...

    def close(self) -> None:
        """The screen is covered or gone: stop the mode's own background work (the next tick restarts it)."""
        ...
