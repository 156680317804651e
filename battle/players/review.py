"""Game review: every move of a record graded against perfect play, as a ``Review``.

``solver.review.search_game`` searches every position of the game (one engine for the
whole game, its table carrying over); this module grades each played move against those
searches and builds the report (``battle.players.review_report``: its terms, classes and
JSON).

The budget: a review is asked for seconds a move, and each search gets
``REVIEW_NODES_PER_SECOND`` nodes for each of them, on one search thread, however long that takes on
a busy machine. A budget in seconds graded the same game differently with the load (move 2:
"~-2", then "?! ~-3"; accuracy 67%, then 63%); one in nodes gives a repeat the same grades.

Exactness: within its budget a large position may not be solved. The
engine then answers from its deepest completed iteration; such values are
estimates, and every figure built on them is marked ``exact: false``. They are
still used (an estimated loss is more useful than none).

A known start (``known_start``): the front ends pass a catalogued deal's par, its
exact value before move 1 and its complete set of best first moves, which no
time-limited search reaches on a full board (deal 1 takes 290 s to prove). The
first move's best value and projected margin are then exact; a first move among
the best moves is exact with a loss of 0 (and the margin after it is the margin
before it), and any other first move loses at least 1 point, its value still
an estimate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from battle.players.review_report import MoveReview, Review, ReviewStep, classify, for_player1
from battle.rules.board import Move, move_name
from battle.rules.game import Game, KnownStart
from battle.rules.notation import Record
from battle.search_times import REVIEW_NODES_PER_SECOND
from solver.engine import Engine
from solver.limits import FULL_DEPTH
from solver.results import Analysis, Bound
from solver.review import GameSearch, SearchedMove, search_game

DEFAULT_TIME_PER_MOVE = 2.0


def review_nodes(seconds: float | None) -> int | None:
    """The node budget of a search given ``seconds`` (None: no limit; at least 1,000 nodes)."""
    return None if seconds is None else max(1_000, round(seconds * REVIEW_NODES_PER_SECOND))


ProgressCallback = Callable[[ReviewStep], None]


"""The start's exact value for the player to move there and every move that keeps it (an empty
tuple when the best moves are not known)."""


@dataclass(frozen=True)
class _Grade:
    """What a search, and a known value if there is one, say of one position and its played move."""

    best_value: int
    best_value_exact: bool
    best_moves: tuple[Move, ...]
    value: int
    """The played move's value for the mover."""
    bound: Bound
    depth: int
    loss: int

    @property
    def exact(self) -> bool:
        return self.best_value_exact and self.bound == "exact"


def _graded(entry: SearchedMove, known: KnownStart | None = None) -> _Grade:
    """The search's figures for a played move, with a known exact value of its position in place of the
    search's estimate (a proved search needs none)."""
    analysis = entry.analysis
    value, bound, depth = _played_value(analysis, entry.move, entry.points)
    if known is None or analysis.exact:
        return _Grade(
            analysis.value,
            analysis.exact,
            tuple(analysis.best_moves),
            value,
            bound,
            depth,
            max(0, analysis.value - value),
        )
    known_value, known_best = known
    best_moves = known_best or tuple(analysis.best_moves)
    if entry.move in known_best:
        return _Grade(known_value, True, best_moves, known_value, "exact", FULL_DEPTH, 0)
    # the known best moves are all of them: any other move gives away at least a point
    floor = 1 if known_best else 0
    return _Grade(known_value, True, best_moves, value, bound, depth, max(floor, known_value - value))


def _played_value(analysis: Analysis, move: Move, points: int) -> tuple[int, Bound, int]:
    """The played move's value, bound and depth as the analysis knows them.

    A search stopped before its first iteration knows only one fallback move;
    any other move then gets its points as a crude estimate (as if it left a
    position worth nothing), which is what the engine's own fallback assumes.
    """
    for move_value in analysis.move_values:
        if move_value.move == move:
            bound = (
                move_value.bound
                if analysis.exact
                else ("estimate" if move_value.bound == "exact" else move_value.bound)
            )
            return move_value.value, bound, move_value.depth
    return points, "estimate", 0


def review_game(
    game_or_record: Game | Record,
    *,
    time_per_move: float | None = DEFAULT_TIME_PER_MOVE,
    engine: Engine | None = None,
    progress: ProgressCallback | None = None,
    should_stop: Callable[[], bool] | None = None,
    known_start: KnownStart | None = None,
) -> Review:
    """Grade every move of a game against perfect play.

    ``time_per_move`` limits each position's search to ``review_nodes(time_per_move)`` nodes
    (None: no limit, always exact, possibly slow on a full board); ``engine`` must search on one
    thread for a repeat to give the same grades. ``progress`` is called after every
    search with a ``ReviewStep``. ``should_stop`` is polled between searches: once
    it returns True the review ends early (``Review.complete`` is then False);
    to cut the running search short as well, also call ``engine.stop()``. A
    search cut short that way is dropped, not graded on a partial result.

    ``known_start`` is the start position's exact value and best moves when the
    caller knows them (a catalogued deal's par; see the module docstring). The
    first position is still searched: the table it fills serves move 2's search.
    """
    engine = engine if engine is not None else Engine()
    stopped = should_stop if should_stop is not None else (lambda: False)

    def moved(found: GameSearch) -> None:
        if progress is not None:
            number = len(found.searched)
            progress(_step(found.searched[-1], number, found.total, known_start if number == 1 else None))

    def closed(found: GameSearch) -> None:
        if progress is not None and found.final is not None:
            analysis = found.final
            progress(
                ReviewStep(
                    found.total + 1,
                    found.total,
                    found.position.to_move,
                    None,
                    None,
                    None,
                    analysis.exact,
                    analysis.depth,
                    analysis.seconds,
                )
            )

    found = search_game(
        game_or_record,
        nodes_per_move=review_nodes(time_per_move),
        engine=engine,
        on_move=moved,
        on_final=closed,
        should_stop=stopped,
    )
    return review_of(found, time_per_move=time_per_move, known_start=known_start)


