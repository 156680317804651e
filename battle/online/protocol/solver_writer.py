"""Writing the solver's messages: ``solver_news_json`` makes the object of a server answer (the server
sends it), ``solver_request_json`` the object of a client's request; each is the exact inverse of
its reader in ``solver_reader`` (a test holds them together on generated messages).
"""

from __future__ import annotations

from battle.online.protocol.messages import JsonObject, fields_json, message_json
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
    SolverGame,
    SolverNews,
    SolverRequest,
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
    return fields_json(
        evaluation,
        best_moves=list(evaluation.best_moves),
        pv=list(evaluation.pv),
        final_score=list(evaluation.final_score),
        moves=[fields_json(value) for value in evaluation.moves],
    )


def solver_news_json(message: SolverNews) -> JsonObject:
    """The JSON object of one of the server's answers: every field, null where it has none."""
    if isinstance(message, (HintResult, AnalysisResult)):
        return message_json(message, evaluation=evaluation_json(message.evaluation))
    if isinstance(message, ParResult):
        return message_json(message, best_moves=list(message.best_moves))
    if isinstance(message, ReviewResult):  # the frame's order is not the dataclass's
        return {
            "type": message.TYPE,
            "review": message.review,
            "game": message.game,
            "status": message.status,
            "place": message.place,
            "ahead": message.ahead,
            "report": message.report,
        }
    return message_json(message)  # the flat ones: every field as it is
