"""The analysis board on the server: a page sends a position, the pool deepens every legal move's
value depth by depth (4, 8, 12, 16, then to the end, each step within ``ANALYSIS_STEP_SECONDS``)
until the values are exact, and each step goes to the page as it is found.

One analysis per connection: a new position replaces the one before, whose search is stopped (the
pool's one search per seat), and a connection that closes, or says ``analyse_stop``, stops its
own. Each step is charged to the connection's address, so a page that keeps analysing spends its
own solver time, never a player's move's (moves go first in the pool). A position with no pair
left is answered at once, without the pool.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from battle.online.protocol.solver_messages import Analyse, AnalysisResult, Evaluation, StopAnalysis
from battle.online.server.address_guard import network_of
from battle.online.server.connections import Client
from battle.online.server.solver_games import queue_news, refusal_code, refuse, tell
from battle.online.server.solver_outcomes import Refused, WorkFailed
from battle.rules.notation import parse_position

if TYPE_CHECKING:
    from battle.online.server.solver_work import SolverWork


class AnalysisBoards:
    """The analysis running for each connection."""

    def __init__(self, work: SolverWork | None, ipv6_prefix: int) -> None:
        self.work = work
        self.ipv6_prefix = ipv6_prefix
        self.running: dict[Client, asyncio.Task[None]] = {}
        self._seats: dict[Client, str] = {}
        self._numbers = itertools.count(1)

    async def analyse(self, client: Client, message: Analyse) -> None:
        """Start deepening ``message``'s position for ``client`` (its analysis before is stopped)."""
        client.picked()  # a connection that analyses serves someone, though it plays no game
        if self.work is None:
            refuse(client, "analysis", "no_solver")
            return
        self.stop(client)
        position = parse_position(message.position)  # canonical: the reader checked it
        if position.is_over():
            over = Evaluation(0, True, 0, (), (), (position.scores[0], position.scores[1]))
            tell(client, AnalysisResult(message.id, True, over))
            return
        seat = self._seats.setdefault(client, f"analysis:{next(self._numbers)}")
        step: Callable[[dict[str, Any]], None] = lambda answer: tell(  # noqa: E731 - one line a step
            client, AnalysisResult(message.id, False, Evaluation.of_analysis(answer))
        )
        work = self.work.analysis(
            position, seat=seat, address=network_of(client.address, self.ipv6_prefix), on_step=step
        )
        if isinstance(work, Refused):
            refuse(client, "analysis", refusal_code(work), work.retry_after)
            return
        self.work.watch(work, lambda waiting: tell(client, queue_news("analysis", waiting)))

        async def last_step() -> None:
            try:
                answer = await work.answer()
            except WorkFailed:
                refuse(client, "analysis", "failed")
                return
            tell(client, AnalysisResult(message.id, True, Evaluation.of_analysis(answer)))
            refusal = work.refusal()  # the budget ran out before the last depth
            if refusal is not None:
                refuse(client, "analysis", "budget", refusal.retry_after)

        task = asyncio.ensure_future(last_step())
        self.running[client] = task
        task.add_done_callback(lambda done: self._ended(client, done))

    def _ended(self, client: Client, task: asyncio.Task[None]) -> None:
        if self.running.get(client) is task:
            del self.running[client]

    async def stop_message(self, client: Client, message: StopAnalysis) -> None:
        self.stop(client)

    def stop(self, client: Client) -> None:
        """Stop ``client``'s analysis, waiting or running."""
        task = self.running.pop(client, None)
        if task is not None:
            task.cancel()

    def forget(self, client: Client) -> None:
        """A connection closed: its analysis stops."""
        self.stop(client)
        self._seats.pop(client, None)
