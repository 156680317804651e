"""What a game review found, move by move and per player, and its JSON: the figures
``battle.players.review.review_game`` computes and every front end shows.

Terms
-----
value of a position
    Points the player to move will still take minus the opponent's, under
    perfect play from here on (``Analysis.value``).
value of a move
    Its points minus the value of the position it leaves (``MoveValue.value``).
loss
    Best move's value minus the played move's value: the points of final
    margin the move gave away against perfect play. Always >= 0.
projected margin (the evaluation graph)
    Player 1's score minus player 2's, plus the value of the position from
    player 1's side: the final margin for player 1 if both play perfectly from
    there on. ``eval_before`` of a move is the margin before it, ``eval_after``
    the margin after it; a move by player 1 lowers it by exactly its loss, a
    move by player 2 raises it by exactly its loss (when both are exact).

Classes (by exact point loss)
-----------------------------
==========  ========
class       loss
==========  ========
best        0
good        1 - 2
inaccuracy  3 - 5
mistake     6 - 9
blunder     10 or more
==========  ========

Per player summary: ``moves``, ``points_lost`` (sum of losses),
``average_loss`` = points_lost / moves, ``accuracy`` = 100 * (moves classed
best) / moves, in percent (None when the player made no move), the count of
moves in each class, and ``inexact_moves`` (moves whose loss is only an
estimate because the budget ran out first).

Turning points are the moves after which the projected winner changed (the
sign of the projected margin differs before and after: a lead lost, a draw
reached or left) and the moves with a loss of at least the mistake threshold.

Exactness: within its budget of nodes a large position may not be solved. The
engine then answers from its deepest completed iteration; such values are
estimates, and every figure built on them is marked ``exact: false``. They are
still used (an estimated loss is more useful than none).

JSON (``Review.to_json``; stable keys, ``Review.from_json`` reads it back)
---------------------------------------------------------------------------
``format`` ("mahjong-battle-review"), ``version`` (1), ``players`` ([name 1,
name 2]), ``deal`` (number or null for a composed layout), ``start``
({``to_move``, ``score``}), ``time_per_move`` (seconds or null), ``nodes_per_move`` (each search's
budget: those seconds at ``REVIEW_NODES_PER_SECOND``, or null), ``moves_in_record``,
``complete`` (false when the review was stopped early), ``classes`` ({class:
minimum loss}), ``eval_start``, ``eval_start_exact``, ``eval`` ([eval_start,
eval_after of each reviewed move]), ``final`` ({``score``, ``over``, ``value``
for the player to move after the last reviewed move, ``exact``}), ``moves``
(one object per reviewed move: ``number`` (1-based), ``player``, ``move``,
``points``, ``value``, ``bound`` ("exact", "estimate", "upper"),
``best_value``, ``best_moves``, ``loss``, ``class``, ``exact``, ``depth`` (127
= proved), ``eval_before``, ``eval_after``, ``eval_after_exact``, ``nodes``,
``seconds``), ``summary`` (two objects, player 1 then 2: ``player``, ``name``,
``moves``, ``points_lost``, ``average_loss``, ``accuracy``, ``counts``,
``inexact_moves``) and ``turning_points`` (``number``, ``player``, ``move``,
``loss``, ``class``, ``best_moves``, ``best_value``, ``eval_before``,
``eval_after``, ``reasons`` from "lead_change", "mistake", "blunder").

Plain data and its JSON: no search, no pygame, no files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from battle.rules.game import Result, result_of
from solver.results import Bound

# -- the JSON form (``review --json``, ``Review.to_json``) ----------------------------------

MoveReviewJSON = TypedDict(
    "MoveReviewJSON",
    {
        "number": int,
        "player": int,
        "move": str,
        "points": int,
        "value": int,
        "bound": Bound,
        "best_value": int,
        "best_moves": list[str],
        "loss": int,
        "class": str,
        "exact": bool,
        "depth": int,
        "eval_before": int,
        "eval_after": int,
        "eval_after_exact": bool,
        "nodes": int,
        "seconds": float,
    },
)
"""One reviewed move (``MoveReview.to_json``); ``class`` is a Python keyword, hence this form."""


class PlayerSummaryJSON(TypedDict):
    """One player's figures (``PlayerSummary.to_json``)."""

    player: int
    name: str
    moves: int
    points_lost: int
    average_loss: float | None
    accuracy: float | None
    counts: dict[str, int]
    inexact_moves: int


