"""Playing in the terminal: two people at one keyboard, or one against the solver.

The loop reads a line, acts, prints; bad input never ends the game, it
re-prompts with the reason. The game is saved after every move so that a
closed terminal or a crash loses nothing.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from battle.cli.inputs import is_yes
from battle.cli.interruption import EXIT_INTERRUPTED
from battle.cli.textboard import LEGEND, render_board, render_status
from battle.cli.typed_lines import typed_input
from battle.i18n import N_, _, ngettext, pgettext
from battle.rules.board import Move, Position, move_name, parse_move
from battle.rules.errors import BattleError, shorten_name
from battle.rules.game import Game
from battle.rules.wording import about, pair_words, shown_name
from battle.storage.game_claim import GameInUse, GameUnclaimable
from battle.storage.paths import NotAFileToWrite, error_reason, writable_target, write_atomically
from battle.storage.saved_games import GameChanged, SavedGame, Shelf, new_game_id

if TYPE_CHECKING:  # the solver is injected by the command line, never imported here
    from battle.atlas.par_finder import ParFinder
    from battle.players import Analysis, MoveValue

Computer = Callable[[Position], Move]
"""Chooses a move for a computer player; called only when a move exists."""
Advisor = Callable[[Position, bool], "Analysis"]
"""Searches a position (every move's value when the flag is set) within a short time."""
Reviewer = Callable[[Game], str]
"""Grades every move of a finished game against perfect play; returns the review as text."""

HELP = N_("""Commands:
  c1-c9        take the pair on c1 and c9 (also 'c1 c9')
  moves        list the playable pairs
  hint         the solver's best move for you, and where it leads
  eval         every playable pair with its value under perfect play (best marked)
  board        show the board again
  undo, redo   take back / replay a move (against the computer: your last move and its reply)
  save FILE    write the game record (.mbg)
  quit         stop (the game stays in the list of unfinished games: 'play --resume')
  discard      stop and delete this game from the list of unfinished games (asks first)
  help         this text""")
EXIT_IN_USE = 2
"""The exit code when the game is open in another copy (claimed between the list and the start)."""
END_PROMPT = N_("save FILE, review, or Enter to leave> ")


def margin_sentence(name: str, value: int, how: str) -> str:
    """``hint``'s forecast: the margin of points the player to move takes from here under best play,
    and how sure it is (``how``: exact, or an estimate), as one whole sentence."""
    if value > 0:
        return about(
            name,
            ngettext(
                "With best play on both sides you take {count} more point than the opponent from here ({how}).",
                "With best play on both sides you take {count} more points than the opponent from here ({how}).",
                value,
            ),
            ngettext(
                "With best play on both sides {name} takes {count} more point than the opponent from here ({how}).",
                "With best play on both sides {name} takes {count} more points than the opponent from here ({how}).",
                value,
            ),
            count=value,
            how=how,
        )
    if value < 0:
        return about(
            name,
            ngettext(
                "With best play on both sides you take {count} fewer point than the opponent from here ({how}).",
                "With best play on both sides you take {count} fewer points than the opponent from here ({how}).",
                -value,
            ),
            ngettext(
                "With best play on both sides {name} takes {count} fewer point than the opponent from here ({how}).",
                "With best play on both sides {name} takes {count} fewer points than the opponent from here ({how}).",
                -value,
            ),
            count=-value,
            how=how,
        )
    return about(
        name,
        _("With best play on both sides you take as many points as the opponent from here ({how})."),
        _("With best play on both sides {name} takes as many points as the opponent from here ({how})."),
        how=how,
    )


def eval_sentence(name: str, value: int, how: str) -> str:
    """``eval``'s heading: who is to move and the margin they take from here under best play."""
    if value > 0:
        return about(
            name,
            ngettext(
                "You to move; with best play you take {count} more point than the opponent from here ({how}).",
                "You to move; with best play you take {count} more points than the opponent from here ({how}).",
                value,
            ),
            ngettext(
                "{name} to move; with best play {name} takes {count} more point than the opponent from here ({how}).",
                "{name} to move; with best play {name} takes {count} more points than the opponent from here ({how}).",
                value,
            ),
            count=value,
            how=how,
        )
    if value < 0:
        return about(
            name,
            ngettext(
                "You to move; with best play you take {count} fewer point than the opponent from here ({how}).",
                "You to move; with best play you take {count} fewer points than the opponent from here ({how}).",
                -value,
            ),
            ngettext(
                "{name} to move; with best play {name} takes {count} fewer point than the opponent from here ({how}).",
                "{name} to move; with best play {name} takes {count} fewer points than the opponent from here ({how}).",
                -value,
            ),
            count=-value,
            how=how,
        )
    return about(
        name,
        _("You to move; with best play you take as many points as the opponent from here ({how})."),
        _("{name} to move; with best play {name} takes as many points as the opponent from here ({how})."),
        how=how,
    )


def played_sentence(name: str, move: Move, kind: int, points: int) -> str:
    """What a move took, said after it: "You play a1-b1: a pair of 7-circles, 7 points."."""
    return about(
        name,
        ngettext("You play {move}: {pair}, {count} point.", "You play {move}: {pair}, {count} points.", points),
        ngettext("{name} plays {move}: {pair}, {count} point.", "{name} plays {move}: {pair}, {count} points.", points),
        move=move_name(move),
        pair=pair_words(kind),
        count=points,
    )


def value_words(value: MoveValue) -> str:
    """A move's value in a table of moves (``eval``, ``analyse``): ``+3``, or ``~+3 (depth 20)`` for an estimate."""
    if value.exact:
        return value.marked_value
    return _("{value} (depth {depth})").format(value=value.marked_value, depth=value.depth)


class TerminalPlay:
    """One game at the terminal. ``computers`` maps a player number to its engine."""

    def __init__(
        self,
        game: Game,
        read_line: Callable[[str], str] | None = None,
        out: TextIO | None = None,
        computers: dict[int, Computer] | None = None,
        colour: bool = False,
        shelf: Shelf | None = None,
        advisor: Advisor | None = None,
        *,
        game_id: str | None = None,
        level: str | None = None,
        reviewer: Reviewer | None = None,
        par_finder: ParFinder | None = None,
    ) -> None:
        import sys

        self.game = game
        self.read_line = read_line if read_line is not None else typed_input
        self.out = out if out is not None else sys.stdout
        self.computers = computers or {}
        self.colour = colour
        self.shelf = shelf
        """Where the game is kept after every move (None: nowhere, for tests and embedding)."""
        self.saved = SavedGame(
            game_id or new_game_id(),
            game,
            next(iter(self.computers), None),
            level if self.computers else None,
            "terminal",
        )
        self.advisor = advisor
        self.reviewer = reviewer
        self.par_finder = par_finder
        """Works out the par of a deal no catalogue knows while it is played (None: nobody does)."""
        self.kept_at: Path | None = None
        """Where the record of the finished game was kept."""
        self.not_saved: str | None = None
        """Why the last change of the game is not saved (no claim can be made, another copy changed
        it, the disk is full), once said; None again once a save succeeds."""
        self.kept_text: str | None = game.to_text() if game_id is not None else None
        """The game as the shelf holds it (a resumed game as it was read), None before its first save:
        what ``quit`` says is kept."""

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self) -> None:
        self.say(render_board(self.game.position, self.colour))
        self.say(render_status(self.game.position, self.game.names))

    def run(self) -> int:
        """Play until the game ends or the user quits; returns an exit code.

        The game is claimed while it is played (``Shelf.claim``): another copy of the program
        does not open it and write its own moves over these. A game whose claim cannot be made
        is played as not saved, and says so."""
        shelf = self.shelf
        if shelf is not None:
            try:
                shelf.claim(self.saved.game_id)
            except GameInUse as error:
                self.say(_("Not played: {error}.").format(error=error))
                return EXIT_IN_USE
            except GameUnclaimable as error:
                self._say_not_saved(str(error))
        try:
            return self._play()
        finally:
            if shelf is not None:
                shelf.release(self.saved.game_id)

    def _play(self) -> int:
        players = {"player1": shown_name(self.game.player1), "player2": shown_name(self.game.player2)}
        if self.game.deal_number is not None:
            self.say(
                _("Mahjong Battle: {player1} vs {player2}, deal {number}. Type 'help' for commands.").format(
                    number=self.game.deal_number, **players
                )
            )
        else:
            self.say(
                _("Mahjong Battle: {player1} vs {player2}, composed position. Type 'help' for commands.").format(
                    **players
                )
            )
        self.say(_(LEGEND))
        self.show()
        number = _deal_start(self.game)
        if self.par_finder is not None and number is not None and _par_of(self.game) is None:
            self.par_finder.want(number)
        while True:
            if self.game.is_over():
                self._save()
                result = self.game.result()
                assert result is not None
                self.say(_("Game over: {what}.").format(what=result.describe(self.game.names)))
                self._say_par()
                self._remember_in_history()
                self._after_the_end()
                return 0
            mover = self.game.position.to_move
            if mover in self.computers:
                self._computer_move(mover)
                continue
            try:
                line = self.read_line(about(self.game.names[mover - 1], _("You to move> "), _("{name} to move> ")))
            except EOFError:  # the input ended: the game is kept, as after "quit"
                self.say()
                self._quit()
                return 0
            except KeyboardInterrupt:  # Ctrl-C: the game is kept too, and the exit code says so
                self.say()
                self._quit()
                return EXIT_INTERRUPTED
            if not self.handle(line.strip()):
                self._quit()
                return 0

    def handle(self, line: str) -> bool:
        """Act on one line of input; False means quit."""
        if not line:
            return True
        word, _space, rest = line.partition(" ")
        command = word.lower()
        if command in ("quit", "exit", "q"):
            return False
        if command == "discard":
            return not self._discard()
        if command in ("help", "?"):
            self.say(_(HELP))
        elif command == "moves":
            position = self.game.position
            self.say("  ".join(f"{move_name(m)} ({position.move_points(m)})" for m in position.legal_moves()))
        elif command == "board":
            self.show()
        elif command in ("hint", "eval", "analyse", "analyze"):
            self._advise(every_move=command != "hint")
        elif command == "undo":
            self._undo()
        elif command == "redo":
            self._redo()
        elif command == "save":
            self._save_to(rest.strip())
        else:
            self._human_move(line)
        return True

    def _human_move(self, text: str) -> None:
        try:
            move = parse_move(text)
            name = self.game.names[self.game.position.to_move - 1]
            kind = self.game.position.cells[move[0]]
            points = self.game.play(move)
        except BattleError as error:
            self.say(
                _("Not a legal move: {error}. Type 'moves' for the playable pairs, 'help' for commands.").format(
                    error=error
                )
            )
            return
        self._save()
        self.say(played_sentence(name, move, kind, points))
        self._after_move()

    def _advise(self, every_move: bool) -> None:
        """``hint`` and ``eval``: what the solver makes of the position, within a few seconds."""
        position = self.game.position
        if self.advisor is None:
            self.say(_("No solver here to ask."))
            return
        if not position.legal_moves():
            self.say(_("No pair left to take."))
            return
        self.say(_("Thinking... (Ctrl-C stops)"))
        try:
            with self._solver_works():
                analysis = self.advisor(position.copy(), every_move)
        except KeyboardInterrupt:
            self.say(_("Stopped."))
            return
        how = (
            pgettext("search", "exact")
            if analysis.exact
            else _("an estimate: a {depth}-move search, not to the end").format(depth=analysis.depth)
        )
        mover = self.game.names[position.to_move - 1]
        if not every_move:
            move = analysis.best_moves[0]
            points = position.move_points(move)
            others = ", ".join(move_name(m) for m in analysis.best_moves[1:])
            hint = (
                ngettext(
                    "Hint: {move}, {pair}, {count} point (as good: {others}).",
                    "Hint: {move}, {pair}, {count} points (as good: {others}).",
                    points,
                )
                if others
                else ngettext("Hint: {move}, {pair}, {count} point.", "Hint: {move}, {pair}, {count} points.", points)
            )
            self.say(
                hint.format(move=move_name(move), pair=pair_words(position.cells[move[0]]), count=points, others=others)
            )
            self.say(margin_sentence(mover, analysis.value, how))
            return
        self.say(eval_sentence(mover, analysis.value, how))
        best = set(analysis.best_moves)
        self.say(_("  move      points  final margin"))
        for mv in analysis.move_values:
            mark = "*" if mv.move in best else " "
            self.say(f"{mark} {mv.notation:<8}  {position.move_points(mv.move):>5}  {value_words(mv):>12}")
        self.say(_("* best. The margin counts the points each side still takes, the mover's minus the other's."))

    @contextlib.contextmanager
    def _solver_works(self) -> Iterator[None]:
        """The par's background solve stands aside while the solver works for the player."""
        if self.par_finder is not None:
            self.par_finder.pause(True)
        try:
            yield
        finally:
            if self.par_finder is not None:
                self.par_finder.pause(False)

    def _computer_move(self, mover: int) -> None:
        with self._solver_works():
            move = self.computers[mover](self.game.position.copy())
        kind = self.game.position.cells[move[0]]
        points = self.game.play(move)
        self._save()
        self.say(played_sentence(self.game.names[mover - 1], move, kind, points))
        self._after_move()

    def _after_move(self) -> None:
        self.show()

    def _undo(self) -> None:
        taken = self._step_through_moves(self.game.can_undo, self.game.undo, N_("Nothing to undo."))
        if taken:
            self._stepped(N_("Took back {moves}."), taken[::-1])

    def _redo(self) -> None:
        replayed = self._step_through_moves(self.game.can_redo, self.game.redo, N_("Nothing to redo."))
        if replayed:
            self._stepped(N_("Replayed {moves}."), replayed)

    def _step_through_moves(self, can: Callable[[], bool], step: Callable[[], Move], nothing: str) -> list[Move]:
        """One ``step`` back or forth through the moves, then on over the computer's, so that against
        the computer the human's own turn comes back; ``nothing`` (marked ``N_``) when there is none.
        The moves stepped over, in the order stepped."""
        if not can():
            self.say(_(nothing))
            return []
        stepped = [step()]
        while can() and self.game.position.to_move in self.computers:
            stepped.append(step())
        self._save()
        return stepped

    def _stepped(self, said: str, moves: list[Move]) -> None:
        """``said`` (marked ``N_``) naming ``moves`` in the game's order, as the window's status line
        does, so the board that follows is not the only sign of what changed."""
        self.say(_(said).format(moves=", ".join(move_name(move) for move in moves)))
        self._after_move()

    def _save_to(self, name: str) -> None:
        """``save FILE``: a new name is written, an existing file only after a yes, and a folder, a
        FIFO, a device or a name the system refuses (over 255 bytes, say) gets one line."""
        if not name:
            self.say(_("Usage: save FILE (for example: save game.mbg)"))
            return
        shown = shorten_name(name)
        path = Path(name).expanduser()
        if os.path.isdir(path) or name.endswith(("/", "\\")):
            self.say(
                _("Could not save to {shown}: it is a folder; give a file name, e.g. save {folder}/game.mbg").format(
                    shown=shown, folder=shown.rstrip("/")
                )
            )
            return
        if not path.suffix:
            path = path.with_suffix(".mbg")
        shown = shorten_name(str(path))
        try:
            target = writable_target(path)
            exists = target.exists()
        except NotAFileToWrite:
            if os.path.isdir(path):
                self.say(
                    _(
                        "Could not save to {shown}: it is a folder; give a file name, e.g. save {folder}/game.mbg"
                    ).format(shown=shown, folder=shown.rstrip("/"))
                )
            else:
                self.say(
                    _("Could not save to {shown}: it is not a regular file (a FIFO, a device or a socket)").format(
                        shown=shown
                    )
                )
            return
        except (OSError, ValueError) as error:
            self.say(
                _("Could not save to {shorten_name}: {reason}").format(shorten_name=shown, reason=error_reason(error))
            )
            return
        if exists and not self._confirm(_("{shown} exists. Replace it? (yes/no) ").format(shown=shown)):
            self.say(_("Not saved."))
            return
        try:
            write_atomically(path, self.game.to_text())
        except (OSError, ValueError) as error:
            self.say(
                _("Could not save to {shorten_name}: {reason}").format(shorten_name=shown, reason=error_reason(error))
            )
            return
        self.say(_("Saved to {file}.").format(file=shown))

    def _confirm(self, question: str) -> bool:
        try:
            answer = self.read_line(question)
        except (EOFError, KeyboardInterrupt):
            self.say()
            return False
        return is_yes(answer)

    def _save(self) -> None:
        """Keep the game on the shelf: called after every change, before the change is reported,
        so a kill between the two never loses a move the screen showed as taken."""
        if self.shelf is None:
            return
        text = self.game.to_text()
        try:
            if self.game.is_over():
                self.kept_at = self.shelf.finish(self.saved)
            elif self.game.ply > 0 or self.shelf.has(self.saved.game_id):
                self.shelf.save(self.saved)
            else:
                return
        except (GameUnclaimable, GameInUse, GameChanged) as error:
            self._say_not_saved(str(error))
            return
        except OSError as error:
            self.say(
                _("(the game could not be saved: {reason}; 'save FILE' writes it elsewhere)").format(
                    reason=error_reason(error)
                )
            )
            self.not_saved = error_reason(error)
            return
        self.kept_text = text
        if self.not_saved is not None:
            self.say(_("(the game is saved again)"))
            self.not_saved = None

    def _say_not_saved(self, reason: str) -> None:
        """Say once (and again for another reason) that the game is not saved, and why."""
        if reason != self.not_saved:
            self.say(
                _(
                    "Not saved: {reason}. The moves played here are not kept; 'save FILE' writes the game elsewhere."
                ).format(reason=reason)
            )
        self.not_saved = reason

    def _quit(self) -> None:
        """Save, then say what is kept: the game as played, the game as it was before the moves that
        could not be saved, or nothing."""
        self._save()
        if self.shelf is None or self.game.is_over():
            return
        if self.kept_text == self.game.to_text() and self.shelf.has(self.saved.game_id):
            self.say(
                _("The game is kept in the list of unfinished games; continue with 'mahjong-battle play --resume'.")
            )
        elif self.not_saved is None:
            self.say(_("No move was played, so there is nothing to keep."))
        elif self.kept_text is not None and self.shelf.has(self.saved.game_id):
            self.say(
                _(
                    "The last moves are not kept: {reason}. The list of unfinished games holds the game as it "
                    "was before them; continue with 'mahjong-battle play --resume'."
                ).format(reason=self.not_saved)
            )
        else:
            self.say(_("The game is not kept: {reason}.").format(reason=self.not_saved))

    def _discard(self) -> bool:
        """``discard``: delete this unfinished game after a yes; True when it is gone."""
        if not self._confirm(_("Delete this game for good? (yes/no) ")):
            self.say(_("Kept."))
            return False
        if self.shelf is not None:
            try:
                self.shelf.discard(self.saved.game_id)
            except (GameUnclaimable, GameInUse, GameChanged) as error:
                self.say(_("Not discarded: {error}.").format(error=error))
                return False
            except OSError as error:
                self.say(_("Could not discard the game: {reason}").format(reason=error_reason(error)))
                return False
        self.shelf = None  # quitting must not save it again
        self.say(_("Discarded."))
        return True

    def _remember_in_history(self) -> None:
        """Add the finished game to the history of games (``mahjong-battle stats``); a history that
        cannot be written is said in one line and the game is still kept as its record."""
        from battle.history.store import GameEntry, History

        levels = tuple(self.saved.level if side in self.computers else None for side in (1, 2))
        humans = [side for side in (1, 2) if side not in self.computers]
        you = humans[0] if self.computers and len(humans) == 1 else None
        par = _par_of(self.game)
        history = History()
        try:
            history.add_game(
                GameEntry.from_game(
                    self.game,
                    front_end="terminal",
                    levels=(levels[0], levels[1]),
                    you=you,
                    par=par,
                    game_key=self.saved.game_id,
                    from_ply=self.saved.from_ply,
                )
            )
            for notice in history.take_notices():
                self.say(notice)
        finally:
            history.close()

    def _after_the_end(self) -> None:
        """Say where the record is, then offer to save a copy or review the game before leaving."""
        if self.kept_at is not None:
            self.say(_("The record is kept in {file}.").format(file=self.kept_at))
        while True:
            try:
                line = self.read_line(_(END_PROMPT)).strip()
            except (EOFError, KeyboardInterrupt):
                self.say()
                return
            word, _space, rest = line.partition(" ")
            if word.lower() in ("", "quit", "exit", "q"):
                return
            if word.lower() == "save":
                self._save_to(rest.strip())
            elif word.lower() == "par" and self._par_pending() is not None:
                self._wait_for_par()
            elif word.lower() in ("review", "v"):
                self._review()
            else:
                self.say(_("Type 'save FILE' to write the record, 'review' to grade the moves, or Enter to leave."))

    def _review(self) -> None:
        if self.reviewer is None:
            self.say(_("No solver here to review the game."))
            return
        self.say(_("Reviewing every move against perfect play... (Ctrl-C stops)"))
        try:
            with self._solver_works():
                self.say(self.reviewer(self.game))
        except KeyboardInterrupt:
            self.say(_("Stopped."))

    def _par_pending(self) -> int | None:
        """The deal whose par the finder still works out for this game, if any."""
        number = _deal_start(self.game)
        if self.par_finder is None or number is None or not self.par_finder.working_on(number):
            return None
        return number

    def _say_par(self) -> None:
        """The par of the game's deal and each player's result against it; or that it is being worked out."""
        from battle.ui.play.par_words import compare_with_par, par_phrase

        number = _deal_start(self.game)
        if number is None:
            return
        par = _par_of(self.game)
        found = None if self.par_finder is None else self.par_finder.found(number)
        par = found.value if par is None and found is not None else par
        first = self.game.start.to_move
        first_name = self.game.names[first - 1]
        if par is not None:
            compared = compare_with_par(tuple(self.game.position.scores), par, first, first_name)  # type: ignore[arg-type]
            self.say(compared.sentence)
            for player in (1, 2):
                self.say(f"  {shown_name(self.game.names[player - 1])}: {compared.words[player - 1]}")
            return
        if self._par_pending() is None:
            return
        assert self.par_finder is not None
        bound = self.par_finder.lower_bound(number)
        if self.par_finder.on_battery:
            self.say(_("Par: waits for mains power (the computer runs on its battery)."))
        elif bound is None:
            self.say(_("Par: being worked out in the background; type 'par' to wait for it."))
        else:
            self.say(
                _("Par: being worked out in the background, at least {par_phrase}; type 'par' to wait for it.").format(
                    par_phrase=par_phrase(bound, first_name)
                )
            )

    def _wait_for_par(self) -> None:
        """``par`` after the end: wait for the background solve (Ctrl-C stops waiting), then say the par."""
        self.say(_("Waiting for the par... (Ctrl-C stops waiting)"))
        try:
            while self._par_pending() is not None:
                if self.par_finder is not None and self.par_finder.wait_found(PAR_WAIT_SLICE):
                    break
        except KeyboardInterrupt:
            self.say(_("Stopped waiting; the par is still worked out while you stay."))
            return
        self._say_par()


PAR_WAIT_SLICE = 0.5
"""Seconds between looks while ``par`` waits: a Ctrl-C is seen within them."""


def _deal_start(game: Game) -> int | None:
    """The deal number of a game begun at that deal's start (its par is the game's), else None."""
    from battle.atlas.catalogue import deal_at_start

    return deal_at_start(game.deal_number, game.start)


def _par_of(game: Game) -> int | None:
    """The catalogued par of the game's deal, when it started from that deal's first move."""
    number = _deal_start(game)
    if number is None:
        return None
    from battle.atlas.catalogue import Catalogue

    par = Catalogue.load().par(number)
    return None if par is None else par.value
