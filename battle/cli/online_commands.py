"""The command line's online parts: ``serve``, and ``play --online`` (host, ``--join``, ``--resume``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlparse

from battle.cli.inputs import InputError, database_file, load_position, positive_number, use_colour, whole_number
from battle.cli.interruption import EXIT_INTERRUPTED
from battle.i18n import N_, _, format_number, format_short, ngettext, pgettext
from battle.rules.deal import parse_deal_number
from battle.rules.errors import BattleError, quote
from battle.rules.notation import format_position
from battle.storage.paths import error_reason

if TYPE_CHECKING:
    from battle.online.protocol.messages import Create
    from battle.online.server.shards import Shard
    from battle.online.server.shared_directory import SharedDirectory
    from battle.rules.board import Position

DEFAULT_URL_HINT = N_("ws://HOST:8765 (or wss://HOST behind a TLS proxy)")


NETWORK_CAPS = (
    (
        "--device-keys-per-hour",
        "device_keys_per_hour",
        N_(
            "browsers' device keys one client address may file games under for the first time an hour (default {count})"
        ),
    ),
    (
        "--puzzle-ratings-per-hour",
        "puzzle_ratings_per_hour",
        N_("puzzle ratings one client address may start an hour, one a browser (default {count})"),
    ),
    (
        "--puzzle-attempts-per-hour",
        "puzzle_attempts_per_hour",
        N_("rated puzzle attempts one client address may make an hour (default {count})"),
    ),
    (
        "--max-puzzles-open-per-address",
        "puzzles_open_per_network",
        N_("connections of one client address that may hold a puzzle open at once (default {count})"),
    ),
    (
        "--max-lobby-followers-per-address",
        "lobby_followers_per_network",
        N_("connections of one client address that may follow the lobby at once (default {count})"),
    ),
)
"""What a client address may do with puzzles, the lobby and device keys: (option, ``ServerLimits``
field, help). A school or a household behind one address may need more than the defaults."""


def add_serve_command(commands: argparse._SubParsersAction) -> None:
    from battle.online.server.server_limits import DEFAULT_HOST, DEFAULT_PORT, ServerLimits
    from battle.online.server.solver_outcomes import DEFAULT_BURST, DEFAULT_RATE

    limits = ServerLimits()
    sub = commands.add_parser(
        "serve",
        help=_("run a game server for online play (websockets, games kept in SQLite)"),
        description=_(
            "Run the game server: it holds every online game, checks every move and stores it "
            "before anyone is told. Players connect with 'play --online ws://HOST:PORT' or the "
            "window's Play online. Without flags it listens on 127.0.0.1 only; --host 0.0.0.0 "
            "opens it to the local network (see docs/online.md for the internet, behind TLS)."
        ),
    )
    sub.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=_("address to listen on (default {DEFAULT_HOST})").format(DEFAULT_HOST=DEFAULT_HOST),
    )
    sub.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=_("port (default {port}; 0: any free)").format(port=DEFAULT_PORT),
    )
    sub.add_argument(
        "--db",
        metavar=pgettext("metavar", "FILE"),
        help=_("the games database (default: online/games.sqlite3 in the user's data folder)"),
    )
    sub.add_argument(
        "--processes",
        type=whole_number(1, 256),
        metavar="N",
        help=_(
            "game processes on this machine, each holding its share of the games (default: one per core; "
            "1: one process for everything)"
        ),
    )
    sub.add_argument("--process-of", type=_process_of, help=argparse.SUPPRESS)  # a game process of a supervisor
    sub.add_argument("--run-folder", help=argparse.SUPPRESS)
    sub.add_argument(
        "--max-games",
        type=_positive,
        default=limits.open_games,
        metavar="N",
        help=_("unfinished games the server holds at most (default {open_games})").format(open_games=limits.open_games),
    )
    sub.add_argument(
        "--wait-hours",
        type=positive_number(24 * 365),
        default=limits.wait_seconds / 3600,
        metavar="H",
        help=_("a game nobody joins expires after H hours (default {value}; decimals allowed)").format(
            value=format_short(limits.wait_seconds / 3600)
        ),
    )
    sub.add_argument(
        "--max-connections",
        type=_positive,
        default=limits.connections,
        metavar="N",
        help=_("open connections at most (default {connections}, fewer if the open-files limit is lower)").format(
            connections=limits.connections
        ),
    )
    sub.add_argument(
        "--max-connections-per-address",
        type=_positive,
        default=limits.connections_per_address,
        metavar="N",
        help=_("open connections from one client address (default {connections_per_address})").format(
            connections_per_address=limits.connections_per_address
        ),
    )
    sub.add_argument(
        "--max-waiting-per-address",
        type=_positive,
        default=limits.waiting_per_address,
        metavar="N",
        help=_("games one client address may keep waiting for a second player (default {waiting_per_address})").format(
            waiting_per_address=limits.waiting_per_address
        ),
    )
    sub.add_argument(
        "--max-games-per-address",
        type=_positive,
        default=limits.games_per_network,
        metavar="N",
        help=_(
            "unfinished games between people one client address may have a seat in and still host "
            "another (default {count}; joining is never refused for it)"
        ).format(count=limits.games_per_network),
    )
    sub.add_argument(
        "--max-solver-games-per-address",
        type=_positive,
        default=limits.solver_games_per_network,
        metavar="N",
        help=_("unfinished games against the solver one client address may have (default {count})").format(
            count=limits.solver_games_per_network
        ),
    )
    sub.add_argument(
        "--creates-per-hour",
        type=positive_number(3_600_000),
        default=limits.creates_per_hour,
        metavar="N",
        help=_(
            "games (hosted, against the solver, rematches) one client address may start an hour, "
            "{burst} at once (default {count:g})"
        ).format(burst=limits.create_burst, count=limits.creates_per_hour),
    )
    sub.add_argument(
        "--pars-per-hour",
        type=positive_number(3_600_000),
        default=limits.pars_per_hour,
        metavar="N",
        help=_(
            "pars of deals no catalogue knows that one client address may have the solver work out an hour "
            "(default {count:g})"
        ).format(count=limits.pars_per_hour),
    )
    for flag, field, words in NETWORK_CAPS:
        default = getattr(limits, field)
        sub.add_argument(
            flag, type=_positive, default=default, metavar="N", dest=field, help=_(words).format(count=default)
        )
    sub.add_argument(
        "--abandon-hours",
        type=positive_number(24 * 365),
        default=limits.abandon_seconds / 3600,
        metavar="H",
        help=_(
            "a game whose player to move has not moved for H hours ends: abandoned (the other wins), "
            "or called off before move 2 (default {value}; decimals allowed)"
        ).format(value=format_short(limits.abandon_seconds / 3600)),
    )
    sub.add_argument(
        "--abandon-hours-one-network",
        type=positive_number(24 * 365),
        default=limits.abandon_one_network_seconds / 3600,
        metavar="H",
        help=_(
            "the same for a game whose two players came from one address, or against the solver "
            "(default {value}; decimals allowed)"
        ).format(value=format_short(limits.abandon_one_network_seconds / 3600)),
    )
    sub.add_argument(
        "--keep-days",
        type=positive_number(36_500),
        default=limits.keep_seconds / 86400,
        metavar="D",
        help=_(
            "finished games and their reviews are deleted D days after they ended or the review was "
            "made (default {value}; decimals allowed)"
        ).format(value=format_short(limits.keep_seconds / 86400)),
    )
    sub.add_argument(
        "--idle-seconds",
        type=positive_number(24 * 3600),
        default=limits.pick_seconds,
        metavar="S",
        help=_(
            "a connection in no game and with no solver work (an analysis, a review it waits for) for S seconds "
            "is closed (default {value:g})"
        ).format(value=limits.pick_seconds),
    )
    sub.add_argument(
        "--ipv6-prefix",
        type=whole_number(
            16,
            128,
            not_one=N_("{text} is not an IPv6 prefix length"),
            outside=N_("{value} is not an IPv6 prefix length ({low} to {high})"),
        ),
        default=limits.ipv6_prefix,
        metavar="BITS",
        help=_(
            "an IPv6 client counts as its network of this many bits for the per-address limits "
            "(default {bits}: what one home router hands out); IPv4 counts per address"
        ).format(bits=limits.ipv6_prefix),
    )
    sub.add_argument(
        "--allow-origin",
        action="append",
        type=_origin,
        default=[],
        metavar="ORIGIN",
        help=_(
            "a web page besides the server's own whose scripts may connect, as https://HOST[:PORT] "
            "(repeat for more; pages elsewhere are refused)"
        ),
    )
    sub.add_argument(
        "--allow-host",
        action="append",
        type=_host_name,
        default=[],
        metavar=pgettext("metavar", "NAME"),
        help=_(
            "a host name this server answers to besides its own address, localhost, this machine's name "
            "and --public-url's (repeat for more; requests naming others are refused, as a DNS-rebinding "
            "page's are)"
        ),
    )
    sub.add_argument(
        "--trust-proxy",
        action="store_true",
        help=_(
            "behind a reverse proxy on this machine: take each client's address from the "
            "X-Forwarded-For header it adds (never without one: clients could name any address)"
        ),
    )
    sub.add_argument(
        "--public-url",
        type=_public_url,
        metavar="URL",
        help=_(
            "the address friends reach this server at, behind a reverse proxy (https://games.example.org): "
            "every invite link names it"
        ),
    )
    machines = sub.add_argument_group(_('several machines (docs/deploy.md, "Two machines")'))
    machines.add_argument(
        "--group",
        type=_group_name,
        metavar=pgettext("metavar", "NAME"),
        help=_(
            "this machine's name among the machines that serve one site behind one proxy, like a or eu-2: "
            "the proxy sends addresses with '?at=NAME' here (needs --shared)"
        ),
    )
    machines.add_argument(
        "--shared",
        type=_shared_url,
        metavar="URL",
        help=_(
            "the PostgreSQL database the machines share, postgresql://USER@HOST/DB: which machine holds "
            "each game, and what each address holds on all of them (needs --group)"
        ),
    )
    solver = sub.add_argument_group(_("the solver (games against it, hints, analysis and reviews on the page)"))
    solver.add_argument(
        "--solver-workers",
        type=whole_number(0, 256),
        metavar="N",
        help=_("solver processes on this machine (default: one per core; 0: no solver, friends' games only)"),
    )
    solver.add_argument(
        "--solver-budget",
        type=positive_number(24 * 3600),
        default=DEFAULT_BURST,
        metavar="S",
        help=_(
            "solver seconds one client address may spend at once (default {value:g}); it refills at "
            "--solver-refill, and a refusal says when to try again"
        ).format(value=DEFAULT_BURST),
    )
    solver.add_argument(
        "--solver-refill",
        type=positive_number(1024),
        default=DEFAULT_RATE,
        metavar="R",
        help=_(
            "solver seconds a client address regains each second (default {value}: a sixth of a core); "
            "more workers or a cluster can afford more"
        ).format(value=format_number(DEFAULT_RATE, 2)),
    )
    solver.add_argument(
        "--solver-scheduler",
        type=_scheduler_address,
        metavar="URL",
        help=_("hand the solver's work to the Dask cluster of this scheduler, tcp://HOST:8786 (docs/solver-pool.md)"),
    )
    # for benchmarks/online_load.py only, so not in --help: the one-commit-a-move path, and a slower disk
    sub.add_argument("--commit", choices=("group", "each"), default="group", help=argparse.SUPPRESS)
    sub.add_argument("--slow-sync-ms", type=float, default=0.0, help=argparse.SUPPRESS)
    # the writer's wait for more writes to commit with the first, and the event loop (auto: uvloop when installed)
    sub.add_argument("--gather-ms", type=float, help=argparse.SUPPRESS)
    sub.add_argument("--event-loop", choices=("auto", "asyncio"), default="auto", help=argparse.SUPPRESS)
    sub.set_defaults(run=cmd_serve)


def add_online_options(play: argparse.ArgumentParser) -> None:
    group = play.add_argument_group(_("online play (a server started with 'mahjong-battle serve')"))
    group.add_argument(
        "--online",
        metavar="URL",
        help=_(
            "play on the server at URL, {DEFAULT_URL_HINT}: host a game (its invite code is shown), or --join one"
        ).format(DEFAULT_URL_HINT=_(DEFAULT_URL_HINT)),
    )
    group.add_argument(
        "--join", metavar=pgettext("metavar", "CODE"), help=_("with --online: join the game of this invite code")
    )
    group.add_argument(
        "--watch",
        metavar=pgettext("metavar", "CODE"),
        help=_("with --online: follow the game of this watch code, read-only"),
    )
    group.add_argument(
        "--move-seconds",
        type=_positive,
        metavar="S",
        help=_("with --online, hosting: a time limit per move (5 to 86400 s; none by default)"),
    )
    group.add_argument(
        "--lose-on-time",
        action="store_true",
        help=_("with --move-seconds: the side that runs out of time loses (else it is only told)"),
    )


_port = whole_number(
    0, 65535, not_one=N_("{text} is not a port number"), outside=N_("{value} is not a port number ({low} to {high})")
)


def _public_url(text: str) -> str:
    from battle.online.server.share_address import check_public_url

    try:
        return check_public_url(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _origin(text: str) -> str:
    from battle.online.server.server_limits import web_origin

    try:
        return web_origin(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{quote} is not a web origin like https://games.example.org").format(quote=quote(text, 60))
        ) from None


def _host_name(text: str) -> str:
    from battle.online.server.served_hosts import check_host_name

    try:
        return check_host_name(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{quote} is not a host name like games.example.org (no scheme, port or path)").format(
                quote=quote(text, 60)
            )
        ) from None


_positive = whole_number(1)


def _process_of(text: str) -> Shard:
    from battle.online.server.shards import parse_shard

    try:
        return parse_shard(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _group_name(text: str) -> str:
    from battle.online.protocol.server_groups import GROUP_NAME_LENGTH, check_group_name

    try:
        return check_group_name(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{quote} is not a group name: 1 to {count} lower-case letters, digits and inner dashes").format(
                quote=quote(text, 40), count=GROUP_NAME_LENGTH
            )
        ) from None


def _shared_url(text: str) -> str:
    """A PostgreSQL address without a password: a command line is every local user's to read
    (``ps``), so the password comes from libpq's own PGPASSWORD or pgpass file (PGPASSFILE)."""
    parts = urlparse(text)
    if parts.scheme not in ("postgresql", "postgres"):
        raise argparse.ArgumentTypeError(
            _("{quote} is not a PostgreSQL address like postgresql://battle@db.example.org/battle").format(
                quote=quote(text, 60)
            )
        )
    if parts.password is not None or "password" in parse_qs(parts.query):
        raise argparse.ArgumentTypeError(
            _(
                "the address holds a password, which every user of this machine can read on a command "
                "line: give it in PGPASSWORD or a pgpass file (PGPASSFILE) instead"
            )
        )
    return text


