"""The catalogue of solved deals: each deal's par (its exact value before move 1) and best first moves.

The game ships one (``assets/atlas/catalogue.tsv``, written by ``survey --export``); a
user's own survey database (``survey``'s default path) adds to it. Lookups never need
the solver or Dask: this is what the game reads while it is played.

File format: a comment block (``#`` lines: what made it), then one line per deal,
tab-separated: ``deal  value  best_moves  nodes  seconds  solver_version``, with the
best moves as space-separated notation (``-`` when not stored). Only exact values are
listed: a deal over its survey's time limit has no par.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass
from pathlib import Path

from battle.atlas.survey_db import FULL_DEAL, DealResult, SurveyDatabase, SurveyDatabaseError, default_survey_path
from battle.i18n import N_, _
from battle.resources import asset_path
from battle.rules.board import Position, parse_move
from battle.rules.deal import deal
from battle.rules.errors import BattleError, quote
from battle.rules.game import KnownStart
from battle.storage.paths import StorageProblem, error_reason
from battle.storage.textfile import TextFileError, read_limited

CATALOGUE_NAME = "catalogue.tsv"
CATALOGUE_LIMIT = 64 * 1024 * 1024
"""A line is about 43 bytes (the shipped 62 deals take 2,676): 64 MiB holds 1.5 million deals."""
HEADER = "deal\tvalue\tbest_moves\tnodes\tseconds\tsolver_version"


@dataclass(frozen=True)
class Par:
    """A deal's exact value before move 1 and the moves that keep it."""

    deal: int
    value: int
    """The final margin for the player who moves first, under perfect play by both."""
    best_moves: tuple[str, ...] | None

    def describe(self) -> str:
        """``Par: first player +4`` (or ``Par: even``) in the player's language, as ``deal`` prints it."""
        if self.value == 0:
            return _(self._EVEN)
        return _(self._AHEAD).format(value=f"{self.value:+d}")

    def comment(self) -> str:
        """The same words in English, for a position file's comment (a file reads the same everywhere)."""
        return self._EVEN if self.value == 0 else self._AHEAD.format(value=f"{self.value:+d}")

    @classmethod
    def of(cls, result: DealResult) -> Par:
        """The par an exact whole-deal result proves."""
        return cls(result.deal, result.value, result.best_moves)

    _EVEN = N_("Par: even (a draw under perfect play)")
    _AHEAD = N_("Par: first player {value}")

    def known_start(self) -> KnownStart:
        """The value and the best first moves (empty when not stored) as ``review_game``'s ``known_start``
        takes them: the first move of a game of this deal is graded exactly."""
        return self.value, tuple(parse_move(text) for text in self.best_moves or ())


def deal_at_start(deal_number: int | None, start: Position) -> int | None:
    """``deal_number`` when ``start`` is that deal before move 1 (its own tiles, 0-0, its first player
    to move): the deal whose par a game from ``start`` is compared with; else None."""
    if deal_number is None:
        return None
    try:
        opening = deal(deal_number)
    except BattleError:  # a number beyond the last deal, from a hand-edited file
        return None
    return deal_number if start == opening else None


class CatalogueError(ValueError):
    """A catalogue file that does not read; the message names the file and the line."""


def read_catalogue(path: Path) -> dict[int, Par]:
    """The pars in a catalogue file (see the module docstring for the format)."""
    return {result.deal: Par.of(result) for result in read_catalogue_results(path)}


def read_catalogue_results(path: Path) -> list[DealResult]:
    """A catalogue file's deals as the exact whole-deal results a survey stores (for a report that
    counts them with the user's own)."""
    results: list[DealResult] = []
    try:
        text = read_limited(path, CATALOGUE_LIMIT, str(path)).decode("utf-8")
    except UnicodeDecodeError as error:
        raise CatalogueError(
            _("{path}: cannot read the catalogue (not UTF-8 text: byte {byte})").format(path=path, byte=error.start)
        ) from None
    except (OSError, TextFileError) as error:
        raise CatalogueError(
            _("{path}: cannot read the catalogue ({error})").format(path=path, error=error_reason(error))
        ) from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#") or line == HEADER:
            continue
        results.append(_catalogue_line(line, f"{path}", number))
    return results