TurningPointJSON = TypedDict(
    "TurningPointJSON",
    {
        "number": int,
        "player": int,
        "move": str,
        "loss": int,
        "class": str,
        "best_moves": list[str],
        "best_value": int,
        "eval_before": int,
        "eval_after": int,
        "reasons": list[str],
    },
)
"""A turning point (``TurningPoint.to_json``)."""


class ReviewStartJSON(TypedDict):
    to_move: int
    score: list[int]


class ReviewFinalJSON(TypedDict):
    score: list[int]
    over: bool
    value: int
    """For the player to move after the last reviewed move."""
    exact: bool


class ReviewJSON(TypedDict):
    """``mahjong-battle review --json``, ``Review.to_json()``."""

    format: str
    version: int
    players: list[str]
    deal: int | None
    start: ReviewStartJSON
    time_per_move: float | None
    nodes_per_move: int | None
    moves_in_record: int
    complete: bool
    classes: dict[str, int]
    eval_start: int
    eval_start_exact: bool
    eval: list[int]
    final: ReviewFinalJSON
    moves: list[MoveReviewJSON]
    summary: list[PlayerSummaryJSON]
    turning_points: list[TurningPointJSON]


FORMAT = "mahjong-battle-review"
VERSION = 1

CLASSES: tuple[tuple[str, int], ...] = (
    ("best", 0),
    ("good", 1),
    ("inaccuracy", 3),
    ("mistake", 6),
    ("blunder", 10),
)
"""Each class with the smallest loss it covers; a loss takes the last class it reaches."""
CLASS_NAMES: tuple[str, ...] = tuple(name for name, _ in CLASSES)
MISTAKE_LOSS = dict(CLASSES)["mistake"]
"""Moves losing at least this much are turning points whatever the graph does."""


def classify(loss: int) -> str:
    """The class of a point loss (see the table in the module docstring)."""
    name = CLASS_NAMES[0]
    for candidate, minimum in CLASSES:
        if loss >= minimum:
            name = candidate
    return name


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def for_player1(value: int, to_move: int) -> int:
    """A value from the mover's side, turned to player 1's side."""
    return value if to_move == 1 else -value


# -- results -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveReview:
    """One played move against perfect play."""

    number: int
    """Move number, from 1."""
    player: int
    """Who made the move, 1 or 2."""
    move: str
    points: int
    value: int
    """The played move's value for the mover (its points minus the value it left)."""
    bound: Bound
    """How sure ``value`` is: ``"exact"``, ``"estimate"`` (time ran out) or ``"upper"``."""
    best_value: int
    best_moves: tuple[str, ...]
    """Every move worth ``best_value`` (all of them when exact)."""
    loss: int
    classification: str
    exact: bool
    """Whether ``loss`` is proved (the whole analysis and the played move's value are exact)."""
    depth: int
    """Depth of the analysis in moves; ``FULL_DEPTH`` (127) when proved."""
    eval_before: int
    """Projected final margin for player 1 before the move."""
    eval_after: int
    """Projected final margin for player 1 after the move."""
    eval_after_exact: bool
    nodes: int = 0
    seconds: float = 0.0

    @property
    def ply(self) -> int:
        """Moves played before this one (0 for the first)."""
        return self.number - 1

    def to_json(self) -> MoveReviewJSON:
        return {
            "number": self.number,
            "player": self.player,
            "move": self.move,
            "points": self.points,
            "value": self.value,
            "bound": self.bound,
            "best_value": self.best_value,
            "best_moves": list(self.best_moves),
            "loss": self.loss,
            "class": self.classification,
            "exact": self.exact,
            "depth": self.depth,
            "eval_before": self.eval_before,
            "eval_after": self.eval_after,
            "eval_after_exact": self.eval_after_exact,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }

    @classmethod
    def from_json(cls, data: dict) -> MoveReview:
        return cls(
            number=data["number"],
            player=data["player"],
            move=data["move"],
            points=data["points"],
            value=data["value"],
            bound=data["bound"],
            best_value=data["best_value"],
            best_moves=tuple(data["best_moves"]),
            loss=data["loss"],
            classification=data["class"],
            exact=data["exact"],
            depth=data["depth"],
            eval_before=data["eval_before"],
            eval_after=data["eval_after"],
            eval_after_exact=data["eval_after_exact"],
            nodes=data.get("nodes", 0),
            seconds=data.get("seconds", 0.0),
        )


