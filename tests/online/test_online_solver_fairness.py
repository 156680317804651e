"""The solver shared fairly, through a real ``serve`` with two solver workers and hand-written clients
from distinct loopback networks (127.0.0.x): a flood of reviews from several networks never has a
player's move refused; one network's games at the perfect level leave a worker to another
network's club move, which runs at once; closing the flooding network's connections frees the
workers; and a network past its solver time has its move wait, not refused, while another
network's move goes at once."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

from battle.rules.board import move_name
from battle.rules.deal import deal
from battle.rules.notation import format_position, parse_position
from tests.online_server import Client, ServerProcess, a_legal_move, create

WAIT = 60.0
"""The longest one answer is waited for (a busy machine, workers loading their kernels)."""
ROOM_OF_FOUR = "import battle.players.pool.schedule as schedule; schedule.MAX_WAITING = 4"
"""Four units of a kind may wait: a few reviews fill the reviews' room within a test."""
STEPS_OF_FIVE_MINUTES = (
    "import battle.online.server.solving.analysis_boards as boards; boards.ANALYSIS_STEP_NODES = 300_000_000"
)
"""Each depth of an analysis searches up to 300 M nodes, reserving five minutes of its network's time:
the search to the end of a whole deal runs more than a minute of a quiet core, holding it."""
SPENT_BUDGET = ("--solver-budget", "301", "--solver-refill", "0.01")
"""A network's time one second above an analysis step's reserve, regained at a hundredth of a second a
second: the quick depths (0.2 s of CPU in all) are paid from the spare second, and once the step to
the end holds the rest a club move's 2 s wait about 100 s for the bucket, so the network's time stays
spent for the whole test however slow the machine: the test waits for no clock."""


def solver_game(client: Client, level: str, first: str = "creator", deal_number: int = 3) -> dict[str, Any]:
    """A new game of ``client`` against the solver at ``level``; its first ``state``."""
    client.send({"type": "solver_game", "level": level, "deal": {"number": deal_number}, "first": first})
    client.expect("solver_created", WAIT)
    return client.expect("state", WAIT)


def solver_reply(client: Client, state: dict[str, Any]) -> list[dict[str, Any]]:
    """``client`` moves in its game against the solver; what it heard until the solver's reply
    (``moved`` of ply 2), which it returns last."""
    client.send({"type": "move", "move": a_legal_move(state), "id": "m1"})
    heard = []
    for _ in range(100):
        message = client.read(WAIT)
        heard.append(message)
        if message["type"] == "moved" and message["ply"] == 2:
            return heard
    raise AssertionError(f"no reply of the solver in {heard}")


def finished_game(url: str, source: str, deal_number: int, moves: int = 1) -> Client:
    """A game a network plays against itself, ``moves`` moves and a resignation: its host's connection."""
    host = Client(url, source=source)
    created = create(host, deal_number)
    guest = Client(url, source=source)
    guest.send({"type": "join", "code": created["invite"]})
    state = guest.expect("state", WAIT)
    seats = {created["seat"]: host, 3 - created["seat"]: guest}
    position = parse_position(state["start"])
    for ply in range(moves):
        move = position.legal_moves()[0]
        seats[position.to_move].send({"type": "move", "move": move_name(move), "id": f"m{ply}"})
        seats[position.to_move].expect("ack", WAIT)
        position.push(move)
    guest.send({"type": "resign"})
    while host.expect("state", WAIT)["status"] != "finished":
        pass
    guest.close()
    return host