def _catalogue_line(line: str, path: str, number: int) -> DealResult:
    """One deal's line, or ``CatalogueError`` naming the file, the line and what in it is wrong."""
    fields = line.split("\t")
    if len(fields) != 6:
        raise CatalogueError(
            _("{path}, line {number}: {count} fields, expected 6").format(path=path, number=number, count=len(fields))
        )
    numbers = []
    for column, text in zip(("deal", "value", "nodes", "seconds"), (*fields[:2], *fields[3:5]), strict=True):
        try:
            numbers.append(float(text) if column == "seconds" else int(text))
        except ValueError:
            raise CatalogueError(
                _("{path}, line {number}: {column} {value} is not a number").format(
                    path=path, number=number, column=column, value=quote(text)
                )
            ) from None
    moves = None if fields[2] == "-" else tuple(fields[2].split())
    for move in moves or ():
        try:
            parse_move(move)
        except BattleError as error:
            raise CatalogueError(
                _("{path}, line {number}: {error}").format(path=path, number=number, error=error)
            ) from None
    deal, value, nodes, seconds = numbers
    return DealResult(
        int(deal), FULL_DEAL, True, int(value), 0, moves, int(nodes), seconds, None, fields[5], "catalogue"
    )


def shipped_catalogue_path() -> Path:
    return asset_path("atlas", CATALOGUE_NAME)


def format_catalogue(results: list[DealResult], made_by: str) -> str:
    """The catalogue text of the exact whole-deal ``results``, by deal number."""
    lines = [
        f"# Mahjong Battle deal catalogue: each deal's exact value for the first player and its best "
        f"first moves.\n# Made by: {made_by}",
        HEADER,
    ]
    for result in sorted(results, key=lambda r: r.deal):
        if not result.solved or result.tiles != FULL_DEAL:
            continue
        moves = "-" if result.best_moves is None else " ".join(result.best_moves)
        lines.append(
            f"{result.deal}\t{result.value}\t{moves}\t{result.nodes}\t{result.seconds:.1f}\t{result.solver_version}"
        )
    return "\n".join(lines) + "\n"


class Catalogue:
    """The shipped pars, with the user's own survey results on top."""

    def __init__(self, pars: dict[int, Par], problems: list[str] | None = None) -> None:
        self.pars = pars
        self.problems = problems or []
        """One line per source that could not be read (the rest is still used)."""

    @classmethod
    def load(cls, shipped: Path | None = None, survey: Path | None = None) -> Catalogue:
        """The shipped catalogue and, if it exists, the user's survey database."""
        problems: list[str] = []
        pars: dict[int, Par] = {}
        try:
            pars.update(read_catalogue(shipped or shipped_catalogue_path()))
        except (CatalogueError, FileNotFoundError) as error:
            problems.append(str(error))
        try:
            survey = survey or default_survey_path()
        except StorageProblem as problem:  # no usable data folder: the shipped pars still serve
            return cls(pars, [*problems, _("your own survey results are not used: {problem}").format(problem=problem)])
        if survey.exists():
            try:
                with SurveyDatabase(survey, read_only=True) as database:  # a survey may be writing it
                    for result in database.results(FULL_DEAL):
                        if result.solved:
                            pars[result.deal] = Par.of(result)
                    problems.extend(database.problems)  # rows skipped, the rest in use
            except SurveyDatabaseError as error:
                problems.append(str(error))
        return cls(pars, problems)

    def __len__(self) -> int:
        return len(self.pars)

    def par(self, deal: int | None) -> Par | None:
        return None if deal is None else self.pars.get(deal)

    def par_at_start(self, deal_number: int | None, start: Position) -> Par | None:
        """The par of a game from ``start``, when ``start`` is deal ``deal_number`` before move 1 (its own
        tiles, 0-0, its first player to move): a game of a deal begun from a later or edited position
        has no par."""
        par = self.par(deal_number)
        return par if par is not None and deal_at_start(par.deal, start) is not None else None

    def known_start(self, deal_number: int | None, start: Position) -> KnownStart | None:
        """``review_game``'s ``known_start`` for a game from ``start``: its par's value and best first moves,
        when it has a par (see ``par_at_start``)."""
        par = self.par_at_start(deal_number, start)
        return None if par is None else par.known_start()

    def fair_deals(self, margin: int = 0, handicap: int = 0) -> list[int]:
        """Deals whose value is ``handicap`` give or take ``margin`` (a handicap of 3: the first
        player, the weaker one, starts 3 points ahead under perfect play)."""
        return sorted(deal for deal, par in self.pars.items() if abs(par.value - handicap) <= margin)

    def daily_deal(self, day: datetime.date) -> int | None:
        """The deal of ``day``: a catalogued fair deal if there is one (else any catalogued deal),
        picked by a hash of the date, so everyone gets the same on the same day."""
        pool = self.fair_deals(margin=2) or sorted(self.pars)
        if not pool:
            return None
        digest = hashlib.sha256(day.isoformat().encode()).digest()
        return pool[int.from_bytes(digest[:8], "big") % len(pool)]
