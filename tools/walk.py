"""The walk of a move and of a hint through the server, traced: the files, functions, processes and
threads from the message received to its answer sent, as Markdown tables.

    python tools/walk.py                                       a move and a hint, --processes 1 and 2
    python tools/walk.py --walks move --processes 1 --repeats 2 --quiet 1.5    a quick look (its test)
    python tools/walk.py --functions --out walk-calls          every function too; the calls kept

Each ``--processes`` value is a real ``mahjong-battle serve`` on 127.0.0.1 with a fresh database
(``tests/online_server.py``'s ``ServerProcess``) and ``--solver-workers`` workers, every process of
it traced by ``tools/walk_probe.py`` (a ``sitecustomize.py`` on its ``PYTHONPATH`` loads it: the
supervisor, the game processes it starts with ``python -m battle`` and the pool's spawned workers
alike). The probe records only inside a window the tool opens just before it sends the walk's
message and closes ``--tail`` seconds after the answer has come, so the handling's last calls, made
just after the answer is written, are in every window alike: a move of a friends' game (``move``,
until both players have ``moved``) and a hint in a game against the solver (``hint``, until
``hint_result``), each from connections placed in the last game process (``?at=N-1``: with two,
process 1, whose pool is process 0's). One move and one hint go first unrecorded (first-time
set-ups are no step of a walk), and the tool waits ``--settle`` seconds before each window, so no
answer's tail falls into the next.

A window also holds what runs on its own meanwhile (a clock's tick, a beat, the stats written, the
pool's place of each waiting request asked every second). The probe writes each call with its
caller, the nearest project function below it on the stack (a thread pool's work item: the one that
handed it over), so a window's calls form a graph whose roots are the functions called from outside
it (an event loop's callback, a thread's loop). A quiet window (``--quiet`` seconds, nothing sent)
first shows what runs on its own. A walk is every root the quiet window never had, and all it calls;
a root it had (a timer's, or a loop's that reads every kind of request) counts only for a call it
makes itself that the quiet window never saw it make (a request of a new kind), and what that calls.
A function counts when every one of the ``--repeats`` walks reaches it. What stays uncertain is a
timer that finds a request waiting: a hint still waiting when the place of each waiting request is
asked for (once a second) draws that asking across processes into its walk, in every repetition of
a run or none, depending on when the run began.

Nothing here names a module of the server: files, processes and threads come from what is traced
(a process is named from its command line: ``serve``, ``supervisor``, ``process K`` from
``--process-of``, or its parent's ``worker``). The page's side is read, not traced:
``PAGE_WALKS`` lists the modules of ``battle/web`` a move and a hint pass through, and the tool
checks that each function it names is still in its module.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import mmap
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree's tests package (the server and its client) and battle

from tests.online_server import Client, ServerProcess, a_legal_move, host_and_join  # noqa: E402

PROBE = Path(__file__).resolve().parent / "walk_probe.py"
WINDOW_VARIABLE = "MAHJONG_BATTLE_WALK_WINDOW"
ROOT_VARIABLE = "MAHJONG_BATTLE_WALK_ROOT"
"""The probe's variables (``walk_probe.WINDOW_VARIABLE`` and ``ROOT_VARIABLE``), named again here so
that the tool does not import the probe, whose import in a server process is what starts tracing."""
WALKS = ("move", "hint")
QUIET_WINDOW = 1
READY_SECONDS = 600.0
"""The longest the solver's workers get to load their kernels: a first compile on a loaded machine
takes minutes."""
ANSWER_SECONDS = 60.0
PROCESS_OF = re.compile(r"--process-of[= ](\d+)/\d+")

PAGE_WALKS: dict[str, tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...]] = {
    "move": (
        (
            "the second tile's click to the socket's send",
            (
                ("board.js", "onPick", "the tile's button reports the pick"),
                ("game_screen.js", "pick", "the second tile of a pair makes the move"),
                ("rules.js", "moveName", "the pair in notation"),
                ("socket.js", "play", "a move id; the move stays pending until its ack"),
                ("seats.js", "keepSeat", "the pending move kept in localStorage, resent after a reload"),
                ("connection.js", "send", "JSON on the WebSocket"),
            ),
        ),
        (
            "the other browser: the socket's message to the board drawn",
            (
                ("connection.js", "onMessage", "the socket's message listener parses the JSON"),
                ("socket.js", "afterMove", "receive folds the move into the state, then tells the screen"),
                ("seats.js", "keepSeat", "the seat's status kept"),
                ("game_screen.js", "render", "the moved handler, then the screen drawn"),
                ("game_panels.js", "renderLine", "the line's state"),
                ("dom.js", "$", "an element by its id"),
                ("i18n.js", "t", "the words"),
                ("game_view.js", "deriveView", "the position after every move, its free and playable tiles"),
                ("rules.js", "playableCells", "the rules on the page"),
                ("alerts.js", "news", "the opponent moved: your turn"),
                ("server_words.js", "nameOf", "the opponent's name"),
                ("board.js", "render", "each cell's tile, class and label"),
                ("tile_words.js", "tileWords", "a tile in words"),
            ),
        ),
    ),
    "hint": (
        (
            "the hint button's click to the socket's send",
            (
                ("game_screen.js", "askHint", "the button's click listener"),
                ("solver_panel.js", "clear", "a refused hint's retry dropped"),
                ("socket.js", "askHint", "the hint asked"),
                ("connection.js", "send", "JSON on the WebSocket"),
            ),
        ),
        (
            "the socket's message to the hint shown",
            (
                ("connection.js", "onMessage", "the socket's message listener parses the JSON"),
                ("socket.js", "hint_result", "receive keeps the hint, then tells the screen"),
                ("game_screen.js", "hint_result", "the handler, then the screen drawn (render)"),
                ("solver_panel.js", "clear", "the retry clock stopped"),
                ("game_panels.js", "renderLine", "the line's state"),
                ("dom.js", "$", "an element by its id"),
                ("i18n.js", "t", "the words"),
                ("game_view.js", "deriveView", "the position, its free and playable tiles"),
                ("rules.js", "playableCells", "the rules on the page"),
                ("alerts.js", "news", "nothing new to say"),
                ("server_words.js", "nameOf", "the players' names"),
                ("board.js", "render", "each cell's tile, class and label"),
                ("tile_words.js", "tileWords", "a tile in words"),
                ("clock.js", "clockWords", "the turn line's clock"),
                ("invite_panel.js", "render", "the invitation, hidden in a game begun"),
                ("name_panel.js", "render", "the ask for a name, hidden against the solver"),
                ("solver_panel.js", "hintWords", "renderSolverPanel shows the hint in words"),
            ),
        ),
    ),
}
"""The page's part of each walk, read from ``battle/web`` (a browser's calls are not traced here):
each step its module, a function the step calls there, and what it does."""


Thread = tuple[int, int]
"""A process's pid and a thread's ident."""
Function = tuple[str, str]
"""A file (relative to the checkout) and a function's qualified name."""


