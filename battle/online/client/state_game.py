"""An online game's ``State`` (``server_messages``) read as the rules model's Game: who sits
where, the moves the server has applied and how it says the game ended.

Pure functions of the typed server messages, shared by the terminal's and the window's clients.
"""

from __future__ import annotations

from dataclasses import replace

from battle.i18n import _
from battle.online.protocol.server_messages import Moved, Offers, State
from battle.rules.board import Move, parse_move
from battle.rules.game import Game, Result, result_of
from battle.rules.notation import parse_position
from battle.rules.wording import shown_solver_name


def name_of(state: State, seat: object) -> str:
    """The seat's name as the server has it (the solver's in the reader's language, as the page shows
    it); for a seat without one (nobody holds it, or its player gave none) "Player 2" in the reader's
    language: the server keeps no default as if typed."""
    info = state.player(seat)
    return shown_solver_name(info.name) if info is not None and info.name else _("Player {seat}").format(seat=seat)


def server_moves(state: State) -> list[Move]:
    """The moves on the server's board, oldest first (raises BattleError for one that does not read)."""
    return [parse_move(text) for text in state.moves]


def after_move(state: State, moved: Moved) -> State:
    """``state`` brought up to date with a ``moved`` message (``state`` itself is frozen).

    A move ends a takeback request (the opponent moved instead, which declines it), and the
    server sends no ``state`` for it. A move out of order leaves the state as it is: the next
    ``state`` (sent after a reconnect) sets it right.
    """
    if moved.ply != state.ply + 1 or moved.game != state.game:
        return state
    return replace(
        state,
        moves=(*state.moves, moved.move),
        offers=Offers(state.offers.rematch, None),
        scores=moved.scores,
        to_move=moved.to_move,
        status=moved.status,
        result=moved.result,
        deadline=moved.deadline,
    )


def ended_unplayed(state: State) -> bool:
    """Whether the game was aborted or expired: it counts for nothing."""
    return state.result is not None and state.result.unplayed


def game_from_state(state: State) -> Game:
    """The state's game: its start, its players' names, its deal and every move played.

    Raises BattleError when the start or a move does not read or is not legal (a server of
    another version, a corrupt message): the screen says so rather than show a wrong board.
    """
    game = Game(parse_position(state.start), name_of(state, 1), name_of(state, 2), state.deal)
    for move in server_moves(state):
        game.play(move)
    return game


def result_of_state(state: State) -> Result | None:
    """The result the server gives a finished game (a resignation's or a loss on time's winner too)."""
    if state.status != "finished" or state.result is None:
        return None
    counted = result_of(list(state.result.scores))
    winner = state.result.winner  # a resignation's winner may have fewer points
    return Result(counted.scores, winner, counted.margin)
