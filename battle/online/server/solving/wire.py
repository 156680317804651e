"""The solver's news on the wire: a game against the solver, its seat, a hint, an analysis, a review,
a par, a place in the queue, a refusal, each built here from the facts of the module that serves
it, as ``rooms.wire`` builds a room's (the seam is described there).

The solver pool answers with typed values (``MoveResult``, ``AnalysisResult``, ``ReviewResult``).
The functions here word them as the messages of ``battle.online.protocol``, by attribute: a field
renamed on either side is a type error here (``mypy``), never a ``KeyError`` in a running server.
The pool's types are read for the type check only, so a server without a solver loads no pool.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from battle.online.protocol.solver_messages import (
    AnalysisResult,
    Evaluation,
    HintResult,
    MoveValue,
    ParRefusal,
    ParResult,
    RefusalCode,
    ReviewResult,
    SolverCreated,
    SolverQueue,
    SolverRefused,
    SolverSeat,
    WorkKind,
)
from battle.online.server.rooms.room import Room
from battle.online.server.solving.outcomes import SolverRefusal, Waiting
from battle.online.server.solving.rows import ReviewRow, SolverSeatRow
from battle.rules.board import Position

if TYPE_CHECKING:
    from battle.online.server.solving.work import AnalysisResult as FoundAnalysis


def evaluation(found: FoundAnalysis) -> Evaluation:
    """A search's answer as a hint or an analysis board shows it."""
    return Evaluation(
        value=found.value,
        exact=found.exact,
        depth=found.depth,
        best_moves=found.best_moves,
        pv=found.pv,
        final_score=found.final_score,
        moves=tuple(MoveValue(value.move, value.value, value.bound, value.points) for value in found.moves),
    )


def game_over(position: Position) -> Evaluation:
    """The evaluation of a position with no pair left: nothing to search, the score as it stands."""
    return Evaluation(0, True, 0, (), (), (position.scores[0], position.scores[1]))


def solver_created(room: Room, token: str) -> SolverCreated:
    """To the player who started ``room``'s game against the solver: the token of their seat."""
    return SolverCreated(room.game_id, token, room.creator_seat)


def solver_seat(room: Room, seat: SolverSeatRow) -> SolverSeat:
    """The solver's seat and level in ``room``'s game, and the deal's par."""
    return SolverSeat(room.game_id, seat.seat, seat.level, seat.par)


def hint_result(game: str, ply: int, found: FoundAnalysis) -> HintResult:
    """The hint in ``game`` before move ``ply`` + 1."""
    return HintResult(game, ply, evaluation(found))


def analysis_step(ident: str, final: bool, found: FoundAnalysis) -> AnalysisResult:
    """A step of the analysis board ``ident``; ``final`` for its last."""
    return AnalysisResult(ident, final, evaluation(found))


def analysis_over(ident: str, position: Position) -> AnalysisResult:
    """The one and last step of the analysis board ``ident`` on a ``position`` with no pair left."""
    return AnalysisResult(ident, True, game_over(position))


def review_news(row: ReviewRow, waiting: Waiting | None) -> ReviewResult:
    """A review's news: its row as it stands, and while it waits its place and roughly the seconds of
    work ahead of it."""
    queued = queue_news("review", waiting)
    return ReviewResult(row.review, row.game, row.status, queued.place, row.report, queued.ahead)


def final_margin(start: Position, value: int) -> int:
    """The final margin of the player to move at ``start`` when ``value`` is theirs from there on (the
    solver's values count the points still to take): the par a game from ``start`` is measured on."""
    mover = start.to_move
    return value + start.scores[mover - 1] - start.scores[2 - mover]


def par_known(game: str, start: Position, value: int, best_moves: tuple[str, ...]) -> ParResult:
    """``game``'s par, from the solver's ``value`` of its ``start`` and the best first moves."""
    return ParResult(game, "known", final_margin(start, value), best_moves)


def par_working(game: str, start: Position, waiting: Waiting | None) -> ParResult:
    """``game``'s par being worked out: its place in the pool's queue (None: not known here), and the
    least it can be once its search has proved a first move from ``start``."""
    if waiting is None:
        return ParResult(game, "working")
    at_least = None if waiting.at_least is None else final_margin(start, waiting.at_least)
    return ParResult(game, "working", place=waiting.place, at_least=at_least)


def par_unproved(game: str, start: Position, least: int | None) -> ParResult:
    """``game``'s par not proved within the pool's budget, with the least it proved from ``start``."""
    return ParResult(game, "unproved", at_least=None if least is None else final_margin(start, least))


def par_refused(game: str, why: ParRefusal, retry_after: float) -> ParResult:
    """``game``'s par not worked out now, why, and the seconds until it would be."""
    return ParResult(game, "refused", why=why, retry_after=tenths(retry_after))


def par_none(game: str) -> ParResult:
    """No par to be had: the server runs no solver (or the game's start has no move)."""
    return ParResult(game, "none")


def tenths(seconds: float) -> float:
    """Seconds until work is taken, up to the next tenth: a refusal never says "again in 0 s"."""
    return max(0.1, math.ceil(seconds * 10) / 10)


def queue_news(what: WorkKind, waiting: Waiting | None) -> SolverQueue:
    """Where ``what`` stands, as its pages are told: its place, the seconds it waits for its budget, and
    while it waits in the queue roughly the seconds of work ahead of it."""
    if waiting is None:
        return SolverQueue(what, None)
    wait = tenths(waiting.wait) if waiting.wait > 0 else None
    ahead = max(1, math.ceil(waiting.ahead)) if waiting.place > 0 else None
    return SolverQueue(what, waiting.place, wait, ahead)


def refused(what: WorkKind, refusal: SolverRefusal) -> SolverRefused:
    """Work the pool did not take, and when the same work would be."""
    return SolverRefused(what, refusal.code, tenths(refusal.retry_after))


def refusal(what: WorkKind, code: RefusalCode, retry_after: float | None = None) -> SolverRefused:
    """Work not done for ``code``, and the seconds after which the same work would be taken, if known."""
    return SolverRefused(what, code, None if retry_after is None else tenths(retry_after))