@dataclass(frozen=True)
class Call:
    """One line of the probe: a function called from another in one thread of one process."""

    window: int
    time: float
    pid: int
    thread: int
    thread_name: str
    callee: tuple[str, str]
    caller: tuple[str, str] | None
    handed: bool
    """The caller handed the call over from another thread (a thread pool's work item)."""

    @property
    def where(self) -> Thread:
        return (self.pid, self.thread)


@dataclass
class Trace:
    """What every process of one server wrote: its calls and each process's parent and command line."""

    calls: list[Call] = field(default_factory=list)
    parents: dict[int, int] = field(default_factory=dict)
    commands: dict[int, str] = field(default_factory=dict)

    def names(self, root_pid: int) -> dict[int, str]:
        """A name for each process: ``serve`` (one process) or ``supervisor``, ``process K`` for a game
        process (its ``--process-of``), else its parent's name and ``worker``."""
        names: dict[int, str] = {}

        def name(pid: int) -> str:
            if pid not in names:
                found = PROCESS_OF.search(self.commands.get(pid, ""))
                if pid == root_pid:
                    names[pid] = "supervisor" if any(PROCESS_OF.search(c) for c in self.commands.values()) else "serve"
                elif found:
                    names[pid] = f"process {found.group(1)}"
                elif self.parents.get(pid) in self.commands:
                    names[pid] = f"{name(self.parents[pid])} worker"
                else:
                    names[pid] = f"pid {pid}"
            return names[pid]

        for pid in self.commands:
            name(pid)
        return names


