"""A Ctrl-C at any moment of a search's run stops the search: ``run_interruptibly`` in this process,
the signal raised at the moments a busy machine stretches (inside ``Thread.start``, while the work
ends), and the search's ``stop`` seen to be called."""

from __future__ import annotations

import signal
import threading

import pytest

from battle.cli import solver_commands
from battle.cli.solver_commands import run_interruptibly


class Search:
    """Work that runs until it is stopped, as a search without limits does."""

    def __init__(self) -> None:
        self.stopped = threading.Event()
        self.began = threading.Event()

    def run(self) -> str:
        self.began.set()
        assert self.stopped.wait(60), "nobody stopped the search"
        return "answer so far"


def test_a_ctrl_c_while_the_search_thread_starts_stops_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    search = Search()
    start = threading.Thread.start

    def start_with_a_ctrl_c(thread: threading.Thread) -> None:
        signal.raise_signal(signal.SIGINT)  # the press lands while start waits for the thread
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", start_with_a_ctrl_c)
    lines: list[str] = []
    monkeypatch.setattr(solver_commands, "note", lines.append)
    result, interrupted = run_interruptibly(search.run, search.stopped.set, "stopping")
    assert (result, interrupted, lines) == ("answer so far", True, ["stopping"])


def test_a_ctrl_c_during_the_search_stops_it_and_the_handler_before_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    search = Search()
    before = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(solver_commands, "note", lambda line: None)

    def press_once_begun() -> None:
        search.began.wait(60)
        signal.raise_signal(signal.SIGINT)

    threading.Thread(target=press_once_begun, daemon=True).start()
    assert run_interruptibly(search.run, search.stopped.set, "stopping") == ("answer so far", True)
    assert signal.getsignal(signal.SIGINT) is before


def test_a_second_ctrl_c_abandons_the_work(monkeypatch: pytest.MonkeyPatch) -> None:
    begun, told, ends = threading.Event(), threading.Event(), threading.Event()
    monkeypatch.setattr(solver_commands, "note", lambda line: told.set())

    def deaf_work() -> None:  # ignores its stop, as a search stuck in a long step would
        begun.set()
        ends.wait(60)

    def press_twice() -> None:
        begun.wait(60)
        signal.raise_signal(signal.SIGINT)
        told.wait(60)  # two presses before the first is handled are one
        signal.raise_signal(signal.SIGINT)

    threading.Thread(target=press_twice, daemon=True).start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_interruptibly(deaf_work, lambda: None, "stopping")
    finally:
        ends.set()


def test_a_ctrl_c_the_process_ignores_stays_ignored_while_the_search_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A background job's Ctrl-C (SIGINT ignored, as a shell starts it) reaches no search."""
    search = Search()
    seen: list[object] = []

    def look_then_end() -> str:
        seen.append(signal.getsignal(signal.SIGINT))
        return "done"

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert run_interruptibly(look_then_end, search.stopped.set, "stopping") == ("done", False)
        assert seen == [signal.SIG_IGN] and signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
