"""Writing the solver's messages: ``solver_news_json`` makes the object of a server answer (the server
sends it), ``solver_request_json`` the object of a client's request; each is the exact inverse of
its reader in ``solver_reader`` (a test holds them together on generated messages).
"""

from __future__ import annotations

from typing import Any

from battle.online.protocol.messages import JsonObject
from battle.online.protocol.solver_messages import (
    Analyse,
    AnalysisResult,
    DailyDeal,
    Evaluation,
    FairDeal,
    GetReview,
    HintResult,
    ParResult,
    ReviewResult,
    SolverCreated,
    SolverGame,
    SolverNews,
    SolverQueue,
    SolverRefused,
    SolverRequest,
    SolverSeat,
)
from battle.online.protocol.writer import deal_json


def solver_request_json(message: SolverRequest) -> JsonObject:
    """The JSON object of a client's request, with a missing name left out."""
    fields: JsonObject = {"type": message.TYPE}
    if isinstance(message, SolverGame):
        fields["level"] = message.level
        deal = message.deal
        if isinstance(deal, DailyDeal):
            fields["deal"] = {"daily": True}
        elif isinstance(deal, FairDeal):
            fields["deal"] = {"fair": deal.fairness}
        else:
            fields["deal"] = deal_json(deal)
        fields["first"] = message.first
        if message.name is not None:
            fields["name"] = message.name
    elif isinstance(message, Analyse):
        fields["id"] = message.id
        fields["position"] = message.position
    elif isinstance(message, GetReview):
        fields["review"] = message.review
    return fields


def evaluation_json(evaluation: Evaluation) -> JsonObject:
    return {
        "value": evaluation.value,
        "exact": evaluation.exact,
        "depth": evaluation.depth,
        "best_moves": list(evaluation.best_moves),
        "pv": list(evaluation.pv),
        "final_score": list(evaluation.final_score),
        "moves": [
            {"move": mv.move, "value": mv.value, "bound": mv.bound, "points": mv.points} for mv in evaluation.moves
        ],
    }


def solver_news_json(message: SolverNews) -> JsonObject:
    """The JSON object of one of the server's answers: every field, null where it has none."""
    fields: dict[str, Any] = {"type": message.TYPE}
    if isinstance(message, SolverCreated):
        fields.update(game=message.game, token=message.token, seat=message.seat)
    elif isinstance(message, SolverSeat):
        fields.update(game=message.game, seat=message.seat, level=message.level, par=message.par)
    elif isinstance(message, SolverQueue):
        fields.update(what=message.what, place=message.place, wait=message.wait, ahead=message.ahead)
    elif isinstance(message, SolverRefused):
        fields.update(what=message.what, code=message.code, retry_after=message.retry_after)
    elif isinstance(message, HintResult):
        fields.update(game=message.game, ply=message.ply, evaluation=evaluation_json(message.evaluation))
    elif isinstance(message, AnalysisResult):
        fields.update(id=message.id, final=message.final, evaluation=evaluation_json(message.evaluation))
    elif isinstance(message, ParResult):
        fields.update(
            game=message.game,
            status=message.status,
            value=message.value,
            best_moves=list(message.best_moves),
            place=message.place,
            why=message.why,
            retry_after=message.retry_after,
            at_least=message.at_least,
        )
    elif isinstance(message, ReviewResult):
        fields.update(
            review=message.review,
            game=message.game,
            status=message.status,
            place=message.place,
            ahead=message.ahead,
            report=message.report,
        )
    return fields
