"""What the puzzle screen shows, derived from the scene's state (reading only), and the drawing of
its own part of the side panel: the task, the puzzle, the ratings.

``board_state`` and ``panel_info`` give the game screen's renderers their plain values (the
board, the header and the player cards); ``puzzle_text`` fills a ``PuzzleText``, which
``draw_puzzle_text`` paints in the panel's text area (``puzzle_layout``), dropping the lines
a short window has no room for, the ratings last.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import pygame

from battle.i18n import _, ngettext
from battle.puzzles import puzzle_words as words
from battle.rules.board import CELL_COUNT, Position
from battle.rules.tiles import EMPTY
from battle.ui.art import theme
from battle.ui.widgets.animations import Pulse, Removal, pending_points
from battle.ui.widgets.board_view import BoardState, playable_cells
from battle.ui.widgets.layout import Rect
from battle.ui.widgets.panel import PanelInfo, PlayerInfo

if TYPE_CHECKING:
    from battle.puzzles.session import PuzzleSession
    from battle.rules.board import Move, Position
    from battle.ui.puzzles.refutation import WrongTry
    from battle.ui.puzzles.trainer import PuzzleTrainer
    from battle.ui.widgets.animations import Animation
    from battle.ui.widgets.hud import StatusLine


class PuzzleOnScreen(Protocol):
    """What the drawing reads of the puzzle screen (``puzzle_scene.PuzzleScene``)."""

    @property
    def shown(self) -> Position | None:
        """The position on the board, None when no puzzle matches the filters."""
        ...

    @property
    def session(self) -> PuzzleSession | None: ...

    @property
    def trainer(self) -> PuzzleTrainer: ...

    @property
    def side(self) -> int:
        """The side the player moves for."""
        ...

    @property
    def wrong(self) -> WrongTry | None: ...

    @property
    def last_move(self) -> tuple[Move, int] | None: ...

    @property
    def selected(self) -> int | None: ...

    @property
    def cursor(self) -> int | None: ...

    @property
    def cursor_visible(self) -> bool: ...

    @property
    def animations(self) -> list[Animation]: ...

    @property
    def status(self) -> StatusLine: ...

    @property
    def clock(self) -> float: ...

    @property
    def solution_asked(self) -> bool:
        """Show solution was pressed once on a puzzle not yet counted: its cost is shown."""
        ...


@dataclass(frozen=True)
class PuzzleText:
    headline: str
    """The task (``Find the best move for Player 1``) or the verdict (``Solved!``)."""
    colour: theme.Colour
    details: tuple[str, ...]
    """The puzzle: its id, moves to find and rating; its themes once it is over."""
    rows: tuple[tuple[str, str, theme.Colour], ...] = field(default_factory=tuple)
    """Label, value and the value's colour: the player's rating, the streak, the last attempt's change."""


HEADLINE_SIZE = 17
DETAIL_SIZE = 13.5
ROW_SIZE = 14.5
"""Text sizes at the 1200x800 design size: the headline as the card names, the rest as the panel's lines."""


def board_state(scene: PuzzleOnScreen) -> BoardState:
    """The board as shown: the puzzle, a move being played, or the position after a wrong move with its
    refutation ringed."""
    position = scene.shown
    if position is None:
        return BoardState(cells=[EMPTY] * CELL_COUNT, free=frozenset(), playable=frozenset(), now=scene.clock)
    free = frozenset(position.free_cells())
    live = scene.wrong is None and scene.session is not None and not scene.session.finished
    twins: frozenset[int] = frozenset()
    if scene.selected is not None and position.cells[scene.selected] != EMPTY:
        kind = position.cells[scene.selected]
        twins = frozenset(cell for cell in free if cell != scene.selected and position.cells[cell] == kind)
    return BoardState(
        cells=position.cells,
        free=free,
        playable=playable_cells(position.cells, free) if live and not position.is_over() else frozenset(),
        selected=scene.selected,
        cursor=scene.cursor if scene.cursor_visible else None,
        hint=scene.wrong.refutation if scene.wrong is not None else None,
        last_move=scene.last_move[0] if scene.last_move is not None else None,
        last_mover=scene.last_move[1] if scene.last_move is not None else 1,
        twins=twins,
        removals=[a for a in scene.animations if isinstance(a, Removal)],
        now=scene.clock,
    )


