"""What a search tells its caller: each move's value (``MoveValue``), the result (``Analysis``,
in the notation's solver JSON), the progress after each iteration (``Progress``) and what a
running search is doing now (``SearchStatus``). Plain data, the same from every search."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypedDict

from battle.rules.board import Move, move_name

Bound = Literal["exact", "estimate", "upper"]
"""How sure a move's value is: ``"exact"``, ``"estimate"`` (a search a limit stopped:
the value at the depth it reached) or ``"upper"`` (at most the value: the move
cannot be best, and was searched only far enough to show it)."""


class SolveJSON(TypedDict):
    """``Analysis.to_json()``, the solver output of the notation contract (``docs/notation.md``),
    which ``mahjong-battle solve --json`` prints. Moves in notation, scores ``[player 1, player 2]``."""

    value: int
    best_moves: list[str]
    pv: list[str]
    final_score: list[int]
    exact: bool
    nodes: int
    seconds: float


@dataclass(frozen=True)
class MoveValue:
    """What the search knows of one legal move's value for the mover.

    The value of a move is the final margin it leads to for the mover, counted
    from now: its points, minus the value of the position it leaves.
    ``bound`` is ``"exact"``, ``"upper"`` (the value is at most ``value``),
    or ``"estimate"`` (a search a limit stopped).
    """

    move: Move
    value: int
    bound: Bound
    depth: int

    @property
    def exact(self) -> bool:
        return self.bound == "exact"

    @property
    def notation(self) -> str:
        return move_name(self.move)

    @property
    def marked_value(self) -> str:
        """The value with its bound's mark: ``+3``, ``~+3`` for an estimate, ``<=+3`` for an upper bound."""
        return {"exact": "", "upper": "<=", "estimate": "~"}[self.bound] + f"{self.value:+d}"

    def describe(self) -> str:
        """The value for a log line, in English: ``~+3 (depth 20)``; the front ends word it themselves."""
        return self.marked_value if self.exact else f"{self.marked_value} (depth {self.depth})"


@dataclass
class Analysis:
    """The result of a search, in the terms of the notation's solver JSON."""

    value: int
    """Points the mover will still take minus the opponent's, under perfect play."""
    best_moves: list[Move]
    """Every move that keeps the value (the full set when ``exact``)."""
    pv: list[Move]
    """The best line, as far as it is known."""
    move_values: list[MoveValue]
    """Each legal move with its value or bound, best first."""
    final_score: tuple[int, int]
    """Both players' final scores if the best line is played to the end."""
    exact: bool
    nodes: int
    seconds: float
    depth: int
    """Depth of the last completed iteration (``FULL_DEPTH`` for a proof)."""

    def to_json(self) -> SolveJSON:
        """The solver output of the notation contract (``docs/notation.md``)."""
        return {
            "value": self.value,
            "best_moves": [move_name(m) for m in self.best_moves],
            "pv": [move_name(m) for m in self.pv],
            "final_score": list(self.final_score),
            "exact": self.exact,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


@dataclass(frozen=True)
class Progress:
    """Reported after each completed iteration of a search."""

    depth: int
    value: int
    best_move: Move | None
    nodes: int
    seconds: float
    exact: bool


ProgressCallback = Callable[[Progress], None]


@dataclass(frozen=True)
class SearchStatus:
    """What a running search is doing now (``Engine.status``), for a caller that shows
    it while an iteration runs: an exact solve is one iteration, minutes long on a
    full board, and ``Progress`` comes only at the end of each."""

    nodes: int
    seconds: float
    depth: int
    """The iteration's depth (``FULL_DEPTH``: the exact search)."""
    move_number: int
    """Which root move the main search is on (1-based; 0 before the first)."""
    moves: int
    move: Move | None
    best_value: int | None
    """The best root move's value so far in this iteration (None until one is searched)."""
    best_move: Move | None
    loading: bool = False
    """The search has not started: the kernels are loading, or compiling (10-20 s, once
    after an install or an update), so a caller can say why nothing moves yet."""
    proved: int | None = None
    """The least the root's value can be, proved by this search so far: the best root move's
    value in an iteration deep enough to reach the game's end, once one root move is searched
    there (None before; a stopped search keeps it, though it answers from a shallower one)."""
