"""``mahjong-battle par``: the par of numbered deals (the exact value before move 1 under perfect
play) and their best first moves. A deal the shipped catalogue or the user's survey database knows
is printed at once; any other is solved here and stored in that database the moment it is proved,
where the window, ``play``, ``show`` and ``deal`` find it too: no deal is solved twice, and a
stopped run resumes at the deal it stopped in."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from battle.cli.inputs import InputError
from battle.cli.interruption import EXIT_INTERRUPTED
from battle.i18n import _, pgettext
from battle.rules.errors import one_line

if TYPE_CHECKING:
    from battle.atlas.catalogue import Par
    from battle.atlas.survey_db import DealResult, SurveyDatabase
    from battle.players import DealSolver

EXIT_DISAGREES = 1
"""``--verify`` found a value unlike the catalogue's."""


@dataclass(frozen=True)
class Known:
    """A par and where it was found: "shipped" (the catalogue in the game), "survey" (the user's
    database) or "solved" (by this run)."""

    par: Par
    source: str


def add_par_command(commands: argparse._SubParsersAction) -> None:
    from battle.cli.solver_commands import add_engine_options
    from battle.cli.survey_command import add_database_option

    sub = commands.add_parser(
        "par",
        help=_("the par of numbered deals, from the catalogues or solved here and kept"),
        description=_(
            "Print each deal's par (its exact value before move 1 under perfect play, for the first "
            "player) and its best first moves. A deal the shipped catalogue or your survey database "
            "knows is printed at once; any other is solved here (a complete deal takes a few minutes on "
            "two threads, some over twenty) and kept in the survey database the moment it is proved, where "
            "the window, 'play', 'show' and 'deal' find it too. Ctrl-C stops; the same command resumes "
            "with the deal it stopped in."
        ),
    )
    sub.add_argument(
        "deals", nargs="+", metavar=pgettext("metavar", "DEALS"), help=_("deal numbers: 1-500, 1,7,42 or 1-10 20")
    )
    add_database_option(sub)
    sub.add_argument(
        "--verify",
        action="store_true",
        help=_("solve the deals the catalogues know too, and say whether each value agrees (exit 1 if one does not)"),
    )
    add_engine_options(sub)
    sub.add_argument(
        "--json", action="store_true", help=_("one JSON object a line: deal, par, best_moves, source (and agrees)")
    )
    sub.set_defaults(run=cmd_par, quick_exit=True)


def cmd_par(args: argparse.Namespace) -> int:
    from battle.atlas.deal_list import parse_deal_list

    try:
        deals = parse_deal_list(",".join(args.deals))
    except ValueError as error:
        raise InputError(_("{deals}: {error}").format(deals=pgettext("metavar", "DEALS"), error=error)) from None
    from battle.cli.survey_command import survey_database, survey_path

    shipped = _shipped()
    stored = _stored(survey_path(args))
    todo = [number for number in deals if args.verify or (number not in stored and number not in shipped)]
    database = survey_database(args, claim=True) if todo else None
    solver = _solver(args) if todo else None
    try:
        if database is not None:  # another run may have stored some since the read above
            stored.update(_pars(database.results()))
        disagreed = False
        for number in deals:
            known = stored.get(number) or shipped.get(number)
            if known is None or args.verify:
                assert database is not None and solver is not None
                try:
                    found = _solve(args, database, solver, number)
                except KeyboardInterrupt:  # in the compile, the table's allocation, or the search's start
                    found = None
                if found is None:
                    _note(args, _("stopped: every par found so far is kept; the same command resumes"), always=True)
                    return EXIT_INTERRUPTED
                agrees = None if known is None else known.par.value == found.par.value
                disagreed = disagreed or agrees is False
                _print(args, found, known if agrees is not None else None)
            else:
                _print(args, known, None)
        return EXIT_DISAGREES if disagreed else 0
    finally:
        if database is not None:
            database.close()


# -- where pars are kept ---------------------------------------------------------------------


def _shipped() -> dict[int, Known]:
    from battle.atlas.catalogue import CatalogueError, read_catalogue, shipped_catalogue_path

    try:
        pars = read_catalogue(shipped_catalogue_path())
    except (CatalogueError, FileNotFoundError) as error:
        print(one_line(f"mahjong-battle: {error}"), file=sys.stderr)
        return {}
    return {number: Known(par, "shipped") for number, par in pars.items()}