def read_trace(folder: Path) -> Trace:
    trace = Trace()
    for path in sorted(folder.glob("calls-*.tsv")):
        pid = 0
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            parts = line.split("\t")
            if parts[0] == "process" and len(parts) >= 4:
                pid = int(parts[1])
                trace.parents[pid] = int(parts[2])
                trace.commands[pid] = parts[3]
            elif parts[0] == "call" and len(parts) == 10:
                number, clock, thread, thread_name, *functions, handed = parts[1:]
                caller = (functions[2], functions[3]) if functions[2] else None
                callee = (functions[0], functions[1])
                trace.calls.append(
                    Call(int(number), float(clock), pid, int(thread), thread_name, callee, caller, handed == "handed")
                )
    return trace


Edge = tuple[int, Function | None, Function]
"""A call as the quiet window knows it: the process, the calling project function (None: none on the
stack) and the function called, in whichever of the process's threads (an executor's threads take
turns at the same work)."""


class Graph:
    """One window's calls as a graph: each thread's functions, with the calls each made in its thread
    and the work items it handed to another thread of its process."""

    def __init__(self, calls: list[Call]) -> None:
        self.calls = calls
        self.called: dict[Thread, set[Function]] = collections.defaultdict(set)
        self.called_in: dict[int, set[Function]] = collections.defaultdict(set)
        self.children: dict[tuple[Thread, Function], list[tuple[Thread, Function]]] = collections.defaultdict(list)
        """What each function called in its thread, then the work items it handed to other threads."""
        self.handed: set[tuple[tuple[Thread, Function], tuple[Thread, Function]]] = set()
        self.first: dict[tuple[Thread, Function], float] = {}
        for call in calls:
            self.called[call.where].add(call.callee)
            self.called_in[call.pid].add(call.callee)
            key = (call.where, call.callee)
            self.first[key] = min(self.first.get(key, call.time), call.time)
        for call in calls:
            if call.caller is None:
                continue
            if call.handed:  # from whichever thread of the process ran the caller
                for where in self.called:
                    if where[0] == call.pid and call.caller in self.called[where]:
                        self.children[(where, call.caller)].append((call.where, call.callee))
                        self.handed.add(((where, call.caller), (call.where, call.callee)))
            else:
                self.children[(call.where, call.caller)].append((call.where, call.callee))

    def roots(self) -> set[tuple[Thread, Function]]:
        """The functions called from outside the window's own calls: from a frame that began before the
        window (an event loop's run, a thread's loop) or from no project function at all."""
        found = set()
        for call in self.calls:
            known = self.called_in[call.pid] if call.handed else self.called[call.where]
            if call.caller is None or call.caller not in known:
                found.add((call.where, call.callee))
        return found


@dataclass(frozen=True)
class Background:
    """What the processes do with nothing sent: the quiet window's roots and calls, by process (in
    whichever thread: an executor's threads take turns at the same work)."""

    roots: set[tuple[int, Function]]
    calls: set[tuple[int, Function | None, Function]]

    @staticmethod
    def of(calls: list[Call]) -> Background:
        roots = {(where[0], function) for where, function in Graph(calls).roots()}
        return Background(roots, {(call.pid, call.caller, call.callee) for call in calls})


@dataclass(frozen=True)
class Step:
    """A function of a walk: where it ran and when it was first called."""

    process: str
    thread: str
    function: Function
    time: float


def walk_of(calls: list[Call], background: Background, names: dict[int, str]) -> list[Step]:
    """A window's walk, in the order its functions were first called: each root the quiet window never
    had (a connection's message, a worker's answer) and all it calls, in its thread and in the threads
    it hands work to. A root the quiet window had is a timer's, or a loop's that reads requests of
    every kind: it counts only for a call it makes itself, in its thread, that the quiet window never
    saw it make (a request of a new kind), and what that calls. A timer that finds more to do because
    a request waits stays out: its new calls are below its old ones, or handed to a thread pool."""
    graph = Graph(calls)
    thread_names = {call.where: call.thread_name for call in calls}
    reached: set[tuple[Thread, Function]] = set()
    todo: list[tuple[Thread, Function]] = []
    for where, root in graph.roots():
        pid = where[0]
        if (pid, root) not in background.roots:
            todo.append((where, root))
            continue
        new = [
            child
            for child in graph.children[(where, root)]
            if (pid, root, child[1]) not in background.calls and ((where, root), child) not in graph.handed
        ]
        if new:
            reached.add((where, root))
            todo.extend(new)
    expanded: set[tuple[Thread, Function]] = set()
    while todo:
        key = todo.pop()
        if key not in expanded:
            expanded.add(key)
            reached.add(key)
            todo.extend(graph.children[key])
    steps = [
        Step(names[where[0]], thread_names[where], function, graph.first[(where, function)])
        for where, function in reached
    ]
    return sorted(steps, key=lambda step: step.time)


