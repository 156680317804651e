"""Reading the solver's messages: a client's requests (``solver_readers``, which ``reader`` runs for
their types with its strict fields: an unknown field is an error) and the server's answers
(``parse_solver_news``, for a client). Either raises ``ProtocolError`` naming what is wrong, and
nothing else.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from battle.online.protocol.messages import (
    MAX_TOKEN_LENGTH,
    ErrorCode,
    GivenPosition,
    NumberedDeal,
    ProtocolError,
    RandomDeal,
    RequestFields,
    news_object,
    notation_field,
)
from battle.online.protocol.solver_messages import (
    BOUNDS,
    FAIRNESS_MARGINS,
    LEVEL_NAMES,
    MAX_ANALYSIS_ID_LENGTH,
    PAR_REFUSALS,
    PAR_STATUSES,
    REFUSAL_CODES,
    REVIEW_ID_LENGTH,
    REVIEW_STATUSES,
    WORK_KINDS,
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
    SolverDeal,
    SolverGame,
    SolverNews,
    SolverQueue,
    SolverRefused,
    SolverRequest,
    SolverSeat,
    StopAnalysis,
)
from battle.rules.board import move_name, parse_move
from battle.rules.errors import BattleError
from battle.rules.notation import format_position, parse_position

T = TypeVar("T")


class Fields(RequestFields, Protocol):
    """One client frame's fields as ``reader`` reads them, with the player's name a game asks under."""

    def name(self) -> str | None: ...


F = TypeVar("F", bound=Fields)
FriendsDeal = NumberedDeal | RandomDeal | GivenPosition

SOLVER_DEALS = '{"number": N}, {"random": true}, {"position": ".mbp text"}, {"daily": true} or {"fair": "even"}'
_ID = re.compile(r"[A-Za-z0-9_-]+")
_HEX = re.compile(r"[0-9a-f]+")


# -- the client's requests -------------------------------------------------------------------


def _read_solver_deal(fields: F, read_deal: Callable[[F], FriendsDeal]) -> SolverDeal:
    value = fields.get("deal", True)
    kind, detail = next(iter(value.items())) if isinstance(value, dict) and len(value) == 1 else (None, None)
    if kind == "daily":
        if detail is not True:
            raise fields.fail("deal.daily", "true", detail)
        return DailyDeal()
    if kind == "fair":
        if detail not in FAIRNESS_MARGINS:
            raise fields.fail("deal.fair", " or ".join(f'"{name}"' for name in FAIRNESS_MARGINS), detail)
        return FairDeal(detail)
    if kind not in ("number", "random", "position"):
        raise fields.fail("deal", f"one of {SOLVER_DEALS}", value)
    return read_deal(fields)  # a friend's deal, read as ``create`` reads it


def _read_solver_game(fields: F, read_deal: Callable[[F], FriendsDeal]) -> SolverGame:
    level = fields.get("level", True)
    if level not in LEVEL_NAMES:
        raise fields.fail("level", "one of " + ", ".join(LEVEL_NAMES), level)
    deal = _read_solver_deal(fields, read_deal)
    first = fields.get("first", True)
    if first not in ("creator", "joiner", "random"):
        raise fields.fail("first", '"creator" (you), "joiner" (the solver) or "random"', first)
    return SolverGame(level=level, deal=deal, first=first, name=fields.name())


def _read_analyse(fields: Fields) -> Analyse:
    ident = fields.get("id", True)
    if not isinstance(ident, str) or not 1 <= len(ident) <= MAX_ANALYSIS_ID_LENGTH or not _ID.fullmatch(ident):
        raise fields.fail("id", f"1 to {MAX_ANALYSIS_ID_LENGTH} letters, digits, - and _", ident)
    position = notation_field(fields, "position", "the text of a .mbp position", parse_position)
    return Analyse(id=ident, position=format_position(position))


def _read_get_review(fields: Fields) -> GetReview:
    review = fields.get("review", True)
    if not isinstance(review, str) or len(review) != REVIEW_ID_LENGTH or not _HEX.fullmatch(review):
        raise fields.fail("review", f"a review's id, {REVIEW_ID_LENGTH} hex digits", review)
    return GetReview(review=review)


def solver_readers(read_deal: Callable[[F], FriendsDeal]) -> dict[str, Callable[[F], SolverRequest]]:
    """The readers of the solver's requests, by type, for ``reader``'s table; ``read_deal`` reads a
    friend's deal (``create``'s), which a game against the solver also takes."""
    return {
        SolverGame.TYPE: lambda fields: _read_solver_game(fields, read_deal),
        AskHint.TYPE: lambda fields: AskHint(),
        Analyse.TYPE: _read_analyse,
        StopAnalysis.TYPE: lambda fields: StopAnalysis(),
        AskReview.TYPE: lambda fields: AskReview(),
        GetReview.TYPE: _read_get_review,
        AskPar.TYPE: lambda fields: AskPar(),
    }


# -- the server's answers --------------------------------------------------------------------


class _News:
    """One server message's fields, read one by one; every reason names the field, and a field the
    message does not have is an error."""

    def __init__(self, value: Mapping[str, Any]) -> None:
        self.kind = value.get("type")
        self.value = value
        self.read: set[str] = {"type"}

    def get(self, name: str) -> Any:
        self.read.add(name)
        if name not in self.value:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f'missing "{name}" in a "{self.kind}" message')
        return self.value[name]

    def fail(self, name: str, expected: str, value: object) -> ProtocolError:
        shown = json.dumps(value)[:60] if _jsonable(value) else type(value).__name__
        return ProtocolError(ErrorCode.BAD_MESSAGE, f'"{name}" of "{self.kind}": expected {expected}, got {shown}')

    def text(self, name: str, pattern: re.Pattern[str] | None = None, longest: int = 64) -> str:
        value = self.get(name)
        if not isinstance(value, str) or not 1 <= len(value) <= longest or (pattern and not pattern.fullmatch(value)):
            raise self.fail(name, "an id as a string", value)
        return value

    def whole(self, name: str, low: int = -(2**31), optional: bool = False) -> Any:
        value = self.get(name)
        if optional and value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= 2**31:
            raise self.fail(name, f"a whole number from {low}" + (" or null" if optional else ""), value)
        return value

    def one_of(self, name: str, choices: tuple[T, ...]) -> T:
        value = self.get(name)
        if value not in choices:
            raise self.fail(name, "one of " + ", ".join(map(str, choices)), value)
        return value

    def done(self) -> None:
        unknown = sorted(set(self.value) - self.read)
        if unknown:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f'unknown field "{unknown[0]}" in a "{self.kind}" message')


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _moves(news: _News, name: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise news.fail(name, "a list of moves", value)
    try:
        return tuple(move_name(parse_move(text)) if isinstance(text, str) else _not_a_move(text) for text in value)
    except BattleError as error:
        raise news.fail(name, f"moves in notation ({error})", value) from None


def _not_a_move(value: object) -> str:
    raise BattleError(f"{value!r} is not a move")


def _evaluation(news: _News, value: object) -> Evaluation:
    if not isinstance(value, dict):
        raise news.fail("evaluation", "an object", value)
    inner = _News({**value, "type": news.kind})
    final_score = inner.get("final_score")
    if not (isinstance(final_score, list) and len(final_score) == 2 and all(_count(score) for score in final_score)):
        raise inner.fail("final_score", "two whole numbers", final_score)
    exact = inner.get("exact")
    if not isinstance(exact, bool):
        raise inner.fail("exact", "true or false", exact)
    moves_value = inner.get("moves")
    if not isinstance(moves_value, list):
        raise inner.fail("moves", "a list of moves with values", moves_value)
    moves = tuple(_move_value(inner, entry) for entry in moves_value)
    evaluation = Evaluation(
        value=inner.whole("value"),
        exact=exact,
        depth=inner.whole("depth", 0),
        best_moves=_moves(inner, "best_moves", inner.get("best_moves")),
        pv=_moves(inner, "pv", inner.get("pv")),
        final_score=(final_score[0], final_score[1]),
        moves=moves,
    )
    inner.done()
    return evaluation


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2**31


def _move_value(news: _News, value: object) -> MoveValue:
    if not isinstance(value, dict):
        raise news.fail("moves", "objects of move, value, bound and points", value)
    entry = _News({**value, "type": news.kind})
    (move,) = _moves(entry, "move", [entry.get("move")])
    result = MoveValue(move, entry.whole("value"), entry.one_of("bound", BOUNDS), entry.whole("points", 0))
    entry.done()
    return result


def _retry_after(news: _News) -> float | None:
    return _seconds(news, "retry_after")


def _seconds(news: _News, name: str) -> float | None:
    value = news.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (math.isfinite(value) and value >= 0):
        raise news.fail(name, "seconds (a number from 0) or null", value)
    return float(value)


def _read_created(news: _News) -> SolverCreated:
    token = news.text("token", _ID, MAX_TOKEN_LENGTH)
    return SolverCreated(game=news.text("game"), token=token, seat=news.one_of("seat", (1, 2)))


def _read_seat(news: _News) -> SolverSeat:
    return SolverSeat(
        game=news.text("game"),
        seat=news.one_of("seat", (1, 2)),
        level=news.one_of("level", LEVEL_NAMES),
        par=news.whole("par", optional=True),
    )


def _read_queue(news: _News) -> SolverQueue:
    return SolverQueue(
        what=news.one_of("what", WORK_KINDS),
        place=news.whole("place", 0, optional=True),
        wait=_seconds(news, "wait"),
        ahead=news.whole("ahead", 1, optional=True),
    )


def _read_refused(news: _News) -> SolverRefused:
    return SolverRefused(
        what=news.one_of("what", WORK_KINDS), code=news.one_of("code", REFUSAL_CODES), retry_after=_retry_after(news)
    )


def _read_hint(news: _News) -> HintResult:
    return HintResult(
        game=news.text("game"), ply=news.whole("ply", 0), evaluation=_evaluation(news, news.get("evaluation"))
    )


def _read_analysis(news: _News) -> AnalysisResult:
    final = news.get("final")
    if not isinstance(final, bool):
        raise news.fail("final", "true or false", final)
    ident = news.text("id", _ID, MAX_ANALYSIS_ID_LENGTH)
    return AnalysisResult(id=ident, final=final, evaluation=_evaluation(news, news.get("evaluation")))


def _read_review(news: _News) -> ReviewResult:
    report = news.get("report")
    if report is not None and not (isinstance(report, dict) and report.get("format") == "mahjong-battle-review"):
        raise news.fail("report", "null or the object of review --json", report)
    return ReviewResult(
        review=news.text("review", _HEX, REVIEW_ID_LENGTH),
        game=news.text("game"),
        status=news.one_of("status", REVIEW_STATUSES),
        place=news.whole("place", 0, optional=True),
        report=report,
        ahead=news.whole("ahead", 1, optional=True),
    )


def _read_par(news: _News) -> ParResult:
    why = news.get("why")
    if why is not None and why not in PAR_REFUSALS:
        raise news.fail("why", f"null or one of {', '.join(PAR_REFUSALS)}", why)
    return ParResult(
        game=news.text("game"),
        status=news.one_of("status", PAR_STATUSES),
        value=news.whole("value", optional=True),
        best_moves=_moves(news, "best_moves", news.get("best_moves")),
        place=news.whole("place", 0, optional=True),
        why=why,
        retry_after=_retry_after(news),
        at_least=news.whole("at_least", -270, optional=True),
    )


_NEWS_READERS: dict[str, Callable[[_News], SolverNews]] = {
    SolverCreated.TYPE: _read_created,
    SolverSeat.TYPE: _read_seat,
    SolverQueue.TYPE: _read_queue,
    SolverRefused.TYPE: _read_refused,
    HintResult.TYPE: _read_hint,
    AnalysisResult.TYPE: _read_analysis,
    ReviewResult.TYPE: _read_review,
    ParResult.TYPE: _read_par,
}
SOLVER_NEWS_TYPES = frozenset(_NEWS_READERS)
"""The types of the solver's server messages."""


def parse_solver_news(value: object) -> SolverNews:
    """One of the solver's server messages (a decoded JSON object, or a frame's text) as its dataclass;
    ``ProtocolError`` names what is wrong with anything else."""
    value = news_object(value)
    reader = _NEWS_READERS.get(value.get("type"))  # type: ignore[arg-type]
    if reader is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"not a solver message: {str(value.get('type'))[:40]!r}")
    news = _News(value)
    message = reader(news)
    news.done()
    return message
