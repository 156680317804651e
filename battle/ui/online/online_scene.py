"""The game screen for a game on a server: ``PlayScene`` in ``OnlineMode``.

It adds what only an online game has: resigning (asked first), leaving (the game waits on
the server, in the list of online games), the record as the server keeps it, the connection
and the opponent's presence in the player cards, and a result card whose Rematch asks the
opponent. The session is polled in ``update`` whichever scene is on top, so the board keeps
up while a question or the result card covers it, and it is closed when the screen goes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from battle.history.store import online_entry
from battle.i18n import _
from battle.online.client.state_game import ended_unplayed, game_from_state, result_of_state
from battle.ui.choice_scene import Choice, ChoiceScene
from battle.ui.files.game_files import FileProblem, save_record_text
from battle.ui.files.game_history import store_game
from battle.ui.match import Match
from battle.ui.online.connection import close_soon
from battle.ui.online.online_mode import COMMANDS, WATCHING, OnlineMode
from battle.ui.online.online_result import OnlineResultScene
from battle.ui.online.online_state import seat_of
from battle.ui.play import play_files
from battle.ui.play.play_scene import PlayScene
from battle.ui.play.result_scene import ResultScene
from battle.ui.sound.events import end_event
from battle.ui.widgets.hud import StatusLine

if TYPE_CHECKING:
    from collections.abc import Callable

    from battle.online.client.session import OnlineSession
    from battle.ui.play_mode import PlayMode
    from battle.ui.scene import Host
    from battle.ui.widgets.board_view import BoardState
    from battle.ui.widgets.dialogs import Picked
    from battle.ui.widgets.panel import PanelInfo

LOCKED_WHILE_PLAYED = ("analyse", "edit", "review")
"""The game screen's tools that would help from the solver: off until the game is over."""
HEADER_SIZE = 14
"""The panel's line under the title, in pixels at the design size (``PanelView._header``)."""


