"""``mahjong-battle survey``: solve numbered deals in bulk on a Dask cluster, and report on them."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import signal
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from battle.cli.inputs import InputError, add_db_option, database_file, output_file, positive_number, whole_number
from battle.cli.interruption import signals_handled
from battle.i18n import N_, _, format_number, ngettext, pgettext
from battle.rules.errors import one_line
from battle.storage.paths import error_reason

if TYPE_CHECKING:
    from battle.atlas.survey_db import DealResult
    from battle.atlas.survey_run import SurveyPlan, SurveyProgress

PROG = "mahjong-battle"

DASK_MISSING = N_(
    "survey runs on Dask, which is not installed: pip install 'mahjong-battle[survey]' "
    "(or pip install 'dask[distributed]')"
)


def add_survey_command(commands: argparse._SubParsersAction) -> None:
    sub = commands.add_parser(
        "survey",
        help=_("solve numbered deals exactly from the first move, in bulk (Dask), or report on them"),
        description=_(
            "Solve numbered deals exactly from their first move and store each result in a SQLite "
            "database the moment it is found; a stopped run resumes where it left off. Runs on a local "
            "Dask cluster sized from this machine, or on a running one with --scheduler. "
            "Workers x threads: a whole deal needs about 2 GB of table per worker for its best speed, "
            "and one deal at a time per worker; on a machine with C cores and M GB, run C/T workers "
            "of T threads (T=1 or 2) if M allows 2 GB each, fewer otherwise."
        ),
    )
    sub.add_argument(
        "deals", nargs="?", metavar=pgettext("metavar", "DEALS"), help=_("deal numbers: 1-500, 1,7,42 or 1-10,20")
    )
    add_database_option(sub)
    sub.add_argument(
        "--scheduler",
        type=_scheduler_address,
        metavar=pgettext("metavar", "ADDRESS"),
        help=_("a running Dask scheduler, tcp://HOST:8786 (default: a local cluster on this machine)"),
    )
    sub.add_argument("--workers", type=_positive_int, metavar="N", help=_("local workers (default: cores / threads)"))
    sub.add_argument(
        "--threads-per-worker",
        type=_positive_int,
        default=1,
        metavar="T",
        help=_("search threads of each worker's engine; a worker solves one deal at a time (default 1)"),
    )
    sub.add_argument(
        "--memory-per-worker",
        type=_worker_memory,
        metavar="GB",
        help=_(
            "memory a local worker may use; its table gets what is left of 95%% of it after 0.5 GB, "
            "as a power of two: 2 GB a 1 GiB table, 3 GB a 2 GiB one (default: the engine's "
            "own size, up to a quarter of the machine)"
        ),
    )
    sub.add_argument(
        "--time-limit",
        type=_positive_float,
        metavar="S",
        help=_("seconds a deal may take; one over it is stored as unsolved with its estimate"),
    )
    sub.add_argument("--retry-unsolved", action="store_true", help=_("solve again the deals stored as unsolved"))
    sub.add_argument("--value-only", action="store_true", help=_("store the value without the best first moves"))
    sub.add_argument(
        "--tiles",
        type=_tiles,
        default=108,
        metavar="N",
        help=_(
            "solve each deal from the position N tiles in (both sides taking the biggest pair "
            "until then), for quick surveys of the middle game (default 108: the whole deal)"
        ),
    )
    sub.add_argument("--report", action="store_true", help=_("report on the database instead of solving"))
    sub.add_argument(
        "--plot", metavar=pgettext("metavar", "FILE.png"), help=_("with --report: also draw the values' histogram")
    )
    sub.add_argument(
        "--export",
        metavar=pgettext("metavar", "FILE.tsv"),
        help=_("write the exactly solved whole deals as a catalogue (the format of the one the game ships)"),
    )
    sub.add_argument("--force", action="store_true", help=_("replace the --export or --plot file if it exists"))
    sub.set_defaults(run=cmd_survey)


_positive_int = whole_number(1, 1024)


_positive_float = positive_number(1e6)


SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss")


def _scheduler_address(text: str) -> str:
    """``tcp://HOST:PORT`` (or ``tls``, ``ws``, ``wss``; ``HOST:PORT`` is tcp, as for Dask): Dask
    refuses anything else with a traceback."""
    scheme, _colon, rest = text.partition("://") if "://" in text else ("tcp", "", text)
    host, _colon, port = rest.rpartition(":")
    if scheme not in SCHEDULER_SCHEMES or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(
            _("{text} is not a Dask scheduler address like tcp://HOST:8786").format(text=repr(text[:80]))
        )
    return text


def _worker_memory(text: str) -> float:
    """At least 0.5 GB: a worker takes about 0.3 GB before its table (at 0.25 GB Dask kills
    it on every deal, at 0.35 GB one solves 60-tile starts)."""
    value = _positive_float(text)
    if value < 0.5:
        raise argparse.ArgumentTypeError(
            _(
                "{value} GB is too little for a worker: at least 0.5 (a worker takes about 0.3 GB before its table)"
            ).format(value=text[:20])
        )
    return value


def _tiles(text: str) -> int:
    value = _positive_int(text) if text.isdigit() else -1
    if not 4 <= value <= 108 or value % 2:
        raise argparse.ArgumentTypeError(
            _("{value} is not an even number of tiles from 4 to 108").format(value=repr(text[:20]))
        )
    return value


def add_database_option(sub: argparse.ArgumentParser) -> None:
    """``--db FILE``: the survey database (``survey`` and ``par``)."""
    add_db_option(sub, _("the survey database (default: atlas/survey.sqlite3 in the user's data folder)"))


def survey_path(args: argparse.Namespace) -> Path:
    """The survey database's path: ``--db``'s (its folder checked) or the default one."""
    from battle.atlas.survey_db import default_survey_path
    from battle.storage.paths import StorageProblem

    try:
        return database_file(args.db) or default_survey_path()
    except StorageProblem as problem:
        raise InputError(
            _("no survey database to use: {problem} (--db FILE names one elsewhere)").format(problem=problem)
        ) from None


def survey_database(args: argparse.Namespace, *, reading: bool = False, claim: bool = False):  # noqa: ANN201
    """The survey database (a ``SurveyDatabase``) of ``--db`` (or the default one); ``reading``: one
    that must exist already (a report or an export of a database nobody made is a mistyped path),
    opened read-only so that a report beside a running survey never changes its file; ``claim``:
    for a run (``survey``, or ``par`` solving), refused when another run holds the file."""
    from battle.atlas.survey_db import SurveyDatabase, SurveyDatabaseError

    path = survey_path(args)
    if reading and not os.path.exists(path):
        if args.db is None:
            said = _("no survey database at {value}: 'mahjong-battle survey DEALS' makes one")
        else:
            said = _("no survey database at {value}: 'mahjong-battle survey DEALS --db FILE' makes one")
        raise InputError(said.format(value=str(path)[:200]))
    try:
        database = SurveyDatabase(args.db, read_only=reading, claim=claim)
    except SurveyDatabaseError as error:
        raise InputError(str(error)) from None
    if database.notice is not None:
        print(one_line(str(database.notice)), file=sys.stderr)
    return database


def cmd_survey(args: argparse.Namespace) -> int:
    if args.export:
        if args.deals or args.report:
            raise InputError(_("--export writes the whole database: give no DEALS or --report with it"))
        output_file(args.export, "--export", force=args.force)
        return _export(args)
    if args.report:
        if args.deals:
            raise InputError(_("--report reads the whole database: give no DEALS with it"))
        if args.plot:
            output_file(args.plot, "--plot", force=args.force)
        return _report(args)
    if args.plot:
        raise InputError(_("--plot goes with --report"))
    plan = _survey_plan(args)
    from battle.atlas.survey_run import ClusterStartError, run_survey

    database = survey_database(args, claim=True)
    bar = _ProgressBar(sys.stderr)
    stop = threading.Event()
    try:
        with _stopped_by_signals():
            progress = run_survey(plan, database, report=bar.show, stop=stop)
    except _Stopped as stopped:
        stop.set()
        return _say_stopped(stopped)
    except ClusterStartError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        raise InputError(
            _("cannot reach the scheduler {scheduler}: {error}").format(scheduler=args.scheduler, error=error)
        ) from None
    finally:
        database.close()
    bar.end()
    return _say_survey_done(progress, database.path)


def _survey_plan(args: argparse.Namespace) -> SurveyPlan:
    """The run the options ask for, every mistake in them refused before Dask's seconds of import."""
    if not args.deals:
        raise InputError(_("name the deals to solve, e.g. 1-500 (or --report)"))
    from battle.atlas.deal_list import parse_deal_list

    try:
        deals = parse_deal_list(args.deals)
    except ValueError as error:
        raise InputError(_("{deals}: {error}").format(deals=pgettext("metavar", "DEALS"), error=error)) from None
    if importlib.util.find_spec("distributed") is None:  # said at once, without Dask's seconds of import
        raise InputError(_(DASK_MISSING))
    if args.scheduler and (args.workers or args.memory_per_worker):
        raise InputError(
            _("--workers and --memory-per-worker size a local cluster; a --scheduler's workers are its own")
        )
    database_file(args.db)  # a mistyped folder is refused before Dask's seconds of import
    from battle.atlas.survey_run import SurveyPlan

    return SurveyPlan(
        deals,
        tiles=args.tiles,
        time_limit=args.time_limit,
        value_only=args.value_only,
        retry_unsolved=args.retry_unsolved,
        scheduler=args.scheduler,
        workers=args.workers,
        threads_per_worker=args.threads_per_worker,
        memory_per_worker=args.memory_per_worker,
    )


