"""The command line's online parts: ``serve``, and ``play --online`` (host, ``--join``, ``--resume``)."""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlparse

from battle.cli.inputs import (
    InputError,
    add_db_option,
    checked_argument,
    database_file,
    load_position,
    positive_number,
    use_colour,
    whole_number,
)
from battle.cli.interruption import EXIT_INTERRUPTED
from battle.i18n import N_, _, format_number, format_short, ngettext, pgettext
from battle.rules.deal import parse_deal_number
from battle.rules.errors import BattleError, quote
from battle.rules.notation import format_position
from battle.storage.paths import error_reason

if TYPE_CHECKING:
    import asyncio

    from battle.online.protocol.messages import Create
    from battle.online.server.limits.server import ServerLimits
    from battle.online.server.processes.shared_directory import SharedDirectory
    from battle.online.server.rooms.shards import Shard
    from battle.online.server.rooms.store import GameStore
    from battle.online.server.solving.outcomes import SolverSetup
    from battle.rules.board import Position

DEFAULT_URL_HINT = N_("ws://HOST:8765 (or wss://HOST behind a TLS proxy)")


_positive = whole_number(1)


@dataclass(frozen=True)
class LimitOption:
    """A ``serve`` option that sets one field of ``ServerLimits``: its default is the field's, and
    its help shows that default, so the two cannot disagree."""

    flag: str
    field: str
    """The ``ServerLimits`` field the option sets."""
    words: str
    """The help, a sentence of the catalogue (marked ``N_``) that shows the default as ``{placeholder}``."""
    placeholder: str = "count"
    metavar: str = "N"
    parse: Callable[[str], float] = _positive
    """The option's argparse ``type``."""
    unit_seconds: int | None = None
    """Seconds in the option's unit (an hour, a day) when the field counts seconds; None when the
    option gives the field's value as it is."""
    also_shown: tuple[tuple[str, str], ...] = ()
    """Other placeholders of ``words``, each with the ``ServerLimits`` field it shows."""

    @property
    def attribute(self) -> str:
        """The option's name in the parsed arguments, as argparse makes it from the flag."""
        return self.flag.removeprefix("--").replace("-", "_")

    def default(self, limits: ServerLimits) -> float:
        """The option's default, in the option's unit."""
        value: float = getattr(limits, self.field)
        return value if self.unit_seconds is None else value / self.unit_seconds

    def help(self, limits: ServerLimits) -> str:
        """The help in the reader's language, with the default written as the option takes it."""
        default = self.default(limits)
        shown = default if self.unit_seconds is None else format_short(default)
        others = {placeholder: getattr(limits, field) for placeholder, field in self.also_shown}
        return _(self.words).format(**{self.placeholder: shown}, **others)

    def value(self, args: argparse.Namespace) -> float:
        """The field's value the parsed arguments give, in the field's unit."""
        given: float = getattr(args, self.attribute)
        return given if self.unit_seconds is None else given * self.unit_seconds


NETWORK_CAPS = (
    LimitOption(
        "--device-keys-per-hour",
        "device_keys_per_hour",
        N_(
            "browsers' device keys one client address may file games under for the first time an hour (default {count})"
        ),
    ),
    LimitOption(
        "--puzzle-ratings-per-hour",
        "puzzle_ratings_per_hour",
        N_("puzzle ratings one client address may start an hour, one a browser (default {count})"),
    ),
    LimitOption(
        "--puzzle-attempts-per-hour",
        "puzzle_attempts_per_hour",
        N_("rated puzzle attempts one client address may make an hour (default {count})"),
    ),
    LimitOption(
        "--max-puzzles-open-per-address",
        "puzzles_open_per_network",
        N_("connections of one client address that may hold a puzzle open at once (default {count})"),
    ),
    LimitOption(
        "--max-lobby-followers-per-address",
        "lobby_followers_per_network",
        N_("connections of one client address that may follow the lobby at once (default {count})"),
    ),
)
"""What a client address may do with puzzles, the lobby and device keys. A school or a household
behind one address may need more than the defaults."""