@dataclass(frozen=True)
class PlayerSummary:
    """One player's figures over the reviewed moves."""

    player: int
    name: str
    moves: int
    points_lost: int
    counts: dict[str, int]
    """Moves in each class, every class present (0 when none)."""
    inexact_moves: int

    @property
    def accuracy(self) -> float | None:
        """Percentage of the player's moves that were best; None without moves."""
        return 100.0 * self.counts["best"] / self.moves if self.moves else None

    @property
    def average_loss(self) -> float | None:
        return self.points_lost / self.moves if self.moves else None

    def to_json(self) -> PlayerSummaryJSON:
        return {
            "player": self.player,
            "name": self.name,
            "moves": self.moves,
            "points_lost": self.points_lost,
            "average_loss": None if self.average_loss is None else round(self.average_loss, 2),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "counts": dict(self.counts),
            "inexact_moves": self.inexact_moves,
        }


@dataclass(frozen=True)
class TurningPoint:
    """A move that changed the projected winner or lost at least a mistake's worth."""

    number: int
    player: int
    move: str
    loss: int
    classification: str
    best_moves: tuple[str, ...]
    best_value: int
    eval_before: int
    eval_after: int
    reasons: tuple[str, ...]
    """``"lead_change"`` and/or the class (``"mistake"``, ``"blunder"``)."""

    def to_json(self) -> TurningPointJSON:
        return {
            "number": self.number,
            "player": self.player,
            "move": self.move,
            "loss": self.loss,
            "class": self.classification,
            "best_moves": list(self.best_moves),
            "best_value": self.best_value,
            "eval_before": self.eval_before,
            "eval_after": self.eval_after,
            "reasons": list(self.reasons),
        }


@dataclass(frozen=True)
class ReviewStep:
    """Progress report: one search of the review has finished."""

    number: int
    """The move just reviewed (1-based), or ``total + 1`` for the final position."""
    total: int
    """Moves in the record."""
    player: int
    move: str | None
    """The move reviewed; None for the search of the final position."""
    loss: int | None
    classification: str | None
    exact: bool
    depth: int
    seconds: float


