"""What the game screen shows, derived from the play scene's state (reading only).

``board_state`` and ``panel_info`` turn the match, the selection, the browse
position and the running animations into the plain values the board and panel
renderers take; ``draw_play`` paints the whole screen from them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from battle.rules.tiles import EMPTY
from battle.ui.analysis.analysis_view import (
    StudyInfo,
    draw_badges,
    draw_opening,
    draw_pv_ghosts,
    draw_study_box,
    pv_entries,
)
from battle.ui.art.theme import PLAYER_COLOURS
from battle.ui.widgets.animations import FlyingPoints, Pulse, Removal, pending_points
from battle.ui.widgets.board_view import BoardState, playable_cells
from battle.ui.widgets.hud import Status, draw_alert, draw_banner, draw_flying, draw_status
from battle.ui.widgets.layout import Rect
from battle.ui.widgets.panel import PanelInfo, PlayerInfo

if TYPE_CHECKING:
    from battle.ui.play.play_scene import PlayScene

KEYS_HELP = "U undo · R redo · H hint · A analyse · N new"
STUDY_KEYS_HELP = "B back to game · , . best line · P play it · A off"


def board_state(scene: PlayScene) -> BoardState:
    """The board as it should look now: the live game, the browsed position, or the study board."""
    position = scene.shown_position()
    free = frozenset(position.free_cells())
    marked = None
    if scene.browsing and scene.browse_ply:
        marked = scene.game.moves[scene.browse_ply - 1]
    study = scene.analysis
    live = not scene.browsing and not (study is not None and study.previewing)
    hint = scene.hint.move if scene.hint is not None and live else None
    if study is not None and study.previewing and study.pv_step < len(study.pv):
        hint = study.pv[study.pv_step]  # the next move of the previewed line
    last_move = None
    if not scene.browsing and not (study is not None and study.previewing):
        line = scene.game.moves + (study.variation if study is not None else [])
        last_move = line[-1] if line else None
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


def panel_info(scene: PlayScene) -> PanelInfo:
    """Names, scores (less the points still flying), turn, thinking time, what is left, the moves."""
    game = scene.game
    study = scene.analysis
    if study is not None:
        position = study.shown_position()
    else:
        position = scene.browse_position if scene.browsing and scene.browse_position is not None else scene.position
    over = position.is_over()
    result = game.result() if not scene.browsing and study is None else None
    players = []
    for player in (1, 2):
        if scene.match.is_solver(player):
            role = scene.app.level_description(scene.match.level) or f"{scene.match.level} level"
        elif scene.match.against_solver:
            role = f"Player {player} (you)"
        else:
            role = f"Player {player}" if scene.game.names[player - 1] != f"Player {player}" else "hot seat"
        score = position.scores[player - 1]
        if not scene.browsing and study is None:
            score -= pending_points(scene.animations, player, scene.clock)
        thinking = None
        if (not scene.browsing and study is None and scene.match.is_solver(player) and scene.match.solver_to_move()
                and (scene.move_job is not None or scene.solver_move is not None)):
            thinking = max(0.0, scene.clock - scene.think_started)
        pulse = max((a.strength(scene.clock) for a in scene.animations
                     if isinstance(a, Pulse) and a.player == player), default=0.0)
        players.append(PlayerInfo(
            name=game.names[player - 1], role=role, score=score,
            to_move=position.to_move == player and not over, colour=PLAYER_COLOURS[player - 1],
            thinking=thinking, pulse=pulse, winner=result is not None and result.winner == player,
        ))
    start = f"Deal {game.deal_number}" if game.deal_number is not None else "Composed position"
    mode = f"against the solver ({scene.match.level})" if scene.match.against_solver else "two players"
    if study is not None:
        mode = "analysis" + (f" · variation +{len(study.variation)}" if study.exploring else "")
    first_mover = game.start.to_move
    return PanelInfo(
        players=(players[0], players[1]),
        start_label=f"{start}  ·  {mode}",
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
        study=study is not None,
    )


def study_info(scene: PlayScene) -> StudyInfo:
    """The analysis box: state of the search, projected scores, the best line, the variation."""
    study = scene.analysis
    analysis = study.analysis
    live = study.live
    position = study.position
    if position.is_over():
        state = "over"
    elif analysis is not None and analysis.exact:
        state = "exact"
    else:
        state = "searching" if analysis is not None else "starting"
    first_number = scene.game.ply + len(study.variation) + 1
    return StudyInfo(
        names=scene.game.names,
        state=state,
        depth=analysis.depth if analysis is not None else None,
        searching_depth=live.searching_depth,
        projection=study.projection(),
        pv=pv_entries(study, first_number),
        pv_step=study.pv_step,
        variation=[study.line_text([move]) for move in study.variation],
        error=str(live.error) if live.error is not None else None,
    )


def draw_play(scene: PlayScene, surface: pygame.Surface) -> None:
    """Board, panel, status line (or the browse banner), and the points in flight on top."""
    app = scene.app
    layout = scene.layout
    app.board_view.draw(surface, layout, board_state(scene))
    app.panel_view.draw(surface, layout.panel, panel_info(scene), layout.scale)
    study = scene.analysis
    if study is not None:
        draw_study(scene, surface)
    if scene.browsing:
        ply = scene.browse_ply or 0
        if ply == 0:
            title = f"Start position (before move 1 of {len(scene.move_list)})"
        else:
            number, _, notation, points = scene.move_list[ply - 1]
            title = f"After move {number} of {len(scene.move_list)}: {notation} ({points})"
        draw_banner(surface, app.fonts, layout, title, "Left/Right: step  ·  any other key or a click: back")
    elif study is not None:
        hover = scene.opening_text()
        status = Status(hover, "hint") if hover else scene.status
        draw_status(surface, app.fonts, layout, status, scene.clock, "" if hover else STUDY_KEYS_HELP)
    else:
        draw_status(surface, app.fonts, layout, scene.status, scene.clock, KEYS_HELP)
    for animation in scene.animations if not scene.browsing else ():
        if isinstance(animation, FlyingPoints):
            draw_flying(surface, app.fonts, layout, animation, scene.clock)
    if scene.save_problem:
        draw_alert(surface, app.fonts, layout, scene.save_problem)


def draw_study(scene: PlayScene, surface: pygame.Surface) -> None:
    """Analysis mode over the board and in the panel: values, what the pointed pair opens, the PV preview."""
    app, layout, study = scene.app, scene.layout, scene.analysis
    if study.previewing:
        draw_pv_ghosts(surface, app.board_view, app.fonts, layout, study, scene.game.ply + len(study.variation) + 1)
    else:
        if scene.opening is not None:
            draw_opening(surface, layout, scene.opening, scene.clock)
        focus = scene.opening.move if scene.opening is not None else None
        draw_badges(surface, app.fonts, layout, study.position, study.badges(), focus)
    panel = layout.panel
    box = Rect(panel.info.x, panel.info.y, panel.info.w, max(10, panel.moves.bottom - panel.info.y))
    draw_study_box(surface, app.fonts, box, study_info(scene), layout.scale, scene.clock)