def _shared_directory(args: argparse.Namespace) -> SharedDirectory | None:
    """The directory ``--group`` and ``--shared`` name (both or neither), or None for one machine."""
    if args.group is None and args.shared is None:
        return None
    if args.group is None or args.shared is None:
        raise InputError(_("--group and --shared go together: a machine among several needs both"))
    try:
        import psycopg  # noqa: F401  (only a check that it is installed)
    except ImportError:
        raise InputError(
            _("--shared needs psycopg: pip install 'mahjong-battle[cluster]' (docs/deploy.md, \"Two machines\")")
        ) from None
    from battle.online.server.shared_directory import SharedDirectory

    return SharedDirectory(args.shared, args.group)


def _scheduler_address(text: str) -> str:
    from battle.cli.survey_command import _scheduler_address as checked  # the survey's check, the same words

    return checked(text)


# -- serve -------------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace) -> int:
    database_file(args.db)  # a mistyped folder is refused, not made, and before the server's modules load
    from dataclasses import replace

    from battle.cli.serve_claim import check_writable, hold_database
    from battle.online.server.game_server import bound_port, running_server
    from battle.online.server.group_commit import GATHER_SECONDS
    from battle.online.server.process_tuning import LoopChoice, serving_loop, tuned_for_serving
    from battle.online.server.server_limits import ServerLimits
    from battle.online.server.shards import ONE_PROCESS
    from battle.online.server.solver_outcomes import SolverSetup
    from battle.online.server.store import GameStore, StoreError
    from battle.online.server.supervisor import READY, beat_forever, die_with_parent
    from battle.storage.paths import StorageProblem

    if args.solver_scheduler and args.solver_workers is not None:
        raise InputError(_("--solver-workers runs the solver here; a --solver-scheduler's workers are its own"))
    processes = args.processes if args.processes is not None else len(os.sched_getaffinity(0))
    process_of: Shard | None = args.process_of
    if process_of is not None:
        die_with_parent()
    wants_solver = args.solver_workers != 0
    directory = _shared_directory(args)
    solver = (
        None
        if not wants_solver or (process_of is not None and process_of.index != 0)  # one pool, in process 0
        else SolverSetup(args.solver_workers, args.solver_scheduler, burst=args.solver_budget, rate=args.solver_refill)
    )
    if process_of is None and processes > 1:
        from battle.cli.serve_processes import serve_in_processes

        return serve_in_processes(args, processes, _say_serving)
    try:
        store = GameStore(args.db)
    except (StoreError, StorageProblem) as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise InputError(_("cannot open the game database: {value}").format(value=error_reason(error))) from None
    held = None
    try:
        held = None if process_of is not None else hold_database(store.path)  # a game process: the supervisor's
        check_writable(store)
    except InputError:
        store.close()
        if held is not None:
            held.close()
        raise
    if store.notice:
        print(store.notice, file=sys.stderr)
    store.slow_sync = max(0.0, args.slow_sync_ms) / 1000
    limits = replace(
        ServerLimits(),
        open_games=args.max_games,
        wait_seconds=args.wait_hours * 3600,
        connections=args.max_connections,
        connections_per_address=args.max_connections_per_address,
        waiting_per_address=args.max_waiting_per_address,
        games_per_network=args.max_games_per_address,
        solver_games_per_network=args.max_solver_games_per_address,
        creates_per_hour=args.creates_per_hour,
        pars_per_hour=args.pars_per_hour,
        **{field: getattr(args, field) for _flag, field, _words in NETWORK_CAPS},
        abandon_seconds=args.abandon_hours * 3600,
        abandon_one_network_seconds=args.abandon_hours_one_network * 3600,
        keep_seconds=args.keep_days * 86400,
        trust_proxy=args.trust_proxy,
        public_url=args.public_url,
        ipv6_prefix=args.ipv6_prefix,
        pick_seconds=args.idle_seconds,
        allowed_origins=tuple(args.allow_origin),
        allowed_hosts=tuple(args.allow_host),
    )

    async def serve_until_stopped() -> int:
        """Serve until SIGINT (Ctrl-C) or SIGTERM; the signal that stopped the server."""
        stop: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def stopping(number: int) -> None:
            if not stop.done():  # a second Ctrl-C while the server closes
                stop.set_result(number)

        for signal_number in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                asyncio.get_running_loop().add_signal_handler(signal_number, stopping, signal_number)
        async with (
            tuned_for_serving(),
            running_server(
                store,
                args.host,
                args.port,
                limits,
                commit=args.commit,
                solver=solver,
                deals=_deal_book(wants_solver),
                gather_seconds=GATHER_SECONDS if args.gather_ms is None else max(0.0, args.gather_ms) / 1000,
                shard=ONE_PROCESS if process_of is None else process_of,
                run_folder=None if process_of is None else Path(args.run_folder),
                solver_process=0 if process_of is not None and wants_solver else None,
                directory=directory,
            ) as (server, games),
        ):
            for problem in store.problems:
                print(_("left out: {problem}").format(problem=problem), file=sys.stderr)
            if process_of is not None:
                print(READY, flush=True)  # to the supervisor
                beating = asyncio.create_task(beat_forever())
                try:
                    return await stop
                finally:
                    beating.cancel()
            _say_serving(args, bound_port(server), store.path, games.live.unfinished())
            stopped_by = await stop
        print(_("Server stopped; every game is kept."), flush=True)
        return stopped_by

    try:
        # a game process adopts the sockets handed to it through asyncio's server's protocol factory,
        # which uvloop's server does not expose: it runs on asyncio's loop
        loop_choice: LoopChoice = "asyncio" if process_of is not None else args.event_loop
        with asyncio.Runner(loop_factory=serving_loop(loop_choice)) as runner:
            stopped_by = runner.run(serve_until_stopped())
    except OSError as error:
        if args.solver_scheduler and error.errno is None:  # Dask's "Timed out trying to connect"
            raise InputError(
                _("cannot reach the scheduler {scheduler}: {error}").format(
                    scheduler=args.solver_scheduler, error=error
                )
            ) from None
        raise InputError(
            _("cannot listen on {host}:{port}: {value}").format(
                host=args.host, port=args.port, value=error_reason(error)
            )
        ) from None
    except UnicodeError:  # a host name the resolver cannot even encode
        raise InputError(
            _("--host: {quote} is not an address or a host name").format(quote=quote(args.host, 60))
        ) from None
    finally:
        store.close()
        if held is not None:
            held.close()
    # Ctrl-C exits 130 as every command does; SIGTERM is how a service manager (systemd's
    # ``systemctl stop``) ends a server on purpose, a clean stop: 0
    return EXIT_INTERRUPTED if stopped_by == signal.SIGINT else 0