LIMIT_OPTIONS = (
    LimitOption(
        "--max-games",
        "open_games",
        N_("unfinished games the server holds at most (default {open_games})"),
        placeholder="open_games",
    ),
    LimitOption(
        "--wait-hours",
        "wait_seconds",
        N_("a game nobody joins expires after H hours (default {value}; decimals allowed)"),
        placeholder="value",
        metavar="H",
        parse=positive_number(24 * 365),
        unit_seconds=3600,
    ),
    LimitOption(
        "--max-connections",
        "connections",
        N_("open connections at most (default {connections}, fewer if the open-files limit is lower)"),
        placeholder="connections",
    ),
    LimitOption(
        "--max-connections-per-address",
        "connections_per_address",
        N_("open connections from one client address (default {connections_per_address})"),
        placeholder="connections_per_address",
    ),
    LimitOption(
        "--max-waiting-per-address",
        "waiting_per_address",
        N_("games one client address may keep waiting for a second player (default {waiting_per_address})"),
        placeholder="waiting_per_address",
    ),
    LimitOption(
        "--max-games-per-address",
        "games_per_network",
        N_(
            "unfinished games between people one client address may have a seat in and still host "
            "another (default {count}; joining is never refused for it)"
        ),
    ),
    LimitOption(
        "--max-solver-games-per-address",
        "solver_games_per_network",
        N_("unfinished games against the solver one client address may have (default {count})"),
    ),
    LimitOption(
        "--creates-per-hour",
        "creates_per_hour",
        N_(
            "games (hosted, against the solver, rematches) one client address may start an hour, "
            "{burst} at once (default {count:g})"
        ),
        parse=positive_number(3_600_000),
        also_shown=(("burst", "create_burst"),),
    ),
    LimitOption(
        "--pars-per-hour",
        "pars_per_hour",
        N_(
            "pars of deals no catalogue knows that one client address may have the solver work out an hour "
            "(default {count:g})"
        ),
        parse=positive_number(3_600_000),
    ),
    *NETWORK_CAPS,
    LimitOption(
        "--abandon-hours",
        "abandon_seconds",
        N_(
            "a game whose player to move has not moved for H hours ends: abandoned (the other wins), "
            "or called off before move 2 (default {value}; decimals allowed)"
        ),
        placeholder="value",
        metavar="H",
        parse=positive_number(24 * 365),
        unit_seconds=3600,
    ),
    LimitOption(
        "--abandon-hours-one-network",
        "abandon_one_network_seconds",
        N_(
            "the same for a game whose two players came from one address, or against the solver "
            "(default {value}; decimals allowed)"
        ),
        placeholder="value",
        metavar="H",
        parse=positive_number(24 * 365),
        unit_seconds=3600,
    ),
    LimitOption(
        "--keep-days",
        "keep_seconds",
        N_(
            "finished games and their reviews are deleted D days after they ended or the review was "
            "made (default {value}; decimals allowed)"
        ),
        placeholder="value",
        metavar="D",
        parse=positive_number(36_500),
        unit_seconds=86400,
    ),
    LimitOption(
        "--idle-seconds",
        "pick_seconds",
        N_(
            "a connection in no game and with no solver work (an analysis, a review it waits for) for S seconds "
            "is closed (default {value:g})"
        ),
        placeholder="value",
        metavar="S",
        parse=positive_number(24 * 3600),
    ),
    LimitOption(
        "--ipv6-prefix",
        "ipv6_prefix",
        N_(
            "an IPv6 client counts as its network of this many bits for the per-address limits "
            "(default {bits}: what one home router hands out); IPv4 counts per address"
        ),
        placeholder="bits",
        metavar="BITS",
        parse=whole_number(
            16,
            128,
            not_one=N_("{text} is not an IPv6 prefix length"),
            outside=N_("{value} is not an IPv6 prefix length ({low} to {high})"),
        ),
    ),
)
"""Every ``serve`` option that sets a number of ``ServerLimits``, in the order ``--help`` lists them."""


def add_serve_command(commands: argparse._SubParsersAction) -> None:
    """``serve``: its options grouped by what they set, the limits read off ``LIMIT_OPTIONS``."""
    from battle.online.server.limits.server import ServerLimits

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
    _add_listening_options(sub)
    for option in LIMIT_OPTIONS:
        sub.add_argument(
            option.flag,
            type=option.parse,
            default=option.default(limits),
            metavar=option.metavar,
            dest=option.attribute,
            help=option.help(limits),
        )
    _add_web_options(sub)
    _add_machine_options(sub)
    _add_solver_options(sub)
    _add_measuring_options(sub)
    sub.set_defaults(run=cmd_serve)


def _add_listening_options(sub: argparse.ArgumentParser) -> None:
    """Where the server listens, the database it keeps, and the processes it runs as."""
    from battle.online.server.limits.server import DEFAULT_HOST, DEFAULT_PORT

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
    add_db_option(sub, _("the games database (default: online/games.sqlite3 in the user's data folder)"))
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


