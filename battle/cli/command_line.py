"""The ``mahjong-battle`` command: subcommands for scripts, the window without one.

Every command exits 0 on success and 2 on bad input, with a one-line reason on
stderr that names the file and the line; tracebacks are for bugs only.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, NoReturn

from battle.cli.inputs import (
    InputError,
    file_label,
    load_game,
    load_position,
    positive_number,
    read_input,
    use_colour,
    whole_number,
)
from battle.cli.interruption import EXIT_INTERRUPTED, PROG
from battle.cli.textboard import LEGEND, render_board, render_status
from battle.i18n import (
    N_,
    _,
    available_languages,
    format_number,
    format_short,
    ngettext,
    pgettext,
    set_language,
    source_language,
)
from battle.rules.board import Move, Position, move_name
from battle.rules.deal import deal, parse_deal_number, random_deal_number
from battle.rules.errors import BattleError, one_line, quote
from battle.rules.game import Game
from battle.rules.notation import format_position, parse_record
from battle.rules.wording import solver_level, solver_name
from battle.search_times import HINT_SECONDS, HINT_SECONDS_MOST
from battle.storage.paths import error_reason

if TYPE_CHECKING:
    from battle.atlas.par_finder import ParFinder
    from battle.cli.terminal import Advisor, Computer, Reviewer
    from battle.cli.warm_up import SolverWarmUp
    from battle.players import Analysis
    from battle.storage.saved_games import SavedGame, Shelf


# argparse looks up its own words (``usage:``, ``options``, its error lines) through these two
# names, the gettext hook it is written for: they read the game's catalogue.
setattr(argparse, "_", _)  # noqa: B010 - argparse's module-level names, not attributes of ours
setattr(argparse, "ngettext", ngettext)  # noqa: B010
IMPORTED = time.monotonic()
"""When the command line was loaded: the start of ``--time``'s clock where the process's
own start cannot be read (``process_started``)."""
EXIT_OK, EXIT_BAD_INPUT = 0, 2


# -- commands ---------------------------------------------------------------------------


def cmd_deal(args: argparse.Namespace) -> int:
    if (args.fair or args.daily) and args.number is not None:
        raise InputError(_("--fair and --daily choose the deal: give no number with them"))
    if args.fair and args.daily:
        raise InputError(_("--fair or --daily, not both"))
    if (args.margin or args.handicap) and not args.fair:
        raise InputError(_("--margin and --handicap go with --fair"))
    par = None
    if args.fair or args.daily:
        number, par = _catalogued_deal(args)
    else:
        number = random_deal_number() if args.number is None else _deal_number(args.number)
    comment = f"deal {number}" + (f"; {par.comment()}" if par is not None else "")
    sys.stdout.write(format_position(deal(number), comment))
    return EXIT_OK


def _catalogued_deal(args: argparse.Namespace):  # noqa: ANN202 - (deal number, Par)
    import datetime
    import random

    from battle.atlas.catalogue import Catalogue

    catalogue = Catalogue.load()
    for problem in catalogue.problems:
        print(f"{PROG}: {problem}", file=sys.stderr)
    if args.daily:
        number = catalogue.daily_deal(datetime.date.today())
        if number is None:
            raise InputError(_("no deal is catalogued yet: 'mahjong-battle survey' solves some"))
        return number, catalogue.par(number)
    fair = catalogue.fair_deals(args.margin or 0, args.handicap or 0)
    if not fair:
        raise InputError(
            _(
                "no catalogued deal has a value of {value:+d} within {margin} ({count} deals catalogued; "
                "--margin widens the choice)"
            ).format(value=args.handicap or 0, margin=args.margin or 0, count=len(catalogue))
        )
    number = random.choice(fair)
    return number, catalogue.par(number)


_points = whole_number(0, 270)


def _deal_number(text: str) -> int:
    try:
        return parse_deal_number(text)
    except BattleError as error:
        raise InputError(str(error)) from None


def cmd_show(args: argparse.Namespace) -> int:
    text = read_input(args.file)
    try:
        game, _comment = Game.from_file_text(text)
    except BattleError as error:
        raise InputError(f"{file_label(args.file)}: {error}") from None
    position = game.position
    print(render_board(position, use_colour(sys.stdout)))
    print(render_status(position))
    par = _catalogued_par(game, text)
    if par is not None:
        print(_("{what} (deal {deal} before move 1)").format(what=par.describe(), deal=par.deal))
    print(_(LEGEND))
    return EXIT_OK


def _catalogued_par(game: Game, text: str):  # noqa: ANN202 - Par | None
    """The catalogue's par of the deal a record names, or that a position file's ``# deal N``
    comment names when the position is that deal's start."""
    number = game.deal_number
    if number is None:
        found = re.match(r"\s*#\s*deal (\d{1,19})\b", text)
        if found is None or game.ply or tuple(game.start.scores) != (0, 0):
            return None
        try:
            if deal(int(found.group(1))).cells != game.start.cells:
                return None
        except BattleError:  # a number beyond the last deal
            return None
        number = int(found.group(1))
    from battle.atlas.catalogue import Catalogue

    catalogue = Catalogue.load()
    for problem in catalogue.problems:
        print(f"{PROG}: {problem}", file=sys.stderr)
    return catalogue.par(number)


