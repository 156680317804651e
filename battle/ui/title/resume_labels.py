"""The title's Resume buttons' labels, longest first: a narrow button shows the longest that fits.

Cut to the button's width, "Resume: You vs Solver (beginner), deal 12, move 5" became
"Resume: You vs Solver (be..." at 800x600; whole parts dropped read better than a cut name.
"""

from __future__ import annotations

from battle.i18n import _
from battle.rules.game import Game
from battle.rules.wording import is_you


def _where(game: Game) -> str:
    return (_("deal {number}").format(number=game.deal_number) if game.deal_number is not None
            else _("a composed position"))


def _opponents(game: Game) -> str:
    """Both names, or only the other one's when one side is "you" ("vs Solver (beginner)")."""
    first, second = game.player1, game.player2
    if is_you(first) != is_you(second):
        return _("vs {name}").format(name=second if is_you(first) else first)
    return _("{first} vs {second}").format(first=first, second=second)


def resume_labels(game: Game) -> tuple[str, ...]:
    """The resume button's labels for the game open when the window closed, longest first."""
    where, move = _where(game), _("move {number}").format(number=game.ply + 1)
    both = _("{first} vs {second}").format(first=game.player1, second=game.player2)
    return (_("Resume: {game}").format(game=f"{both}, {where}, {move}"),
            _("Resume: {game}").format(game=f"{_opponents(game)}, {where}"),
            _("Resume: {game}").format(game=_opponents(game)), _("Resume: {game}").format(game=f"{where}, {move}"),
            _("Resume {where}").format(where=where), _("Resume"))


def other_game_labels(description: str, game: Game) -> tuple[str, ...]:
    """An unfinished game's button in the list (``description`` is the list's line), longest first."""
    return (_("Resume: {game}").format(game=description),
            _("Resume: {game}").format(game=f"{_where(game)}, {_opponents(game)}"),
            _("Resume: {game}").format(game=_where(game)), _("Resume"))