def _add_web_options(sub: argparse.ArgumentParser) -> None:
    """Which pages and host names the server answers browsers for, and the reverse proxy in front of it."""
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


def _add_machine_options(sub: argparse.ArgumentParser) -> None:
    """One machine among several that serve one site: its name, and the database they share."""
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


def _add_solver_options(sub: argparse.ArgumentParser) -> None:
    """Where the solver runs, and how much of its time one client address may take."""
    from battle.online.server.solving.solver_time import DEFAULT_BURST, DEFAULT_RATE

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


def _add_measuring_options(sub: argparse.ArgumentParser) -> None:
    """Knobs the benchmarks (benchmarks/online_load.py) and tests turn, so not in --help."""
    # the one-commit-a-move path, and a slower disk
    sub.add_argument("--commit", choices=("group", "each"), default="group", help=argparse.SUPPRESS)
    sub.add_argument("--slow-sync-ms", type=float, default=0.0, help=argparse.SUPPRESS)
    # the writer's wait for more writes to commit with the first, and the event loop (auto: uvloop when installed)
    sub.add_argument("--gather-ms", type=float, help=argparse.SUPPRESS)
    sub.add_argument("--event-loop", choices=("auto", "asyncio"), default="auto", help=argparse.SUPPRESS)


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
    from battle.online.server.rooms.share_address import check_public_url

    return checked_argument(check_public_url, text)


def _origin(text: str) -> str:
    from battle.online.server.limits.server import web_origin

    return checked_argument(web_origin, text, N_("{quote} is not a web origin like https://games.example.org"))


def _host_name(text: str) -> str:
    from battle.online.server.shell.served_hosts import check_host_name

    return checked_argument(
        check_host_name, text, N_("{quote} is not a host name like games.example.org (no scheme, port or path)")
    )


def _process_of(text: str) -> Shard:
    from battle.online.server.rooms.shards import parse_shard

    return checked_argument(parse_shard, text)


def _group_name(text: str) -> str:
    from battle.online.protocol.server_groups import GROUP_NAME_LENGTH, check_group_name

    return checked_argument(
        check_group_name,
        text,
        N_("{quote} is not a group name: 1 to {count} lower-case letters, digits and inner dashes"),
        width=40,
        count=GROUP_NAME_LENGTH,
    )


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
    from battle.online.server.processes.shared_directory import SharedDirectory

    return SharedDirectory(args.shared, args.group)


def _scheduler_address(text: str) -> str:
    from battle.cli.survey_command import _scheduler_address as checked  # the survey's check, the same words

    return checked(text)


# -- serve -------------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace) -> int:
    """``serve``: one server, a supervisor of game processes, or one game process of a supervisor."""
    database_file(args.db)  # a mistyped folder is refused, not made, and before the server's modules load
    from battle.online.server.processes.supervisor import die_with_parent

    if args.solver_scheduler and args.solver_workers is not None:
        raise InputError(_("--solver-workers runs the solver here; a --solver-scheduler's workers are its own"))
    processes = args.processes if args.processes is not None else len(os.sched_getaffinity(0))
    if args.process_of is not None:
        die_with_parent()
    directory = _shared_directory(args)
    solver = _solver_setup(args)
    if args.process_of is None and processes > 1:
        from battle.cli.serve_processes import serve_in_processes

        return serve_in_processes(args, processes, _say_serving)
    store, held = _open_store(args)
    limits = _server_limits(args)
    try:
        stopped_by = _run_until_stopped(args, store, limits, solver, directory)
    finally:
        store.close()
        if held is not None:
            held.close()
    # Ctrl-C exits 130 as every command does; SIGTERM is how a service manager (systemd's
    # ``systemctl stop``) ends a server on purpose, a clean stop: 0
    return EXIT_INTERRUPTED if stopped_by == signal.SIGINT else 0


def _wants_solver(args: argparse.Namespace) -> bool:
    """Whether the server runs a solver anywhere (``--solver-workers 0``: friends' games only)."""
    return args.solver_workers != 0


def _solver_setup(args: argparse.Namespace) -> SolverSetup | None:
    """The solver pool this process runs: one a server, in its first game process when it has several."""
    from battle.online.server.rooms.shards import POOL_PROCESS
    from battle.online.server.solving.outcomes import SolverSetup

    process_of: Shard | None = args.process_of
    if not _wants_solver(args) or (process_of is not None and process_of.index != POOL_PROCESS):  # one pool
        return None
    return SolverSetup(args.solver_workers, args.solver_scheduler, burst=args.solver_budget, rate=args.solver_refill)