@dataclass
class Walk:
    """One walk at one ``--processes``: its steps, those every repetition reached, in order."""

    name: str
    processes: int
    steps: list[Step]

    @property
    def files(self) -> list[str]:
        return list(dict.fromkeys(step.function[0] for step in self.steps))

    @property
    def functions(self) -> set[tuple[str, Function]]:
        return {(step.process, step.function) for step in self.steps}

    @property
    def process_names(self) -> list[str]:
        return list(dict.fromkeys(step.process for step in self.steps))

    @property
    def threads(self) -> list[str]:
        return list(dict.fromkeys(f"{step.process} {step.thread}" for step in self.steps))


def common_walk(name: str, processes: int, walks: list[list[Step]]) -> Walk:
    """The functions every repetition reached (in whichever thread of their process: an executor's
    threads take turns), as the first repetition ran them."""
    kept = set.intersection(*({(step.process, step.function) for step in steps} for steps in walks))
    return Walk(name, processes, [step for step in walks[0] if (step.process, step.function) in kept])


class Windows:
    """The one-byte window file every traced process maps: the tool writes a window's number to open
    it and 0 to close it."""

    def __init__(self, path: Path) -> None:
        path.write_bytes(b"\0")
        self.path = path
        self._file = path.open("r+b")
        self._map = mmap.mmap(self._file.fileno(), 1)

    @contextlib.contextmanager
    def open(self, number: int) -> Iterator[None]:
        self._map[0] = number
        try:
            yield
        finally:
            self._map[0] = 0

    def close(self) -> None:
        self._map.close()
        self._file.close()


def prelude() -> str:
    """The ``sitecustomize.py`` of every server process: the probe loaded from its file and installed."""
    return (
        "import importlib.util\n"
        f"_spec = importlib.util.spec_from_file_location('walk_probe', {str(PROBE)!r})\n"
        "_probe = importlib.util.module_from_spec(_spec)\n"
        "_spec.loader.exec_module(_probe)\n"
        "_probe.install()\n"
    )


class MoveWalk:
    """A friends' game: each walk one player's move, until both players have its ``moved``."""

    def __init__(self, url: str) -> None:
        self.host, self.guest, _created, _joined = host_and_join(url)
        self.state = self.host.seen[-1]
        self.ply = 0

    def walk(self) -> None:
        mover, other = (self.host, self.guest) if self.ply % 2 == 0 else (self.guest, self.host)
        move = a_legal_move(self.state)
        mover.send({"type": "move", "move": move, "id": f"walk{self.ply}"})
        mover.expect("moved", ANSWER_SECONDS)
        other.expect("moved", ANSWER_SECONDS)
        self.state = {**self.state, "moves": [*self.state["moves"], move]}
        self.ply += 1

    def after(self) -> None:
        """Nothing follows a move."""

    def close(self) -> None:
        self.host.close()
        self.guest.close()


class HintWalk:
    """A game against the solver: each walk a ``hint`` on the player's turn, until its ``hint_result``;
    between two, the player's move and the solver's."""

    def __init__(self, url: str, level: str, deal: int) -> None:
        self.player = Client(url, "Ann")
        self.player.send({"type": "solver_game", "level": level, "deal": {"number": deal}, "first": "creator"})
        self.player.expect("solver_created", ANSWER_SECONDS)
        self.state: dict[str, Any] = self.player.expect("state", ANSWER_SECONDS)

    def walk(self) -> None:
        self.player.send({"type": "hint"})
        self.player.expect("hint_result", ANSWER_SECONDS)

    def after(self) -> None:
        """The player's move and the solver's answer, so that the next hint is the player's again."""
        move = a_legal_move(self.state)
        self.player.send({"type": "move", "move": move, "id": f"walk{len(self.state['moves'])}"})
        self.player.expect("moved", ANSWER_SECONDS)
        answer = self.player.expect("moved", ANSWER_SECONDS)
        self.state = {**self.state, "moves": [*self.state["moves"], move, answer["move"]]}

    def close(self) -> None:
        self.player.close()


