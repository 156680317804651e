"""A game as the window plays it: the model's Game plus who (if anyone) is the solver.

Kept free of pygame so the undo rules against the solver (take back the human's
move together with the solver's reply) and the rematch rule can be tested alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from battle.i18n import _
from battle.rules.board import Move, Position
from battle.rules.game import Game
from battle.rules.wording import shown_name, solver_name
from battle.storage.saved_games import SavedGame, Shelf, new_game_id


@dataclass
class Match:
    game: Game
    solver_side: int | None = None
    """1 or 2 when the solver plays that side; None for a hot-seat game."""
    level: str = "club"
    game_id: str = field(default_factory=new_game_id)
    """Where the game is kept among the saved games; a new match is a new game, a resumed one keeps its id."""
    kept: bool = False
    """The player chose to keep the game for later when starting another (see ``saved_games``)."""
    from_ply: int = 0
    """The moves already played when the solver took its side: a review's "Retry from here" plays on
    from move N of a game that others began, on its deal. Undo goes back no further, and the
    history keeps such a game with the composed starts: it is not rated (``GameEntry.from_game``)."""

    # -- who moves ---------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self.game.position

    @property
    def against_solver(self) -> bool:
        return self.solver_side is not None

    def is_solver(self, player: int) -> bool:
        return self.solver_side == player

    def solver_to_move(self) -> bool:
        return self.solver_side == self.position.to_move and not self.position.is_over()

    def human_to_move(self) -> bool:
        return self.solver_side != self.position.to_move and not self.position.is_over()

    # -- undo and redo -----------------------------------------------------------------

    def undo_count(self) -> int:
        """How many moves one Undo takes back.

        Hot seat: one. Against the solver: back to the human's previous turn, i.e.
        the solver's reply and the human's move before it (just the human's move if
        the solver has not answered yet). Zero when the human has no move to take back.
        """
        game = self.game
        if not game.can_undo():
            return 0
        if self.solver_side is None:
            return 1
        count = 0
        ply = game.ply
        while ply > self.from_ply:
            count += 1
            ply -= 1
            if game.mover_of(ply) != self.solver_side:
                return count
        return 0

    def undo(self) -> list[Move]:
        """Take back as :meth:`undo_count` says; returns the moves taken back, latest first."""
        return [self.game.undo() for _ in range(self.undo_count())]

    def redo_count(self) -> int:
        """How many moves one Redo plays again: the human's move and, if remembered, the reply."""
        game = self.game
        available = game.redo_count
        if available == 0:
            return 0
        if self.solver_side is None:
            return 1
        # The human's move, then the solver's reply if it is remembered too.
        return min(available, 2) if self.game.position.to_move != self.solver_side else 0

    def redo(self) -> list[Move]:
        return [self.game.redo() for _ in range(self.redo_count())]

    # -- new games ---------------------------------------------------------------------

    def rematch(self) -> Match:
        """The same start with the sides swapped: the other player (or the solver) moves first.

        A chosen name goes with its player to the other seat; a default name ("Player 2") names
        the seat, not a person, so seat 1 is "Player 1" again (swapped, the card of player 1
        would read "Player 2")."""
        game = self.game
        first = "Player 1" if is_seat_label(game.player2) else game.player2
        second = "Player 2" if is_seat_label(game.player1) else game.player1
        swapped = Game(game.start, first, second, game.deal_number)
        side = None if self.solver_side is None else 3 - self.solver_side
        return Match(swapped, side, self.level)

    def describe(self) -> str:
        game = self.game
        where = (
            _("deal {deal_number}").format(deal_number=game.deal_number)
            if game.deal_number is not None
            else _("a composed position")
        )
        return _("{player1} vs {player2}, {where}, move {value}").format(
            player1=shown_name(game.player1), player2=shown_name(game.player2), where=where, value=game.ply + 1
        )

    # -- on disk -----------------------------------------------------------------------

    def saved(self) -> SavedGame:
        """The match as the saved games keep it: the record plus who the solver is."""
        level = self.level if self.solver_side is not None else None
        return SavedGame(self.game_id, self.game, self.solver_side, level, "window", self.kept, from_ply=self.from_ply)

    @classmethod
    def from_file(cls, game: Game, solver_side: int | None, level: str, shelf: Shelf | None = None) -> Match:
        """A game loaded from a record file: the kept game whose record it is, when there is one (a
        game saved with Ctrl+S and loaded again, a finished one loaded twice), so the saved games
        hold it once; else a new one."""
        found = (shelf if shelf is not None else Shelf()).id_of(game.to_text())
        return cls(game, solver_side, level, found or new_game_id())

    @classmethod
    def from_saved(cls, saved: SavedGame, default_level: str = "club") -> Match:
        """A resumed game is the one in play, no longer one kept for later: once left, it is the
        last game that the next new-game prompt names."""
        return cls(saved.game, saved.solver_side, saved.level or default_level, saved.game_id, from_ply=saved.from_ply)


def is_seat_label(name: str, seat: int | None = None) -> bool:
    """Whether ``name`` is a default name, "Player 1" or "Player 2" (of ``seat`` when given): as a record
    stores it, or in the player's language, as the new-game form fills it in ("Spieler 1")."""
    seats = (1, 2) if seat is None else (seat,)
    return any(name in (f"Player {number}", shown_name(f"Player {number}")) for number in seats)


def new_match(
    deal_number: int | None,
    mode: str,
    names: tuple[str, str],
    level: str = "club",
    human_first: bool = True,
) -> Match:
    """A fresh match; ``names`` are the two players (hot seat) or the human's name twice."""
    if mode == "solver":
        human = names[0]
        if human_first:
            game = Game.new(deal_number, human, solver_name(level))
            return Match(game, 2, level)
        game = Game.new(deal_number, solver_name(level), human)
        return Match(game, 1, level)
    return Match(Game.new(deal_number, names[0], names[1]), None, level)
