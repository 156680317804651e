"""The solver's part of the online protocol: games against the solver, hints, the analysis board and
reviews, as typed values both ways.

The client's requests (``solver_game``, ``hint``, ``analyse``, ``analyse_stop``, ``review``,
``review_get``, ``par``) are read by ``solver_reader`` into the dataclasses here, as ``reader`` reads the
rest of a client's frames; the server's answers (``solver_created``, ``solver``, ``solver_queue``,
``solver_refused``, ``hint_result``, ``analysis_result``, ``review_result``, ``par_result``) are written by
``solver_writer`` and read back by ``solver_reader.parse_solver_news``. ``docs/protocol.md``
describes each with an example.

A refusal of solver work is a fact, never a sentence: ``SolverRefused`` carries a code (``budget``,
``busy``, ``no_solver``...) and the seconds after which the same request would be taken, and each
client words it in its reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from battle.online.protocol.messages import First, GivenPosition, NumberedDeal, RandomDeal

LEVEL_NAMES = ("beginner", "casual", "club", "expert", "master", "perfect")
"""The solver's six levels, as the window's: ``battle.players.LEVELS`` (a test holds the two equal)."""
FAIRNESS_MARGINS = {"even": 0, "within2": 2, "within5": 5}
"""A fair deal's margins: a catalogued deal whose par is this close to even."""
MAX_ANALYSIS_ID_LENGTH = 32
REVIEW_ID_LENGTH = 16
"""A review's id: 16 hex digits (64 random bits), the last part of its link ``/review/ID``."""

WorkKind = Literal["game", "move", "hint", "analysis", "review"]
"""What a ``solver_queue`` or ``solver_refused`` is about: a new game against the solver, the solver's
move, a hint, an analysis or a review."""
WORK_KINDS: tuple[WorkKind, ...] = ("game", "move", "hint", "analysis", "review")
RefusalCode = Literal[
    "budget", "busy", "queued", "closed", "failed", "no_solver", "not_solver_game", "not_your_turn", "game_over",
    "not_finished", "not_found", "too_many", "unavailable",
]  # fmt: skip
"""Why solver work was not done: the address's solver time is spent (``budget``), the queue of that
kind of work is full (``busy``), the address has as much of that kind waiting as it may
(``queued``), the server is stopping (``closed``), the search failed (``failed``), the server's
solver cluster or pool service does not answer and is tried again (``unavailable``), the server runs no
solver (``no_solver``), a hint in a game against a person (``not_solver_game``) or on the solver's
turn (``not_your_turn``) or after the end (``game_over``), a review of a game not over
(``not_finished``), no review of that id (``not_found``), or too many games against the solver from
one address (``too_many``)."""
REFUSAL_CODES: tuple[RefusalCode, ...] = (
    "budget", "busy", "queued", "closed", "failed", "no_solver", "not_solver_game", "not_your_turn", "game_over",
    "not_finished", "not_found", "too_many", "unavailable",
)  # fmt: skip
ParStatus = Literal["known", "working", "unproved", "refused", "none"]
"""Where a game's par stands: ``known`` (catalogued, or found by the server's solver), ``working`` (the
solver works it out), ``unproved`` (the search's budget ran out before its proof), ``refused`` (not
worked out now: ``ParResult.why``), ``none`` (the server runs no solver and no catalogue knows it)."""
PAR_STATUSES: tuple[ParStatus, ...] = ("known", "working", "unproved", "refused", "none")
ParRefusal = Literal["per_hour", "busy"]
"""Why a par is not worked out now: the network asked for as many pars as it may within the hour
(``per_hour``), or the solver has as many pars waiting as it takes (``busy``)."""
PAR_REFUSALS: tuple[ParRefusal, ...] = ("per_hour", "busy")
ReviewStatus = Literal["queued", "done", "failed"]
REVIEW_STATUSES: tuple[ReviewStatus, ...] = ("queued", "done", "failed")
Bound = Literal["exact", "estimate", "upper"]
BOUNDS: tuple[Bound, ...] = ("exact", "estimate", "upper")


# -- the deal of a game against the solver -------------------------------------------------


@dataclass(frozen=True)
class DailyDeal:
    """The deal of the day: the same catalogued deal for everyone on one day (UTC), with its par."""


@dataclass(frozen=True)
class FairDeal:
    """A catalogued deal whose par is within ``FAIRNESS_MARGINS[fairness]`` points of even."""

    fairness: str


SolverDeal = NumberedDeal | RandomDeal | GivenPosition | DailyDeal | FairDeal


# -- what the client asks --------------------------------------------------------------------


@dataclass(frozen=True)
class SolverGame:
    """Start a game against the solver at ``level``: ``first`` ``creator`` moves first, ``joiner``
    lets the solver, ``random`` either. Like ``create``, it picks the connection's game."""

    TYPE: ClassVar[str] = "solver_game"
    level: str
    deal: SolverDeal
    first: First
    name: str | None = None


@dataclass(frozen=True)
class AskHint:
    """The hint, the evaluation and the best line in the connection's game against the solver."""

    TYPE: ClassVar[str] = "hint"


@dataclass(frozen=True)
class Analyse:
    """Analyse ``position`` (canonical ``.mbp`` text) on the analysis board, deepening until exact;
    ``id`` comes back with every answer, so a page drops the answers of a position it left."""

    TYPE: ClassVar[str] = "analyse"
    id: str
    position: str


