"""What analysis mode adds to the game screen's drawing, derived from the study mode (reading only).

Over the board: every pair's value, what the pointed pair opens, or the previewed
best line as ghosts; in the panel, in place of the move list, the analysis box
(``study_info`` fills it). The pieces are drawn by ``analysis_view``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from battle.ui.analysis.analysis_view import (
    StudyInfo,
    draw_badges,
    draw_opening,
    draw_pv_ghosts,
    draw_study_box,
    pv_entries,
)
from battle.ui.widgets.layout import Rect

if TYPE_CHECKING:
    import pygame

    from battle.rules.opens import Opening
    from battle.ui.analysis.analysis_mode import AnalysisMode
    from battle.ui.play_mode import PlayScreen


class StudyOnScreen(Protocol):
    """What the drawing reads of the study mode (``study_mode.StudyMode``)."""

    @property
    def screen(self) -> PlayScreen: ...

    @property
    def study(self) -> AnalysisMode: ...

    @property
    def opening(self) -> Opening | None:
        """What the pointed pair opens, if a pair is pointed at."""
        ...

    def first_number(self) -> int:
        """The number of the study position's move in the game's numbering."""
        ...


def study_info(mode: StudyOnScreen) -> StudyInfo:
    """The analysis box: state of the search, projected scores, the best line, the variation."""
    study = mode.study
    analysis = study.analysis
    live = study.live
    position = study.position
    if position.is_over():
        state = "over"
    elif analysis is not None and analysis.exact:
        state = "exact"
    else:
        state = "searching" if analysis is not None else "starting"
    return StudyInfo(
        names=mode.screen.match.game.names,
        state=state,
        depth=analysis.depth if analysis is not None else None,
        searching_depth=live.searching_depth,
        projection=study.projection(),
        pv=pv_entries(study, mode.first_number()),
        pv_step=study.pv_step,
        variation=[study.line_text([move]) for move in study.variation],
        error=str(live.error) if live.error is not None else None,
    )


def draw_study(mode: StudyOnScreen, surface: pygame.Surface) -> None:
    """Analysis mode over the board and in the panel: values, what the pointed pair opens, the PV preview."""
    app, study, now = mode.screen.app, mode.study, mode.screen.clock
    layout = app.layout
    if study.previewing:
        draw_pv_ghosts(surface, app.board_view, app.fonts, layout, study, mode.first_number())
    else:
        if mode.opening is not None:
            draw_opening(surface, layout, mode.opening, now)
        focus = mode.opening.move if mode.opening is not None else None
        draw_badges(surface, app.fonts, layout, study.position, study.badges(), focus)
    panel = layout.panel
    box = Rect(panel.info.x, panel.info.y, panel.info.w, max(10, panel.moves.bottom - panel.info.y))
    draw_study_box(surface, app.fonts, box, study_info(mode), layout.scale, now)
