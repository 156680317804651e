"""Solver subcommands: ``solve`` and ``analyse``.

Kept apart from ``battle.cli`` so that the model and its plain subcommands
never import numba; the solver loads only when one of these runs.
"""

from __future__ import annotations

import argparse
import json
import sys

from battle.board import move_name

MIB = 1 << 20


def add_commands(commands: argparse._SubParsersAction) -> None:
    sub = commands.add_parser("solve", help="solve a position exactly (value, best moves, best line)")
    _add_common(sub)
    sub.add_argument("--json", action="store_true", help="print the solver JSON of the notation spec")
    sub.set_defaults(run=cmd_solve)

    sub = commands.add_parser("analyse", aliases=["analyze"], help="every legal move with its exact value")
    _add_common(sub)
    sub.add_argument("--json", action="store_true", help="print JSON: the solve fields plus every move's value")
    sub.set_defaults(run=cmd_analyse)


def _add_common(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("file", help=".mbp or .mbg file, or - for standard input")
    sub.add_argument("--time", type=_positive_float, metavar="S", help="stop after S seconds with the best so far")
    sub.add_argument("--nodes", type=_positive_int, metavar="N", help="stop after N nodes")
    sub.add_argument("--depth", type=_positive_int, metavar="D", help="search at most D moves deep")
    sub.add_argument("--hash", type=_positive_int, default=256, metavar="MB",
                     help="transposition table size in MiB (default 256)")
    sub.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number")
    return value


def _positive_int(text: str) -> int:
    if not text.isdigit() or int(text) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive whole number")
    return int(text)


def _table_bits(megabytes: int) -> int:
    """The largest table (slots of 32 bytes) that fits in the given MiB."""
    slots = max(1 << 10, megabytes * MIB // 32)
    return min(30, slots.bit_length() - 1)


def _describe_value(value: int, mover: int) -> str:
    if value > 0:
        return f"player {mover} (to move) wins the rest by {value}"
    if value < 0:
        return f"player {mover} (to move) loses the rest by {-value}"
    return "the rest is drawn"


def cmd_solve(args: argparse.Namespace) -> int:
    position, analysis = _search_interruptibly(args, all_exact=False)
    if args.json:
        print(json.dumps(analysis.to_json()))
        return 0
    exact = "exact" if analysis.exact else f"not exact (depth {analysis.depth}; a limit stopped the search)"
    print(f"value: {analysis.value:+d}  ({_describe_value(analysis.value, position.to_move)}; {exact})")
    print(f"final score: {analysis.final_score[0]}-{analysis.final_score[1]}")
    print(f"best moves: {' '.join(move_name(m) for m in analysis.best_moves) or '(none: the game is over)'}")
    print(f"best line: {' '.join(move_name(m) for m in analysis.pv)}")
    print(f"nodes: {analysis.nodes:,} in {analysis.seconds:.2f}s")
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    position, analysis = _search_interruptibly(args, all_exact=True)
    if args.json:
        data = analysis.to_json()
        data["moves"] = [
            {"move": mv.notation, "value": mv.value, "bound": mv.bound, "points": position.move_points(mv.move)}
            for mv in analysis.move_values
        ]
        print(json.dumps(data))
        return 0
    state = "exact" if analysis.exact else f"depth {analysis.depth}, not exact"
    print(f"player {position.to_move} to move, score {position.scores[0]}-{position.scores[1]}, "
          f"{position.points_on_board()} points on the board ({state})")
    if not analysis.move_values:
        print("no pair left: the game is over")
        return 0
    best = set(analysis.best_moves)
    print("  move      points  value")
    for mv in analysis.move_values:
        mark = "*" if mv.move in best else " "
        print(f"{mark} {mv.notation:<8}  {position.move_points(mv.move):>5}  {mv.describe():>6}")
    print(f"* best; value = final margin for the mover under perfect play; best line: "
          f"{' '.join(move_name(m) for m in analysis.pv)}")
    return 0


def _search_interruptibly(args: argparse.Namespace, all_exact: bool):  # noqa: ANN202
    """Run the search on a worker thread so Ctrl-C can stop it and still print a result."""
    import threading

    from battle.cli import load_position
    from solver.engine import Engine

    position = load_position(args.file)
    engine = Engine(_table_bits(args.hash))
    outcome: dict = {}

    def report(progress) -> None:  # noqa: ANN001
        if args.quiet:
            return
        elapsed = max(progress.seconds, 1e-9)
        depth = "exact" if progress.exact else f"depth {progress.depth}"
        best = move_name(progress.best_move) if progress.best_move else "-"
        print(
            f"  {depth:>9}  value {progress.value:+d}  best {best}  "
            f"{progress.nodes:,} nodes  {progress.nodes / elapsed / 1e6:.2f} Mnodes/s  {elapsed:.1f}s",
            file=sys.stderr,
            flush=True,
        )

    def work() -> None:
        try:
            outcome["analysis"] = engine.search(
                position, time_limit=args.time, node_limit=args.nodes, depth_limit=args.depth,
                all_exact=all_exact, progress=report,
            )
        except BaseException as error:  # re-raised in the main thread
            outcome["error"] = error

    worker = threading.Thread(target=work, name="solver", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.1)
    except KeyboardInterrupt:
        print("interrupted: stopping with the best result so far", file=sys.stderr)
        engine.stop()
        worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return position, outcome["analysis"]