def _stored(path) -> dict[int, Known]:  # noqa: ANN001 - Path
    """The pars the survey database at ``path`` holds (none when there is no file yet)."""
    from battle.atlas.survey_db import SurveyDatabase, SurveyDatabaseError

    if not path.exists():
        return {}
    try:
        with SurveyDatabase(path, read_only=True) as database:
            return _pars(database.results())
    except SurveyDatabaseError as error:
        raise InputError(str(error)) from None


def _pars(results: list[DealResult]) -> dict[int, Known]:
    from battle.atlas.catalogue import Par

    return {result.deal: Known(Par.of(result), "survey") for result in results if result.solved}


# -- solving -----------------------------------------------------------------------------------


def _solve(args: argparse.Namespace, database: SurveyDatabase, solver: DealSolver, number: int) -> Known | None:
    """Deal ``number`` solved and stored; None when Ctrl-C stopped it (nothing is stored)."""
    from battle.atlas.catalogue import Par
    from battle.atlas.solve_deal import deal_result, start_position
    from battle.atlas.survey_db import FULL_DEAL, SurveyDatabaseError
    from battle.cli.solver_commands import format_status, prepare_solver, run_interruptibly, status_seconds

    prepare_solver(args)
    start = start_position(number)
    solver.open(start)
    _note(
        args,
        _("deal {deal}: solving (a complete deal takes a few minutes on two threads, some over twenty)").format(
            deal=number
        ),
    )
    began = time.monotonic()
    last_line = [began]
    every = status_seconds()

    def tick() -> None:
        if not args.quiet and time.monotonic() - last_line[0] >= every:
            last_line[0] = time.monotonic()
            _note(args, format_status(solver.status()))

    stopping = _("interrupted: stopping deal {deal}'s search (it is not kept)").format(deal=number)
    analysis, interrupted = run_interruptibly(
        lambda: solver.solve(start), solver.stop, stopping, repeat_stop=True, tick=tick
    )
    if interrupted or not analysis.exact:
        return None
    result = deal_result(number, FULL_DEAL, analysis, time.monotonic() - began, None)
    try:
        database.store(result, time.time())
    except SurveyDatabaseError as error:
        raise InputError(str(error)) from None
    return Known(Par.of(result), "solved")


def _solver(args: argparse.Namespace) -> DealSolver:
    """The run's one solver: its table is made at the first deal and kept for the next."""
    from battle.players import DealSolver

    return DealSolver(max_megabytes=args.hash, threads=args.threads)


# -- saying it ---------------------------------------------------------------------------------


def _print(args: argparse.Namespace, found: Known, compared: Known | None) -> None:
    """One line for ``found``; with ``compared`` (``--verify``), whether the two agree."""
    par = found.par
    if args.json:
        data: dict[str, object] = {
            "deal": par.deal,
            "par": par.value,
            "best_moves": list(par.best_moves) if par.best_moves is not None else None,
            "source": found.source,
        }
        if compared is not None:
            data["agrees"] = compared.par.value == par.value
        print(json.dumps(data), flush=True)
        return
    moves = " ".join(par.best_moves) if par.best_moves else _("not stored")
    source = {
        "shipped": _("from the shipped catalogue"),
        "survey": _("from your survey database"),
        "solved": _("solved now, kept in your survey database"),
    }[found.source]
    line = _("deal {deal}: {par}; best first moves {moves} ({source})").format(
        deal=par.deal, par=par.describe(), moves=moves, source=source
    )
    if compared is not None:
        line += " " + _comparison(compared, par.value)
    print(line, flush=True)


def _comparison(compared: Known, value: int) -> str:
    """Whether ``value`` agrees with what ``compared``'s catalogue says."""
    known = f"{compared.par.value:+d}"
    if compared.source == "shipped":
        if compared.par.value == value:
            return _("agrees with the shipped catalogue")
        return _("DIFFERS from the shipped catalogue, which says {value}").format(value=known)
    if compared.par.value == value:
        return _("agrees with your survey database")
    return _("DIFFERS from your survey database, which says {value}").format(value=known)


def _note(args: argparse.Namespace, line: str, *, always: bool = False) -> None:
    if (always or not args.quiet) and sys.stderr is not None:
        print(line, file=sys.stderr, flush=True)