def cmd_moves(args: argparse.Namespace) -> int:
    position = load_position(args.file)
    moves = position.legal_moves()
    if not moves:  # a line, not silence: an empty list reads like a failure
        print(_("no pair left: the game is over"))
    for move in moves:
        print(f"{move_name(move)} ({position.move_points(move)})")
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    text = read_input(args.file)
    try:
        game = Game.from_record(parse_record(text))
    except BattleError as error:
        raise InputError(f"{file_label(args.file)}: {error}") from None
    result = game.result()
    start = f"deal {game.deal_number}" if game.deal_number is not None else "a composed layout"
    moves = f"{game.ply} move" if game.ply == 1 else f"{game.ply} moves"
    summary = [f"{game.player1} vs {game.player2}, from {start}, {moves}"]
    if result is None:
        summary.append(f"not finished: {game.names[game.position.to_move - 1]} to move")
    else:
        with source_language():  # the printed position is a file: its comment reads the same everywhere
            described = result.describe(game.names, start=False)
        summary.append(f"result: {result.scores[0]}-{result.scores[1]}, {described}")
    sys.stdout.write(format_position(game.position, "\n".join(summary)))
    return EXIT_OK


def cmd_play(args: argparse.Namespace) -> int:
    from battle.cli.terminal import TerminalPlay
    from battle.storage.saved_games import Shelf

    if args.online or args.join or args.watch or args.move_seconds or args.lose_on_time:
        from battle.cli.online_commands import cmd_play_online

        return cmd_play_online(args)
    _settle_play_options(args)
    shelf = Shelf()
    game, resumed = _game_to_play(args, shelf)
    computers, level = _solver_opponents(args, game, resumed)
    from battle.cli.warm_up import SolverWarmUp

    warm_up = SolverWarmUp()
    advise, review = _lazy_advisor(args.hint_seconds or HINT_SECONDS), _lazy_reviewer()
    finder = _par_finder(warm_up)
    play = TerminalPlay(
        game,
        computers={
            side: warm_up.first(computer, _plain_player(level, warm_up.ended)) for side, computer in computers.items()
        },
        colour=use_colour(sys.stdout),
        shelf=shelf,
        advisor=warm_up.first(advise),
        game_id=resumed.game_id if resumed is not None else None,
        level=level,
        reviewer=warm_up.first(review),
        par_finder=finder,
    )
    try:
        return play.run()
    finally:
        _end_terminal_play(args, warm_up, finder)


def _settle_play_options(args: argparse.Namespace) -> None:
    """Refuse the options of a terminal game that do not go together, and settle the rest: with
    ``--vs`` and without ``--first`` the solver moves first, so ``--player1`` names player 2, and
    the level is checked before anything is loaded or dealt (a typo gets one line, not a traceback)."""
    if args.first and not args.vs:
        raise InputError(
            _(
                "--first goes with --vs LEVEL (you move first against the solver) or --online URL "
                "(you move first in the game you host)"
            )
        )
    if args.vs and args.player2:
        raise InputError(
            _(
                "with --vs, --player1 is your name on either side (the solver is named after its "
                "level); --player2 is for two people"
            )
        )
    if args.vs and not args.first:
        args.player1, args.player2 = None, args.player1  # the solver moves first: you are player 2
    if args.vs:
        from battle.cli.search_bounds import LEVEL_NAMES

        level = args.vs.lower().strip()
        if level not in LEVEL_NAMES:
            raise InputError(
                _("--vs: unknown level {level} (choose one of: {levels})").format(
                    level=quote(args.vs), levels=", ".join(LEVEL_NAMES)
                )
            )
        args.vs = level


