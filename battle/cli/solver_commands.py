"""Solver subcommands: ``solve``, ``analyse`` and ``review``.

Kept apart from ``battle.cli`` so that the model and its plain subcommands
never import numba; the solver loads only when one of these runs.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from battle.cli.interruption import EXIT_INTERRUPTED, signals_handled
from battle.cli.search_bounds import MOST_SEARCH_NODES, MOST_SEARCH_THREADS, SMALLEST_TABLE_MEGABYTES
from battle.cli.terminal import value_words
from battle.i18n import N_, _, format_number, ngettext, pgettext
from battle.rules.board import Position, move_name
from battle.rules.errors import quote
from battle.rules.wording import grade_word
from battle.search_times import REVIEW_SECONDS

if TYPE_CHECKING:
    from battle.cli.json_shapes import AnalyseJSON
    from battle.players import Analysis

T = TypeVar("T")

MAX_SECONDS = 7 * 24 * 3600
"""The longest ``--time``: a week (a complete deal's exact solve takes minutes)."""
TIME_HELP = N_(
    "stop with the best result so far: the answer comes S seconds after the command started, its start-up "
    "included (while the solver's kernels still load, from a search at most four moves deep); on a first run "
    "after an install, the kernels' one-time compile (10-20 s) comes on top"
)


def add_commands(commands: argparse._SubParsersAction) -> None:
    """``solve``, ``analyse`` and ``review``; ``quick_exit`` tells the entry point that the
    solver is loaded, whose teardown (0.1-0.2 s of LLVM clean-up) it skips."""
    sub = commands.add_parser("solve", help=_("solve a position exactly (value, best moves, best line)"))
    _add_common(sub)
    sub.add_argument(
        "--json", action="store_true", help=_("print the solver JSON of the notation contract (docs/notation.md)")
    )
    sub.set_defaults(run=cmd_solve, quick_exit=True)

    sub = commands.add_parser("analyse", aliases=["analyze"], help=_("every legal move with its exact value"))
    _add_common(sub)
    sub.add_argument("--json", action="store_true", help=_("print JSON: the solve fields plus every move's value"))
    sub.set_defaults(run=cmd_analyse, quick_exit=True)

    sub = commands.add_parser("review", help=_("grade every move of a game record against perfect play"))
    sub.add_argument("file", metavar=pgettext("metavar", "file"), help=_(".mbg game record, or - for standard input"))
    sub.add_argument(
        "--time",
        type=_seconds,
        default=REVIEW_SECONDS,
        metavar="S",
        help=_(
            "search per move (default {seconds}, as the window and the server's page review), "
            "counted in nodes: a million for each second, about a second of one core on a quiet "
            "machine, so that a repeat on any load gives the same grades; moves not solved within "
            "it are estimates"
        ).format(seconds=format_number(REVIEW_SECONDS)),
    )
    sub.add_argument("--json", action="store_true", help=_("print the review as JSON instead of text"))
    sub.add_argument(
        "--plot", metavar=pgettext("metavar", "FILE.png"), help=_("also write the evaluation graph as a PNG image")
    )
    sub.add_argument("--force", action="store_true", help=_("replace the --plot file if it exists"))
    add_engine_options(sub, threads=False)
    sub.set_defaults(run=cmd_review, quick_exit=True)


def _add_common(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("file", metavar=pgettext("metavar", "file"), help=_(".mbp or .mbg file, or - for standard input"))
    sub.add_argument(
        "--time",
        type=_seconds,
        metavar="S",
        help=_(TIME_HELP),
    )
    sub.add_argument("--nodes", type=_node_count, metavar="N", help=_("stop after N nodes"))
    sub.add_argument("--depth", type=_positive_int, metavar="D", help=_("search at most D moves deep"))
    add_engine_options(sub)


def add_engine_options(sub: argparse.ArgumentParser, *, threads: bool = True) -> None:
    """``--hash``, ``--threads`` (not for a review, which searches on one thread so that its budget in
    nodes grades a repeat the same) and ``--quiet``."""
    sub.add_argument(
        "--hash",
        type=table_megabytes,
        metavar="MB",
        help=_(
            "largest transposition table in MiB, at least 32; a position gets what its size needs, "
            "up to this (default: a quarter of the memory, 256 to 2048)"
        ),
    )
    if threads:
        sub.add_argument(
            "--threads",
            type=thread_count,
            metavar="N",
            help=_("search threads sharing the table, 1 to 64 (default: one per core, at most 4)"),
        )
    sub.add_argument("--quiet", action="store_true", help=_("no progress on stderr"))


def _advisor(args: argparse.Namespace, position: Position, *, one_search: bool = False, reviewer: bool = False):  # noqa: ANN202 - battle.players.Advisor or Reviewer, lazily
    """The search service a command asked for, its table sized for ``position``; a single search's
    limits also cap its table (a review's table serves the whole game, so only its size and the
    memory limit do)."""
    from battle.players import Advisor, Limits, Reviewer

    prepare_solver(args)
    limits = Limits(time=args.time, nodes=args.nodes) if one_search else Limits()
    if reviewer:
        # Sized for what one search of the game can store: a complete deal's 2 GiB table costs its
        # first million nodes 16 s of page faults on a virtual machine, 32 MiB 1.7 s (same depth, value).
        from battle.players.review import review_nodes

        expected = Limits(nodes=review_nodes(args.time))
        return Reviewer(fit=True, max_megabytes=args.hash, expected=expected).open(position)
    return Advisor(fit=True, max_megabytes=args.hash, threads=args.threads, expected=limits).open(position)


def _seconds(text: str) -> float:
    """A ``--time``: positive, finite, and at most ``MAX_SECONDS`` (a timer cannot wait
    for 1e10 seconds, and no search needs to)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not a number of seconds").format(text=quote(text))) from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(_("{text} must be a positive number of seconds").format(text=quote(text)))
    if value > MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            _("{text} is too long: at most {most} seconds (a week)").format(text=quote(text), most=MAX_SECONDS)
        )
    return value


def _positive_int(text: str) -> int:
    digits = text.lstrip("0")
    if not (text.isascii() and text.isdigit()) or not digits:
        raise argparse.ArgumentTypeError(_("{text} must be a positive whole number").format(text=quote(text)))
    if len(digits) > 100:  # checked before int(), which refuses more than 4300 digits
        raise argparse.ArgumentTypeError(_("{text} is too large a number").format(text=quote(text)))
    return int(digits)


def _node_count(text: str) -> int:
    nodes = _positive_int(text)
    if nodes > MOST_SEARCH_NODES:
        raise argparse.ArgumentTypeError(
            _("{text} is too many: at most {most} (2**62); without --nodes there is no limit").format(
                text=quote(text), most=MOST_SEARCH_NODES
            )
        )
    return nodes


def thread_count(text: str) -> int:
    count = _positive_int(text)
    if count > MOST_SEARCH_THREADS:
        raise argparse.ArgumentTypeError(
            ngettext(
                "{count} thread is too many: at most {most}", "{count} threads is too many: at most {most}", count
            ).format(count=count, most=MOST_SEARCH_THREADS)
        )
    return count


def table_megabytes(text: str) -> int:
    megabytes = _positive_int(text)
    smallest = SMALLEST_TABLE_MEGABYTES
    if megabytes < smallest:
        raise argparse.ArgumentTypeError(
            _("{megabytes} MiB is too small: the smallest table is {smallest} MiB").format(
                megabytes=megabytes, smallest=smallest
            )
        )
    return megabytes


def prepare_solver(args: argparse.Namespace) -> None:
    """Compile the kernels on a first run after an install, said on stderr (unless ``--quiet``)."""
    from battle.players import kernels_ready, prepare_kernels

    if kernels_ready():
        return
    if not getattr(args, "quiet", False):
        # Said before anything else: the compile takes about 10 s of two free cores (88-97 s beside
        # a busy machine's other work), which a silent terminal makes look like a hang.
        note(_("compiling the solver (first run only: about 10 s on two free cores, longer on a busy machine)..."))
    # In two child processes, one core each; --time counts without it, as it promises.
    compiled = prepare_kernels()
    if getattr(args, "started", None) is not None:
        args.started += compiled


def note(line: str) -> None:
    """A line of progress on stderr. With stderr closed (`2>&-`) it is dropped: ``print``
    would send it to stdout instead, into the answer."""
    if sys.stderr is not None:
        print(line, file=sys.stderr, flush=True)


def _describe_value(value: int, mover: int) -> str:
    if value > 0:
        return _("player {mover} (to move) wins the rest by {value}").format(mover=mover, value=value)
    if value < 0:
        return _("player {mover} (to move) loses the rest by {value}").format(mover=mover, value=-value)
    return _("the rest is drawn")


def cmd_solve(args: argparse.Namespace) -> int:
    position, analysis, interrupted = _search_interruptibly(args, all_exact=False)
    code = EXIT_INTERRUPTED if interrupted and not analysis.exact else 0
    if args.json:
        print(json.dumps(analysis.to_json()))
        return code
    stopper = _("Ctrl-C stopped the search") if interrupted else _("a limit stopped the search")
    exact = (
        _("exact")
        if analysis.exact
        else _("not exact (depth {depth}; {stopper})").format(depth=analysis.depth, stopper=stopper)
    )
    print(
        _("value: {value:+d}  ({describe_value}; {exact})").format(
            value=analysis.value, describe_value=_describe_value(analysis.value, position.to_move), exact=exact
        )
    )
    score = f"{analysis.final_score[0]}-{analysis.final_score[1]}"
    if analysis.exact:
        print(_("final score: {score}").format(score=score))
    else:  # the line ends where the search's knowledge does, not where the game does
        line = ngettext(
            "score after the best line: {score} ({count} move on; an estimate, not the final score)",
            "score after the best line: {score} ({count} moves on; an estimate, not the final score)",
            len(analysis.pv),
        )
        print(line.format(score=score, count=len(analysis.pv)))
    if analysis.best_moves:
        print(_("best moves: {value}").format(value=" ".join(move_name(m) for m in analysis.best_moves)))
    else:
        print(_("best moves: (none: the game is over)"))
    print(_("best line: {join}").format(join=" ".join(move_name(m) for m in analysis.pv)))
    print(
        _("nodes: {nodes} in {seconds}s").format(
            nodes=format_number(analysis.nodes), seconds=format_number(analysis.seconds, 2)
        )
    )
    return code


def cmd_analyse(args: argparse.Namespace) -> int:
    position, analysis, interrupted = _search_interruptibly(args, all_exact=True)
    code = EXIT_INTERRUPTED if interrupted and not analysis.exact else 0
    if args.json:
        data: AnalyseJSON = {
            **analysis.to_json(),
            "moves": [
                {"move": mv.notation, "value": mv.value, "bound": mv.bound, "points": position.move_points(mv.move)}
                for mv in analysis.move_values
            ],
        }
        print(json.dumps(data))
        return code
    if analysis.exact:
        state = _("exact")
    elif interrupted:
        state = _("depth {depth}, not exact: Ctrl-C stopped the search").format(depth=analysis.depth)
    else:
        state = _("depth {depth}, not exact").format(depth=analysis.depth)
    print(
        _("player {to_move} to move, score {scores}-{scores2}, {points_on_board} points on the board ({state})").format(
            to_move=position.to_move,
            scores=position.scores[0],
            scores2=position.scores[1],
            points_on_board=position.points_on_board(),
            state=state,
        )
    )
    if not analysis.move_values:
        print(_("no pair left: the game is over"))
        return code
    best = set(analysis.best_moves)
    print(_("  move      points  value"))
    for mv in analysis.move_values:
        mark = "*" if mv.move in best else " "
        print(f"{mark} {mv.notation:<8}  {position.move_points(mv.move):>5}  {value_words(mv):>6}")
    print(
        _("* best; value = final margin for the mover under perfect play; best line: {join}").format(
            join=" ".join(move_name(m) for m in analysis.pv)
        )
    )
    return code


ANSWER_SECONDS = 0.02
"""What ``--time`` keeps back for the answer once the search stops: reading the best line
from the table, printing it and leaving (a few milliseconds on the benchmark machine)."""


def _deadline(args: argparse.Namespace) -> float | None:
    """The ``time.monotonic()`` reading at which the search must stop for the answer to come
    within ``--time`` of the command's start (``args.started``, set by ``battle.cli.command_line``)."""
    started = getattr(args, "started", None)
    if args.time is None or started is None:
        return None
    return started + args.time - ANSWER_SECONDS


def _search_interruptibly(args: argparse.Namespace, all_exact: bool) -> tuple[Position, Analysis, bool]:
    """Run the search on a worker thread so Ctrl-C can stop it and still print a result.

    Returns the position, the analysis and whether Ctrl-C stopped the search.
    """
    from battle.cli.inputs import load_position

    position = load_position(args.file)  # read before the solver loads: a typo is refused at once
    from battle.players import Limits

    engine = _advisor(args, position, one_search=True)
    deadline = _deadline(args)
    if deadline is not None and deadline <= time.monotonic() and not args.quiet:
        note(
            _("  the start-up took {seconds} s of --time {budget}: the answer comes from a two-move search").format(
                seconds=format_number(time.monotonic() - args.started, 2),
                budget=format_number(int(args.time) if args.time.is_integer() else args.time),
            )
        )
    if deadline is not None:
        answered = _plain_while_loading(args, position, deadline)
        if answered is not None:
            return position, *answered
    last_line = [time.monotonic()]

    def report(progress) -> None:  # noqa: ANN001
        if args.quiet:
            return
        last_line[0] = time.monotonic()
        elapsed = max(progress.seconds, 1e-9)
        depth = _("exact") if progress.exact else _("depth {depth}").format(depth=progress.depth)
        best = move_name(progress.best_move) if progress.best_move else "-"
        note(
            _("  {depth:>9}  value {value}  best {best}  {nodes} nodes  {rate} Mnodes/s  {seconds}s").format(
                depth=depth,
                value=f"{progress.value:+d}",
                best=best,
                nodes=format_number(progress.nodes),
                rate=format_number(progress.nodes / elapsed / 1e6, 2),
                seconds=format_number(elapsed, 1),
            )
        )

    def work() -> Analysis:
        return engine.search(
            position,
            Limits(time=args.time, nodes=args.nodes, depth=args.depth, deadline=deadline),
            all_exact=all_exact,
            progress=report,
        )

    every = status_seconds()

    def tick() -> None:
        # Between iterations' reports (an exact solve is a single one), a status line.
        if not args.quiet and time.monotonic() - last_line[0] >= every:
            last_line[0] = time.monotonic()
            note(format_status(engine.status()))

    stopping = _("interrupted: stopping with the best result so far")
    analysis, interrupted = run_interruptibly(work, engine.stop, stopping, tick=tick)
    return position, analysis, interrupted


def _plain_while_loading(args: argparse.Namespace, position: Position, deadline: float) -> tuple[Analysis, bool] | None:
    """A ``--time`` answer that does not wait for the kernels' load: they load from numba's cache on
    a thread (0.5-1 s on a quiet machine, 8-18 s beside two busy loops), while plain Python
    (``battle.players.PlainOpponent``, the kernel's search node for node) deepens from one move to
    four (two at least, as the kernels' search gives a start-up that took the whole time). Kernels
    loaded before the deadline: None, and the real search takes the time left. Else the deepest
    plain result answers at the deadline (with whether Ctrl-C stopped the wait)."""
    from battle.players import Limits, PlainOpponent, prepare_kernels

    loaded = threading.Event()

    def load() -> None:
        try:
            prepare_kernels()
        finally:
            loaded.set()

    threading.Thread(target=load, name="solver-load", daemon=True).start()
    if loaded.wait(LOAD_GLANCE):
        return None
    if not args.quiet:
        note(_("  loading the solver's kernels from the cache; plain Python searches meanwhile"))
    plain = PlainOpponent()
    best: Analysis | None = None
    try:
        for depth in range(1, min(args.depth or PLAIN_LOADING_DEPTH, PLAIN_LOADING_DEPTH) + 1):
            if best is not None and best.depth >= 2 and (loaded.is_set() or time.monotonic() >= deadline):
                break
            best = plain.search(position, Limits(depth=depth), all_exact=True)
            if best.exact:
                break
        if loaded.wait(max(0.0, deadline - time.monotonic())) and not (best is not None and best.exact):
            return None
    except KeyboardInterrupt:
        if best is None:
            raise
        note(_("interrupted: stopping with the best result so far"))
        return best, True
    assert best is not None
    return best, False


PLAIN_LOADING_DEPTH = 4
"""The deepest plain search a ``--time`` answer makes while the kernels load: a search cannot be
stopped halfway, and depth 4 takes at most 0.6 s on a full board where expert's 8 takes 0.8 s."""
LOAD_GLANCE = 0.05
"""Seconds a ``--time`` solve waits for the kernels' load before plain Python starts beside it: a
load already done (or a quick one) goes straight to the real search."""
STATUS_SECONDS = 5.0
"""How often a long search says what it is doing on a terminal when no iteration has ended."""
LOGGED_STATUS_SECONDS = 60.0
"""The same where stderr is no terminal (a log, a pipe): a complete deal's six-minute solve writes
six status lines there, not 72."""


def status_seconds() -> float:
    """How often a long search's status line is written to stderr as it is now."""
    stream = sys.stderr
    return STATUS_SECONDS if stream is not None and stream.isatty() else LOGGED_STATUS_SECONDS


def format_status(status) -> str:  # noqa: ANN001 - solver.SearchStatus
    """One line on a running search: where the root loop is, the best so far, the node rate."""
    from battle.players import FULL_DEPTH

    if status.loading:  # a compile is done and said before the search (``_advisor``): this is the load
        return _("  preparing the solver: loading its kernels from the cache  {seconds}s").format(
            seconds=format_number(status.seconds, 1)
        )
    depth = _("exact") if status.depth >= FULL_DEPTH else _("depth {depth}").format(depth=status.depth)
    where = (
        _("move {number}/{moves} {move}").format(
            number=status.move_number, moves=status.moves, move=move_name(status.move)
        )
        if status.move
        else _("starting")
    )
    best = (
        _("best so far {value} {move}").format(value=f"{status.best_value:+d}", move=move_name(status.best_move))
        if status.best_move is not None and status.best_value is not None
        else _("no move searched yet")
    )
    elapsed = max(status.seconds, 1e-9)
    return _("  searching ({depth}): {where}, {best}  {nodes} nodes  {rate} Mnodes/s  {seconds}s").format(
        depth=depth,
        where=where,
        best=best,
        nodes=format_number(status.nodes),
        rate=format_number(status.nodes / elapsed / 1e6, 2),
        seconds=format_number(elapsed, 1),
    )


def run_interruptibly(
    work: Callable[[], T],
    stop: Callable[[], None],
    message: str,
    repeat_stop: bool = False,
    tick: Callable[[], None] | None = None,
) -> tuple[T, bool]:
    """``work()`` on a worker thread; Ctrl-C calls ``stop()`` and still waits for its result.

    Returns the result and whether Ctrl-C was pressed; an error in the worker is
    re-raised here. While the work runs, Ctrl-C is a flag the waiting loop reads, not a
    KeyboardInterrupt: one raised inside ``Thread.start`` (which waits for the thread to
    begin, seconds on a busy machine) escaped with the search running and nobody to stop
    it, and the process, waiting at its exit for the solver's helper threads, ran on for
    minutes (``par`` beside other work: 300 s, 141 CPU-s). The main thread waits on an
    Event, not ``Thread.join``, which can leave a thread looking finished while it runs
    (CPython before 3.12). With ``repeat_stop``, ``stop()`` is called again until the work
    ends, for work that starts new searches (each new search clears the engine's stop
    flag). A second Ctrl-C abandons the work. ``tick()``, if given, is called about every
    tenth of a second while the work runs.
    """
    finished = threading.Event()
    outcome: dict[str, object] = {}
    presses = 0

    def target() -> None:
        try:
            outcome["result"] = work()
        except BaseException as error:  # re-raised in the main thread
            outcome["error"] = error
        finally:
            finished.set()

    def pressed(number: int, frame: object) -> None:
        nonlocal presses
        presses += 1
        if presses > 1:
            raise KeyboardInterrupt  # the second Ctrl-C: the work is abandoned

    said = False
    with signals_handled(pressed, signal.SIGINT):
        threading.Thread(target=target, name="solver", daemon=True).start()
        while not finished.wait(0.05 if presses else 0.1):
            if not presses:
                if tick is not None:
                    tick()
            elif not said:
                note(message)
                said = True
                stop()
            elif repeat_stop:
                stop()
    if presses and not said:  # pressed as the work ended: said like any other
        note(message)
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["result"], presses > 0  # type: ignore[return-value]


# -- review -------------------------------------------------------------------------------


def cmd_review(args: argparse.Namespace) -> int:
    """Review a record move by move; Ctrl-C stops and prints the moves reviewed so far."""
    from battle.cli.inputs import load_record

    # The record and the graph's file are checked before the solver loads: a typo is refused at once.
    record = load_record(args.file)
    if args.plot:
        _check_plot_path(args.plot, args.force)
    from battle.atlas.catalogue import Catalogue
    from battle.cli.review_text import format_review
    from battle.players import ReviewStep

    # A catalogued deal's first position is known exactly: its first move is graded on that.
    known_start = Catalogue.load().known_start(record.deal, record.start)
    reviewer = _advisor(args, record.start, reviewer=True)
    stopping = threading.Event()

    def report(step: ReviewStep) -> None:
        if args.quiet:
            return
        state = _("exact") if step.exact else _("depth {depth}, estimate").format(depth=step.depth)
        seconds = format_number(step.seconds, 2)
        if step.move is None:
            line = _("final position  player {player} to move  ({state}, {seconds}s)").format(
                player=step.player, state=state, seconds=seconds
            )
        else:
            line = _(
                "move {number}/{total}  {move}  player {player}  loss {loss}  {grade}  ({state}, {seconds}s)"
            ).format(
                number=step.number,
                total=step.total,
                move=step.move,
                player=step.player,
                loss=step.loss,
                grade=grade_word(step.classification or ""),
                state=state,
                seconds=seconds,
            )
        note(line)

    def work():  # noqa: ANN202
        return reviewer.review(
            record, seconds=args.time, progress=report, should_stop=stopping.is_set, known_start=known_start
        )

    def stop() -> None:
        stopping.set()  # first, so the review drops the search being cut short
        reviewer.stop()

    review, interrupted = run_interruptibly(
        work,
        stop,
        "interrupted: stopping the review; the moves reviewed so far follow",
        repeat_stop=True,
    )
    if args.json:
        print(json.dumps(review.to_json()))
    else:
        sys.stdout.write(format_review(review, review.names))
    if args.plot:
        _save_plot(review, args.plot)
        if not args.quiet:
            note(_("evaluation graph written to {path}").format(path=args.plot))
    keep_accuracy(review, record, quiet=args.quiet)
    if interrupted:
        note(
            _("review stopped after move {number} of {total}").format(
                number=len(review.moves), total=review.moves_in_record
            )
        )
        return 130
    return 0


def keep_accuracy(review, record, *, quiet: bool = False) -> None:  # noqa: ANN001 - Review, Record or Game
    """A review that graded a finished game to its end gives the game's entry in the history both
    players' accuracy, as the window's review does, for ``stats`` to show. A game the history does
    not hold (someone else's, or no history yet) is left as it is, in silence."""
    from battle.history.review_accuracy import store_review_accuracy
    from battle.history.store import History, default_history_path
    from battle.rules.game import Game
    from battle.storage.paths import StorageProblem

    if not review.complete or review.result is None:
        return
    try:
        path = default_history_path()
    except StorageProblem:  # no usable data folder: no history to add to
        return
    if not path.is_file():
        return
    first, second = review.summary()
    game = record if isinstance(record, Game) else Game.from_record(record)
    with History() as history:
        number = store_review_accuracy(history, game.to_text(), (first.accuracy, second.accuracy))
        for notice in history.take_notices():
            note(_("game history: {notice}").format(notice=notice))
    if number is not None and not quiet:
        note(_("the accuracy is kept with game #{number} of the history ('stats' shows it)").format(number=number))


def _check_plot_path(path: str, force: bool) -> None:
    """Fail before a long review, not after it, if the graph cannot be written there (a FIFO, a
    device, a name the system refuses) or would replace a file without ``--force``."""
    from battle.cli.inputs import InputError, output_file
    from battle.rules.errors import shorten_name

    shown = shorten_name(path)
    if not path.lower().endswith(".png"):
        raise InputError(
            _("--plot {shown}: the graph is written as PNG, the name must end in .png").format(shown=shown)
        )
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(
            _("--plot {shown}: folder {shorten_name} does not exist").format(
                shown=shown, shorten_name=shorten_name(folder)
            )
        )
    if os.path.isdir(path):
        raise InputError(_("--plot {shown}: is a folder").format(shown=shown))
    output_file(path, "--plot", force=force)


def _save_plot(review, path: str) -> None:  # noqa: ANN001 - battle.players.review_report.Review
    from battle.cli.inputs import InputError
    from battle.rules.errors import shorten_name

    # Drawing needs no display; the dummy driver guarantees no window can open.
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame

        from battle.ui.widgets.eval_graph import save_eval_graph
    except ImportError as error:
        raise InputError(
            _("--plot needs pygame-ce ({error}); the review itself works without it").format(error=error)
        ) from None
    try:
        save_eval_graph(review, path)
    except (OSError, pygame.error) as error:
        raise InputError(
            _("--plot {shorten_name}: cannot write the image ({error})").format(
                shorten_name=shorten_name(path), error=error
            )
        ) from None
