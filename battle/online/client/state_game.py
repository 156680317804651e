"""An online game's ``state`` (docs/protocol.md) read as the rules model's Game: who sits
where, the moves the server has applied and how it says the game ended.

Pure functions of the protocol's dicts, shared by the terminal's and the window's clients.
"""

from __future__ import annotations

from typing import Any

from battle.i18n import _
from battle.rules.board import Move, parse_move
from battle.rules.game import Game, Result, result_of
from battle.rules.notation import parse_position

JsonObject = dict[str, Any]


def player(state: JsonObject, seat: object) -> JsonObject:
    found = next((p for p in state.get("players") or () if isinstance(p, dict) and p.get("seat") == seat), None)
    return found or {}


def name_of(state: JsonObject, seat: object) -> str:
    """The seat's name as the server has it; for a seat without one (nobody holds it, or its player
    gave none) "Player 2" in the reader's language: the server keeps no default as if typed."""
    name = player(state, seat).get("name")
    return str(name) if name else _("Player {seat}").format(seat=seat)


def server_moves(state: JsonObject) -> list[Move]:
    """The moves on the server's board, oldest first (raises BattleError for one that does not read)."""
    return [parse_move(str(text)) for text in state.get("moves") or ()]


def after_move(state: JsonObject, moved: JsonObject) -> JsonObject:
    """``state`` brought up to date with a ``moved`` message, as a new dict (``state`` is left as it was).

    A move ends a takeback request (the opponent moved instead, which declines it), and the
    server sends no ``state`` for it. A move out of order leaves the state as it is: the next
    ``state`` (sent after a reconnect) sets it right.
    """
    moves = state.get("moves")
    if not isinstance(moves, list) or moved.get("ply") != len(moves) + 1:
        return state
    later = {
        **state,
        "moves": [*moves, moved.get("move")],
        "ply": len(moves) + 1,
        "offers": {**(state.get("offers") or {}), "takeback": None},
    }
    for key in ("scores", "to_move", "status", "result", "deadline"):
        later[key] = moved.get(key)
    return later


UNPLAYED_ENDS = ("aborted", "expired")
"""The server's ends of a game that hardly began: no winner, nothing to keep in a history."""


def ended_unplayed(state: JsonObject) -> bool:
    """Whether the game was aborted or expired: it counts for nothing."""
    result = state.get("result")
    return isinstance(result, dict) and result.get("reason") in UNPLAYED_ENDS


def unplayed_end(state: JsonObject) -> str | None:
    """How a game that counts for nothing ended, in a sentence for the player; None for any other."""
    if not ended_unplayed(state):
        return None
    if (state.get("result") or {}).get("reason") == "expired":
        return "Nobody joined in time: the game expired and counts for nothing."
    return "The game was aborted; it counts for nothing."


def game_from_state(state: JsonObject) -> Game:
    """The state's game: its start, its players' names, its deal and every move played.

    Raises BattleError when the start or a move does not read or is not legal (a server of
    another version, a corrupt message): the screen says so rather than show a wrong board.
    """
    start = parse_position(str(state.get("start", "")))
    deal = state.get("deal")
    game = Game(start, name_of(state, 1), name_of(state, 2), deal if isinstance(deal, int) else None)
    for move in server_moves(state):
        game.play(move)
    return game


def result_of_state(state: JsonObject) -> Result | None:
    """The result the server gives a finished game (a resignation's or a loss on time's winner too)."""
    result = state.get("result")
    if state.get("status") != "finished" or not isinstance(result, dict):
        return None
    counted = result_of(result.get("scores") or state.get("scores") or [0, 0])
    winner = result.get("winner")  # a resignation's winner may have fewer points
    return Result(counted.scores, winner if winner in (1, 2) else None, counted.margin)