def _game_to_play(args: argparse.Namespace, shelf: Shelf) -> tuple[Game, SavedGame | None]:
    """The game a terminal game starts from (``--resume``'s saved game, ``--load``'s file or a
    deal) with the names given, and the saved game when it is one."""
    resumed = None
    if args.resume is not None:
        resumed = _pick_unfinished(shelf, args.resume)
        game = resumed.game
    elif args.load:
        game = load_game(args.load)
    else:
        number = None if args.deal is None else _deal_number(args.deal)
        game = Game.new(number)
    if args.player1:
        game.player1 = args.player1
    if args.player2:
        game.player2 = args.player2
    return game, resumed


def _solver_opponents(
    args: argparse.Namespace, game: Game, resumed: SavedGame | None
) -> tuple[dict[int, Computer], str | None]:
    """The sides the solver plays, each with its moves, and its level: ``--vs``'s, else the one a
    resumed or loaded game remembers, so that a game against the solver goes on against it."""
    computers: dict[int, Computer] = {}
    level = args.vs
    if resumed is not None and resumed.solver_side is not None and resumed.level and not args.vs:
        from battle.players import LEVELS, solver_player

        if resumed.level in LEVELS:
            computers[resumed.solver_side] = solver_player(resumed.level)
            level = resumed.level
    elif not args.vs and (resumed is not None or args.load):
        # A record remembers the solver by its name, "Solver (LEVEL)": resume against it.
        for side, name in ((1, game.player1), (2, game.player2)):
            named = solver_level(name)
            if named is not None:
                from battle.players import LEVELS, solver_player

                if named in LEVELS:
                    computers[side] = solver_player(named)
                    level = named
    if args.vs:
        from battle.players import solver_player

        computer_side = 2 if args.first else 1
        if not (resumed is not None or args.load):
            game.player1, game.player2 = (
                (args.player1 or "You", solver_name(args.vs))
                if args.first
                else (solver_name(args.vs), args.player2 or "You")
            )
        computers[computer_side] = solver_player(args.vs)
    return computers, level


def _end_terminal_play(args: argparse.Namespace, warm_up: SolverWarmUp, finder: ParFinder | None) -> None:
    """Stop the threads a terminal game started, or leave them to the end of a whole process."""
    if finder is not None and not args.whole_process:  # a whole process ends at once, the finder with it
        finder.shutdown(0.5)  # a solve stops within milliseconds; one still making its table is left
    if args.whole_process:
        # The process ends at once (``entry_point``): the game is saved after every move, and the
        # warm-up, wherever it stands, is left to the end of the process (``battle.cli.warm_up``).
        warm_up.leave()
        args.quick_exit = True
    else:
        warm_up.end()  # a caller's process goes on: the thread ends first (see ``battle.cli.warm_up``)


def _par_finder(warm_up: SolverWarmUp) -> ParFinder | None:
    """The par of a deal no catalogue knows, worked out while the game is played (unless the window's
    ``background_par`` setting is off); its solve starts once the kernels are ready (the warm-up's
    end). A par that cannot be kept is said in one line."""
    from battle.atlas.par_finder import ParFinder, keep_in_survey
    from battle.atlas.solve_deal import start_position
    from battle.ui.files.settings import load_settings

    if not load_settings()[0].background_par:
        return None

    def start_of(number: int) -> Position:
        warm_up.wait()
        return start_position(number)

    def keep(result) -> None:  # noqa: ANN001 - a DealResult
        problem = keep_in_survey(result)
        if problem:
            print_error(problem)

    return ParFinder(keep, start_of=start_of)


def _plain_player(level: str | None, kernels_ready: Callable[[], bool]) -> Callable[[Position], Move | None] | None:
    """The moves of a level in plain Python, for the moves played while the kernels load or compile
    (a first run's compile takes 10-20 s, a minute on a busy machine): ``battle.players.PlainOpponent``
    values the moves as the kernel's search does, and the level chooses among them by its own rule, so
    a level up to expert plays as strong as it does on the kernels, and master searches as deep as its
    5 s allow (depth 8-16), until ``kernels_ready``: then its move is None, and the kernels' search
    answers. None for perfect, which searches to the end: its moves wait for the kernels."""
    if level is None:
        return None
    import random

    from battle.players import PLAIN_LEVELS, PlainOpponent

    if level not in PLAIN_LEVELS:
        return None
    plain, rng = PlainOpponent(), random.Random()

    def choose(position: Position) -> Move | None:
        return plain.move(position, level=level, rng=rng, cancelled=kernels_ready)

    return choose