@dataclass(frozen=True)
class StopAnalysis:
    """Stop the connection's analysis (the board was closed)."""

    TYPE: ClassVar[str] = "analyse_stop"


@dataclass(frozen=True)
class AskReview:
    """Review the connection's game, once it is over (queued; the answer names the review)."""

    TYPE: ClassVar[str] = "review"


@dataclass(frozen=True)
class GetReview:
    """A review by its id (its link), and its news until it is ready."""

    TYPE: ClassVar[str] = "review_get"
    review: str


@dataclass(frozen=True)
class AskPar:
    """The par of the connection's game's deal, and its news until it is known (the server works it
    out when no catalogue knows it)."""

    TYPE: ClassVar[str] = "par"


SolverRequest = SolverGame | AskHint | Analyse | StopAnalysis | AskReview | GetReview | AskPar
SOLVER_GAME_MESSAGES = (AskHint, AskReview, AskPar)
"""The requests about the connection's current game; the others stand alone."""


# -- what the server answers -----------------------------------------------------------------


@dataclass(frozen=True)
class MoveValue:
    """One legal move's value for the mover, as ``mahjong-battle analyse --json`` writes it."""

    move: str
    value: int
    bound: Bound
    points: int


@dataclass(frozen=True)
class Evaluation:
    """A search's answer: the value for the player to move (exact, or an estimate ``depth`` moves
    deep), every best move, the best line, the final score along it, and each legal move's value."""

    value: int
    exact: bool
    depth: int
    best_moves: tuple[str, ...]
    pv: tuple[str, ...]
    final_score: tuple[int, int]
    moves: tuple[MoveValue, ...] = ()


@dataclass(frozen=True)
class SolverCreated:
    """To the player who started a game against the solver: the secret token of their seat."""

    TYPE: ClassVar[str] = "solver_created"
    game: str
    token: str
    seat: int


@dataclass(frozen=True)
class SolverSeat:
    """A game against the solver: the solver's seat and level, and the deal's par (the final margin
    of the player who moves first under perfect play) when the deal is catalogued. Sent after the
    ``state`` of such a game to each connection that picks it."""

    TYPE: ClassVar[str] = "solver"
    game: str
    seat: int
    level: str
    par: int | None = None


@dataclass(frozen=True)
class SolverQueue:
    """Where the connection's solver work stands: ``place`` 0 while the solver thinks, 1, 2... while
    it waits in the queue, None once it has ended (answered, or dropped); ``wait``: the seconds
    until the address's solver time pays for it (the solver's move in a game whose player's
    address has spent its time: it waits instead of being refused), else None; ``ahead``: while it
    waits in the queue, roughly the seconds of solver work ahead of it (whole seconds, at least 1),
    else None."""

    TYPE: ClassVar[str] = "solver_queue"
    what: WorkKind
    place: int | None
    wait: float | None = None
    ahead: int | None = None


@dataclass(frozen=True)
class SolverRefused:
    """Solver work not done, and why; ``retry_after``: the seconds after which the same request
    would be taken (``budget``, ``busy``, ``unavailable``), else None."""

    TYPE: ClassVar[str] = "solver_refused"
    what: WorkKind
    code: RefusalCode
    retry_after: float | None = None


@dataclass(frozen=True)
class HintResult:
    """The hint in ``game`` before move ``ply`` + 1: its best moves, evaluation and best line."""

    TYPE: ClassVar[str] = "hint_result"
    game: str
    ply: int
    evaluation: Evaluation


@dataclass(frozen=True)
class AnalysisResult:
    """A step of the analysis ``id``: every legal move's value at the step's depth; ``final`` for the
    last step (exact, or the deepest the limits allowed)."""

    TYPE: ClassVar[str] = "analysis_result"
    id: str
    final: bool
    evaluation: Evaluation


@dataclass(frozen=True)
class ReviewResult:
    """A review's news: queued (``place`` in the queue, and while it waits there ``ahead``, roughly
    the seconds of other players' solver work before it), done (``report``: ``review --json``'s
    object) or failed."""

    TYPE: ClassVar[str] = "review_result"
    review: str
    game: str
    status: ReviewStatus
    place: int | None = None
    report: dict[str, Any] | None = None
    ahead: int | None = None


@dataclass(frozen=True)
class ParResult:
    """A game's par news (``ParStatus``): ``value`` the final margin of the player who moves first
    under perfect play (the scores of a game from a later position counted) and ``best_moves`` the
    best first moves once known; while the server's solver
    works it out, ``place`` in its queue (0: searching; None: another process of the server works on
    it) and ``at_least``, the least the par can be once the search has proved a first move's value
    (None before); when refused, ``why`` (``ParRefusal``) and ``retry_after``, the seconds until it
    would be taken."""

    TYPE: ClassVar[str] = "par_result"
    game: str
    status: ParStatus
    value: int | None = None
    best_moves: tuple[str, ...] = ()
    place: int | None = None
    why: ParRefusal | None = None
    retry_after: float | None = None
    at_least: int | None = None


SolverNews = (
    SolverCreated | SolverSeat | SolverQueue | SolverRefused | HintResult | AnalysisResult | ReviewResult | ParResult
)