def _say_stopped(stopped: _Stopped) -> int:
    """Say that a stopped run keeps what it found and resumes; the exit code a shell gives a
    process ended by that signal."""
    if stopped.signal == signal.SIGINT:
        said = _("stopped: every deal finished so far is stored; the same command resumes")
    else:
        said = _("stopped by {signal}: every deal finished so far is stored; the same command resumes").format(
            signal=signal.Signals(stopped.signal).name
        )
    print("\n" + said, file=sys.stderr)
    return 128 + stopped.signal


def _say_survey_done(progress: SurveyProgress, path: Path) -> int:
    """Say each deal that failed, then the run's counts; the exit code is 1 when a deal failed."""
    for failure in progress.failed:
        print(_("failed (tried again next run): {failure}").format(failure=failure), file=sys.stderr)
    print(
        ngettext(
            "{done} deal solved now ({solved} exactly, {unsolved} over the time limit), {skipped} already stored, "
            "{len} failed; in {path}",
            "{done} deals solved now ({solved} exactly, {unsolved} over the time limit), {skipped} already stored, "
            "{len} failed; in {path}",
            progress.done,
        ).format(
            done=progress.done,
            solved=progress.solved,
            unsolved=progress.unsolved,
            skipped=progress.skipped,
            len=len(progress.failed),
            path=path,
        )
    )
    return 0 if not progress.failed else 1