def _open_store(args: argparse.Namespace) -> tuple[GameStore, IO[bytes] | None]:
    """The game database open, writable and claimed for this server, or one line saying why not."""
    from battle.cli.serve_claim import check_writable, hold_database
    from battle.online.server.rooms.store import GameStore, StoreError
    from battle.storage.paths import StorageProblem

    try:
        store = GameStore(args.db)
    except (StoreError, StorageProblem) as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise InputError(_("cannot open the game database: {value}").format(value=error_reason(error))) from None
    held = None
    try:
        held = None if args.process_of is not None else hold_database(store.path)  # a game process: the supervisor's
        check_writable(store)
    except InputError:
        store.close()
        if held is not None:
            held.close()
        raise
    if store.notice:
        print(store.notice, file=sys.stderr)
    store.slow_sync = max(0.0, args.slow_sync_ms) / 1000
    return store, held


def _server_limits(args: argparse.Namespace) -> ServerLimits:
    """The limits the options set; every other one is ``ServerLimits``' default."""
    from dataclasses import replace

    from battle.online.server.limits.server import ServerLimits

    numbers: dict[str, Any] = {option.field: option.value(args) for option in LIMIT_OPTIONS}  # ints and floats
    return replace(
        ServerLimits(),
        **numbers,
        trust_proxy=args.trust_proxy,
        public_url=args.public_url,
        allowed_origins=tuple(args.allow_origin),
        allowed_hosts=tuple(args.allow_host),
    )


def _run_until_stopped(
    args: argparse.Namespace,
    store: GameStore,
    limits: ServerLimits,
    solver: SolverSetup | None,
    directory: SharedDirectory | None,
) -> int:
    """Run the event loop until a signal stops the server (its number), a failure to start said in one line."""
    import asyncio  # here, not at the top: its 40-50 ms of imports are no other command's

    from battle.online.server.processes.tuning import LoopChoice, serving_loop

    try:
        # a game process adopts the sockets handed to it through asyncio's server's protocol factory,
        # which uvloop's server does not expose: it runs on asyncio's loop
        loop_choice: LoopChoice = "asyncio" if args.process_of is not None else args.event_loop
        with asyncio.Runner(loop_factory=serving_loop(loop_choice)) as runner:
            return runner.run(_serve_until_stopped(args, store, limits, solver, directory))
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


async def _serve_until_stopped(
    args: argparse.Namespace,
    store: GameStore,
    limits: ServerLimits,
    solver: SolverSetup | None,
    directory: SharedDirectory | None,
) -> int:
    """Serve until SIGINT (Ctrl-C) or SIGTERM; the signal that stopped the server."""
    import asyncio

    from battle.online.server.processes.supervisor import READY, beat_forever
    from battle.online.server.processes.tuning import tuned_for_serving
    from battle.online.server.rooms.group_commit import GATHER_SECONDS
    from battle.online.server.rooms.shards import ONE_PROCESS, POOL_PROCESS
    from battle.online.server.shell.game_server import bound_port, running_server

    stop = _stop_on_signals()
    process_of: Shard | None = args.process_of
    async with (
        tuned_for_serving(),
        running_server(
            store,
            args.host,
            args.port,
            limits,
            commit=args.commit,
            solver=solver,
            deals=_deal_book(_wants_solver(args)),
            gather_seconds=GATHER_SECONDS if args.gather_ms is None else max(0.0, args.gather_ms) / 1000,
            shard=ONE_PROCESS if process_of is None else process_of,
            run_folder=None if process_of is None else Path(args.run_folder),
            solver_process=POOL_PROCESS if process_of is not None and _wants_solver(args) else None,
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


def _stop_on_signals() -> asyncio.Future[int]:
    """What the server awaits to stop: the number of the first SIGINT or SIGTERM the loop can take."""
    import asyncio

    loop = asyncio.get_running_loop()
    stop: asyncio.Future[int] = loop.create_future()

    def stopping(number: int) -> None:
        if not stop.done():  # a second Ctrl-C while the server closes
            stop.set_result(number)

    for signal_number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal_number, stopping, signal_number)
    return stop


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
        from battle.online.server.rooms.share_address import lan_addresses

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
    if args.hint_seconds:
        raise InputError(_("--hint-seconds is for a game in this terminal: an online game has no hint or eval"))
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
