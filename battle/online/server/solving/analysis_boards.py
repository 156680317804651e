"""The analysis board on the server: a page sends a position, the pool deepens every legal move's
value depth by depth (4, 8, 12, 16, then to the end, each step within ``ANALYSIS_STEP_NODES``) and,
while the end is not reached, searches to the end again with twice the nodes each time, until the
values are exact; each step goes to the page as it is found. A budget in nodes, never in seconds: a
busy server takes longer over each step and gets as deep (a 64-tile position that ``analyse``
solves in 10 M nodes stopped at an estimate under 5 s of wall clock on a loaded server).

The deepening stops, and its last step is the final answer, at the first of: exact values; the
address's solver time spent (a ``solver_refused`` with ``budget`` and when to ask again follows
the answer); a search to the end of ``ANALYSIS_MOST_NODES`` that did not reach it; the page
leaving. The page words which it was.

One analysis per connection: a new position replaces the one before, whose search is stopped (the
pool's one search per seat), and a connection that closes, or says ``analyse_stop``, stops its
own. Each step is charged to the connection's address, so a page that keeps analysing spends its
own solver time, never a player's move's (moves go first in the pool). A position with no pair
left is answered at once, without the pool. While its analysis waits or runs a connection serves
someone (no idle clock runs); an answer at once, or a refusal, costs nothing and leads nowhere, so
it does not stop the clock.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from battle.online.protocol.solver_messages import Analyse, StopAnalysis
from battle.online.server.peers.connections import Client
from battle.online.server.solving.games import refuse, tell
from battle.online.server.solving.outcomes import SolverRefusal, WorkFailed
from battle.online.server.solving.wire import analysis_over, analysis_step, queue_news
from battle.rules.board import Position
from battle.rules.notation import parse_position

if TYPE_CHECKING:
    from battle.online.server.solving.work import AnalysisResult as FoundAnalysis
    from battle.online.server.solving.work import SolverWork, Work

ANALYSIS_STEP_NODES = 5_000_000
"""Each depth of an analysis board's deepening searches this many nodes at most (``DeepeningJob``):
2.25-2.50 s of a quiet core on a whole deal (``analyse --nodes 5000000 --threads 1``, deals 11-13),
charged as 5 s, and the same depth on a busy core."""
ANALYSIS_MOST_NODES = 160_000_000
"""The largest search to the end one analysis board asks for (about 85 s of a quiet core on a whole
deal, where 40 M nodes took 21.7 s; a quarter of what one unit of the pool may take): a position it
does not solve stays at the deepest estimate, and the board says so."""


class AnalysisBoards:
    """The analysis running for each connection."""

    def __init__(self, work: SolverWork | None) -> None:
        self.work = work
        self.running: dict[Client, asyncio.Task[None]] = {}
        self._seats: dict[Client, str] = {}
        self._numbers = itertools.count(1)

    async def analyse(self, client: Client, message: Analyse) -> None:
        """Start deepening ``message``'s position for ``client`` (its analysis before is stopped)."""
        if self.work is None:
            refuse(client, "analysis", "no_solver")
            return
        self.stop(client)
        position = parse_position(message.position)  # canonical: the reader checked it
        if position.is_over():
            tell(client, analysis_over(message.id, position))
            return
        seat = self._seats.setdefault(client, f"analysis:{next(self._numbers)}")
        deepening = _Deepening(self.work, client, message.id, position, seat, client.network)
        work = deepening.submit(ANALYSIS_STEP_NODES, to_the_end=False)
        if work is None:
            return
        task = asyncio.ensure_future(deepening.run(work, ANALYSIS_STEP_NODES, ANALYSIS_MOST_NODES))
        self.running[client] = task
        client.holds(task)  # the connection serves someone while its analysis waits or runs
        task.add_done_callback(lambda done: self._ended(client, done))

    def _ended(self, client: Client, task: asyncio.Task[None]) -> None:
        if self.running.get(client) is task:
            del self.running[client]
        client.released(task)

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


@dataclass(eq=False)
class _Deepening:
    """One page's analysis of one position: its searches in turn, each told to the page."""

    work: SolverWork
    client: Client
    ident: str
    position: Position
    seat: str
    address: str

    def step(self, found: FoundAnalysis, final: bool = False) -> None:
        tell(self.client, analysis_step(self.ident, final, found))

    def submit(self, nodes: int, *, to_the_end: bool, last: FoundAnalysis | None = None) -> Work[FoundAnalysis] | None:
        """The next search queued, its places told; None when the pool refused it (said, after
        ``last``, the deepest answer so far, as the final one)."""
        work = self.work.analysis(
            self.position, seat=self.seat, address=self.address, on_step=self.step, nodes=nodes, to_the_end=to_the_end
        )
        if isinstance(work, SolverRefusal):
            if last is not None:
                self.step(last, final=True)
            refuse(self.client, "analysis", work.code, work.retry_after)
            return None
        self.work.watch(work, lambda waiting: tell(self.client, queue_news("analysis", waiting)))
        return work

    async def run(self, work: Work[FoundAnalysis], nodes: int, most: int) -> None:
        """Await each search; while it ends short of exact, search to the end with twice the nodes,
        up to ``most`` a search, as long as the address's budget lasts."""
        last: FoundAnalysis | None = None
        while True:
            try:
                answer = await work.answer()
            except WorkFailed as failure:
                if last is not None:  # a deeper search refused or failed: the deepest so far is the answer
                    self.step(last, final=True)
                refuse(self.client, "analysis", failure.code, failure.retry_after)
                return
            spent = work.refusal()  # the budget ran out before the last depth
            nodes *= 2
            if answer.exact or spent is not None or nodes > most:
                self.step(answer, final=True)
                if spent is not None:
                    refuse(self.client, "analysis", "budget", spent.retry_after)
                return
            deeper = self.submit(nodes, to_the_end=True, last=answer)
            if deeper is None:
                return
            self.step(answer)
            work, last = deeper, answer
