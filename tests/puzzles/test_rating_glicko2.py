"""Glicko-2 against Glickman's worked example ("Example of the Glicko-2 system", 2012)."""

from __future__ import annotations

import pytest

from battle.ratings.glicko2 import DRAW, LOSS, WIN, OpponentScore, Rating, expected_score, rate, rate_game


def test_the_papers_worked_example() -> None:
    player = Rating(1500, 200, 0.06)
    results = [
        OpponentScore(Rating(1400, 30), WIN),
        OpponentScore(Rating(1550, 100), LOSS),
        OpponentScore(Rating(1700, 300), LOSS),
    ]
    after = rate(player, results)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    # the paper prints the volatility cut after five decimals (0.0599960 here)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500
    assert after.volatility == 0.06
    assert after.deviation == pytest.approx((200**2 + (0.06 * 173.7178) ** 2) ** 0.5, abs=1e-6)


def test_a_game_moves_both_sides_the_right_way() -> None:
    player, puzzle = Rating(1500, 350), Rating(1800, 150)
    won_player, won_puzzle = rate_game(player, puzzle, WIN)
    lost_player, lost_puzzle = rate_game(player, puzzle, LOSS)
    assert won_player.rating > 1500 > lost_player.rating
    assert won_puzzle.rating < 1800 < lost_puzzle.rating
    # the uncertain side moves much more than the settled one
    assert won_player.rating - 1500 > 3 * (1800 - won_puzzle.rating)
    assert won_player.deviation < 350 and won_puzzle.deviation < 150


def test_a_draw_between_equals_changes_no_rating_and_expectations_are_symmetric() -> None:
    equal = Rating(1600, 100)
    after, other = rate_game(equal, equal, DRAW)
    assert after.rating == pytest.approx(1600, abs=1e-9) and other.rating == pytest.approx(1600, abs=1e-9)
    stronger, weaker = Rating(1900, 50), Rating(1500, 50)
    assert expected_score(stronger, weaker) > 0.85
    assert expected_score(stronger, weaker) + expected_score(weaker, stronger) == pytest.approx(1.0, abs=1e-9)


def test_describe_gives_the_rating_and_its_95_percent_margin() -> None:
    assert Rating(1523.4, 60.2).describe() == "1523 ± 120"
    assert Rating(1500, 100).interval() == (1300, 1700)
