"""Game review's searches: every position of a game searched for every move's value.

For each position before a move the engine analyses every legal move
(``all_exact=True``). The search shares ONE engine across the whole game because
every position of a game comes from the same layout, so the transposition table
built for move 1 keeps paying off for moves 2, 3, ... (the later searches are often
nearly free). Then the position after the last move is searched, to close the game.

Grading the moves (losses, classes, the report) is the caller's: ``battle.players.review``
builds the report from what ``search_game`` returns. Exactness: within its budget of nodes a
large position may not be solved; the engine then answers from its deepest completed
iteration, and the report marks what is built on such values. The budget is counted in
nodes, not seconds, so that the same game on the same engine gets the same values however
busy the machine is (on one search thread: helpers would make the count depend on timing).

Pure Python on top of ``solver.engine``: no pygame, no files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from battle.rules.board import Move, Position
from battle.rules.game import Game
from battle.rules.notation import Record
from solver.engine import Engine
from solver.limits import Limits
from solver.results import Analysis


@dataclass(frozen=True)
class SearchedMove:
    """One position before a move, with its analysis."""

    to_move: int
    scores: tuple[int, int]
    move: Move
    points: int
    """What the move took."""
    analysis: Analysis


@dataclass
class GameSearch:
    """What ``search_game`` found: the game's names and start, each searched move, and the
    position after the last one with its analysis (None when stopped or the game is over)."""

    start: Position
    names: tuple[str, str]
    deal: int | None
    total: int
    """Moves in the record."""
    nodes_per_move: int | None
    position: Position
    """The position after the last searched move."""
    searched: list[SearchedMove] = field(default_factory=list)
    final: Analysis | None = None


def _unpack(game_or_record: Game | Record) -> tuple[Position, list[Move], tuple[str, str], int | None]:
    if isinstance(game_or_record, Game):
        game = game_or_record
        return game.start.copy(), list(game.moves), game.names, game.deal_number
    if isinstance(game_or_record, Record):
        record = game_or_record
        return record.start.copy(), list(record.moves), (record.player1, record.player2), record.deal
    raise TypeError(f"expected a Game or a Record, not {type(game_or_record).__name__}")


def search_game(
    game_or_record: Game | Record,
    *,
    nodes_per_move: int | None,
    engine: Engine,
    on_move: Callable[[GameSearch], None] | None = None,
    on_final: Callable[[GameSearch], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> GameSearch:
    """Search every position of a game before its move, then the position after the last.

    ``nodes_per_move`` limits each search (None: no limit, always exact, possibly slow on a
    full board). ``on_move`` is called after each move's search, ``on_final`` after the
    last position's. ``should_stop`` is polled between searches: once it returns True the
    search ends early; to cut the running search short as well, also call ``engine.stop()``.
    A search cut short that way is dropped.
    """
    start, moves, names, deal_number = _unpack(game_or_record)
    stopped = should_stop if should_stop is not None else (lambda: False)
    position = start.copy()
    found = GameSearch(start, names, deal_number, len(moves), nodes_per_move, position)
    limits = Limits(nodes=nodes_per_move)
    for move in moves:
        if stopped():
            break
        analysis = engine.search(position.copy(), limits, all_exact=True)
        if stopped():
            break
        to_move, scores = position.to_move, (position.scores[0], position.scores[1])
        points = position.push(move)
        found.searched.append(SearchedMove(to_move, scores, move, points, analysis))
        if on_move is not None:
            on_move(found)
    if not position.is_over() and len(found.searched) == found.total and not stopped():
        analysis = engine.search(position.copy(), limits)
        if not stopped():
            found.final = analysis
            if on_final is not None:
                on_final(found)
    return found
