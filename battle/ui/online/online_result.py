"""The end of an online game: the local result card with the server's result and an online Rematch.

The server's result decides (a resignation or a loss on time has a winner the scores do not
show), the card says how it ended ("Bob resigned"; a game called off before move 2 is no
draw, it counts for nothing), Rematch offers the opponent the same
deal with the sides swapped (or accepts their offer), and Leave goes back to the title.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from battle.i18n import N_, _
from battle.online.client.state_game import ended_unplayed, name_of, result_of_state
from battle.online.client.wording import end_cause, unplayed_end
from battle.ui.online.online_state import seat_of
from battle.ui.play.result_scene import FinishedGame, ResultScene, result_details

if TYPE_CHECKING:
    from battle.rules.game import Result
    from battle.ui.online.online_mode import OnlineMode
    from battle.ui.play_mode import Shown
    from battle.ui.scene import Host


class FinishedOnlineGame(FinishedGame, Protocol):
    """What the result card uses of the online game's screen (``online_scene.OnlineScene``)."""

    @property
    def online(self) -> OnlineMode: ...

    def leave(self) -> None:
        """Back to the title; the game stays on the server."""
        ...

    def show(self, shown: Shown) -> None: ...


class OnlineResultScene(ResultScene):
    choices = (
        (
            "rematch",
            N_("Rematch"),
            N_("Offer your opponent the same deal with the sides swapped, or accept their offer (Enter)"),
        ),
        ("new", N_("Leave"), N_("Back to the title; the game's record stays on the server (N)")),
        ("review", N_("Review"), N_("Grade every move against perfect play (V)")),
    )

    def __init__(self, app: Host, play: FinishedOnlineGame) -> None:
        super().__init__(app, play)
        self.online_play = play

    def choose(self, what: str) -> None:
        if what == "rematch":
            if self.app.stack.top is self:
                self.app.stack.pop()
            self.online_play.show(self.online_play.online.command("rematch"))
        elif what == "new":
            self.online_play.leave()
        else:
            super().choose(what)

    def result(self) -> Result | None:
        return result_of_state(self.online_play.online.state)

    def card_text(self) -> tuple[str, str]:
        state = self.online_play.online.state
        result = self.result()
        if result is None:
            return "", ""
        if ended_unplayed(state):  # called off or expired: no winner, no draw, it counts for nothing
            said = unplayed_end(state, called_off_here=state.game == self.online_play.online.called_off) or ""
            if state.result is not None and state.result.reason == "expired":
                return _("Expired"), said
            return _("Called off"), said
        cause = end_cause(state)
        details = cause if cause is not None else result_details(result, self.play.match.game.position.tiles_left())
        if result.winner is None:
            return _("A draw!"), details
        if result.winner == seat_of(state):  # by seat: a player named "You" is the other side's "You"
            return _("You win!"), details
        return _("{name} wins!").format(name=name_of(state, result.winner)), details