@dataclass
class Review:
    """A reviewed game: the graded moves, the evaluation graph, summary and turning points."""

    names: tuple[str, str]
    deal: int | None
    start_to_move: int
    start_scores: tuple[int, int]
    time_per_move: float | None
    moves_in_record: int
    eval_start: int
    """Projected final margin for player 1 before the first move."""
    eval_start_exact: bool
    moves: list[MoveReview] = field(default_factory=list)
    final_scores: tuple[int, int] = (0, 0)
    """Scores after the last reviewed move."""
    final_over: bool = False
    """Whether the game is over after the last reviewed move."""
    final_value: int = 0
    """Value of the position after the last reviewed move, for the player to move there."""
    final_exact: bool = True
    nodes_per_move: int | None = None
    """Each search's budget in nodes (``time_per_move`` converted; None: no limit)."""

    # -- derived figures ---------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        """False when the review was stopped before the last move."""
        return len(self.moves) == self.moves_in_record

    @property
    def evals(self) -> list[int]:
        """The evaluation graph: the start's projected margin, then the margin after each move."""
        return [self.eval_start] + [move.eval_after for move in self.moves]

    @property
    def evals_exact(self) -> list[bool]:
        return [self.eval_start_exact] + [move.eval_after_exact for move in self.moves]

    @property
    def result(self) -> Result | None:
        """The final result when the reviewed moves end the game."""
        return result_of(self.final_scores) if self.final_over else None

    @property
    def exact(self) -> bool:
        """Whether every figure of the review is proved."""
        return self.eval_start_exact and all(move.exact and move.eval_after_exact for move in self.moves)

    def summary(self) -> tuple[PlayerSummary, PlayerSummary]:
        """Both players' figures, player 1 first."""
        return (self._summary_of(1), self._summary_of(2))

    def _summary_of(self, player: int) -> PlayerSummary:
        mine = [move for move in self.moves if move.player == player]
        counts = dict.fromkeys(CLASS_NAMES, 0)
        for move in mine:
            counts[move.classification] += 1
        return PlayerSummary(
            player=player,
            name=self.names[player - 1],
            moves=len(mine),
            points_lost=sum(move.loss for move in mine),
            counts=counts,
            inexact_moves=sum(not move.exact for move in mine),
        )

    def turning_points(self) -> list[TurningPoint]:
        """Moves that changed the projected winner, and every mistake or blunder, in order."""
        points = []
        for move in self.moves:
            reasons = []
            if _sign(move.eval_before) != _sign(move.eval_after):
                reasons.append("lead_change")
            if move.loss >= MISTAKE_LOSS:
                reasons.append(move.classification)
            if reasons:
                points.append(
                    TurningPoint(
                        number=move.number,
                        player=move.player,
                        move=move.move,
                        loss=move.loss,
                        classification=move.classification,
                        best_moves=move.best_moves,
                        best_value=move.best_value,
                        eval_before=move.eval_before,
                        eval_after=move.eval_after,
                        reasons=tuple(reasons),
                    )
                )
        return points

    # -- JSON --------------------------------------------------------------------------------

    def to_json(self) -> ReviewJSON:
        """Everything as plain JSON types, under the keys listed in the module docstring."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "players": list(self.names),
            "deal": self.deal,
            "start": {"to_move": self.start_to_move, "score": list(self.start_scores)},
            "time_per_move": self.time_per_move,
            "nodes_per_move": self.nodes_per_move,
            "moves_in_record": self.moves_in_record,
            "complete": self.complete,
            "classes": dict(CLASSES),
            "eval_start": self.eval_start,
            "eval_start_exact": self.eval_start_exact,
            "eval": self.evals,
            "final": {
                "score": list(self.final_scores),
                "over": self.final_over,
                "value": self.final_value,
                "exact": self.final_exact,
            },
            "moves": [move.to_json() for move in self.moves],
            "summary": [summary.to_json() for summary in self.summary()],
            "turning_points": [point.to_json() for point in self.turning_points()],
        }

    @classmethod
    def from_json(cls, data: dict) -> Review:
        """Read back ``to_json`` output (the derived keys are recomputed, not read)."""
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise ValueError(
                f"not a version {VERSION} game review: format {data.get('format')!r}, version {data.get('version')!r}"
            )
        final = data["final"]
        return cls(
            names=(data["players"][0], data["players"][1]),
            deal=data["deal"],
            start_to_move=data["start"]["to_move"],
            start_scores=(data["start"]["score"][0], data["start"]["score"][1]),
            time_per_move=data["time_per_move"],
            moves_in_record=data["moves_in_record"],
            eval_start=data["eval_start"],
            eval_start_exact=data["eval_start_exact"],
            moves=[MoveReview.from_json(move) for move in data["moves"]],
            final_scores=(final["score"][0], final["score"][1]),
            final_over=final["over"],
            final_value=final["value"],
            final_exact=final["exact"],
            nodes_per_move=data.get("nodes_per_move"),
        )
