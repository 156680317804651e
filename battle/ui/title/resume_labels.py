"""The title's Resume buttons' labels, longest first: a narrow button shows the longest that fits.

Cut to the button's width, "Resume: You vs Solver (beginner), deal 12, move 5" became
"Resume: You vs Solver (be..." at 800x600; whole parts dropped read better than a cut name.
A game open in another copy of the program reads "In use: ..." instead of "Resume: ...".
"""

from __future__ import annotations

from battle.i18n import _
from battle.rules.game import Game
from battle.rules.wording import is_you, shown_name


def _where(game: Game) -> str:
    return (
        _("deal {number}").format(number=game.deal_number) if game.deal_number is not None else _("a composed position")
    )


def _opponents(game: Game) -> str:
    """Both names, or only the other one's when one side is "you" ("vs Solver (beginner)")."""
    first, second = game.player1, game.player2
    if is_you(first) != is_you(second):
        return _("vs {name}").format(name=shown_name(second if is_you(first) else first))
    return _("{first} vs {second}").format(first=shown_name(first), second=shown_name(second))


def _titled(parts: tuple[str, ...], in_use: bool) -> tuple[str, ...]:
    """Each of ``parts`` after "Resume: " (or "In use: "), then the bare word."""
    if in_use:
        return (*(_("In use: {game}").format(game=part) for part in parts), _("In use"))
    return (*(_("Resume: {game}").format(game=part) for part in parts), _("Resume"))


def resume_labels(game: Game, in_use: bool = False) -> tuple[str, ...]:
    """The resume button's labels for the game open when the window closed, longest first."""
    where, move = _where(game), _("move {number}").format(number=game.ply + 1)
    both = _("{first} vs {second}").format(first=shown_name(game.player1), second=shown_name(game.player2))
    return _titled(
        (f"{both}, {where}, {move}", f"{_opponents(game)}, {where}", _opponents(game), f"{where}, {move}", where),
        in_use,
    )


def other_game_labels(description: str, game: Game, in_use: bool = False) -> tuple[str, ...]:
    """An unfinished game's button in the list (``description`` is the list's line), longest first."""
    return _titled((description, f"{_where(game)}, {_opponents(game)}", _where(game)), in_use)