def panel_info(scene: PuzzleOnScreen) -> PanelInfo:
    """The game panel's header and player cards: who solves, who replies, the scores so far."""
    position = scene.shown or Position([EMPTY] * CELL_COUNT)
    session = scene.session
    players = []
    for player in (1, 2):
        role = _("you find the moves") if player == scene.side else _("the solver replies")
        pulse = max(
            (a.strength(scene.clock) for a in scene.animations if isinstance(a, Pulse) and a.player == player),
            default=0.0,
        )
        players.append(
            PlayerInfo(
                name=words.name_of(player),
                role=role,
                score=position.scores[player - 1] - pending_points(scene.animations, player, scene.clock),
                to_move=session is not None
                and not session.finished
                and position.to_move == player
                and scene.wrong is None,
                colour=theme.PLAYER_COLOURS[player - 1],
                pulse=pulse,
            )
        )
    label = _("Puzzles")
    if session is not None:
        tiles = position.tiles_left()
        label = ngettext("Puzzle {id}  ·  {count} tile", "Puzzle {id}  ·  {count} tiles", tiles).format(
            id=session.puzzle.id, count=tiles
        )
    return PanelInfo(
        players=(players[0], players[1]),
        start_label=label,
        points_left=position.points_on_board(),
        tiles_left=position.tiles_left(),
        pairs_available=len(position.legal_moves()),
        game_over=position.is_over(),
        now=scene.clock,
        study=True,
    )


def puzzle_text(scene: PuzzleOnScreen) -> PuzzleText:
    """The task or the verdict, the puzzle (its themes once it is over), the ratings."""
    trainer = scene.trainer
    session = scene.session
    rating = trainer.rating
    rows: list[tuple[str, str, theme.Colour]] = [
        (_("Your puzzle rating"), rating.describe(), theme.IVORY),
        (
            _("Streak"),
            _("{streak} (best {best_streak})").format(streak=trainer.streak, best_streak=trainer.best_streak),
            theme.IVORY,
        ),
    ]
    outcome = trainer.outcome
    if outcome is not None:
        change = outcome.player_after.rating - outcome.player_before.rating
        rows.append((_("This attempt"), f"{change:+.0f}", theme.GOLD_BRIGHT if change >= 0 else theme.WARN))
    elif scene.solution_asked and session is not None:
        # next to the button that asks "Yes, show it": what the answer costs
        rows.append((_("With the solution"), trainer.rating_if_missed().describe(), theme.WARN))
    if session is None:
        return PuzzleText(_("No puzzle"), theme.WARN, (scene.status.text,), tuple(rows))
    puzzle = session.puzzle
    details = [
        _("{length_words}  ·  puzzle rated {puzzle_rating:.0f}").format(
            length_words=words.length_words(puzzle.length), puzzle_rating=trainer.puzzle_rating(puzzle)
        )
    ]
    if session.finished:
        details.append(words.themes(puzzle))
        headline, colour = words.verdict(session.solved), theme.GOLD_BRIGHT if session.solved else theme.WARN
    else:
        details.append(_("Themes: shown when the puzzle is over"))
        headline, colour = words.ask(session.side, session.step).rstrip("."), theme.GOLD_BRIGHT
    return PuzzleText(headline, colour, tuple(details), tuple(rows))


def draw_puzzle_text(surface: pygame.Surface, fonts: theme.Fonts, area: Rect, text: PuzzleText, scale: float) -> None:
    y = area.y
    bottom = area.bottom

    def fits(height: int) -> bool:
        return y + height <= bottom

    headline = HEADLINE_SIZE * scale
    for line in fonts.balanced_wrap(text.headline, headline, area.w, max_lines=2, bold=True):
        rendered = fonts.text(line, headline, text.colour, bold=True)
        if not fits(rendered.get_height()):
            return
        surface.blit(rendered, (area.x, y))
        y += rendered.get_height()
    y += round(4 * scale)
    detail = DETAIL_SIZE * scale
    for paragraph in text.details:
        for line in fonts.wrap(paragraph, detail, area.w, max_lines=2):
            rendered = fonts.text(line, detail, theme.IVORY_DIM)
            if not fits(rendered.get_height()):
                return
            surface.blit(rendered, (area.x, y))
            y += rendered.get_height()
    y += round(8 * scale)
    if not text.rows or not fits(1):
        return
    pygame.draw.line(surface, (*theme.GOLD, 120), (area.x, y), (area.right, y), 1)
    y += round(6 * scale)
    size = ROW_SIZE * scale
    for label, value, colour in text.rows:
        value_surface = fonts.text(value, size, colour)  # the bold face has no ± or →
        label_surface = fonts.text(
            fonts.fit(label, size, max(10, area.w - value_surface.get_width() - 8)), size, theme.IVORY_DIM
        )
        if not fits(label_surface.get_height()):
            return
        surface.blit(label_surface, (area.x, y))
        surface.blit(value_surface, value_surface.get_rect(topright=(area.right, y)))
        y += label_surface.get_height() + round(2 * scale)
