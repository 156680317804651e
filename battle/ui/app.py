"""The window: one App owns the display, the widgets, the shared renderers and the scene stack.

``App.step(events, dt)`` runs exactly one frame (events, update, draw) and
returns, so tests drive the game frame by frame with synthetic events and a
fake clock; ``App.run()`` is the real loop. It draws at 60 frames per second
only while something moves (``App.next_frame_in``: the scenes' animations, a
spinner, a search to poll) and otherwise sleeps until the next event: a frame
costs 7-8 ms at 1200x800, so redrawing an unchanging window 60 times a second
would take half a core, where the sleeping loop takes about 2%
(``benchmarks/idle_cpu.py``).

``main(args)`` is what ``mahjong-battle`` (and ``python -m battle``) call
without a subcommand. Two environment variables help tools and tests:
``MAHJONG_BATTLE_SIZE=1200x800`` sets the window size, and
``MAHJONG_BATTLE_DEMO=1`` opens a fixed demo position (deal 1, a few moves
played, a tile selected) without touching the user's autosave;
``MAHJONG_BATTLE_DEMO=analysis`` (or ``review``, ``editor``) opens those screens
on fixed examples (see ``demos``).
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame.freetype
import pygame_gui
from pygame_gui.elements import UITextEntryBox, UITextEntryLine

from battle.atlas.catalogue import Catalogue
from battle.atlas.par_finder import ParFinder, keep_in_survey
from battle.i18n import _, current_language, set_language
from battle.rules.board import Position, biggest_pair
from battle.rules.game import Game
from battle.search_worker import SearchWorker, prepare_solver
from battle.ui.art.theme import Fonts, load_gui_theme
from battle.ui.art.tile_art import TileArt, window_icon
from battle.ui.demos import DEMOS, open_demo
from battle.ui.files.game_history import open_history
from battle.ui.files.settings import MIN_SIZE, clamp_size, clamp_ui_scale, load_settings, save_settings
from battle.ui.first_frame import FirstFrame, size_from_environment
from battle.ui.help.help_scene import window_key
from battle.ui.live_analysis import LiveAnalysis
from battle.ui.match import Match
from battle.ui.navigator import Navigator
from battle.ui.play.autosave import let_go
from battle.ui.scene import Scene, SceneStack
from battle.ui.sound import Sounds, sound_keys
from battle.ui.widgets.board_view import BoardView, Felt
from battle.ui.widgets.layout import compute_layout, layout_scale
from battle.ui.widgets.panel import PanelView

if TYPE_CHECKING:
    from battle.atlas.survey_db import DealResult
    from battle.history.store import History
    from battle.players import Opponent, PlainOpponent

TITLE = "Mahjong Battle"
FPS = 60
MAX_DT = 0.1
"""A long stall (a dragged window, a debugger) must not make animations jump."""
WIDGET_INTERVAL = 0.1
"""Frame interval while the pointer is on a widget or a text box has the focus: pygame_gui shows
tool tips after 1 s of hovering and blinks the text cursor every 0.4 s, both counted in
``manager.update``; 10 frames a second keeps them on time for about 1/6 of the 60 fps cost."""
PAR_CHECK_INTERVAL = 1.0
"""While a deal's par is worked out in the background, the window looks once a second at what is
known of it (the result card's "at least +2"), and draws the par when it comes."""
SOLVER_POLL_INTERVAL = 0.05
"""While the opponent's or a hint's search runs with no scene drawing its progress (a dialog over
the game), the loop still wakes to collect the answer."""
IDLE_WAKE = 1.0
"""The longest the loop sleeps without an event: one frame a second, a safety net that costs
under 1% of a core."""


def window_surface() -> pygame.Surface:
    """The window's surface: there is one from the ``App``'s ``set_mode`` on, before anything draws."""
    surface = pygame.display.get_surface()
    assert surface is not None, "the window is open while an App runs"
    return surface


class App:
    _history: History | None = None
    """The history database, opened at its first use (see ``history``)."""

    def __init__(
        self,
        size: tuple[int, int] | None = None,
        *,
        demo: bool | str = False,
        autosave: bool = True,
        catalogue: Catalogue | None = None,
        language: str | None = None,
        first_frame: FirstFrame | None = None,
    ) -> None:
        # The solver's thread runs Python between its (GIL-free) kernel calls;
        # a short switch interval hands the GIL back to the frame loop within
        # a millisecond instead of five, which kept frames at 54 instead of 60 fps.
        sys.setswitchinterval(0.001)
        self.solver: SearchWorker[Opponent] = SearchWorker(name="solver", prepare=prepare_solver)
        """The opponent's and the hints' searches, on one engine whose table carries over."""
        # The kernels load (on a first run: compile in child processes, about 10 s) while the
        # window opens, the player reads the title and makes the first move: the first reply
        # then starts at once. First of all, as the window's own set-up takes 0.4 s.
        self.solver.warm_up()
        pygame.display.init()
        pygame.font.init()
        pygame.freetype.init()
        self.settings, settings_problem = (
            load_settings() if first_frame is None else (first_frame.settings, first_frame.settings_problem)
        )
        # --lang on the command line, else the window's own choice, else the system's
        set_language(language or self.settings.language or None)
        self.sounds = Sounds(self.settings, self.save_settings)
        """The sound effects; the mixer opens on a thread of its own after the first frame."""
        size = size or self.settings.window_size
        shown = pygame.display.get_surface()
        # the first frame's window (``battle.ui.first_frame``) is kept: a new mode would blank it
        self.screen = (
            shown if shown is not None and shown.get_size() == size else pygame.display.set_mode(size, pygame.RESIZABLE)
        )
        pygame.display.set_caption(TITLE)
        self._set_minimum_size()
        self.art = TileArt()
        pygame.display.set_icon(window_icon())
        self.fonts = Fonts()
        self.felt = Felt()
        self.board_view = BoardView(self.art, self.fonts, self.felt)
        self.panel_view = PanelView(self.fonts)
        size = self.screen.get_size()
        self.layout = compute_layout(*size, self.settings.ui_scale)
        self.widget_zoom = self._fitted_zoom()
        """The zoom the widgets' fonts were loaded at (see ``_fitted_zoom``)."""
        self.manager = pygame_gui.UIManager(
            size,
            load_gui_theme(self.widget_zoom),
            enable_live_theme_updates=False,
            starting_language=current_language(),
        )
        self._live_analysis: LiveAnalysis | None = None
        self._plain_solver: SearchWorker[PlainOpponent] | None = None
        self._par_finder: ParFinder | None = None
        self._retired_finders: list[ParFinder] = []
        """Finders stopped when the player turned the par off: their threads are waited for at the close."""
        self._catalogue = catalogue
        self.stack = SceneStack()
        self.navigator = Navigator(self)
        """Opens the screens by intent: the ``Host`` methods below hand it theirs."""
        self.running = True
        self.autosave_enabled = autosave and not demo
        self._notices: list[tuple[str, str]] = []
        self.last_match: Match | None = None
        """The match of the last game screen, for the title's Rematch."""
        if settings_problem:
            self._notices.append((settings_problem, "warn"))
        self._levels = _load_levels()
        if demo in DEMOS:
            open_demo(self.navigator, str(demo))
        elif demo:
            match, selected = demo_match()
            scene = self.navigator.start_match(match)
            if selected is not None:
                scene.select(selected)
        else:
            self.show_title()

    # -- levels (the solver's, read once) --------------------------------------------------

    @property
    def level_names(self) -> list[str]:
        return list(self._levels)

    @property
    def default_level(self) -> str:
        return "club" if "club" in self._levels else self.level_names[0]

    def level_description(self, name: str) -> str:
        description = self._levels.get(name, "")
        return _(description) if description else ""  # the solver's words, through the catalogue

    @property
    def plain_solver(self) -> SearchWorker[PlainOpponent]:
        """The moves of the levels up to expert in plain Python while the kernels compile (made on first use)."""
        if self._plain_solver is None:
            self._plain_solver = SearchWorker(_plain_opponent, name="plain solver")
        return self._plain_solver

    @property
    def live_analysis(self) -> LiveAnalysis:
        """Analysis mode's searches, on an engine of their own (made on first use)."""
        if self._live_analysis is None:
            self._live_analysis = LiveAnalysis()
        return self._live_analysis

    @property
    def par_finder(self) -> ParFinder | None:
        """The par of a deal no catalogue knows, worked out in the background (made on first use);
        None when the settings turn it off (``background_par``)."""
        if not self.settings.background_par:
            return None
        if self._par_finder is None:
            self._par_finder = ParFinder(self._keep_par)
        return self._par_finder

    def set_background_par(self, on: bool) -> None:
        """Turn the par's background work on or off, kept in the settings. Off stops the solve at once
        (its thread ends within the solver's stop, milliseconds) and lets its 256 MiB table go; on, the
        game on screen has its par worked out if no catalogue knows it."""
        if on == self.settings.background_par:
            return
        self.settings.background_par = on
        self.save_settings()
        if not on and self._par_finder is not None:
            self._par_finder.shutdown(0)
            self._retired_finders = [finder for finder in self._retired_finders if not finder.shutdown(0)]
            self._retired_finders.append(self._par_finder)  # until its thread has ended
            self._par_finder = None
        if on:
            for scene in self.stack.scenes:
                scene.background_par_allowed()

    def _keep_par(self, result: DealResult) -> None:
        """On the par finder's thread: the par goes into the catalogue the window reads, and into the
        player's survey database, where later runs, ``play``, ``show`` and ``deal`` find it."""
        from battle.atlas.catalogue import Par

        self.catalogue.pars[result.deal] = Par.of(result)
        problem = keep_in_survey(result)
        if problem:
            self._notices.append((problem, "warn"))

    def _pace_par(self) -> None:
        """The par's background solve runs only while no search works for the player."""
        finder = self._par_finder
        if finder is None:
            return
        working = self.solver.busy or (self._plain_solver is not None and self._plain_solver.busy)
        working = working or (self._live_analysis is not None and self._live_analysis.searching)
        working = working or any(scene.searching() for scene in self.stack.scenes)
        finder.pause(working or not self.solver.ready)

    @property
    def catalogue(self) -> Catalogue:
        """The solved deals' pars (the shipped catalogue and the player's own survey), read on first use:
        under a millisecond for the shipped few KB, kept for the window's life."""
        if self._catalogue is None:
            self._catalogue = Catalogue.load()
            for problem in self._catalogue.problems:
                self._notices.append((_("Deal catalogue: {problem}").format(problem=problem), "warn"))
        return self._catalogue

    @property
    def history(self) -> History:
        """The player's finished games and puzzle attempts, opened on first use (a game's end, the puzzles,
        the statistics): a window that never gets there never touches the file."""
        if self._history is None:
            self._history = open_history()
        return self._history

    # -- scenes ----------------------------------------------------------------------------

    def show_title(self, notice: str | None = None, kind: str = "info") -> Scene:
        return self.navigator.show_title(notice, kind)

    def start_match(
        self, match: Match, notice: str | None = None, kind: str = "info", *, analyse: bool = False
    ) -> Scene:
        """Open the game screen for a match (new, resumed, loaded or a rematch) and autosave it at once."""
        return self.navigator.start_match(match, notice, kind, analyse=analyse)

    def open_editor(self, position: Position | None = None) -> Scene:
        """The position editor over the current screen (Back returns to it), empty or with ``position``."""
        return self.navigator.open_editor(position)

    def open_review(self, game: Game, time_per_move: float | None = None) -> Scene:
        """Review ``game`` on a background thread, over the current screen (Back returns to it)."""
        return self.navigator.open_review(game, time_per_move)

    def open_online(self) -> Scene:
        return self.navigator.open_online()

    def open_puzzles(self) -> Scene:
        return self.navigator.open_puzzles()

    def open_stats(self) -> Scene:
        return self.navigator.open_stats()

    def open_help(self) -> Scene:
        return self.navigator.open_help()

    def take_notices(self) -> list[tuple[str, str]]:
        notices, self._notices = self._notices, []
        return notices

    def remember_folder(self, folder: Path) -> None:
        self.settings.last_dir = str(folder)

    def save_settings(self) -> None:
        problem = save_settings(self.settings)
        if problem:
            self._notices.append((problem, "warn"))

    # -- frames ----------------------------------------------------------------------------

    def step(
        self, events: Iterable[pygame.event.Event] | None = None, dt: float = 1 / FPS, max_dt: float = MAX_DT
    ) -> bool:
        """One frame: the given events plus whatever is queued, then update and draw. False once quitting.

        ``dt`` is cut to ``max_dt``: more only after a sleep the scenes asked for (a pulse's next step).
        """
        queue = list(events) if events is not None else []
        queue.extend(pygame.event.get())
        for event in queue:
            self.dispatch(event)
            if not self.running:
                return False
        dt = max(0.0, min(max_dt, dt))
        self._pace_par()
        self.stack.update(dt)
        self.manager.update(dt)
        self.draw()
        sound_keys.after_frame(self)
        return self.running

    def dispatch(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type == pygame.VIDEORESIZE:
            self.resize((event.w, event.h))
            return
        if event.type == pygame.KEYDOWN and window_key(self, event):
            return  # F1, ? and the text size keys work on every screen
        if event.type == pygame.KEYDOWN and sound_keys.sound_key(self, event):
            return  # M and +/- too
        consumed = self.manager.process_events(event)
        if consumed and event.type in _INPUT_EVENTS:
            return
        scene = self.stack.top
        if scene is not None:
            scene.handle_event(event)

    def draw(self) -> None:
        surface = window_surface()
        self.stack.draw(surface)
        self.manager.draw_ui(surface)
        pygame.display.flip()

    def resize(self, size: tuple[int, int]) -> None:
        width, height = max(1, int(size[0])), max(1, int(size[1]))
        if window_surface().get_size() != (width, height):
            # a real window has already been resized by SDL; this is for synthetic events (tests)
            self.screen = pygame.display.set_mode((width, height), pygame.RESIZABLE)
        self.layout = compute_layout(width, height, self.settings.ui_scale)
        zoom = self._fitted_zoom()
        if zoom != self.widget_zoom and not self.manager.get_window_stack().get_full_stack():
            # pygame_gui loads fonts with a theme: new sizes take a new manager (the scenes rebuild below)
            self.manager = pygame_gui.UIManager(
                (width, height),
                load_gui_theme(zoom),
                enable_live_theme_updates=False,
                starting_language=current_language(),
            )
            self.widget_zoom = zoom
        self.manager.set_window_resolution((width, height))
        self.stack.resize()

    def _fitted_zoom(self) -> float:
        """The part of the player's text size this window's layout gives (``layout_scale`` caps it where the
        side panel would run out of room), to a tenth: the widgets' fonts follow it, and a window dragged
        a pixel at a time reloads them only when the tenth changes."""
        width, height = self.layout.window
        return round(self.layout.scale / layout_scale(width, height), 1)

    def set_ui_scale(self, value: float) -> bool:
        """Change the text size (``Settings.ui_scale``, kept in the settings): every screen is laid out
        again and its widgets rebuilt with fonts to match. False while a file dialog is open
        (its widgets cannot move to the new fonts) or when the size is already at its bound."""
        value = clamp_ui_scale(value)
        if value == self.settings.ui_scale or self.manager.get_window_stack().get_full_stack():
            return False
        self.settings.ui_scale = value
        self.save_settings()
        self.resize(window_surface().get_size())
        return True

    def set_language(self, language: str) -> bool:
        """Show every text in ``language`` from the next frame on, pygame_gui's own widgets too, and keep
        the choice in the settings. False while a file dialog is open (its labels cannot change)."""
        if self.manager.get_window_stack().get_full_stack():
            return False
        self.settings.language = set_language(language)
        self.save_settings()
        self.manager.set_locale(self.settings.language)
        self.stack.resize()  # every screen builds its widgets again, with the new words
        return True

    def next_frame_in(self) -> float | None:
        """How soon the window must draw again without input: 0 for every frame, None for no need."""
        waits = [self.stack.next_frame_in()]
        if self.solver.busy or (self._plain_solver is not None and self._plain_solver.busy):
            waits.append(SOLVER_POLL_INTERVAL)
        if self._par_finder is not None and self._par_finder.working():
            waits.append(PAR_CHECK_INTERVAL)
        hovering = self.manager.get_hovering_any_element() and pygame.mouse.get_focused()
        typing = any(
            isinstance(element, (UITextEntryLine, UITextEntryBox)) for element in self.manager.get_focus_set() or ()
        )
        if hovering or typing:
            waits.append(WIDGET_INTERVAL)
        return min((wait for wait in waits if wait is not None), default=None)

    def run(self) -> int:
        """The window's loop until it closes: 60 fps while something moves, asleep until an event otherwise."""
        clock = pygame.time.Clock()
        try:
            while self.running:
                self.next_frame(clock)
        finally:
            self.close()
        return 0

    def next_frame(self, clock: pygame.time.Clock) -> None:
        """One turn of the loop: wait as long as ``next_frame_in`` allows (at most ``IDLE_WAKE``, or
        until an event), then draw a frame (``benchmarks/bench_ui.py`` times the same turns)."""
        wait = self.next_frame_in()
        if wait is not None and wait <= 1 / FPS:
            self.step(dt=clock.tick(FPS) / 1000)
            return
        event = pygame.event.wait(round(1000 * (IDLE_WAKE if wait is None else min(wait, IDLE_WAKE))))
        dt = clock.tick() / 1000
        if wait is None:
            dt = min(dt, 1 / FPS)  # nothing changed while asleep: what this event starts starts now
        self.step([] if event.type == pygame.NOEVENT else [event], dt, MAX_DT + (wait or 0.0))

    def close(self) -> None:
        """Stop the solver and remember the window; the game itself was autosaved after every move.
        The game's claim goes with its lock file, as a terminal's does (one a run as root left
        would otherwise be read-only to the user's own copies)."""
        self.stop_background(1.0)  # a stopped search ends within milliseconds; don't exit under it
        let_go()
        surface = pygame.display.get_surface()
        if surface is not None:
            self.settings.window_size = clamp_size(*surface.get_size())
        self.save_settings()
        if self._history is not None:
            self._history.close()

    def stop_background(self, timeout: float = 10.0) -> bool:
        """Stop every search this window started (the opponent's, the analysis, a review) and wait for them;
        close the screens' online connections (their games wait on their servers)."""
        for scene in self.stack.scenes:
            scene.stop_background()
        self.solver.shutdown()
        if self._plain_solver is not None:
            self._plain_solver.shutdown()
        finders = [*self._retired_finders, *([self._par_finder] if self._par_finder is not None else [])]
        finder_ended = all([finder.shutdown(timeout) for finder in finders])
        if self._live_analysis is not None:
            self._live_analysis.shutdown()
        idle = self.solver.wait_idle(timeout)
        if self._plain_solver is not None:
            idle = self._plain_solver.wait_idle(timeout) and idle
        if self._live_analysis is not None:
            idle = self._live_analysis.wait_idle(timeout) and idle
        return all([scene.wait_background(timeout) for scene in self.stack.scenes]) and idle and finder_ended

    def _set_minimum_size(self) -> None:
        try:
            with warnings.catch_warnings():
                # deprecated for drawing through a Window; we only set a property of it
                warnings.simplefilter("ignore", DeprecationWarning)
                window = pygame.Window.from_display_module()
            window.minimum_size = MIN_SIZE
        except (AttributeError, pygame.error, TypeError, ValueError):
            pass  # an older pygame-ce: the layout copes with small windows anyway


_INPUT_EVENTS = {
    pygame.MOUSEBUTTONDOWN,
    pygame.MOUSEBUTTONUP,
    pygame.MOUSEWHEEL,
    pygame.KEYDOWN,
    pygame.KEYUP,
    pygame.TEXTINPUT,
}


def _plain_opponent() -> PlainOpponent:
    from battle.players import PlainOpponent

    return PlainOpponent()


def _load_levels() -> dict[str, str]:
    """Level names and descriptions; the window works (hot seat only) if the solver cannot load."""
    try:
        from battle.players import LEVELS
    except ImportError:
        return {"club": _("the solver is not available")}
    return {name: level.description for name, level in LEVELS.items()}


def demo_match() -> tuple[Match, int | None]:
    """Deal 1 after six moves (always the biggest pair, first in board order), with a tile selected."""
    game = Game.new(1, "Alice", "Bob")
    for _unused in range(6):
        game.play(biggest_pair(game.position))
    position = game.position
    free = position.free_cells()
    playable = sorted(c for c in free if sum(1 for d in free if position.cells[d] == position.cells[c]) > 1)
    return Match(game), (playable[len(playable) // 2] if playable else None)


def main(args: object = None, first_frame: FirstFrame | None = None) -> int:
    """Open the window (or take over the one ``first_frame`` opened); returns the exit code (0 on a normal close)."""
    chosen = os.environ.get("MAHJONG_BATTLE_DEMO", "")
    demo: bool | str = chosen if chosen in DEMOS else chosen not in ("", "0")
    try:
        app = App(size_from_environment(), demo=demo, first_frame=first_frame, language=getattr(args, "lang", None))
    except pygame.error as error:
        print(
            _("mahjong-battle: cannot open a window ({error}); the subcommands work without one").format(error=error),
            file=sys.stderr,
        )
        return 1
    try:
        return app.run()
    finally:
        pygame.quit()
        app.solver.join()  # the window is gone; the solver's warm-up ends before the interpreter does
