"""The table of the deal of the day: each result against par, best first, bounded.

A row is one person's seat in a game on the day's deal that went to the rules' end that day
(UTC): their score, their margin less their par (the par is the margin of the player who moves
first; the other's is its opposite, as the window's result card has it), whom they played (a
level, or ``friend``) and their name as given. A game ended early (a resignation, the clock) has
no margin to hold against par and is left out.

The table shows ``TOP_ROWS`` rows, best against par first (then the higher score, then the
earlier), and below them the viewer's own rows that did not make the top. One network fills at
most ``ROWS_PER_NETWORK`` of the top: a crowd on one address cannot push everyone else off.

Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

TOP_ROWS = 20
"""Rows of the day's table shown to everyone."""
ROWS_PER_NETWORK = 3
"""Rows one network may hold among the top (its further rows still show to their own device)."""
FRIEND = "friend"
"""The opponent of a game between two people, in a row."""


@dataclass(frozen=True)
class DayResult:
    """One person's seat in a finished game on the day's deal."""

    game: str
    seat: int
    name: str
    scores: tuple[int, int]
    """Player 1's score, player 2's."""
    first: int
    """The seat that moved first, whose margin the par is."""
    opponent: str
    """The solver's level, or ``FRIEND``."""
    finished_at: float
    network: str
    """The seat's network (``seat_networks``), for the bound on rows per network."""
    device: str | None = None
    """The device key the seat was filed under, if any."""

    @property
    def score(self) -> int:
        return self.scores[self.seat - 1]


@dataclass(frozen=True)
class DayRow:
    """A row of the table as the page shows it."""

    place: int
    """Its place in the top (1 the best against par); a row of the viewer's below the top: its place among all rows."""
    name: str
    score: int
    against_par: int
    """The seat's margin less its par: above 0 is better than par."""
    opponent: str
    yours: bool


def against_par(scores: tuple[int, int], par: int, first: int, seat: int) -> int:
    """``seat``'s final margin less its par (``par`` being the margin of seat ``first``)."""
    margin = scores[seat - 1] - scores[2 - seat]
    return margin - (par if seat == first else -par)


def day_table(results: Iterable[DayResult], par: int, device: str | None) -> tuple[DayRow, ...]:
    """The rows shown: the top ``TOP_ROWS`` (at most ``ROWS_PER_NETWORK`` a network), then the rows
    of ``device`` that are not among them."""
    ranked = sorted(
        results,
        key=lambda result: (
            -against_par(result.scores, par, result.first, result.seat),
            -result.score,
            result.finished_at,
            result.game,
            result.seat,
        ),
    )
    top: list[tuple[int, DayResult]] = []
    per_network: dict[str, int] = {}
    for place, result in enumerate(ranked, start=1):
        if len(top) == TOP_ROWS:
            break
        held = per_network.get(result.network, 0)
        if held < ROWS_PER_NETWORK:
            per_network[result.network] = held + 1
            top.append((place, result))
    shown = {id(result) for _, result in top}
    own = [
        (place, result)
        for place, result in enumerate(ranked, start=1)
        if device is not None and result.device == device and id(result) not in shown
    ]
    top_rows = [_row(index, result, par, device) for index, (_, result) in enumerate(top, start=1)]
    return (*top_rows, *(_row(place, result, par, device) for place, result in own))


def _row(place: int, result: DayResult, par: int, device: str | None) -> DayRow:
    return DayRow(
        place=place,
        name=result.name,
        score=result.score,
        against_par=against_par(result.scores, par, result.first, result.seat),
        opponent=result.opponent,
        yours=device is not None and result.device == device,
    )
