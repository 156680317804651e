"""``serve --processes N`` (N > 1): the supervisor's side of the command
(``battle.online.server.processes.supervisor``).

It checks the database as one server does (a file set aside or refused is said before any game
process starts, and the schema is made or upgraded once), listens on the port, starts the game
processes (this command again, with ``--process-of``, forked by a fork server) and says the same two
lines as one server once all of them take connections.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO

from battle.cli.inputs import InputError
from battle.cli.interruption import EXIT_INTERRUPTED
from battle.cli.run_folders import make_run_folder
from battle.cli.serve_claim import check_writable, hold_database
from battle.i18n import _, ngettext
from battle.rules.errors import quote
from battle.storage.paths import error_reason


def serve_in_processes(
    args: argparse.Namespace, processes: int, say_serving: Callable[[argparse.Namespace, int, Path, int], None]
) -> int:
    """Run the server as ``processes`` game processes under one supervisor until SIGINT or SIGTERM;
    ``say_serving`` prints the lines one server prints once it listens."""
    from battle.online.server.rooms.store import GameStore, StoreError
    from battle.storage.paths import StorageProblem

    try:
        with GameStore(args.db) as store:
            if store.notice:
                print(store.notice, file=sys.stderr)
            check_writable(store)
            unfinished, path = store.unfinished_count(), store.path
    except (StoreError, StorageProblem) as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise InputError(_("cannot open the game database: {value}").format(value=error_reason(error))) from None
    held = hold_database(path)  # the game processes serve it under the supervisor's claim
    try:
        return _supervise(args, processes, say_serving, path, unfinished, held)
    finally:
        held.close()


def _supervise(
    args: argparse.Namespace,
    processes: int,
    say_serving: Callable[[argparse.Namespace, int, Path, int], None],
    path: Path,
    unfinished: int,
    held: IO[bytes],
) -> int:
    from battle.cli.serve_forks import fork_server as forked_fork_server
    from battle.online.server.processes.supervisor import Supervisor, listening_socket

    try:
        listener = listening_socket(args.host, args.port)
    except UnicodeError:
        raise InputError(
            _("--host: {quote} is not an address or a host name").format(quote=quote(args.host, 60))
        ) from None
    except OSError as error:
        raise InputError(
            _("cannot listen on {host}:{port}: {value}").format(
                host=args.host, port=args.port, value=error_reason(error)
            )
        ) from None
    port = int(listener.getsockname()[1])
    folder = make_run_folder()
    language = ["--lang", args.lang] if args.lang else []
    arguments = [*language, *args.argv, f"--port={port}", f"--run-folder={folder}"]
    fork_server = forked_fork_server(args.command_line, (listener, held))  # before the loop starts any thread

    async def supervise() -> int:
        supervisor = Supervisor(
            listener,
            processes,
            arguments,
            fork_server,
            folder,
            trust_proxy=args.trust_proxy,
            ipv6_prefix=args.ipv6_prefix,
            group=args.group,
        )
        stopped_by: list[int] = []

        def stopping(number: int) -> None:
            stopped_by.append(number)
            supervisor.stop()

        for signal_number in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                asyncio.get_running_loop().add_signal_handler(signal_number, stopping, signal_number)
        started: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        running = asyncio.create_task(supervisor.run(started))
        await asyncio.wait([started, running], return_when=asyncio.FIRST_COMPLETED)
        if started.done():
            say_serving(args, port, path, unfinished)
            print(
                ngettext("{count} game process", "{count} game processes", processes).format(count=processes),
                flush=True,
            )
        await running
        if supervisor.failure is not None:
            raise InputError(supervisor.failure.said(_))
        print(_("Server stopped; every game is kept."), flush=True)
        return stopped_by[0] if stopped_by else signal.SIGTERM

    try:
        stopped_by = asyncio.run(supervise())
    finally:
        fork_server.close()
        listener.close()
        shutil.rmtree(folder, ignore_errors=True)
    return EXIT_INTERRUPTED if stopped_by == signal.SIGINT else 0
