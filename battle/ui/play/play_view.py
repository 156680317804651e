"""What the game screen shows, derived from the play scene's state (reading only).

``board_state`` and ``panel_info`` turn the match, the selection, the browse
position, the running animations and what the scene's mode shows (``PlayMode``)
into the plain values the board and panel renderers take; ``draw_play`` paints the
whole screen from them, the mode adding its own drawing (analysis mode's values
and box) between the panel and the status line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from battle.i18n import _
from battle.rules.tiles import EMPTY
from battle.rules.wording import level_word
from battle.ui.art.theme import PLAYER_COLOURS
from battle.ui.match import is_seat_label
from battle.ui.play.par_words import par_headline, par_meaning, par_phrase
from battle.ui.play_mode import PlayScreen
from battle.ui.widgets.animations import FlyingPoints, Pulse, Removal, pending_points
from battle.ui.widgets.board_view import BoardState, playable_cells
from battle.ui.widgets.hud import draw_alert, draw_banner, draw_flying, draw_status_and_notice
from battle.ui.widgets.panel import HEADER_TEXT_SIZE, PanelInfo, PlayerInfo

if TYPE_CHECKING:
    from battle.atlas.catalogue import Par
    from battle.rules.board import Position
    from battle.rules.game import Game
    from battle.ui.play.game_mode import GameMode
    from battle.ui.play_mode import PlayMode
    from battle.ui.widgets.layout import Layout


class GameOnScreen(PlayScreen, Protocol):
    """What the drawing reads of the game screen (``play_scene.PlayScene``), beyond what its modes use."""

    @property
    def game(self) -> Game: ...

    @property
    def mode(self) -> PlayMode:
        """The game mode, or the study mode while analysis is on."""
        ...

    @property
    def game_mode(self) -> GameMode: ...

    @property
    def layout(self) -> Layout: ...

    @property
    def move_list(self) -> list[tuple[int, int, str, int]]: ...

    @property
    def first_row(self) -> int:
        """The move list's top row."""
        ...

    @property
    def hover_move(self) -> int | None: ...

    @property
    def browse_ply(self) -> int | None: ...

    @property
    def cursor(self) -> int | None: ...

    @property
    def cursor_visible(self) -> bool: ...

    @property
    def save_problem(self) -> str | None:
        """Why the last autosave failed, if it did."""
        ...

    def par(self) -> Par | None: ...

    def shown_position(self) -> Position: ...

    def board_state(self) -> BoardState: ...

    def panel_info(self) -> PanelInfo: ...


def board_state(scene: GameOnScreen) -> BoardState:
    """The board as it should look now: the live game, the browsed position, or the mode's (the study board)."""
    mode = scene.mode
    position = scene.shown_position()
    free = frozenset(position.free_cells())
    marked = None
    if scene.browsing and scene.browse_ply:
        marked = scene.game.moves[scene.browse_ply - 1]
    live = not scene.browsing and not mode.previewing
    hint = mode.hint_move() if not scene.browsing else None
    last_move = mode.last_move() if live else None
    twins: frozenset[int] = frozenset()
    if live and scene.selected is not None and position.cells[scene.selected] != EMPTY:
        kind = position.cells[scene.selected]
        twins = frozenset(c for c in free if c != scene.selected and position.cells[c] == kind)
    return BoardState(
        cells=position.cells,
        free=free,
        playable=playable_cells(position.cells, free) if not position.is_over() else frozenset(),
        selected=scene.selected if live else None,
        cursor=scene.cursor if scene.cursor_visible and live else None,
        hint=hint,
        marked=marked,
        last_move=last_move,
        last_mover=3 - position.to_move,
        twins=twins,
        removals=[a for a in scene.animations if isinstance(a, Removal)] if live else [],
        now=scene.clock,
    )