class _CatalogueDeals:
    """The catalogued deals a game against the solver starts from (the server's ``DealBook``): the
    shipped pars and the user's own survey, as ``play --daily`` and ``--fair`` read them."""

    def __init__(self) -> None:
        from battle.atlas.catalogue import Catalogue

        self.catalogue = Catalogue.load()
        for problem in self.catalogue.problems:
            print(_("left out: {problem}").format(problem=problem), file=sys.stderr)

    def daily_deal(self, day: datetime.date) -> int | None:
        return self.catalogue.daily_deal(day)

    def fair_deals(self, margin: int) -> list[int]:
        return self.catalogue.fair_deals(margin)

    def par(self, deal: int | None, start: Position) -> int | None:
        par = self.catalogue.par_at_start(deal, start)
        return None if par is None else par.value

    def known_start(self, deal: int | None, start: Position) -> tuple[int, tuple[str, ...]] | None:
        par = self.catalogue.par_at_start(deal, start)
        return None if par is None else (par.value, tuple(par.best_moves or ()))


def _deal_book(wants_solver: bool) -> _CatalogueDeals | None:
    """The catalogue, for every process of a server with a solver, wherever its pool runs (a server
    without one plays no deal of the day)."""
    return _CatalogueDeals() if wants_solver else None


def _say_serving(args: argparse.Namespace, port: int, path: Path, unfinished: int) -> None:
    """The lines a server prints once it listens: where, the games it holds, and the page's address."""
    print(
        ngettext(
            "Mahjong Battle server on ws://{host}:{port} · games in {path} · {count} unfinished "
            "game loaded · Ctrl-C stops it",
            "Mahjong Battle server on ws://{host}:{port} · games in {path} · {count} unfinished "
            "games loaded · Ctrl-C stops it",
            unfinished,
        ).format(host=args.host, port=port, path=path, count=unfinished),
        flush=True,
    )
    print(
        _("Play in a browser: {page} (host a game there and send its link)").format(
            page=_page_address(args.host, port, args.public_url)
        ),
        flush=True,
    )


