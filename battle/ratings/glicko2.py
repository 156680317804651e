"""Glicko-2 ratings, as Mark Glickman's "Example of the Glicko-2 system" (2012) defines them.

A rating is three numbers: the rating ``r`` (1500 for a newcomer), its deviation ``RD``
(350 for a newcomer: the rating is known to within about 2 RD, so a newcomer's lies
anywhere from 800 to 2200) and the volatility ``sigma`` (0.06: how erratic the player is).
A rating period's games move all three at once (``rate``); a period without games only
widens the deviation (``rate`` with no results).

Here a period is one game or one puzzle attempt, so both sides' ratings move after every
attempt; with one result a period the system's constant ``TAU`` is what limits how far
the volatility can move, and Glickman's advice of 0.3 to 1.2 keeps it near 0.06.

The steps follow the paper's numbering; the worked example of its section "Example"
(1500/200/0.06 against 1400/30 won, 1550/100 lost, 1700/300 lost: 1464.06, 151.52,
0.05999) is a test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""The factor between the Glicko scale and Glicko-2's internal one: 400 / ln(10)."""
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how much the volatility may change in a period (the paper's example uses 0.5)."""
CONVERGENCE = 0.000001
"""The paper's tolerance for the volatility's iteration (step 5)."""
MAX_ITERATIONS = 200
"""A bound on step 5's iteration, which the Illinois method finishes in well under 20 steps."""

WIN, DRAW, LOSS = 1.0, 0.5, 0.0

RATING_RANGE = (-1000.0, 5000.0)
"""The ratings the arithmetic takes, whatever a file says: at most 6,000 apart, the expected score
stays short of exactly 0 or 1 (at 20,000 apart it rounds to 0 and step 4 divides by zero; at
1e308 the scale's product overflows)."""
DEVIATION_RANGE = (1.0, 1000.0)
"""Deviations from 1 (above 0: step 7 divides by it) to 1,000 (three times a newcomer's)."""
VOLATILITY_RANGE = (0.000001, 10.0)
"""Volatilities above 0 (step 5 takes its logarithm) and at most 10 (166 times a newcomer's)."""


@dataclass(frozen=True)
class Rating:
    """One player's (or one puzzle's) rating on the Glicko scale."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    """The rating deviation RD: about two of them either side hold the true rating 95% of the time."""
    volatility: float = DEFAULT_VOLATILITY

    def interval(self) -> tuple[float, float]:
        """The 95% interval the paper quotes: the rating plus and minus two deviations."""
        return (self.rating - 2 * self.deviation, self.rating + 2 * self.deviation)

    def describe(self) -> str:
        """``1523 ± 121``: the rating and its 95% margin (two deviations), rounded."""
        return f"{self.rating:.0f} ± {2 * self.deviation:.0f}"


@dataclass(frozen=True)
class OpponentScore:
    """One game of a period: the opponent's rating before the period and the score (1, 0.5 or 0)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_opponent: float, phi_opponent: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_opponent) * (mu - mu_opponent)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent (step 3's E), counting the opponent's deviation."""
    return _expected(
        (player.rating - DEFAULT_RATING) / SCALE, (opponent.rating - DEFAULT_RATING) / SCALE, opponent.deviation / SCALE
    )


def rate(player: Rating, results: Sequence[OpponentScore], tau: float = TAU) -> Rating:
    """The player's rating after a rating period with these results (none: only the deviation grows)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE  # step 2
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:  # the paper's note after step 6: only the deviation moves
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    improvement_sum = 0.0
    information = 0.0
    for result in results:  # steps 3 and 4
        mu_j = (result.opponent.rating - DEFAULT_RATING) / SCALE
        g_j = _g(result.opponent.deviation / SCALE)
        expected = _expected(mu, mu_j, result.opponent.deviation / SCALE)
        information += g_j * g_j * expected * (1.0 - expected)
        improvement_sum += g_j * (result.score - expected)
    variance = 1.0 / information
    delta = variance * improvement_sum
    new_sigma = _new_volatility(phi, sigma, variance, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)  # step 6
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / variance)  # step 7
    new_mu = mu + new_phi * new_phi * improvement_sum
    return Rating(SCALE * new_mu + DEFAULT_RATING, SCALE * new_phi, new_sigma)  # step 8


def _new_volatility(phi: float, sigma: float, variance: float, delta: float, tau: float) -> float:
    """Step 5: the root of the paper's f(x) by the Illinois variant of regula falsi."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - variance - ex) / (2.0 * (phi * phi + variance + ex) ** 2) - (x - a) / (
            tau * tau
        )

    low = a
    if delta * delta > phi * phi + variance:
        high = math.log(delta * delta - phi * phi - variance)
    else:
        k = 1
        while f(a - k * tau) < 0 and k < MAX_ITERATIONS:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(MAX_ITERATIONS):
        if abs(high - low) <= CONVERGENCE:
            break
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = middle, f_middle
    return math.exp(low / 2.0)


def rate_game(player: Rating, opponent: Rating, score: float, tau: float = TAU) -> tuple[Rating, Rating]:
    """Both sides' ratings after one game between them, each a period of its own (a puzzle attempt:
    the player against the puzzle, score 1 when solved)."""
    return (
        rate(player, [OpponentScore(opponent, score)], tau),
        rate(opponent, [OpponentScore(player, 1.0 - score)], tau),
    )
