"""``mahjong-battle puzzles make`` (mine a puzzle set) and ``puzzles play`` (solve puzzles in the terminal).

``play`` reads one line at a time: a move (``c1-c9``), ``solution``, ``board``, ``help`` or
``quit``. A wrong move is not played: it shows at once what it loses against perfect play
and the solver's reply that punishes it, and the player tries again. A right one is played
with the solver's reply from the puzzle's line. Each puzzle's result moves the player's and
the puzzle's Glicko-2 ratings, stored in the history database with the streak.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, TextIO

from battle.cli.inputs import InputError, add_history_option, database_file, output_file, use_colour, whole_number
from battle.cli.textboard import render_board, render_status
from battle.cli.typed_lines import TypedLines, typed_input
from battle.i18n import N_, _, ngettext, pgettext
from battle.puzzles import puzzle_words as words
from battle.puzzles.puzzle import Puzzle, PuzzleFormatError
from battle.puzzles.puzzle_file import load_puzzles, save_puzzles
from battle.puzzles.selection import matching, next_puzzle
from battle.puzzles.session import Attempt, PuzzleSession, Refute
from battle.puzzles.themes import THEMES
from battle.ratings.puzzle_ratings import player_puzzle_rating
from battle.rules.board import Move, Position, parse_move
from battle.rules.errors import BattleError, one_line
from battle.rules.wording import plural
from battle.storage.paths import error_reason

if TYPE_CHECKING:
    from battle.history.store import History
    from battle.players import Opponent
    from battle.puzzles.miner import MiningProgress

PROG = "mahjong-battle"
PROGRESS_SECONDS = 5.0
"""How often ``make`` reports on a run."""
MAX_TILES = 70
"""The largest tile count ``make`` accepts: every position is solved exactly, move by move,
which past 70 tiles takes seconds a position instead of milliseconds."""
PLAY_HELP = N_("type a move (c1-c9), 'solution' to see the answer, 'board' to see the position again, 'quit' to stop")


def add_commands(commands: argparse._SubParsersAction) -> None:
    """``puzzles make`` and ``puzzles play``."""
    sub = commands.add_parser(
        "puzzles",
        help=_("solve puzzles mined from exact analysis, or mine a set"),
        description=_(
            "Puzzles: positions from the levels' games where exactly one move keeps the perfect-play margin."
        ),
    )
    actions = sub.add_subparsers(dest="puzzles_command", metavar=pgettext("metavar", "ACTION"))
    make = actions.add_parser(
        "make",
        help=_("mine puzzles from numbered deals the solver's levels play"),
        description=_(
            "Play numbered deals with the solver's levels and keep the positions where exactly one move "
            "keeps the perfect-play margin, every other loses at least 4 points or changes the result, "
            "and the answer is not the biggest free pair. The same seed gives the same puzzles."
        ),
    )
    make.add_argument("--count", type=_count, default=100, metavar="N", help=_("puzzles to find (default 100)"))
    make.add_argument(
        "--tiles",
        type=_tile_range,
        default=(20, 60),
        metavar="A-B",
        help=_("tiles on the board of a puzzle's position (default 20-60)"),
    )
    make.add_argument("--seed", type=_seed, default=1, metavar="S", help=_("which games are played (default 1)"))
    make.add_argument(
        "--out",
        default="puzzles.jsonl",
        metavar=pgettext("metavar", "FILE"),
        help=_("the puzzle file to write (default puzzles.jsonl)"),
    )
    make.add_argument("--force", action="store_true", help=_("replace the --out file if it exists"))
    make.add_argument(
        "--workers",
        type=_workers,
        default=1,
        metavar="W",
        help=_("processes mining at once (default 1; the puzzles do not depend on it)"),
    )
    make.set_defaults(run=cmd_puzzles_make)
    play = actions.add_parser(
        "play",
        help=_("solve puzzles in the terminal; your rating is kept in the history"),
        description=_("Solve puzzles near your rating: {PLAY_HELP}.").format(PLAY_HELP=_(PLAY_HELP)),
    )
    play.add_argument(
        "--theme", metavar="T", help=_("only puzzles of this theme ({join})").format(join=", ".join(THEMES))
    )
    play.add_argument("--length", type=_count, metavar="N", help=_("only puzzles with N moves to find"))
    play.add_argument("--count", type=_count, metavar="N", help=_("stop after N puzzles (default: until quit)"))
    play.add_argument(
        "--file",
        metavar=pgettext("metavar", "FILE"),
        help=_("a puzzle file (default: the set that comes with the game)"),
    )
    play.add_argument("--seed", type=_seed, metavar="S", help=_("choose the puzzles reproducibly"))
    add_history_option(play)
    play.set_defaults(run=cmd_puzzles_play)
    sub.set_defaults(run=_no_action(sub))


def _no_action(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        raise InputError(_("puzzles: choose an action, make or play (see {prog} --help)").format(prog=parser.prog))

    return run


_count = whole_number(1, 1_000_000)
_seed = whole_number(0, 2**63 - 1)
_workers = whole_number(1, 64)


def _tile_range(text: str) -> tuple[int, int]:
    parts = text.split("-")
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise argparse.ArgumentTypeError(_("{value} is not a range of tiles like 20-60").format(value=repr(text[:20])))
    low, high = int(parts[0]), int(parts[1])
    if not 4 <= low <= high <= MAX_TILES:
        raise argparse.ArgumentTypeError(
            _("{value}: expected 4 <= A <= B <= {most}").format(value=repr(text[:20]), most=MAX_TILES)
        )
    return low, high


# -- make -------------------------------------------------------------------------------


def cmd_puzzles_make(args: argparse.Namespace) -> int:
    out = output_file(args.out, "--out", force=args.force)  # before the solver loads, to refuse a typo at once
    from battle.puzzles.miner import MiningRun, mine

    run = MiningRun(args.count, args.tiles[0], args.tiles[1], args.seed, args.workers)
    started = time.monotonic()
    reported = [started]
    games = [0]

    def progress(state: MiningProgress) -> None:
        games[0] = state.games
        now = time.monotonic()
        if now - reported[0] >= PROGRESS_SECONDS:
            reported[0] = now
            print(
                _("{PROG}: {puzzles} of {count} puzzles from {plural} ({seconds:.0f} s)").format(
                    PROG=PROG,
                    puzzles=state.puzzles,
                    count=run.count,
                    plural=plural(state.games, "game"),
                    seconds=state.seconds,
                ),
                file=sys.stderr,
                flush=True,
            )

    puzzles = mine(run, progress)
    seconds = time.monotonic() - started
    try:
        save_puzzles(out, puzzles)
    except OSError as error:
        raise InputError(
            _("--out: cannot write {out} ({value})").format(out=args.out, value=error_reason(error))
        ) from None
    print(
        _("wrote {plural} to {out} from {plural2} in {seconds:.0f} s").format(
            plural=plural(len(puzzles), "puzzle"), out=args.out, plural2=plural(games[0], "game"), seconds=seconds
        )
    )
    if len(puzzles) < run.count:
        print(_("(fewer than the {count} asked for: stopped early, or the range gives few)").format(count=run.count))
    print(summarise(puzzles))
    return 0


def summarise(puzzles: Sequence[Puzzle]) -> str:
    """Counts by difficulty, moves to find and theme, one line each."""

    def counts(values: list[int]) -> str:
        return ", ".join(f"{value}: {values.count(value)}" for value in sorted(set(values))) or _("none")

    themes = [theme for puzzle in puzzles for theme in puzzle.themes]
    return "\n".join(
        [
            f"difficulty   {counts([puzzle.difficulty for puzzle in puzzles])}",
            f"moves        {counts([puzzle.length for puzzle in puzzles])}",
            f"themes       {', '.join(f'{theme}: {themes.count(theme)}' for theme in THEMES)}",
        ]
    )


# -- play -------------------------------------------------------------------------------


def cmd_puzzles_play(args: argparse.Namespace) -> int:
    database = database_file(args.db)
    if sys.stdin is None:
        raise InputError(_("standard input is closed: puzzles play reads the moves from it"))
    if args.theme is not None and args.theme not in THEMES:
        raise InputError(
            _("--theme: {theme!r} is not a theme (choose one of: {join})").format(
                theme=args.theme[:20], join=", ".join(THEMES)
            )
        )
    try:
        puzzles = load_puzzles(args.file)
    except (PuzzleFormatError, FileNotFoundError) as error:
        raise InputError(str(error)) from None
    chosen = matching(puzzles, args.theme, args.length)
    if not chosen:
        raise InputError(words.no_puzzle(args.theme, args.length, len(puzzles)))
    from battle.history.store import History  # here: the history's database (25-35 ms of imports) is play's alone

    history = History(database)
    terminal = PuzzleTerminal(
        chosen,
        history,
        _solver_refute(),
        sys.stdin,
        sys.stdout,
        colour=use_colour(sys.stdout),
        rng=random.Random(args.seed),
    )
    return terminal.run(args.count)


def _solver_refute() -> Refute:
    """The solver's best reply, loading the solver at the first wrong move."""
    opponents: list[Opponent] = []

    def refute(position: Position) -> Move | None:
        if position.is_over():
            return None
        from battle.players import SMALLEST_TABLE_MEGABYTES, Opponent

        if not opponents:
            opponents.append(Opponent(megabytes=SMALLEST_TABLE_MEGABYTES))
        return opponents[0].refute(position)

    return refute


