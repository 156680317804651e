"""The table of the deal of the day: each result against par, best first, bounded, and only what
one network cannot make by itself.

A row is one person's seat in a game on the day's deal that went to the rules' end that day
(UTC): their score, their margin less their par (the par is the margin of the player who moves
first; the other's is its opposite, as the window's result card has it), whom they played (a
level, or ``friend``) and their name as given. A game ended early (a resignation, the clock) has
no margin to hold against par and is left out.

What counts (``counts``): a game against the solver, and a game between two people of two
different networks. A game whose two seats came from one network is left out: one address plays
both sides to any score it likes (7 addresses x 3 such games took places 1-20 in 6 s).

The table shows ``TOP_ROWS`` rows, best against par first (then the higher score, then the
earlier), one a network (``ROWS_PER_NETWORK``: a crowd on one address holds one place, its best),
and below them the viewer's own best row when it did not make the top. A name that two rows of
the top share is shown with a tag of each row's device (``DayRow.tag``), so nobody passes for a
listed player by taking their name. ``DayBoard`` keeps only what the table can show (each
network's best, each device's best), so results can be folded in as they are read, in any number.

Pure: no clock, no I/O.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

TOP_ROWS = 20
"""Rows of the day's table shown to everyone."""
ROWS_PER_NETWORK = 1
"""Rows one network may hold among the top: its best (the others still show to their own device)."""
TAG_LENGTH = 4
"""Hex digits of the tag that tells apart two rows of one name."""
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
    other_network: str = ""
    """The other seat's network in a game between two people ("" when unknown)."""

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
    tag: str | None = None
    """A short mark of the row's device (else its network) when another row of the top has its name."""


def against_par(scores: tuple[int, int], par: int, first: int, seat: int) -> int:
    """``seat``'s final margin less its par (``par`` being the margin of seat ``first``)."""
    margin = scores[seat - 1] - scores[2 - seat]
    return margin - (par if seat == first else -par)


def counts(result: DayResult) -> bool:
    """Whether ``result`` may enter the table: a game against the solver, or a game between two
    people whose seats came from two networks (both known)."""
    if result.opponent != FRIEND:
        return True
    return bool(result.network) and bool(result.other_network) and result.network != result.other_network


@dataclass
class DayBoard:
    """The results of one day's deal as far as the table needs them: the best of each network and of
    each device, whatever the number folded in (``add``)."""

    par: int
    by_network: dict[str, DayResult] = field(default_factory=dict)
    by_device: dict[str, DayResult] = field(default_factory=dict)

    def rank(self, result: DayResult) -> tuple[int, int, float, str, int]:
        """Sorts best first: against par, then score, then the earlier end."""
        return (
            -against_par(result.scores, self.par, result.first, result.seat),
            -result.score,
            result.finished_at,
            result.game,
            result.seat,
        )

    def add(self, result: DayResult) -> None:
        """Fold ``result`` in (one that does not ``count`` is left out)."""
        if not counts(result):
            return
        kept = self.by_network.get(result.network)
        if kept is None or self.rank(result) < self.rank(kept):
            self.by_network[result.network] = result
        if result.device is not None:
            mine = self.by_device.get(result.device)
            if mine is None or self.rank(result) < self.rank(mine):
                self.by_device[result.device] = result

    def table(self, device: str | None) -> tuple[DayRow, ...]:
        """The rows shown: the top ``TOP_ROWS``, one a network, then ``device``'s best when it is not
        among them, at its place among the networks' bests."""
        ranked = sorted(self.by_network.values(), key=self.rank)
        top = ranked[:TOP_ROWS]
        names = [folded(result.name) for result in top]
        rows = [
            _row(place, result, self.par, device, names.count(names[place - 1]) > 1)
            for place, result in enumerate(top, start=1)
        ]
        mine = self.by_device.get(device) if device is not None else None
        if mine is not None and all(mine is not result for result in top):
            place = 1 + sum(self.rank(result) < self.rank(mine) for result in ranked)
            rows.append(_row(place, mine, self.par, device, folded(mine.name) in names))
        return tuple(rows)


def day_board(results: Iterable[DayResult], par: int) -> DayBoard:
    """``results`` folded into one board."""
    board = DayBoard(par)
    for result in results:
        board.add(result)
    return board


def day_table(results: Iterable[DayResult], par: int, device: str | None) -> tuple[DayRow, ...]:
    """The rows shown of ``results`` (``DayBoard.table``)."""
    return day_board(results, par).table(device)


def folded(name: str) -> str:
    """``name`` as two names that read alike compare: compatibility forms, case and spaces folded."""
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


def tag_of(result: DayResult) -> str:
    """The row's short mark: of its device key, else its network's tag."""
    source = result.device if result.device is not None else f"network:{result.network}"
    return hashlib.sha256(source.encode("utf-8", "replace")).hexdigest()[:TAG_LENGTH]


def _row(place: int, result: DayResult, par: int, device: str | None, shared_name: bool) -> DayRow:
    return DayRow(
        place=place,
        name=result.name,
        score=result.score,
        against_par=against_par(result.scores, par, result.first, result.seat),
        opponent=result.opponent,
        yours=device is not None and result.device == device,
        tag=tag_of(result) if shared_name else None,
    )