def first_of(client: Client, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The next message of one of ``kinds``."""
    for _ in range(100):
        message = client.read(WAIT)
        if message["type"] in kinds:
            return message
    raise AssertionError(f"none of {kinds} in {client.seen[-100:]}")


def wait_for_stats(server: ServerProcess, wanted: Callable[[dict[str, int]], bool], seconds: float = WAIT) -> float:
    """Seconds until ``/stats``'s solver counts are as ``wanted`` says (fails after ``seconds``)."""
    began = time.monotonic()
    while True:
        shown = {name: int(value) for name, value in server.stats().items() if value.isdigit()}
        if wanted(shown):
            return time.monotonic() - began
        assert time.monotonic() - began < seconds, shown
        time.sleep(0.05)


def perfect_games(server: ServerProcess, source: str) -> list[Client]:
    """Three games of one network against the perfect level, the solver moving first in each: one
    of its 10 s searches (two, if the workers allowed it) runs once both workers have their kernels."""
    attackers = [Client(server.url, source=source) for _ in range(3)]
    for number, attacker in enumerate(attackers):
        solver_game(attacker, "perfect", first="joiner", deal_number=10 + number)
    wait_for_stats(
        server,
        lambda shown: (
            shown["solver_workers_ready"] == 2
            and shown["solver_running"] >= 1
            and shown["solver_running"] + shown["solver_waiting_move"] == 3
        ),
    )
    return attackers


def test_a_flood_of_reviews_from_several_networks_never_has_a_move_refused(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--solver-workers", "2", prelude=ROOM_OF_FOUR) as server:
        hosts = [
            finished_game(server.url, f"127.0.0.{network}", deal_number)
            for network in (2, 3, 4)
            for deal_number in (5, 6, 7)
        ]
        victim = Client(server.url, source="127.0.0.9")
        state = solver_game(victim, "club")
        for host in hosts:  # nine reviews of whole boards at once: one runs, four wait
            host.send({"type": "review"})
        answers = [first_of(host, ("review_result", "solver_refused")) for host in hosts]
        refused = sorted({answer["code"] for answer in answers if answer["type"] == "solver_refused"})
        assert refused and set(refused) <= {"busy", "queued"}, answers  # the reviews' own room is full
        heard = solver_reply(victim, state)
        assert [message for message in heard if message["type"] == "solver_refused"] == []
        for client in (*hosts, victim):
            client.close()


def test_a_networks_perfect_games_leave_a_worker_to_another_networks_club_move(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--solver-workers", "2") as server:
        attackers = perfect_games(server, "127.0.0.2")
        victim = Client(server.url, source="127.0.0.9")
        heard = solver_reply(victim, solver_game(victim, "club"))
        places = [message["place"] for message in heard if message["type"] == "solver_queue"]
        # the club move ran at once, never in the queue (a worker is kept for short moves): told 0 while it
        # runs, or null when it ended before the first word of it went out (a worker's move takes ~1 ms)
        assert places and all(place in (0, None) for place in places), heard
        assert server.stats()["solver_waiting_move"] == "2"  # while the perfect searches wait their turn
        for client in (*attackers, victim):
            client.close()


def workers_cpu(server: ServerProcess) -> float:
    """The CPU seconds so far of the server's child processes (its solver workers)."""
    total = 0.0
    for child in psutil.Process(server.pid).children():
        with contextlib.suppress(psutil.NoSuchProcess):  # a process that ended meanwhile
            times = child.cpu_times()
            total += times.user + times.system
    return total


AFTER_CLOSE = 3.0
"""CPU seconds the workers may still spend on a closed network's searches: the half second of grace
(``LEAVE_GRACE``) and the slice that runs, on each of two workers; a search left running spends its
whole budget (10 million nodes, about 10 s, a perfect move). CPU, not the wall clock: a loaded machine
took 3.6 s of wall clock for the same stop."""


def test_closing_a_networks_connections_frees_the_workers_at_once(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--solver-workers", "2") as server:
        attackers = perfect_games(server, "127.0.0.2")
        before = workers_cpu(server)
        for attacker in attackers:
            attacker.close()
        wait_for_stats(server, lambda shown: shown["solver_running"] + shown["solver_waiting_move"] == 0)
        spent = workers_cpu(server) - before
        assert spent < AFTER_CLOSE, f"the workers searched {spent:.1f} CPU s for a network that had left"


def test_a_network_past_its_solver_time_has_its_move_wait_while_another_networks_goes(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--solver-workers", "2", *SPENT_BUDGET, prelude=STEPS_OF_FIVE_MINUTES) as server:
        player = Client(server.url, source="127.0.0.3")
        state = solver_game(player, "club")
        spender = Client(server.url, source="127.0.0.3")
        spender.send({"type": "analyse", "id": "big", "position": format_position(deal(6))})
        while (message := spender.read(WAIT))["type"] != "analysis_result" or message["evaluation"]["depth"] < 16:
            pass  # depth 16 is told once the search to the end has reserved the network's time
        player.send({"type": "move", "move": a_legal_move(state), "id": "m1"})
        told = first_of(player, ("solver_queue", "solver_refused"))
        assert told["type"] == "solver_queue" and 50 <= told["wait"] <= 200, told  # 1-2 s owed at 0.01 s a second
        other = Client(server.url, source="127.0.0.4")
        heard = solver_reply(other, solver_game(other, "club"))
        assert [message["wait"] for message in heard if message["type"] == "solver_queue"][0] is None
        assert server.stats()["solver_waiting_budget"] == "1"  # the player's move still waits, unpaid
        spender.close()  # its step stops and gives back what it did not use: the player's move is paid
        while (message := player.read(WAIT))["type"] != "moved" or message["ply"] != 2:
            assert message["type"] != "solver_refused", player.seen
        for client in (player, other):
            client.close()


def test_a_review_nobody_looks_at_leaves_the_pool_and_its_link_queues_it_again(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--solver-workers", "2") as server:
        host = finished_game(server.url, "127.0.0.2", 5, moves=8)  # nine seconds of review
        host.send({"type": "review"})
        review = host.expect("review_result", WAIT)["review"]
        wait_for_stats(server, lambda shown: shown["solver_running"] == 1)
        before = workers_cpu(server)
        host.close()
        wait_for_stats(server, lambda shown: shown["solver_running"] + shown["solver_waiting_review"] == 0)
        spent = workers_cpu(server) - before
        assert spent < AFTER_CLOSE, f"the review went on for {spent:.1f} CPU s after its reader left"
        reader = Client(server.url, source="127.0.0.3")  # its link, opened later: queued again, and done
        reader.send({"type": "review_get", "review": review})
        working = workers_cpu(server)
        while True:  # nine CPU seconds: on a starved machine minutes, waited for while the workers work
            try:
                news = reader.expect("review_result", WAIT)
            except AssertionError:
                before, working = working, workers_cpu(server)
                assert working > before + 1.0, f"the review queued again did not run ({working - before:.1f} CPU s)"
                continue
            if news["status"] != "queued":
                break
        assert news["status"] == "done" and len(news["report"]["moves"]) == 8
        reader.close()
