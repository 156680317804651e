"""A player's rating against the solver: Glicko-2 on the levels' scale.

Each stored game the player (``GameEntry.you``) finished against a level from a numbered
(or random) deal's start is one rating period with one result (1 win, 0.5 draw, 0 loss)
against that level's fixed rating (``battle.ratings.level_ratings``: beginner 1000 ...
perfect 2717), starting from a newcomer's 1500 with deviation 350. Games in date order, so the list of ratings after
each game is the rating over time. The level nearest the rating is the one the player
"plays like"; the deviation says how sure that is (two of them either side: 95%). A game from
a composed position (the editor, a review's "Retry from here") is kept but not rated: its
start may hand either side a won game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from battle.ratings.glicko2 import DRAW, LOSS, WIN, OpponentScore, Rating, rate
from battle.ratings.level_ratings import LEVEL_RATINGS, level_rating, nearest_level


class RatedGame(Protocol):
    """What the rating reads of a stored game (``battle.history.GameEntry`` is one)."""

    @property
    def finished_at(self) -> float: ...

    @property
    def you(self) -> int | None: ...

    @property
    def levels(self) -> tuple[str | None, str | None]: ...

    @property
    def id(self) -> int | None: ...

    @property
    def deal(self) -> int | None:
        """The numbered deal the game started from; None for a composed position."""
        ...

    def opponent_level(self) -> str | None: ...

    def margin_for(self, side: int) -> int: ...


@dataclass(frozen=True)
class SolverRating:
    """The rating after every rated game, oldest first."""

    history: tuple[tuple[float, Rating], ...]
    """(when the game finished, the rating after it)."""

    @property
    def games(self) -> int:
        return len(self.history)

    @property
    def current(self) -> Rating:
        return self.history[-1][1] if self.history else Rating()

    def plays_like(self) -> str | None:
        """The level whose rating is nearest, or None before the first rated game."""
        return nearest_level(self.current.rating) if self.history else None


def score_for(entry: RatedGame) -> float | None:
    """The player's score in a game against a level: 1, 0.5 or 0; None for a game that does not count."""
    if entry.you is None or entry.levels[entry.you - 1] is not None or entry.deal is None:
        return None
    if entry.opponent_level() not in LEVEL_RATINGS:
        return None
    margin = entry.margin_for(entry.you)
    return WIN if margin > 0 else DRAW if margin == 0 else LOSS


def solver_rating(entries: Iterable[RatedGame]) -> SolverRating:
    """The player's rating against the levels after each of the games that count, oldest first."""
    rating = Rating()
    history = []
    for entry in sorted(entries, key=lambda entry: (entry.finished_at, entry.id or 0)):
        score = score_for(entry)
        level = entry.opponent_level()
        if score is None or level is None:
            continue
        rating = rate(rating, [OpponentScore(level_rating(level), score)])
        history.append((entry.finished_at, rating))
    return SolverRating(tuple(history))