def _pick_unfinished(shelf: Shelf, choice: str) -> SavedGame:
    """``--resume``: the newest unfinished game, or the one numbered ``choice`` in the list
    (window and terminal games alike); with several, the list is printed so another can be picked.

    The game picked is claimed for this process, then read again (another copy may have played
    on since the list): one open in another copy of the program (which would write its own moves
    over ours) is refused in one line, and the list says which games are free. One whose claim
    cannot be made is played as not saved (``TerminalPlay`` says why)."""
    from battle.storage.game_claim import GameInUse, GameUnclaimable
    from battle.storage.saved_games import ShelfProblem

    games, problems = shelf.unfinished()
    for problem in problems:
        print(f"{PROG}: {problem}", file=sys.stderr)
    if not games:
        raise InputError(_("no unfinished game to resume (start one with 'mahjong-battle play')"))
    if choice and (not choice.isdigit() or not 1 <= int(choice) <= len(games)):
        raise InputError(
            _(
                "--resume: {choice!r} is not a number from 1 to {count} (plain --resume lists the unfinished games)"
            ).format(choice=choice[:20], count=len(games))
        )
    holders = {saved.game_id: shelf.holder(saved.game_id) for saved in games}
    picked = games[int(choice) - 1] if choice else games[0]
    if len(games) > 1 and (not choice or holders[picked.game_id] is not None):
        print(_("Unfinished games (the newest is resumed; 'play --resume N' picks another):"))
        for number, saved in enumerate(games, start=1):
            pid = holders[saved.game_id]
            busy = (
                ""
                if pid is None
                else (_(" (open in another copy, pid {pid})").format(pid=pid) if pid else _(" (open in another copy)"))
            )
            print(f"  {number}. {saved.describe()}{busy}")
    try:
        try:
            return shelf.open_claimed(picked.game_id)
        except GameUnclaimable:
            return shelf.load(picked.game_id)
    except (GameInUse, ShelfProblem) as error:
        raise InputError(_("--resume: {error}").format(error=error)) from None


def _lazy_reviewer() -> Reviewer:
    """The end-of-game review, importing the solver only when asked."""

    def review(game: Game) -> str:
        from battle.cli.review_text import format_review
        from battle.cli.solver_commands import keep_accuracy
        from battle.players import solver_reviewer

        graded = solver_reviewer()(game)
        keep_accuracy(graded, game, quiet=True)  # the game is in the history already: stats shows it
        return format_review(graded, game.names)

    return review


def _lazy_advisor(seconds: float) -> Advisor:
    """The terminal's hint and eval, thinking up to ``seconds``, importing the solver (numba) only
    when first asked: two people playing each other never wait for it."""
    made: list[Advisor] = []

    def advise(position: Position, every_move: bool) -> Analysis:
        if not made:
            from battle.players import solver_advisor

            made.append(solver_advisor(seconds))
        return made[0](position, every_move)

    return advise


NO_DISPLAY = N_(
    "no display found, so the window cannot open (DISPLAY and WAYLAND_DISPLAY are not set): type "
    "'mahjong-battle play' to play in this terminal, or 'mahjong-battle serve' to host games for a browser"
)
NO_DISPLAY_ANSWERS = N_(
    "no display answers at {where}, so the window cannot open: type "
    "'mahjong-battle play' to play in this terminal, or 'mahjong-battle serve' to host games for a browser"
)


def cmd_window(args: argparse.Namespace) -> int:
    from battle.ui.display_check import display_missing, sdl_fell_back

    # asked before pygame is loaded: SDL's own search for a display prints warnings and then
    # runs the window where nobody sees it
    if display_missing(os.environ, sys.platform):
        raise InputError(_(NO_DISPLAY))
    if _x_display_silent(os.environ, sys.platform):  # before SDL tries Wayland next, and its library says so
        raise InputError(_(NO_DISPLAY_ANSWERS).format(where="=".join(("DISPLAY", quote(os.environ["DISPLAY"])))))
    try:
        # the first frame comes before the window's heavy imports (seconds on a loaded machine)
        from battle.ui.first_frame import show_first_frame, size_from_environment

        first_frame = show_first_frame(size_from_environment(), getattr(args, "lang", None))
        if sdl_fell_back(os.environ):
            where = " ".join(
                f"{name}={quote(os.environ[name])}" for name in ("DISPLAY", "WAYLAND_DISPLAY") if os.environ.get(name)
            )
            raise InputError(_(NO_DISPLAY_ANSWERS).format(where=where))
        from battle.ui.app import main as run_window
    except ImportError as error:
        raise InputError(
            _("the window needs pygame-ce ({error}); the subcommands work without it").format(error=error)
        ) from None
    return run_window(args, first_frame)


