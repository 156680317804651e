"""The title's Resume buttons' labels, longest first: a narrow button shows the longest that fits.

Cut to the button's width, "Resume: You vs Solver (beginner), deal 12, move 5" became
"Resume: You vs Solver (be..." at 800x600; whole parts dropped read better than a cut name.
"""

from __future__ import annotations

from battle.rules.game import Game
from battle.rules.wording import is_you


def _where(game: Game) -> str:
    return f"deal {game.deal_number}" if game.deal_number is not None else "a composed position"


def _opponents(game: Game) -> str:
    """Both names, or only the other one's when one side is "you" ("vs Solver (beginner)")."""
    first, second = game.player1, game.player2
    if is_you(first) != is_you(second):
        return f"vs {second if is_you(first) else first}"
    return f"{first} vs {second}"


def resume_labels(game: Game) -> tuple[str, ...]:
    """The resume button's labels for the game open when the window closed, longest first."""
    where, move = _where(game), f"move {game.ply + 1}"
    return (f"Resume: {game.player1} vs {game.player2}, {where}, {move}", f"Resume: {_opponents(game)}, {where}",
            f"Resume: {_opponents(game)}", f"Resume: {where}, {move}", f"Resume {where}", "Resume")


def other_game_labels(description: str, game: Game) -> tuple[str, ...]:
    """An unfinished game's button in the list (``description`` is the list's line), longest first."""
    return (f"Resume: {description}", f"Resume: {_where(game)}, {_opponents(game)}", f"Resume: {_where(game)}",
            "Resume")