def _page_address(host: str, port: int, public_url: str | None) -> str:
    """Where a browser finds the page: the public URL, else the listening address (one of this
    machine's LAN addresses for a server on every interface)."""
    if public_url:
        return public_url + "/"
    if host in ("0.0.0.0", "::", ""):
        from battle.online.server.share_address import lan_addresses

        host = next(iter(lan_addresses()), "THIS-MACHINES-ADDRESS")
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


# -- play --online -----------------------------------------------------------------------


def check_online_arguments(args: argparse.Namespace) -> None:
    """Options that only make sense with ``--online`` (and the reverse): one line each."""
    if not args.online:
        for flag, value in (
            ("--join", args.join),
            ("--watch", args.watch),
            ("--move-seconds", args.move_seconds),
            ("--lose-on-time", args.lose_on_time),
        ):
            if value:
                raise InputError(_("{flag} goes with --online URL").format(flag=flag))
        return
    parsed = urlparse(args.online)
    if parsed.scheme not in ("ws", "wss") or not parsed.hostname:
        raise InputError(
            _("--online: {online!r} is not a server address like {DEFAULT_URL_HINT}").format(
                online=args.online[:80], DEFAULT_URL_HINT=_(DEFAULT_URL_HINT)
            )
        )
    if args.vs:
        raise InputError(_("--online plays a person on the server; --vs plays the solver here"))
    if args.join and args.watch:
        raise InputError(_("--join takes a seat and --watch only looks on: choose one"))
    if (args.join or args.watch) and (args.deal or args.load or args.move_seconds or args.lose_on_time or args.first):
        raise InputError(
            _(
                "--join and --watch take the game the host set up: --deal, --load, --first and the "
                "time options are for hosting"
            )
        )
    if args.lose_on_time and not args.move_seconds:
        raise InputError(_("--lose-on-time needs --move-seconds S"))
    if args.move_seconds is not None and not 5 <= args.move_seconds <= 86_400:
        raise InputError(
            _("--move-seconds: {move_seconds} is not 5 to 86400 seconds").format(move_seconds=args.move_seconds)
        )
    if args.player2:
        raise InputError(_("--player2 is for two people at one keyboard; online, --player1 is your name"))