def wait_for_workers(server: ServerProcess, workers: int) -> None:
    """Back once every worker has its kernels loaded (``/stats``: ``solver_workers_ready``)."""
    deadline = time.monotonic() + READY_SECONDS
    while int(server.stats().get("solver_workers_ready", "0")) < workers:
        if time.monotonic() > deadline:
            raise SystemExit(f"walk.py: the solver's workers were not ready within {READY_SECONDS:.0f} s")
        time.sleep(0.2)


def measure(processes: int, args: argparse.Namespace, folder: Path) -> list[Walk]:
    """One server of ``processes`` processes: its quiet window, then each walk's repetitions."""
    folder.mkdir(parents=True, exist_ok=True)
    windows = Windows(folder / "window")
    workers = args.solver_workers if "hint" in args.walks else 0
    env = {WINDOW_VARIABLE: str(windows.path), ROOT_VARIABLE: str(ROOT)}
    flags = ("--processes", str(processes), "--solver-workers", str(workers))
    numbers: dict[str, list[int]] = {name: [] for name in args.walks}
    try:
        with ServerProcess(folder / "server", *flags, prelude=prelude(), env=env) as server:
            wait_for_workers(server, workers)
            url = f"{server.url}/?at={processes - 1}"
            players: dict[str, MoveWalk | HintWalk] = {}
            for name in args.walks:
                players[name] = MoveWalk(url) if name == "move" else HintWalk(url, args.level, args.deal)
                players[name].walk()  # first-time set-ups, unrecorded
                players[name].after()
            time.sleep(args.settle)
            with windows.open(QUIET_WINDOW):
                time.sleep(args.quiet)
            number = QUIET_WINDOW
            for name in args.walks:
                for _repeat in range(args.repeats):
                    number += 1
                    time.sleep(args.settle)
                    with windows.open(number):
                        players[name].walk()
                        time.sleep(args.tail)
                    numbers[name].append(number)
                    players[name].after()
            for player in players.values():
                player.close()
            root_pid = server.pid
    finally:
        windows.close()
    trace = read_trace(folder)
    names = trace.names(root_pid)
    by_window: dict[int, list[Call]] = collections.defaultdict(list)
    for call in trace.calls:
        by_window[call.window].append(call)
    background = Background.of(by_window[QUIET_WINDOW])
    return [
        common_walk(name, processes, [walk_of(by_window[n], background, names) for n in numbers[name]])
        for name in args.walks
    ]


def checked_page() -> list[str]:
    """``PAGE_WALKS``'s steps whose function is no longer in their module (the list is to be read again)."""
    web = ROOT / "battle" / "web"
    missing = []
    for sides in PAGE_WALKS.values():
        for _side, steps in sides:
            for module, function, _what in steps:
                path = web / module
                text = path.read_text(encoding="utf-8") if path.is_file() else ""
                if not re.search(rf"(?<![\w$]){re.escape(function)}(?![\w$])", text):
                    missing.append(f"{module}: {function}")
    return missing


def page_modules(name: str) -> tuple[list[int], int]:
    """How many modules each side of the page's walk passes, and how many distinct in all."""
    sides = PAGE_WALKS.get(name, ())
    counts = [len(dict.fromkeys(module for module, _f, _w in steps)) for _side, steps in sides]
    every = {module for _side, steps in sides for module, _f, _w in steps}
    return counts, len(every)


