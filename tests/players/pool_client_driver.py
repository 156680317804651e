"""A process of its own that uses a served solver pool through a ``PoolClient``, driven by a test
(``test_pool_sharing.py``): one JSON command a line on stdin, one JSON answer a line on stdout.

Run as ``python -m tests.players.pool_client_driver SOCKET``. Commands (``do``): ``submit`` (``name``,
``job`` in the wire's tagged form, ``seat``, ``address``) waits for the service's admission and
answers ``{"refusal": ...}``; ``result``
(``name``) waits for that ticket and answers ``{"result": ...}``, ``{"error": ...}`` or
``{"cancelled": true}``; ``budget_left`` (``address``), ``cluster``, ``place`` (``name``).
Its stdin closing closes the client and ends the process.
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import CancelledError
from typing import Any

from battle.players.pool.client import ClientTicket, PoolClient
from battle.players.pool.wire import decode_job, encode, encode_tagged

WAIT = 180.0


def main(path: str) -> None:
    tickets: dict[str, ClientTicket] = {}
    with PoolClient(path) as client:
        print(json.dumps({"ready": True}), flush=True)
        for line in sys.stdin:
            command = json.loads(line)
            answer = run(client, tickets, command)
            print(json.dumps(answer), flush=True)


def run(client: PoolClient, tickets: dict[str, ClientTicket], command: dict[str, Any]) -> dict[str, Any]:
    do = command["do"]
    if do == "submit":
        job = decode_job(command["job"])
        ticket = client.submit(job, seat=command["seat"], address=command["address"])
        refusal = ticket.admission(WAIT) if isinstance(ticket, ClientTicket) else ticket
        if refusal is None:
            tickets[command["name"]] = ticket
        return {"refusal": encode(refusal)}
    if do == "result":
        future = tickets[command["name"]].future
        try:
            return {"result": encode_tagged(future.result(WAIT))}
        except CancelledError:
            return {"cancelled": True}
        except Exception as error:  # the PoolError the test expects, said in one line
            return {"error": f"{type(error).__name__}: {error}"}
    if do == "budget_left":
        return {"left": client.budget_left(command["address"])}
    if do == "cluster":
        return {"cluster": encode(client.cluster())}
    if do == "place":
        return {"place": tickets[command["name"]].place()}
    raise ValueError(f"unknown command {do!r}")


if __name__ == "__main__":
    main(sys.argv[1])