def cmd_play_online(args: argparse.Namespace) -> int:
    from battle.cli.online_play import OnlinePlay, open_session
    from battle.online.protocol.codes import normalise_code

    check_online_arguments(args)
    join = watch = None
    try:
        join = normalise_code(args.join) if args.join else None
        watch = normalise_code(args.watch) if args.watch else None
    except ValueError as error:
        raise InputError(f"{'--join' if args.join else '--watch'}: {error}") from None
    resume = _kept_seat(args.online, args.resume) if args.resume is not None else None
    create = None if join or watch or resume else _create_message(args)
    session = open_session(args.online, join=join, watch=watch, resume=resume, create=create, name=args.player1)
    try:
        return OnlinePlay(session, colour=use_colour(sys.stdout)).run()
    finally:
        session.close()


def _create_message(args: argparse.Namespace) -> Create:
    from battle.online.protocol.messages import Create, DealChoice, GivenPosition, NumberedDeal, RandomDeal

    deal: DealChoice
    if args.load:
        deal = GivenPosition(format_position(load_position(args.load)))
    elif args.deal is not None:
        try:
            deal = NumberedDeal(parse_deal_number(args.deal))
        except BattleError as error:
            raise InputError(str(error)) from None
    else:
        deal = RandomDeal()
    return Create(
        deal=deal,
        first="creator" if args.first else "random",
        move_seconds=args.move_seconds,
        lose_on_time=bool(args.lose_on_time),
        name=args.player1 or None,
    )


def _kept_seat(url: str, choice: str):  # noqa: ANN202 - a Seat
    from battle.online.client.seats import load_seats

    seats, problem = load_seats()
    if problem:
        print(problem, file=sys.stderr)
    mine = [seat for seat in seats if seat.url == url and not seat.finished]
    if not mine:
        raise InputError(_("no online game on {url} to resume (host one with 'play --online {url}')").format(url=url))
    if choice:
        if not choice.isdigit() or not 1 <= int(choice) <= len(mine):
            raise InputError(
                _("--resume: {choice!r} is not a number from 1 to {len}").format(choice=choice[:20], len=len(mine))
            )
        return mine[int(choice) - 1]
    if len(mine) > 1:
        print(_("Online games on this server (the newest is resumed; '--resume N' picks another):"))
        for number, seat in enumerate(mine, start=1):
            against = f" against {seat.opponent}" if seat.opponent else ""
            print(_("  {number}. game {game}{against}").format(number=number, game=seat.game, against=against))
    return mine[0]
