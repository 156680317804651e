"""The solver's messages (``battle/online/protocol/solver_messages.py``): the writer and the reader
are exact inverses, every client request reads through the protocol's reader, and what does not
read is refused naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from battle.online.protocol import reader
from battle.online.protocol.messages import NumberedDeal, ProtocolError, RandomDeal, encode
from battle.online.protocol.solver_messages import (
    LEVEL_NAMES,
    Analyse,
    AnalysisResult,
    AskHint,
    AskPar,
    AskReview,
    DailyDeal,
    Evaluation,
    FairDeal,
    GetReview,
    HintResult,
    MoveValue,
    ParResult,
    ReviewResult,
    SolverCreated,
    SolverGame,
    SolverQueue,
    SolverRefused,
    SolverSeat,
    StopAnalysis,
)
from battle.online.protocol.solver_reader import parse_solver_news
from battle.online.protocol.solver_writer import solver_news_json, solver_request_json
from battle.players import LEVELS
from battle.rules.deal import deal
from battle.rules.notation import format_position

EVALUATION = Evaluation(
    value=-3,
    exact=False,
    depth=8,
    best_moves=("a1-b9",),
    pv=("a1-b9", "c1-c9"),
    final_score=(41, 44),
    moves=(MoveValue("a1-b9", -3, "estimate", 5), MoveValue("c1-c9", -7, "upper", 2)),
)
NEWS = [
    SolverCreated("3f9a0c1d2e4b5a69", "kM3v9Q0b1yJ2sX4nP6rT8uW0zA5cE7gH", 2),
    SolverSeat("3f9a0c1d2e4b5a69", 1, "expert", -4),
    SolverSeat("3f9a0c1d2e4b5a69", 2, "perfect", None),
    SolverQueue("move", 3),
    SolverQueue("hint", None),
    SolverQueue("move", 1, 12.5),
    SolverQueue("analysis", 2, None, 7),
    SolverRefused("analysis", "budget", 41.5),
    SolverRefused("review", "queued", 3.0),
    SolverRefused("game", "no_solver", None),
    HintResult("3f9a0c1d2e4b5a69", 12, EVALUATION),
    AnalysisResult("board-7", True, EVALUATION),
    ReviewResult("0123456789abcdef", "3f9a0c1d2e4b5a69", "queued", 2, None),
    ReviewResult("0123456789abcdef", "3f9a0c1d2e4b5a69", "queued", 2, None, 40),
    ReviewResult("0123456789abcdef", "3f9a0c1d2e4b5a69", "done", None, {"format": "mahjong-battle-review"}),
    ParResult("3f9a0c1d2e4b5a69", "known", 4, ("a1-b9", "c1-c9")),
    ParResult("3f9a0c1d2e4b5a69", "working", place=2),
    ParResult("3f9a0c1d2e4b5a69", "working", place=0, at_least=-3),
    ParResult("3f9a0c1d2e4b5a69", "working"),
    ParResult("3f9a0c1d2e4b5a69", "refused", why="per_hour", retry_after=812.5),
    ParResult("3f9a0c1d2e4b5a69", "unproved"),
    ParResult("3f9a0c1d2e4b5a69", "none"),
]
START = format_position(deal(4))
REQUESTS = [
    SolverGame("club", RandomDeal(), "creator", "Ann"),
    SolverGame("beginner", NumberedDeal(17), "joiner"),
    SolverGame("master", DailyDeal(), "random"),
    SolverGame("perfect", FairDeal("within5"), "creator"),
    AskHint(),
    Analyse("board-1", START),
    StopAnalysis(),
    AskReview(),
    GetReview("0123456789abcdef"),
    AskPar(),
]


def test_the_levels_are_the_windows() -> None:
    assert tuple(LEVELS) == LEVEL_NAMES


@pytest.mark.parametrize("news", NEWS, ids=lambda news: news.TYPE)
def test_each_answer_reads_back_as_it_was_written(news: Any) -> None:
    assert parse_solver_news(encode(solver_news_json(news))) == news


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda request_: request_.TYPE)
def test_each_request_reads_back_through_the_protocols_reader(request_: Any) -> None:
    assert reader.parse_client_message(encode(solver_request_json(request_))) == request_


@pytest.mark.parametrize(
    ("frame", "names"),
    [
        ('{"type": "analyse", "id": "x y", "position": "?"}', '"id"'),
        ('{"type": "analyse", "id": "b", "position": "not a position"}', '"position"'),
        ('{"type": "review_get", "review": "XYZ"}', '"review"'),
        ('{"type": "hint", "now": true}', '"now"'),
    ],
)
def test_a_request_that_does_not_read_names_its_field(frame: str, names: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        reader.parse_client_message(frame)
    assert names in str(refused.value)


@pytest.mark.parametrize(
    "value",
    [
        {"type": "solver_queue", "what": "move", "place": -1},
        {"type": "solver_refused", "what": "hint", "code": "tired", "retry_after": None},
        {"type": "solver_refused", "what": "hint", "code": "budget", "retry_after": "soon"},
        {"type": "solver", "game": "g", "seat": 3, "level": "club", "par": None},
        {"type": "solver_queue", "what": "move", "place": 1, "extra": 1},
        {"type": "solver_queue", "what": "move", "place": 1, "wait": -2, "ahead": None},
        {"type": "solver_queue", "what": "move", "place": 1, "wait": None, "ahead": 0},
        {"type": "solver_queue", "what": "move", "place": 1, "wait": None},
        {
            "type": "par_result",
            "game": "g",
            "status": "sure",
            "value": 1,
            "best_moves": [],
            "place": None,
            "why": None,
            "retry_after": None,
        },
        {
            "type": "par_result",
            "game": "g",
            "status": "refused",
            "value": None,
            "best_moves": [],
            "place": None,
            "why": "tired",
            "retry_after": 3,
        },
        {
            "type": "par_result",
            "game": "g",
            "status": "known",
            "value": 2,
            "best_moves": ["z1-z2"],
            "place": None,
            "why": None,
            "retry_after": None,
        },
    ],
)
def test_an_answer_that_does_not_read_is_a_protocol_error(value: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError):
        parse_solver_news(value)