def revision() -> str:
    """The commit measured, flagged when battle/ or solver/ has changes not committed."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "battle", "solver"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "(no git)"
    return commit + (" with changes" if dirty else "")


def table(walks: list[Walk], args: argparse.Namespace) -> str:
    command = " ".join(["python tools/walk.py", *sys.argv[1:]])
    lines = [
        f"`{command}` at {revision()}, {time.strftime('%Y-%m-%d')}: the server's files traced (each function "
        f"of battle/ and solver/ called from the message received to its answer sent, in each of {args.repeats} "
        "repetitions), the page's modules read from battle/web.",
        "",
        "| walk | --processes | server files | functions | processes | threads | page modules (read) |",
        "|---|---:|---:|---:|---|---|---|",
    ]
    for walk in walks:
        counts, every = page_modules(walk.name)
        page = " + ".join(str(count) for count in counts) + f" ({every} distinct)" if counts else "-"
        lines.append(
            f"| {walk.name} | {walk.processes} | {len(walk.files)} | {len(walk.functions)} | "
            f"{len(walk.process_names)}: {', '.join(walk.process_names)} | "
            f"{len(walk.threads)}: {', '.join(walk.threads)} | {page} |"
        )
    for walk in walks:
        lines += [
            "",
            f"### {walk.name}, --processes {walk.processes}: {len(walk.files)} files in order of first call",
            "",
            "| # | file | functions | process: threads |",
            "|---:|---|---:|---|",
        ]
        for number, name in enumerate(walk.files, 1):
            steps = [step for step in walk.steps if step.function[0] == name]
            where: dict[str, list[str]] = {}
            for step in steps:
                where.setdefault(step.process, [])
                if step.thread not in where[step.process]:
                    where[step.process].append(step.thread)
            places = "; ".join(f"{process}: {', '.join(threads)}" for process, threads in where.items())
            count = len({(step.process, step.function) for step in steps})
            lines.append(f"| {number} | {name} | {count} | {places} |")
        if args.functions:
            lines += ["", "| first call | process | thread | file | function |", "|---:|---|---|---|---|"]
            start = walk.steps[0].time if walk.steps else 0.0
            for step in walk.steps:
                lines.append(
                    f"| {1000 * (step.time - start):.2f} ms | {step.process} | {step.thread} | "
                    f"{step.function[0]} | {step.function[1]} |"
                )
    shown = [name for name in WALKS if name in {walk.name for walk in walks}]
    lines += ["", "### The page (read from battle/web, not traced)", "", "| walk | side | modules | steps |"]
    lines.append("|---|---|---:|---|")
    for name in shown:
        for side, page_steps in PAGE_WALKS[name]:
            modules = len(dict.fromkeys(module for module, _f, _w in page_steps))
            path = ", ".join(f"{module} ({function})" for module, function, _what in page_steps)
            lines.append(f"| {name} | {side} | {modules} | {path} |")
    return "\n".join(lines)


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--walks", default="move,hint", help="move, hint or both (default: move,hint)")
    parser.add_argument("--processes", default="1,2", help="serve's --processes, one server each (default: 1,2)")
    parser.add_argument("--repeats", type=int, default=3, help="recorded walks of each kind (default: 3)")
    parser.add_argument("--solver-workers", type=int, default=1, help="the pool's workers for the hint (default: 1)")
    parser.add_argument("--level", default="beginner", help="the solver's level in the hint's game")
    parser.add_argument("--deal", type=int, default=5, help="the numbered deal of both games (default: 5)")
    parser.add_argument("--quiet", type=float, default=2.5, help="seconds of the quiet window (default: 2.5)")
    parser.add_argument("--settle", type=float, default=0.3, help="seconds waited before each window")
    parser.add_argument(
        "--tail", type=float, default=0.05, help="seconds a window stays open after the answer (default: 0.05)"
    )
    parser.add_argument("--functions", action="store_true", help="also list every function of each walk")
    parser.add_argument("--out", type=Path, help="keep the probe's files here (default: a temporary folder)")
    args = parser.parse_args(argv)
    args.walks = [name.strip() for name in args.walks.split(",") if name.strip()]
    unknown = [name for name in args.walks if name not in WALKS]
    if unknown or not args.walks:
        parser.error(f"--walks: {', '.join(unknown) or 'none'} is not one of {', '.join(WALKS)}")
    try:
        args.processes = [int(count) for count in args.processes.split(",")]
    except ValueError:
        parser.error(f"--processes: {args.processes!r} is not a list of whole numbers")
    if any(count < 1 for count in args.processes) or args.repeats < 1:
        parser.error("--processes and --repeats: 1 or more")
    if "hint" in args.walks and args.solver_workers < 1:
        parser.error("--solver-workers: a hint needs 1 or more")
    return args


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    missing = checked_page()
    if missing:
        print(f"walk.py: PAGE_WALKS names what the page no longer has: {'; '.join(missing)}", file=sys.stderr)
        return 1
    walks: list[Walk] = []
    with contextlib.ExitStack() as stack:
        out = args.out or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="walk-")))
        for processes in args.processes:
            print(f"walk.py: serve --processes {processes} ...", file=sys.stderr, flush=True)
            walks += measure(processes, args, out / f"processes-{processes}")
    walks.sort(key=lambda walk: (WALKS.index(walk.name), walk.processes))
    print(table(walks, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