def review_of(found: GameSearch, *, time_per_move: float | None, known_start: KnownStart | None = None) -> Review:
    """The review of a game's searches (``search_game``, or a solver pool's searches made in slices):
    every searched move graded, the game's graph closed by the final position's value."""
    start, position, searched, total = found.start, found.position, found.searched, found.total
    names, deal_number = found.names, found.deal
    grades = [_graded(entry, known_start if index == 0 else None) for index, entry in enumerate(searched)]
    # a first move graded exactly against a known start fixes the value it leaves: its points less its value
    after_first: int | None = None
    if searched and grades[0].exact and known_start is not None:
        after_first = searched[0].points - grades[0].value

    # The value of the position after the last reviewed move closes the graph.
    final_value, final_exact = 0, True
    final_searched = found.final is not None
    if not position.is_over():
        if found.final is not None:
            final_value, final_exact = found.final.value, found.final.exact
        if not final_searched and searched:
            # Stopped: derive it from the last move's value (value = points - value after).
            last, grade = searched[-1], grades[-1]
            final_value, final_exact = last.points - grade.value, grade.bound == "exact"
        elif not final_searched:
            final_value, final_exact = 0, False
        if len(searched) == 1 and after_first is not None:
            final_value, final_exact = after_first, True

    review = Review(
        names=names,
        deal=deal_number,
        start_to_move=start.to_move,
        start_scores=(start.scores[0], start.scores[1]),
        time_per_move=time_per_move,
        nodes_per_move=found.nodes_per_move,
        moves_in_record=total,
        eval_start=0,
        eval_start_exact=True,
        final_scores=(position.scores[0], position.scores[1]),
        final_over=position.is_over(),
        final_value=final_value,
        final_exact=final_exact,
    )
    final_eval = (position.scores[0] - position.scores[1]) + for_player1(final_value, position.to_move)
    values_before = [(grade.best_value, grade.best_value_exact) for grade in grades]
    if after_first is not None and len(searched) > 1:
        values_before[1] = (after_first, True)
    befores = [
        (entry.scores[0] - entry.scores[1]) + for_player1(value, entry.to_move)
        for entry, (value, _) in zip(searched, values_before, strict=True)
    ]
    befores_exact = [exact for _, exact in values_before]
    afters = befores[1:] + [final_eval]
    afters_exact = befores_exact[1:] + [final_exact]
    if searched:
        review.eval_start, review.eval_start_exact = befores[0], befores_exact[0]
    elif known_start is not None:
        review.eval_start = (start.scores[0] - start.scores[1]) + for_player1(known_start[0], start.to_move)
        review.eval_start_exact = True
    else:
        review.eval_start, review.eval_start_exact = final_eval, final_exact
    for index, entry in enumerate(searched):
        review.moves.append(_grade(entry, grades[index], index + 1, befores[index], afters[index], afters_exact[index]))
    return review


def _grade(
    entry: SearchedMove, grade: _Grade, number: int, eval_before: int, eval_after: int, eval_after_exact: bool
) -> MoveReview:
    analysis = entry.analysis
    return MoveReview(
        number=number,
        player=entry.to_move,
        move=move_name(entry.move),
        points=entry.points,
        value=grade.value,
        bound=grade.bound,
        best_value=grade.best_value,
        best_moves=tuple(move_name(move) for move in grade.best_moves),
        loss=grade.loss,
        classification=classify(grade.loss),
        exact=grade.exact,
        depth=FULL_DEPTH if grade.exact else (analysis.depth if grade.depth else 0),
        eval_before=eval_before,
        eval_after=eval_after,
        eval_after_exact=eval_after_exact,
        nodes=analysis.nodes,
        seconds=analysis.seconds,
    )


def _step(entry: SearchedMove, number: int, total: int, known: KnownStart | None = None) -> ReviewStep:
    analysis = entry.analysis
    grade = _graded(entry, known)
    return ReviewStep(
        number=number,
        total=total,
        player=entry.to_move,
        move=move_name(entry.move),
        loss=grade.loss,
        classification=classify(grade.loss),
        exact=grade.exact,
        depth=FULL_DEPTH if grade.exact else analysis.depth,
        seconds=analysis.seconds,
    )