@dataclass(eq=False)
class PuzzleTerminal:
    """The terminal's puzzle loop: one puzzle after another until quit, the end of input or ``count``."""

    puzzles: Sequence[Puzzle]
    history: History
    refute: Refute | None
    reader: TextIO
    writer: TextIO
    _: KW_ONLY
    colour: bool = False
    rng: random.Random = field(default_factory=random.Random)
    lines: TypedLines = field(init=False)
    """The reader's lines, waited for so that a Ctrl-C ends the wait at once (``wait_readable``)."""

    def __post_init__(self) -> None:
        self.lines = TypedLines(self.reader)

    def say(self, text: str = "") -> None:
        self.writer.write(text + "\n")
        self.writer.flush()

    def notices(self) -> None:
        for notice in self.history.take_notices():
            print(one_line(f"{PROG}: {notice}"), file=sys.stderr, flush=True)

    def run(self, count: int | None = None) -> int:
        done = 0
        while count is None or done < count:
            attempts = self.history.attempts()
            self.notices()
            ratings = {attempt.puzzle_id: attempt.puzzle.rating for attempt in attempts}
            rating = player_puzzle_rating(attempts)
            puzzle = next_puzzle(self.puzzles, rating.rating, set(ratings), self.rng, ratings)
            if puzzle is None:
                break
            self.say()
            self.say(
                ngettext(
                    "Puzzle {id}: {count} move to find, rated {get:.0f}; your puzzle rating {what}",
                    "Puzzle {id}: {count} moves to find, rated {get:.0f}; your puzzle rating {what}",
                    puzzle.length,
                ).format(
                    id=puzzle.id,
                    count=puzzle.length,
                    get=ratings.get(puzzle.id, puzzle.rating),
                    what=rating.describe(),
                )
            )
            if not self.solve(puzzle):
                break
            done += 1
        self.say(_("Bye."))
        return 0

    def solve(self, puzzle: Puzzle) -> bool:
        """One puzzle; False when the player quit or the input ended."""
        session = PuzzleSession(puzzle, self.refute)
        self.show(session)
        self.ask(session)
        while not session.finished:
            line = self.next_line()
            if line is None:
                self.finish(session, quitting=True)
                return False
            command = line.strip().lower()
            if not command:
                continue
            if command in ("q", "quit", "exit"):
                self.finish(session, quitting=True)
                return False
            if command in ("h", "help", "?"):
                self.say(_(PLAY_HELP))
            elif command in ("b", "board"):
                self.show(session)
                self.ask(session)
            elif command in ("s", "solution", "show solution"):
                self.reveal(session)
            else:
                self.move(session, line.strip())
        self.finish(session)
        return True

    def next_line(self) -> str | None:
        """The next line typed, None at the end of input; standard input through ``typed_input``
        (line editing at a terminal), any other reader through ``TypedLines``."""
        if self.reader is sys.stdin:
            try:
                return typed_input()
            except EOFError:
                return None
        return self.lines.wait_line()

    def show(self, session: PuzzleSession) -> None:
        self.say(render_board(session.position, self.colour))
        self.say(render_status(session.position, (words.name_of(1), words.name_of(2))))

    def ask(self, session: PuzzleSession) -> None:
        self.say(words.ask(session.side, session.step))

    def move(self, session: PuzzleSession, text: str) -> None:
        try:
            attempt = session.try_move(parse_move(text))
        except BattleError as error:
            self.say(_("{error} ({help})").format(error=one_line(str(error)), help=_(PLAY_HELP)))
            return
        if attempt.correct:
            self.right(session, attempt)
        else:
            self.wrong(session, attempt)

    def right(self, session: PuzzleSession, attempt: Attempt) -> None:
        self.say(words.right(attempt))
        if attempt.reply is not None:
            self.say(words.reply(session.side, attempt.reply, attempt.reply_points))
            self.show(session)
            self.ask(session)

    def wrong(self, session: PuzzleSession, attempt: Attempt) -> None:
        self.say(words.wrong(attempt))
        if attempt.refutation is not None:
            after = session.position.copy()
            after.push(attempt.move)
            self.say(words.refutation(session.side, attempt.refutation, after.move_points(attempt.refutation)))
        self.say(_("Try again (type a move), or type 'solution' to see it."))

    def reveal(self, session: PuzzleSession) -> None:
        before = session.position.copy()
        self.say(words.solution(before, session.reveal()))

    def finish(self, session: PuzzleSession, quitting: bool = False) -> None:
        """Rate the attempt (when it counts) and say how it went."""
        puzzle = session.puzzle
        if quitting and not session.mistakes:
            return  # nothing decided yet: the puzzle does not count
        from battle.history.puzzle_attempts import rate_attempt

        outcome = rate_attempt(self.history, puzzle, session.solved)
        self.notices()
        if session.solved or not quitting:
            self.say(f"{words.verdict(session.solved)} {words.themes(puzzle)}")  # two whole sentences
        self.say(words.rating_change(outcome))


# -- running this module alone ----------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m battle.cli.puzzle_commands puzzles ...``: the commands without the rest of the command line."""
    parser = argparse.ArgumentParser(prog=PROG)
    add_commands(parser.add_subparsers(dest="command", metavar=pgettext("metavar", "COMMAND")))
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.error(_("choose a command: puzzles"))
    try:
        return int(args.run(args))
    except (InputError, BattleError) as error:
        print(one_line(f"{PROG}: {error}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(_("{PROG}: interrupted").format(PROG=PROG), file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