class _Stopped(BaseException):
    """The run was told to stop: Ctrl+C, or a ``kill`` or closed terminal (SIGTERM, SIGHUP)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.signal = number


@contextlib.contextmanager
def _stopped_by_signals() -> Iterator[None]:
    """Stop on SIGTERM and SIGHUP as on Ctrl+C: the cluster is closed, its workers end with it, and
    the message says the run resumes (by default Python dies at once, with a worker's warnings).
    A signal the caller ignores (``nohup``, a background job's Ctrl+C) stays ignored."""

    def stop(number: int, _frame: object) -> None:
        raise _Stopped(number)

    wanted = [signal.SIGINT, signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    with signals_handled(stop, *wanted):
        yield


class _ProgressBar:
    """One line on stderr, rewritten as deals come in: done, solved/unsolved, rate, time left."""

    def __init__(self, stream) -> None:  # noqa: ANN001 - a text stream
        self.stream = stream
        self.shown_dashboard = False
        self.live = stream is not None and stream.isatty()

    def show(self, progress, result) -> None:  # noqa: ANN001 - survey_run.SurveyProgress, DealResult | None
        if progress.dashboard and not self.shown_dashboard:
            print(_("Dask dashboard: {dashboard}").format(dashboard=progress.dashboard), file=self.stream, flush=True)
            self.shown_dashboard = True
        line = progress_line(progress)
        if result is not None and not self.live:
            line = _("{progress}; {result}").format(progress=line, result=result_line(result))
        print(("\r" + line) if self.live else line, end="" if self.live else "\n", file=self.stream, flush=True)

    def end(self) -> None:
        if self.live:
            print(file=self.stream)


BAR_WIDTH = 30


def progress_line(progress) -> str:  # noqa: ANN001 - survey_run.SurveyProgress
    """``[#####.....] 4/12 deals (4 solved, 0 unsolved), 12.0 an hour, about 40 min left``."""
    total = max(1, progress.total)
    filled = round(BAR_WIDTH * progress.done / total)
    values = {
        "bar": "#" * filled + "." * (BAR_WIDTH - filled),
        "done": progress.done,
        "total": progress.total,
        "solved": progress.solved,
        "unsolved": progress.unsolved,
        "rate": format_number(progress.per_hour(), 1),
    }
    left = progress.seconds_left()
    if left is None:
        return _("[{bar}] {done}/{total} deals ({solved} solved, {unsolved} unsolved), {rate} an hour").format(**values)
    return _(
        "[{bar}] {done}/{total} deals ({solved} solved, {unsolved} unsolved), {rate} an hour, about {left} left"
    ).format(left=_duration(left), **values)


def result_line(result) -> str:  # noqa: ANN001 - DealResult
    """``deal 7: +4 in 12.5 s``, or ``deal 7: -2 (estimate) in 900.0 s`` for one over its time limit."""
    if result.solved:
        said = _("deal {deal}: {value} in {seconds} s")
    else:
        said = _("deal {deal}: {value} (estimate) in {seconds} s")
    return said.format(deal=result.deal, value=f"{result.value:+d}", seconds=format_number(result.seconds, 1))


def _duration(seconds: float) -> str:
    if seconds < 90:
        return _("{count} s").format(count=format_number(seconds, 0))
    if seconds < 5400:
        return _("{count} min").format(count=format_number(seconds / 60, 0))
    return _("{count} h").format(count=format_number(seconds / 3600, 1))


def _report(args: argparse.Namespace) -> int:
    from battle.atlas.survey_report import format_report, summarise

    results, damaged = _report_results(args)
    report = summarise(results)
    print(format_report(report, args.tiles))
    if args.plot:
        if not args.plot.lower().endswith(".png"):
            raise InputError(
                _("--plot {plot}: the histogram is written as PNG, the name must end in .png").format(
                    plot=args.plot[:80]
                )
            )
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        import pygame

        from battle.atlas.survey_histogram import save_histogram

        try:
            save_histogram(report, args.plot)
        except (OSError, pygame.error) as error:
            raise InputError(
                _("--plot {plot}: {value}").format(plot=args.plot[:80], value=error_reason(error))
            ) from None
        print(_("histogram written to {plot}").format(plot=args.plot))
    return EXIT_DAMAGED if damaged else 0


EXIT_DAMAGED = 1
"""``--report``'s and ``--export``'s exit code when the survey's file is damaged: what could be read
is reported or written, the deals on the damaged pages are missing from it (said on stderr), and a
script that goes on with the result learns that it is not whole."""


def _export(args: argparse.Namespace) -> int:
    from battle.atlas.catalogue import format_catalogue
    from battle.atlas.survey_db import FULL_DEAL
    from battle.storage.paths import write_atomically

    read = _read_results(args, FULL_DEAL, quiet=True)
    where = str(read.path)[:200]
    results = read.results
    if not results:
        if read.damaged:
            raise InputError(_("--export: {problem}; nothing is written").format(problem=read.damage))
        other_sizes = sorted(size for size in read.start_sizes if size != FULL_DEAL)
        if other_sizes:
            count = sum(read.start_sizes[size] for size in other_sizes)
            raise InputError(
                ngettext(
                    "--export: nothing is written: the catalogue holds deals solved from all 108 tiles, and "
                    "{path} holds {count} deal surveyed from {sizes} tiles ('survey --report --tiles {tiles}' "
                    "reports it)",
                    "--export: nothing is written: the catalogue holds deals solved from all 108 tiles, and "
                    "{path} holds {count} deals surveyed from {sizes} tiles ('survey --report --tiles {tiles}' "
                    "reports them)",
                    count,
                ).format(path=where, count=count, sizes=", ".join(map(str, other_sizes)), tiles=other_sizes[-1])
            )
        raise InputError(
            _(
                "--export: nothing is written: {path} holds no deal yet ('mahjong-battle survey DEALS' solves some)"
            ).format(path=where)
        )
    read.say_problems()
    solved = [result for result in results if result.solved]
    limits = {result.time_limit for result in results if result.time_limit}
    span = f"{results[0].deal}-{results[-1].deal}" if results else "DEALS"
    limit = f" --time-limit {max(limits):g}" if limits else ""
    made_by = (
        f"'mahjong-battle survey {span}{limit}' then 'survey --export'; {len(solved)} of {len(results)} "
        "deals solved exactly"
    )
    try:
        write_atomically(args.export, format_catalogue(results, made_by))
    except OSError as error:
        raise InputError(
            _("--export {export}: {value}").format(export=args.export[:80], value=error_reason(error))
        ) from None
    print(_("{len} solved deals written to {export}").format(len=len(solved), export=args.export))
    return EXIT_DAMAGED if read.damaged else 0


@dataclass
class _SurveyRead:
    """What a report or an export read of a survey database."""

    path: Path
    results: list[DealResult]
    """The results at the start size asked for, by deal number."""
    start_sizes: dict[int, int]
    """How many deals the file holds at each start size."""
    damaged: bool
    """SQLite found damaged pages: deals on them are missing from ``results``."""
    problems: list[str]
    """One line for each kind of row left out (damaged pages first, if any)."""

    @property
    def damage(self) -> str:
        return self.problems[0] if self.problems else str(self.path)

    def say_problems(self) -> None:
        for problem in self.problems:
            print(f"{PROG}: {problem}", file=sys.stderr)


def _read_results(args: argparse.Namespace, tiles: int, *, quiet: bool = False) -> _SurveyRead:
    """The results at ``tiles`` of the survey database of ``--db`` (or the default one), its file
    checked whole first; rows it left out are said on stderr, one line each kind, unless ``quiet``."""
    from battle.atlas.survey_db import SurveyDatabaseError

    database = survey_database(args, reading=True)
    try:
        results = database.results(tiles)
        if not database.damaged:  # a read past damaged pages has said so, with their rows counted
            database.check()
        read = _SurveyRead(database.path, results, database.start_sizes(), database.damaged, database.problems)
    except SurveyDatabaseError as error:
        raise InputError(str(error)) from None
    finally:
        database.close()
    if not quiet:
        read.say_problems()
    return read


def _report_results(args: argparse.Namespace) -> tuple[list[DealResult], bool]:
    """What ``--report`` covers, said in a first line, and whether the survey's file is damaged: the
    file of ``--db`` alone; else, for whole deals, the catalogue the game ships with the user's own
    survey on top (an exact result of the user's replaces the shipped one; an unsolved one only adds
    a deal the catalogue lacks)."""
    from battle.atlas.catalogue import CatalogueError, read_catalogue_results, shipped_catalogue_path
    from battle.atlas.survey_db import FULL_DEAL, default_survey_path
    from battle.storage.paths import StorageProblem

    if args.db is not None or args.tiles != FULL_DEAL:
        read = _read_results(args, args.tiles)
        where = args.db if args.db is not None else default_survey_path()
        print(
            ngettext("from {where}: {count} deal", "from {where}: {count} deals", len(read.results)).format(
                where=where, count=len(read.results)
            )
        )
        return read.results, read.damaged
    try:
        shipped = read_catalogue_results(shipped_catalogue_path())
    except CatalogueError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        shipped = []
    try:
        own_path: Path | None = default_survey_path()
    except StorageProblem as error:  # the shipped deals are still reported
        print(_("mahjong-battle: {error}; your own survey is left out").format(error=error), file=sys.stderr)
        own_path = None
    own_read = _read_results(args, FULL_DEAL) if own_path is not None and own_path.exists() else None
    own = own_read.results if own_read is not None else []
    merged = {result.deal: result for result in shipped}
    for result in own:
        if result.solved or result.deal not in merged:
            merged[result.deal] = result
    both = len({result.deal for result in shipped} & {result.deal for result in own})
    count = len(merged)
    if own_path is None:
        said = ngettext(
            "{count} deal: {shipped} from the catalogue the game ships, none of your own (the data folder "
            "cannot be used)",
            "{count} deals: {shipped} from the catalogue the game ships, none of your own (the data folder "
            "cannot be used)",
            count,
        )
    elif not own_path.exists():
        said = ngettext(
            "{count} deal: {shipped} from the catalogue the game ships, none of your own yet "
            "('mahjong-battle survey DEALS' adds to {path})",
            "{count} deals: {shipped} from the catalogue the game ships, none of your own yet "
            "('mahjong-battle survey DEALS' adds to {path})",
            count,
        )
    elif both:
        said = ngettext(
            "{count} deal: {shipped} from the catalogue the game ships, {own} from your survey ({path}); "
            "{both} in both, yours counted",
            "{count} deals: {shipped} from the catalogue the game ships, {own} from your survey ({path}); "
            "{both} in both, yours counted",
            count,
        )
    else:
        said = ngettext(
            "{count} deal: {shipped} from the catalogue the game ships, {own} from your survey ({path})",
            "{count} deals: {shipped} from the catalogue the game ships, {own} from your survey ({path})",
            count,
        )
    print(said.format(count=count, shipped=len(shipped), own=len(own), path=own_path, both=both))
    return [merged[deal] for deal in sorted(merged)], own_read is not None and own_read.damaged