class OnlineScene(PlayScene):
    """The game screen of an online game (see the module docstring)."""

    local = False

    def __init__(self, app: Host, session: OnlineSession) -> None:
        state, _unused = session.snapshot()
        if state is None:
            raise ValueError("an online game's screen opens once the server has sent the game's state")
        super().__init__(app, Match(game_from_state(state)))
        self.session = session
        self.online = OnlineMode(self, session, state)
        self.mode = self.online
        self.status = self.online.start_problem or self.online.turn_status()
        self.record_text: str | None = None
        """The record the server sent, written to the file the save dialog picks."""
        self.session_closed = False

    def playing_mode(self) -> PlayMode:
        return self.online

    def autosave(self) -> None:
        """Nothing to save here: the server keeps the game, and ``OnlineMode`` keeps the seat."""

    # -- commands ----------------------------------------------------------------------------

    def command(self, name: str) -> None:
        online = self.online
        if name in ("new", "leave"):
            self.leave()
        elif name == "save":
            self.status = online.ask_for_record()
        elif name == "resign":
            self.ask_to_resign()
        elif name in COMMANDS:
            self.show(online.command(name))
        elif name == "load" or (name in LOCKED_WHILE_PLAYED and not online.finished):
            self.status = online.locked(name)
        else:
            super().command(name)

    def key(self, key: int, mod: int = 0) -> None:
        if mod & (pygame.KMOD_CTRL | pygame.KMOD_META) and key in (pygame.K_s, pygame.K_o):
            self.command("save" if key == pygame.K_s else "load")
            return
        super().key(key, mod)

    def leave(self) -> None:
        """Back to the title; the game stays on the server and in the list of online games."""
        online = self.online
        if online.watching:
            words = _("Stopped watching; the watch code opens the game again from Play online.")
        elif online.finished:
            words = _("Left the finished game with {opponent_name}; its record stays on the server.").format(
                opponent_name=online.opponent_name
            )
        else:
            words = _("The game with {name} waits on the server: Play online lists it to come back to.").format(
                name=online.opponent_name
            )
        self.app.show_title(words, "info")

    def ask_to_resign(self) -> None:
        online = self.online
        if online.watching or not online.playing:
            self.status = StatusLine(
                _(WATCHING) if online.watching else _("Only a game being played can be resigned."), "quiet"
            )
            return
        name = online.opponent_name
        if online.can_abort:
            self.ask_to_abort(name)
            return
        self._ask_before_ending(
            _("Resign this game?"),
            _("{name} wins the game, whatever the score. A resignation cannot be taken back.").format(name=name),
            Choice("resign", _("Resign"), _("Give up: {name} wins").format(name=name)),
            online.resign,
        )

    def ask_to_abort(self, name: str) -> None:
        """Before the second move Resign reads Abort: the game ends with no result, for nobody."""
        self._ask_before_ending(
            _("Abort this game?"),
            _("The game ends with no winner and counts for nothing, for you and for {name}.").format(name=name),
            Choice("abort", _("Abort"), _("Call the game off: no result")),
            self.online.abort,
        )

    def _ask_before_ending(self, title: str, text: str, end: Choice, ending: Callable[[], StatusLine]) -> None:
        """A question over the game: Play on (Esc), or ``end``, which runs ``ending`` and shows what it says."""

        def answered(key: str | None) -> None:
            if key == end.key:
                self.status = ending()

        play_on = Choice("play_on", _("Play on"), _("Back to the game (Esc)"))
        self.app.stack.push(ChoiceScene(self.app, title, text, (play_on, end), answered))

    def _update_buttons(self) -> None:
        super()._update_buttons()
        resign = self.buttons.get("resign")
        label = "Abort" if self.online.can_abort else "Resign"
        if resign is not None and resign.full_text != label:
            resign.set_text(label)

    def file_picked(self, picked: Picked) -> None:
        if picked.purpose != "save" or self.record_text is None:
            return
        try:
            written = save_record_text(picked.path, self.record_text)
        except FileProblem as problem:
            self.status = StatusLine(_("Could not save: {problem}").format(problem=problem), "error")
            return
        self.app.remember_folder(written.parent)
        self.status = StatusLine(
            _("Saved the record as {name} (in {parent}).").format(name=written.name, parent=written.parent), "good"
        )

    def show_result(self) -> None:
        result = result_of_state(self.online.state)
        self.app.sounds.play(end_event(result.winner if result else None, self.viewer_seat()))
        self.remember_in_history()
        self.app.stack.push(OnlineResultScene(self.app, self))

    def viewer_seat(self) -> int | None:
        """The window's seat on the server; None while it watches."""
        return seat_of(self.online.state)

    def remember_in_history(self) -> None:
        """Store the finished game in the history (a watched game is not the player's: it is not stored);
        what the history has to say goes on the status line. A game ended by a resignation or the clock
        is stored with its winner, which its scores do not say."""
        seat = seat_of(self.online.state)
        if seat is None or ended_unplayed(self.online.state):
            return
        result = result_of_state(self.online.state)
        winner = None if self.game.position.is_over() or result is None else result.winner
        entry = online_entry(self.game, seat, self.session.url, self.online.game_id, winner)
        notice = store_game(self.app.history, entry)
        if notice:
            self.status = StatusLine(notice, "warn")

    # -- time --------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        online = self.online
        shown_game = online.game_id
        shown = online.poll()
        if shown is not None:
            self.show(shown)
        if online.game_id != shown_game:
            self._new_game_shown()
        if self.app.stack.top is self and not self.dialog_open():
            record = online.take_record()
            if record is not None:
                self.record_text = record
                play_files.open_dialog(self, "save")
        super().update(dt)
        if self.mode is not online and not self.paused:
            self.status = online.tick() or self.status  # analysis after the game: a record asked for still times out

    def _new_game_shown(self) -> None:
        """A rematch began: the card and analysis of the old game go, the news stays on the status line."""
        news = self.status
        top = self.app.stack.top
        if isinstance(top, ResultScene) and top.play is self:
            self.app.stack.pop()
        if self.analysis is not None:
            self.set_analysis(False)
        if self.browsing:
            self.stop_browsing()
        self.status = news

    def next_frame_in(self) -> float | None:
        waits = [wait for wait in (super().next_frame_in(), self.online.next_poll_in()) if wait is not None]
        return min(waits, default=None)

    # -- leaving -----------------------------------------------------------------------------

    def on_exit(self) -> None:
        super().on_exit()
        if not self.session_closed:
            self.session_closed = True
            close_soon(self.session)

    def stop_background(self) -> None:
        if not self.session_closed:
            self.session_closed = True
            self.session.close()

    # -- drawing -----------------------------------------------------------------------------

    def board_state(self) -> BoardState:
        """The board; a game ended by a resignation or on time has pairs left, none of them to take."""
        state = super().board_state()
        if self.online.finished and self.mode is self.online and not self.browsing:
            state.playable = frozenset()
        return state

    def panel_info(self) -> PanelInfo:
        """The panel with the online game's words: who is connected, time left, the server's winner."""
        info = super().panel_info()
        online = self.online
        for player, role in zip(info.players, online.roles(), strict=True):
            player.role = role
        if not self.browsing and self.mode is online:
            winner = online.winner()
            info.game_over = info.game_over or online.finished
            for seat, player in enumerate(info.players, 1):
                player.winner = winner == seat
                player.to_move = player.to_move and online.playing  # a resigned game's board has pairs left
            size, room = HEADER_SIZE * self.layout.scale, self.layout.panel.header.w
            labels = online.panel_labels(self.game.deal_number)
            info.start_label = next(
                (label for label in labels if self.app.fonts.width(label, size) <= room), labels[-1]
            )
        return info