def panel_info(scene: GameOnScreen) -> PanelInfo:
    """Names, scores (less the points still flying), turn, thinking time, what is left, the moves."""
    game = scene.game
    mode = scene.mode
    position = scene.shown_position()
    over = position.is_over()
    playing = not scene.browsing and mode.runs_game  # the game as it goes on: its result, points in flight
    result = game.result() if playing else None
    players = []
    for player in (1, 2):
        if scene.match.is_solver(player):
            role = scene.app.level_description(scene.match.level) or _("{level} level").format(
                level=level_word(scene.match.level)
            )
        elif scene.match.against_solver:
            role = _("Player {player} (you)").format(player=player)
        elif is_seat_label(scene.game.names[player - 1], player):
            role = _("hot seat")  # the name says the seat already
        else:
            role = _("Player {player}").format(player=player)
        score = position.scores[player - 1]
        if playing:
            score -= pending_points(scene.animations, player, scene.clock)
        thinking = scene.game_mode.thinking_seconds() if playing and scene.match.is_solver(player) else None
        preparing = thinking is not None and scene.game_mode.preparing_solver()
        if preparing:
            thinking = scene.game_mode.preparing_seconds()
        pulse = max(
            (a.strength(scene.clock) for a in scene.animations if isinstance(a, Pulse) and a.player == player),
            default=0.0,
        )
        players.append(
            PlayerInfo(
                name=game.names[player - 1],
                role=role,
                score=score,
                to_move=position.to_move == player and not over,
                colour=PLAYER_COLOURS[player - 1],
                thinking=thinking,
                preparing=preparing,
                limit=scene.game_mode.thinking_limit() if thinking is not None else None,
                pulse=pulse,
                winner=result is not None and result.winner == player,
            )
        )
    first_mover = game.start.to_move
    par = scene.par()
    first_name = game.names[first_mover - 1]
    return PanelInfo(
        players=(players[0], players[1]),
        start_label=_start_label(scene, None if par is None else par_phrase(par.value, first_name)),
        par=None if par is None else (par_headline(par.value, first_name), par_meaning(par.value, first_name)),
        points_left=position.points_on_board(),
        tiles_left=position.tiles_left(),
        pairs_available=len(position.legal_moves()),
        game_over=over,
        moves=scene.move_list,
        first_row=scene.first_row,
        shown_ply=scene.browse_ply,
        hover=scene.hover_move,
        column_names=(game.names[first_mover - 1], game.names[2 - first_mover]),
        now=scene.clock,
        study=not mode.shows_move_list,
    )


def _start_label(scene: GameOnScreen, par: str | None) -> str:
    """The header's line: the deal, its par and what the screen does, or without the last when the
    three do not fit (the player cards say who the solver is)."""
    game = scene.game
    start = (
        _("Deal {deal_number}").format(deal_number=game.deal_number)
        if game.deal_number is not None
        else _("Composed position")
    )
    shorter = start if par is None else _("{start}  ·  par {par}").format(start=start, par=par)
    longest = f"{shorter}  ·  {scene.mode.panel_label()}"
    fits = scene.app.fonts.width(longest, HEADER_TEXT_SIZE * scene.layout.scale) <= scene.layout.panel.header.w
    return longest if fits else shorter


def draw_play(scene: GameOnScreen, surface: pygame.Surface) -> None:
    """Board, panel, the mode's drawing, status line (or the browse banner), and the points in flight on top."""
    app = scene.app
    layout = scene.layout
    app.board_view.draw(surface, layout, scene.board_state())
    app.panel_view.draw(surface, layout.panel, scene.panel_info(), layout.scale)
    scene.mode.draw(surface)
    if scene.browsing:
        ply = scene.browse_ply or 0
        if ply == 0:
            title = _("Start position (before move 1 of {len})").format(len=len(scene.move_list))
        else:
            number, _unused, notation, points = scene.move_list[ply - 1]
            title = _("After move {number} of {len}: {notation} ({points})").format(
                number=number, len=len(scene.move_list), notation=notation, points=points
            )
        draw_banner(surface, app.fonts, layout, title, _("Left/Right: step  ·  any other key or a click: back"))
    else:
        status, keys_help = scene.mode.status_line()
        draw_status_and_notice(surface, app.fonts, layout, status, scene.clock, keys_help, scene.mode.notice())
    for animation in scene.animations if not scene.browsing else ():
        if isinstance(animation, FlyingPoints):
            draw_flying(surface, app.fonts, layout, animation, scene.clock)
    if scene.save_problem:
        draw_alert(surface, app.fonts, layout, scene.save_problem)
