"""Fixtures for every test module.

``private_home`` is automatic: every test's settings and saved games live in its own
temporary folder, so no test reads or writes the user's real files, whatever it
forgets to redirect. A test that needs its own layout sets the variables again. The language is English
(``LANGUAGE=en``) whatever the machine's locale, unless a test asks for another.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import witnesses
from tests.interleave import interleaved
from tests.leftover_processes import ProcessLedger, end_and_name, key_of, running_descendants

LEDGER = ProcessLedger()
"""The processes this test process's higher-scoped fixtures started (``tests/leftover_processes.py``)."""


def bytecode_written() -> None:
    """The suite's processes write and reuse the checkout's bytecode (``__pycache__``, ignored by git),
    whatever ``PYTHONDONTWRITEBYTECODE`` the machine sets (container images often do, CI's among them).
    Without it every one of the suite's Python processes (servers, command lines, workers, over a
    thousand a run) compiles the checkout's modules from source again: the game server's imports
    cost 0.29 CPU s from source and 0.18 s from bytecode, and pytest rewrites the assertions of all
    289 test modules in each worker again (10 of a collection's 14 s). Run in the controller before
    pytest-xdist starts its workers (``pytest_configure``), which inherit the environment."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


@pytest.fixture(autouse=True)
def every_process_ends(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every process the test started has ended once its fixtures are torn down (this fixture is
    set up first and torn down last); one still running is killed by PID and fails the test. A
    test marked ``hands_processes_to("fixture")`` gives what it leaves to that running module- or
    session-scoped fixture, whose end then ends them."""
    before = running_descendants()
    yield
    new = LEDGER.new_since(before)
    marker = request.node.get_closest_marker("hands_processes_to")
    if new and marker is not None and LEDGER.hand_over(new, marker.args[0]):
        return
    left = end_and_name(new)
    if left:
        pytest.fail("processes started by this test outlived it (killed now):\n" + "\n".join(left), pytrace=False)


@pytest.fixture(autouse=True)
def ctrl_c_as_it_was() -> Iterator[None]:
    """Each test leaves Ctrl-C as it found it in this process's main thread: its handler, and not
    blocked. A worker whose SIGINT a test left ignored or blocked fails every later Ctrl-C test it
    runs, and every process it starts inherits that (a `par` run that a press never reached ran
    to the 300 s timeout), far from the test that did it; this names that test instead."""
    handler, blocked = _ctrl_c()
    yield
    now_handler, now_blocked = _ctrl_c()
    if (now_handler, now_blocked) != (handler, blocked):
        signal.signal(signal.SIGINT, handler)  # type: ignore[arg-type]
        signal.pthread_sigmask(signal.SIG_BLOCK if blocked else signal.SIG_UNBLOCK, [signal.SIGINT])
        pytest.fail(
            f"this test left SIGINT's handler {now_handler!r} (was {handler!r}), blocked {now_blocked} (was {blocked})",
            pytrace=False,
        )


def _ctrl_c() -> tuple[object, bool]:
    """SIGINT's handler here, and whether this thread blocks it."""
    return signal.getsignal(signal.SIGINT), signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])


class FixtureProcesses:
    """Processes a module- or session-scoped fixture starts belong to it, not to the test that
    happened to set it up first, and end with it. A plugin of its own, not hooks of this conftest:
    a session fixture is set up on the session's node, which sees only the root's conftest hooks."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef: pytest.FixtureDef[object]) -> Iterator[None]:
        if fixturedef.scope == "function":
            yield
            return
        before = running_descendants()
        yield
        started = {key for process in LEDGER.new_since(before) if (key := key_of(process)) is not None}
        if started:
            LEDGER.owned[f"{fixturedef.scope}:{fixturedef.argname}"] = started

    def pytest_fixture_post_finalizer(self, fixturedef: pytest.FixtureDef[object]) -> None:
        owned = LEDGER.owned.pop(f"{fixturedef.scope}:{fixturedef.argname}", None)
        if not owned:
            return
        left = end_and_name(process for key, process in running_descendants().items() if key in owned)
        if left:
            pytest.fail(
                f"processes of the fixture {fixturedef.argname!r} outlived it (killed now):\n" + "\n".join(left),
                pytrace=False,
            )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failing test's report carries the stories of the real processes it ran (``tests/witnesses.py``):
    their commands, addresses and last log lines, so a failure seen once can be read and run again."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()  # type: ignore[attr-defined]
    if report.failed:
        told = witnesses.stories()
        if told:
            report.sections.append(("real processes", "\n\n".join(told)))
    if call.when == "teardown":
        witnesses.test_ended()


WORKERS_PER_TWO_CORES = 3
"""``-n auto``'s workers: three for two cores. A quarter of the default run's worker time is spent
waiting (servers' designed clocks, browsers, processes starting), which one worker a core leaves
idle: on two cores, 2,342 tests, one run each of the same tree, 700 s with two workers and 623 s
with three (the cores busy 75% and 88% of the run); four took 653 s while tests still waited
for a lock to run alone, which none does now. pytest-xdist's ``--dist worksteal`` against the default
``load``, one run each of 34c2b84: 572 s against 580 s, 906 against 904 CPU s, not taken. With the
folders interleaved (``tests/interleave.py``), four against three, one run each: 528 s against 525 s."""


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``WORKERS_PER_TWO_CORES`` workers for every two cores (one on one core) for ``-n auto``;
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still chooses (None leaves it to pytest-xdist)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, WORKERS_PER_TWO_CORES * cores // 2)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a pytest-xdist worker, each folder's modules spread over the run (``tests/interleave.py``);
    every worker collects the same order, which the scheduler requires. A run in one process keeps
    pytest's order, and with it ``--failed-first`` and the like."""
    if hasattr(config, "workerinput"):
        items[:] = interleaved(items, lambda item: item.path)


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(FixtureProcesses(), "fixture-processes")
    ctrl_c_as_from_a_terminal()
    bytecode_written()


def ctrl_c_as_from_a_terminal() -> None:
    """Ctrl-C reaches this process and the programs it starts as it reaches a program started at a
    terminal: SIGINT handled by Python (``KeyboardInterrupt``) and not blocked. A background job of
    a non-interactive shell (``cmd &`` in a script, the way a long run is often started) and
    ``nohup`` start the run with SIGINT ignored, which every process inherits through ``exec``, and
    the program rightly keeps a Ctrl-C it was started without ignored (``battle.cli.interruption``):
    Ctrl-C tests then failed (4 and an error in one run), a `par` child its press never reached at the
    300 s timeout.
    Run in the controller and in each worker (``pytest_configure`` runs in both)."""
    if signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, signal.SIG_DFL):
        signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.setenv("LANGUAGE", "en")
    return home


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Every test starts and ends in English, whatever language the one before chose."""
    from battle.i18n import set_language

    set_language("en")
    yield
    set_language("en")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under pytest-xdist, the kernels are compiled into numba's cache once, by the controller,
    before any worker starts. Two workers that each found the cache empty would both spend the
    compile's 10-20 s of a core, and numba updates a kernel's index by reading it, adding its entry
    and writing it back, so an entry another process wrote meanwhile is lost and compiled again.
    A cache that is already warm costs the controller the kernels' loading, about a second."""
    config = session.config
    if config.pluginmanager.getplugin("dsession") is None or config.option.collectonly:
        return
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    from solver.compile_ahead import prepare_kernels_apart

    prepare_kernels_apart()