def _x_display_silent(environ: os._Environ[str], platform: str) -> bool:
    """Whether the only display named is an X server that does not answer (``battle.cli.x_display``),
    with no driver chosen by hand and no Wayland to try."""
    if platform in ("win32", "cygwin", "darwin") or environ.get("SDL_VIDEODRIVER") or environ.get("WAYLAND_DISPLAY"):
        return False
    from battle.cli.x_display import x_server_answers

    return x_server_answers(environ.get("DISPLAY", "")) is False


# -- parser -----------------------------------------------------------------------------


_NEGATIVE_NUMBER = re.compile(r"-\d+(\.\d*)?|-\.\d+")


def _unrecognized(arguments: Sequence[str]) -> str:
    """The usage error for arguments no command takes, each quoted as every message quotes input."""
    shown = " ".join(quote(argument) for argument in arguments[:3]) + (" ..." if len(arguments) > 3 else "")
    return _("unrecognized arguments: %s") % shown


def _path_to(here: argparse.ArgumentParser, parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser] | None:
    """The parsers from ``here`` down to ``parser`` through their commands, ``parser`` last; None when
    ``parser`` is not among them."""
    if here is parser:
        return [here]
    for action in here._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):  # an alias names its command again
                below = _path_to(child, parser)
                if below is not None:
                    return [here, *below]
    return None


