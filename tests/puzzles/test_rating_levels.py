"""The levels' fixed ratings and a player's rating against them."""

from __future__ import annotations

import pytest

from battle.history.store import GameEntry
from battle.ratings.level_ratings import LEVEL_NAMES, LEVEL_RATINGS, elo_lead, nearest_level
from battle.ratings.solver_rating import score_for, solver_rating


def entry(when: float, level: str, you: int, scores: tuple[int, int]) -> GameEntry:
    levels: tuple[str | None, str | None] = (None, level) if you == 1 else (level, None)
    return GameEntry(when, "terminal", ("You", f"Solver ({level})"), levels, you, 5, "", scores)


def test_the_level_names_are_the_solvers() -> None:
    from battle.players import LEVELS

    assert tuple(LEVELS) == LEVEL_NAMES


def test_the_ratings_follow_the_calibration_matches() -> None:
    assert LEVEL_RATINGS == {
        "beginner": 1000,
        "casual": 1645,
        "club": 1993,
        "expert": 2513,
        "master": 2615,
        "perfect": 2717,
    }
    assert elo_lead(10, 0, 10) == 0
    assert elo_lead(20, 0, 0) == pytest.approx(400 * 1.6127838567, abs=1e-6)  # 20.5 of 21: odds 41
    ratings = [LEVEL_RATINGS[name] for name in LEVEL_NAMES]
    assert ratings == sorted(ratings)


def test_nearest_level() -> None:
    assert nearest_level(0) == "beginner"
    assert nearest_level(1900) == "club"
    assert nearest_level(1700) == "casual"
    assert nearest_level(5000) == "perfect"


def test_wins_against_club_and_losses_against_expert_put_a_player_between_them() -> None:
    games = [entry(float(day), "club", 1 + day % 2, (150, 120) if day % 2 == 0 else (120, 150)) for day in range(8)]
    games += [entry(100.0 + day, "expert", 1, (120, 150)) for day in range(8)]
    rating = solver_rating(games)
    assert rating.games == 16
    assert LEVEL_RATINGS["club"] < rating.current.rating < LEVEL_RATINGS["expert"]
    assert rating.current.deviation < 150
    assert rating.plays_like() in ("club", "expert")
    # the rating after each game, in order: up against club, down against expert
    assert rating.history[7][1].rating > rating.history[-1][1].rating


def test_only_your_games_against_a_level_count() -> None:
    assert score_for(entry(1.0, "club", 2, (100, 170))) == 1.0
    assert score_for(entry(1.0, "club", 1, (135, 135))) == 0.5
    people = GameEntry(1.0, "online", ("You", "Ben"), (None, None), 1, 5, "", (140, 130))
    two_levels = GameEntry(1.0, "window", ("A", "B"), ("club", "expert"), None, 5, "", (140, 130))
    assert score_for(people) is None and score_for(two_levels) is None
    assert solver_rating([people, two_levels]).games == 0
    assert solver_rating([]).plays_like() is None


def test_a_puzzles_difficulty_and_starting_rating_come_from_the_levels_find_rates() -> None:
    from battle.puzzles.difficulty import difficulty, puzzle_rating

    everyone = dict.fromkeys(LEVEL_NAMES, 1.0)
    only_perfect = {**dict.fromkeys(LEVEL_NAMES, 0.0), "perfect": 1.0}
    from_club = {"beginner": 0.0, "casual": 0.3, "club": 0.8, "expert": 1.0, "master": 1.0, "perfect": 1.0}
    assert (difficulty(everyone), difficulty(only_perfect), difficulty(from_club)) == (1, 6, 3)
    assert puzzle_rating(everyone) < LEVEL_RATINGS["beginner"]
    assert puzzle_rating(only_perfect) > LEVEL_RATINGS["master"]
    # between the level that finds it 30% of the time and the one that finds it 80%
    assert LEVEL_RATINGS["casual"] < puzzle_rating(from_club) < LEVEL_RATINGS["club"]
