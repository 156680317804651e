"""What the solver pool's tests share: positions, jobs that run until they are stopped, and how to
tell that a worker process is searching."""

from __future__ import annotations

import os
import time
from pathlib import Path

from battle.players.pool.jobs import AnalysisJob, Job, MoveJob, ReviewJob, position_data
from battle.players.pool.queue import SolverPool, Ticket
from battle.players.pool.schedule import Refusal
from battle.rules.board import Position, biggest_pair, move_name
from battle.rules.deal import deal
from battle.rules.notation import parse_any

DATA = Path(__file__).resolve().parent.parent / "data"
WAIT = 180.0
"""Seconds a test waits for a pool's answer at most (a busy 2-core machine; a worker loads numba first)."""


def data_position(name: str) -> Position:
    """A position from ``tests/data`` (``positions/NAME.mbp`` or ``solver/NAME.mbp``)."""
    for folder in ("positions", "solver"):
        path = DATA / folder / f"{name}.mbp"
        if path.exists():
            return parse_any(path.read_text())
    raise FileNotFoundError(name)


def greedy_down(number: int, tiles: int) -> Position:
    """Deal ``number`` with the biggest pair taken until ``tiles`` are left."""
    position = deal(number)
    while position.tiles_left() > tiles and position.has_moves():
        position.push(biggest_pair(position))
    return position


def endless_analysis(number: int = 1) -> AnalysisJob:
    """Every move's value on a whole deal within 300 s: it runs until it is stopped."""
    return AnalysisJob(position_data(deal(number)), every_move=True, seconds=300)


def club_move(number: int = 2, seed: int = 1) -> MoveJob:
    return MoveJob(position_data(deal(number)), "club", seed)


def short_review(number: int = 3, tiles: int = 40, moves: int = 4) -> ReviewJob:
    """The review of up to ``moves`` greedy moves from a ``tiles``-tile start of deal ``number``."""
    start = greedy_down(number, tiles)
    position, played = start.copy(), []
    while len(played) < moves and position.has_moves():
        move = biggest_pair(position)
        played.append(move_name(move))
        position.push(move)
    return ReviewJob(position_data(start), tuple(played), seconds_per_move=0.05)


def submit(pool: SolverPool, job: Job, seat: str, address: str = "10.0.0.1") -> Ticket:
    ticket = pool.submit(job, seat=seat, address=address)
    assert not isinstance(ticket, Refusal), ticket
    return ticket


def started(ticket: Ticket) -> Ticket:
    assert ticket.started.wait(WAIT), "no worker took the unit"
    return ticket


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (``/proc/PID/stat``: user and system, in clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until_searching(pid: int, seconds: float = 0.3) -> None:
    """Return once process ``pid`` has used ``seconds`` of CPU more than when called: it searches
    (an idle worker uses none). Bounded: fails after ``WAIT`` seconds."""
    before = cpu_seconds(pid)
    deadline = time.monotonic() + WAIT
    while cpu_seconds(pid) < before + seconds:
        assert time.monotonic() < deadline, "the worker never searched"
        time.sleep(0.05)