class _Parser(argparse.ArgumentParser):
    """An argument parser that keeps the command line's promise for usage errors too: one
    line on stderr, starting with the program's name, and exit code 2 (argparse's own
    error prints the usage first). ``epilog_factory`` makes the help's closing text only
    when the help is shown: the levels come from the solver, and loading it takes a second."""

    _line: ClassVar[tuple[argparse.ArgumentParser | None, list[str]]] = (None, [])
    """The program's parser and the arguments it parses now, for the error of a command's parser."""

    def __init__(self, *args: object, epilog_factory: Callable[[], str] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._epilog_factory = epilog_factory

    def format_help(self) -> str:
        if self._epilog_factory is not None:
            self.epilog, self._epilog_factory = self._epilog_factory(), None
        return super().format_help()

    def parse_args(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        namespace: argparse.Namespace | None = None,
    ) -> argparse.Namespace:
        _Parser._line = (self, list(sys.argv[1:] if args is None else args))
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self._innermost(parsed).error(_unrecognized(extras))
        return parsed

    def _unknown_flags(self) -> list[str]:
        """The flags of the command line being parsed that neither this command nor the program
        knows, nor a command between them (``puzzles`` of ``puzzles play``), as argparse reads them:
        up to ``--``, ``--flag=value`` by its flag, a long flag also by the start of its name; a
        negative number is a value."""
        root, given = _Parser._line
        path = (_path_to(root, self) if root is not None else None) or [self]
        known = [flag for parser in path for flag in parser._option_string_actions]
        unknown = []
        for token in given:
            if token == "--":
                break
            if not token.startswith("-") or token == "-" or _NEGATIVE_NUMBER.fullmatch(token):
                continue
            flag = token.partition("=")[0] if token.startswith("--") else token[:2]
            if not any(name == flag or (flag.startswith("--") and name.startswith(flag)) for name in known):
                unknown.append(token)
        return unknown

    def _innermost(self, parsed: argparse.Namespace) -> argparse.ArgumentParser:
        """The parser of the deepest command ``parsed`` names (``puzzles play``, ``stats``, else this
        one): an unknown flag is told with that command's help to look at, where its flags are."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction) and action.dest is not argparse.SUPPRESS:
                chosen = action.choices.get(getattr(parsed, action.dest, None) or "")
                if chosen is not None:
                    return chosen._innermost(parsed) if isinstance(chosen, _Parser) else chosen
        return self

    def error(self, message: str) -> NoReturn:
        if message.startswith(_("the following arguments are required: %s").partition("%s")[0]):
            # argparse finds a missing file before a mistyped flag (``show --bogus``): name the flag
            unknown = self._unknown_flags()
            if unknown:
                message = _unrecognized(unknown)
        command = self.prog.removeprefix(PROG).strip()
        where = f"{command}: " if command else ""
        self.exit(
            EXIT_BAD_INPUT,
            error_line(
                _("{where}{message} (see {program} --help)").format(where=where, message=message, program=self.prog)
            )
            + "\n",
        )


class _VersionAction(argparse.Action):
    """``--version``: the installed package's version, read only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, help: str | None = None) -> None:  # noqa: A002
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        print(f"{PROG} {version()}")
        parser.exit(EXIT_OK)


def version() -> str:
    """The version installed (package metadata), else the source tree's (``battle.__version__``,
    which the build takes as the package's version)."""
    from importlib import metadata

    try:
        return metadata.version(PROG)
    except metadata.PackageNotFoundError:
        from battle import __version__

        return __version__


LEVEL_DESCRIPTIONS = (
    N_("grabs points, often careless"),
    N_("looks one reply ahead"),
    N_("sees short combinations"),
    N_("deep tactics, rare slips"),
    N_("deep search, no deliberate slips"),
    N_("exact whenever the time allows, else the deepest search"),
)
"""The solver's levels in words (``solver.levels``, which knows no language), for the catalogue:
the window and the terminal look a level's description up with ``_``."""


def _play_epilog() -> str:
    """``play --help``'s closing text: the solver's levels, then what can be typed in a game."""
    from battle.cli.terminal import HELP

    return "\n\n".join(
        (
            _levels_epilog(),
            _("In a game, type:") + "\n" + _(HELP).split("\n", 1)[1],  # the list without its heading
            _(
                "With --online, 'help' in the game lists the commands of an online game (takeback, rematch, "
                "resign, abort, codes)."
            ),
        )
    )


def _levels_epilog() -> str:
    """The solver's levels for ``play --help``; a note instead if the solver cannot load."""
    try:
        from battle.players import LEVELS
    except Exception as error:  # noqa: BLE001 - any failure to load the solver only shortens the help
        return _("levels for --vs: unavailable, the solver does not load ({error})").format(error=error)
    width = max(len(name) for name in LEVELS)
    lines = [_("levels for --vs, weakest first:")]
    for level in LEVELS.values():
        depth = (
            _("searches to the end")
            if level.depth is None
            else ngettext("{count} move deep", "{count} moves deep", level.depth).format(count=level.depth)
        )
        lines.append(
            f"  {level.name:<{width}}  "
            + _("{description} ({depth}, up to {seconds} s a move)").format(
                description=_(level.description), depth=depth, seconds=format_number(level.time_limit)
            )
        )
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    """The command line: the program's own options, then the subcommands in the order its help
    lists them."""
    parser = _Parser(
        prog=PROG,
        description=_(
            "Mahjong Battle: a two-player mahjong pair game with a perfect-play solver. "
            "Without a subcommand, opens the game window."
        ),
    )
    parser.add_argument("--version", action=_VersionAction, help=_("print the version and exit"))
    parser.add_argument(
        "--lang",
        metavar="|".join(available_languages()),
        help=_(
            "the language of every text the game shows, anywhere on the command line "
            "(default: the system's, from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"
        ),
    )
    commands = parser.add_subparsers(dest="command", metavar=pgettext("metavar", "COMMAND"))
    _add_deal_command(commands)
    _add_file_commands(commands)
    _add_play_command(commands)

    from battle.cli.par_command import add_par_command
    from battle.cli.puzzle_commands import add_commands as add_puzzle_commands
    from battle.cli.stats_command import add_commands as add_stats_command
    from battle.cli.survey_command import add_survey_command

    add_survey_command(commands)
    add_par_command(commands)
    add_puzzle_commands(commands)
    add_stats_command(commands)

    _add_solver_commands(commands)
    return parser


def _add_deal_command(commands: argparse._SubParsersAction) -> None:
    """``deal``: a numbered, random, fair or daily deal."""
    sub = commands.add_parser("deal", help=_("print a numbered deal as a position file"))
    sub.add_argument(
        "number", nargs="?", metavar=pgettext("metavar", "number"), help=_("deal number (random if left out)")
    )
    sub.add_argument(
        "--fair",
        action="store_true",
        help=_("a catalogued deal that is a draw under perfect play (see --margin, --handicap)"),
    )
    sub.add_argument("--margin", type=_points, metavar="M", help=_("with --fair: a value within M points of even"))
    sub.add_argument(
        "--handicap",
        type=_points,
        metavar="H",
        help=_(
            "with --fair: a deal the first player wins by H under perfect play (give the weaker player the first move)"
        ),
    )
    sub.add_argument("--daily", action="store_true", help=_("the deal of the day: the same for everyone today"))
    sub.set_defaults(run=cmd_deal)


def _add_file_commands(commands: argparse._SubParsersAction) -> None:
    """``show``, ``moves`` and ``replay``: each reads one file, or standard input."""
    sub = commands.add_parser("show", help=_("draw a position or game in the terminal"))
    sub.add_argument("file", metavar=pgettext("metavar", "file"), help=_(".mbp or .mbg file, or - for standard input"))
    sub.set_defaults(run=cmd_show)

    sub = commands.add_parser("moves", help=_("list the legal moves with their points"))
    sub.add_argument("file", metavar=pgettext("metavar", "file"), help=_(".mbp or .mbg file, or - for standard input"))
    sub.set_defaults(run=cmd_moves)

    sub = commands.add_parser("replay", help=_("check a game record; print its final position and result"))
    sub.add_argument("file", metavar=pgettext("metavar", "file"), help=_(".mbg file, or - for standard input"))
    sub.set_defaults(run=cmd_replay)


def _add_play_command(commands: argparse._SubParsersAction) -> None:
    """``play``, with the options of an online game and ``serve`` after it (``_add_online``)."""
    sub = commands.add_parser(
        "play",
        help=_("play in the terminal (two people, or --vs the solver)"),
        epilog_factory=_play_epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    start = sub.add_mutually_exclusive_group()
    start.add_argument("--deal", metavar="N", help=_("deal number (random if left out)"))
    start.add_argument(
        "--load", metavar=pgettext("metavar", "FILE"), help=_("continue a .mbg record or start from a .mbp position")
    )
    start.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="N",
        help=_(
            "continue the newest unfinished game (window or terminal), or the N-th of the list "
            "that plain --resume prints when there are several"
        ),
    )
    sub.add_argument("--player1", metavar="NAME", help=_("name of player 1; with --vs, your name, on either side"))
    sub.add_argument("--player2", metavar="NAME", help=_("name of player 2 (two people only)"))
    sub.add_argument(
        "--vs", metavar=pgettext("metavar", "LEVEL"), help=_("play against the solver at this level (listed below)")
    )
    sub.add_argument(
        "--first",
        action="store_true",
        help=_(
            "with --vs: you move first (else the solver does); "
            "with --online: you move first in the game you host (else it is drawn)"
        ),
    )
    sub.add_argument(
        "--hint-seconds",
        type=positive_number(HINT_SECONDS_MOST),
        metavar="S",
        help=_(
            "how long 'hint' and 'eval' think, at most {most} s (default {seconds}: exact from the "
            "middle game on, an estimate on a full board)"
        ).format(most=format_short(HINT_SECONDS_MOST), seconds=format_short(HINT_SECONDS)),
    )
    _add_online(commands, sub)
    sub.set_defaults(run=cmd_play)


def _add_online(commands: argparse._SubParsersAction, play: argparse.ArgumentParser) -> None:
    """``serve`` and ``play --online``: they need the websockets library, which the set-up installs."""
    from battle.cli.online_commands import add_online_options, add_serve_command

    add_online_options(play)
    add_serve_command(commands)


def _add_solver_commands(commands: argparse._SubParsersAction) -> None:
    """Solver subcommands live in their own module; the model never imports the solver."""
    try:
        from battle.cli.solver_commands import add_commands
    except ImportError:
        return
    add_commands(commands)


def error_line(message: str) -> str:
    """The one line an error prints: the program's name, then the message with any quoted
    input cut to 80 characters and control characters escaped (``battle.rules.errors.one_line``)."""
    return one_line(f"{PROG}: {message}")


def print_error(message: str) -> None:
    """Print an error line on stderr, if there is one (a closed stderr leaves only the exit code)."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError):
            print(error_line(message), file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None, *, started: float | None = None) -> int:
    """Run one command; ``started`` is the ``time.monotonic()`` reading its ``--time`` counts
    from (``entry_point`` gives the process's start; by default, now)."""
    return _run_command(argv, started)[0]


def _run_command(
    argv: Sequence[str] | None, started: float | None, *, whole_process: bool = False
) -> tuple[int, argparse.Namespace]:
    """The exit code and the parsed arguments (a usage error exits from the parser, code 2).
    ``whole_process``: the process ends when the command does (the installed command), so a
    command may leave work of its own threads behind for that end (``args.whole_process``)."""
    started = time.monotonic() if started is None else started
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv, language = _take_language(argv)
    except InputError as error:
        print_error(str(error))
        raise SystemExit(EXIT_BAD_INPUT) from None
    set_language(language)
    parser = build_parser()
    args = parser.parse_args(argv)
    args.lang = language
    args.argv = argv  # the command's words without the language: ``serve --processes`` starts its processes with them
    args.command_line = main  # what runs those words again in a forked process (``battle.cli.serve_forks``)
    args.started = started
    args.whole_process = whole_process
    run = getattr(args, "run", None)
    try:
        if run is None:
            return cmd_window(args), args
        _check_standard_streams(args)
        code = run(args)
        # Written out here, so that a full disk or a closed pipe is reported below, not at exit.
        sys.stdout.flush()
        return code, args
    except (InputError, BattleError) as error:
        print_error(str(error))
        return EXIT_BAD_INPUT, args
    except BrokenPipeError:
        # `mahjong-battle moves f | head -1`: the reader left, nothing went wrong.
        _discard_standard_output()
        return EXIT_OK, args
    except OSError as error:
        if error.filename is not None or error.errno not in _DEVICE_FULL:
            raise
        # Writing the answer failed (`> /dev/full`): nothing is left of it to keep.
        _discard_standard_output()
        print_error(_("cannot write to standard output: {value}").format(value=error_reason(error)))
        return EXIT_BAD_INPUT, args
    except KeyboardInterrupt:
        print_error(_("interrupted"))
        return EXIT_INTERRUPTED, args


_DEVICE_FULL = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}
"""Errors of a write that found no room: a full disk, a file-size limit, a quota."""


def _take_language(argv: list[str]) -> tuple[list[str], str | None]:
    """``--lang CODE`` (or ``--lang=CODE``) taken out of the arguments, wherever it stands before a
    ``--``: the parser's own words and the help are in that language, so it is read first."""
    rest: list[str] = []
    language = None
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "--":
            rest.extend(argv[index:])
            break
        if word == "--lang" or word.startswith("--lang="):
            if word == "--lang":
                if index + 1 >= len(argv):
                    raise InputError(
                        _("--lang: give a language ({languages})").format(languages=", ".join(available_languages()))
                    )
                index += 1
                value = argv[index]
            else:
                value = word.partition("=")[2]
            if value not in available_languages():
                raise InputError(
                    _("--lang: {value} is not a language of the game ({languages})").format(
                        value=quote(value), languages=", ".join(available_languages())
                    )
                )
            language = value
        else:
            rest.append(word)
        index += 1
    return rest, language


def _check_standard_streams(args: argparse.Namespace) -> None:
    """A subcommand started with standard output closed (`>&-`) has nowhere to answer, and
    ``play`` with standard input closed nothing to read moves from: one line, not a traceback."""
    if sys.stdout is None:
        raise InputError(_("standard output is closed: {command} has nowhere to print").format(command=args.command))
    if sys.stdin is None and args.command == "play":
        raise InputError(_("standard input is closed: play reads the moves from it"))


def _discard_standard_output() -> None:
    """Point standard output at the null device, so that what is still buffered for a reader
    who left is dropped at exit instead of failing again there."""
    with contextlib.suppress(OSError, AttributeError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def process_started() -> float:
    """The ``time.monotonic()`` reading at which this process started, so that ``--time``
    counts Python's own start-up too: 0.1-0.3 s on a quiet machine, over a second on two cores
    busy with a test suite. On Linux from /proc (to the clock tick, 10 ms), else when this module
    was imported, some 50 ms later. Only the installed command (``entry_point``) counts from
    here; a program that calls ``main`` counts from the call."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):  # not Linux
        return IMPORTED
    return min(time.monotonic() - age, IMPORTED)


def entry_point() -> None:
    """The installed command (through ``battle.cli.entry_point``, which ends it after a Ctrl-C
    before the command's work begins, as one during the work does: one line, code 130)."""
    code, args = _run_command(None, process_started(), whole_process=True)
    if getattr(args, "quick_exit", False):
        # The solver's LLVM clean-up at exit takes 0.1-0.2 s that a --time answer has no room
        # for, and frees only memory the system takes back anyway; after ``play`` it would also
        # wait for, or hang on, a warm-up still at work (``battle.cli.warm_up``).
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, AttributeError, ValueError):
                stream.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry_point()
