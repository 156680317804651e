"""Playing in the terminal: two people at one keyboard, or one against the solver.

The loop reads a line, acts, prints; bad input never ends the game, it
re-prompts with the reason. The game is saved after every move so that a
closed terminal or a crash loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from battle.board import Move, Position, move_name, parse_move
from battle.errors import BattleError
from battle.game import Game
from battle.paths import data_dir, write_atomically
from battle.textboard import LEGEND, render_board, render_status
from battle.tiles import kind_name

if TYPE_CHECKING:  # the solver is injected by the command line, never imported here
    from solver.engine import Analysis

Computer = Callable[[Position], Move]
"""Chooses a move for a computer player; called only when a move exists."""
Advisor = Callable[[Position, bool], "Analysis"]
"""Searches a position (every move's value when the flag is set) within a short time."""

HELP = """Commands:
  c1-c9        take the pair on c1 and c9 (also 'c1 c9')
  moves        list the playable pairs
  hint         the solver's best move for you, and where it leads
  eval         every playable pair with its value under perfect play (best marked)
  board        show the board again
  undo, redo   take back / replay a move (against the computer: your last move and its reply)
  save FILE    write the game record (.mbg)
  quit         stop (the game stays saved for 'play --resume')
  help         this text"""


def _margin(value: int) -> str:
    points = "point" if abs(value) == 1 else "points"
    if value > 0:
        return f"takes {value} more {points} than the opponent"
    if value < 0:
        return f"takes {-value} fewer {points} than the opponent"
    return "takes as many points as the opponent"


def autosave_path() -> Path:
    return data_dir() / "terminal-autosave.mbg"


class TerminalPlay:
    """One game at the terminal. ``computers`` maps a player number to its engine."""

    def __init__(
        self,
        game: Game,
        read_line: Callable[[str], str] | None = None,
        out: TextIO | None = None,
        computers: dict[int, Computer] | None = None,
        colour: bool = False,
        autosave: Path | None = None,
        advisor: Advisor | None = None,
    ) -> None:
        import sys

        self.game = game
        self.read_line = read_line if read_line is not None else input
        self.out = out if out is not None else sys.stdout
        self.computers = computers or {}
        self.colour = colour
        self.autosave = autosave
        self.advisor = advisor

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self) -> None:
        self.say(render_board(self.game.position, self.colour))
        self.say(render_status(self.game.position, self.game.names))

    def run(self) -> int:
        """Play until the game ends or the user quits; returns an exit code."""
        deal = f"deal {self.game.deal_number}" if self.game.deal_number is not None else "composed position"
        self.say(f"Mahjong Battle: {self.game.player1} vs {self.game.player2}, {deal}. Type 'help' for commands.")
        self.say(LEGEND)
        self.show()
        while True:
            if self.game.is_over():
                self._save()
                result = self.game.result()
                assert result is not None
                self.say(f"Game over: {result.describe(self.game.names)}.")
                return 0
            mover = self.game.position.to_move
            if mover in self.computers:
                self._computer_move(mover)
                continue
            try:
                line = self.read_line(f"{self.game.names[mover - 1]} to move> ")
            except (EOFError, KeyboardInterrupt):
                self.say()
                self._quit()
                return 0
            if not self.handle(line.strip()):
                self._quit()
                return 0

    def handle(self, line: str) -> bool:
        """Act on one line of input; False means quit."""
        if not line:
            return True
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in ("quit", "exit", "q"):
            return False
        if command in ("help", "?"):
            self.say(HELP)
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
            kind = self.game.position.cells[move[0]]
            points = self.game.play(move)
        except BattleError as error:
            self.say(f"Not a legal move: {error}. Type 'moves' for the playable pairs, 'help' for commands.")
            return
        self.say(f"{move_name(move)}: a pair of {kind_name(kind)}, {points} points.")
        self._after_move()

    def _advise(self, every_move: bool) -> None:
        """``hint`` and ``eval``: what the solver makes of the position, within a few seconds."""
        position = self.game.position
        if self.advisor is None:
            self.say("No solver here to ask.")
            return
        if not position.legal_moves():
            self.say("No pair left to take.")
            return
        self.say("Thinking... (Ctrl-C stops)")
        try:
            analysis = self.advisor(position.copy(), every_move)
        except KeyboardInterrupt:
            self.say("Stopped.")
            return
        how = "exact" if analysis.exact else f"an estimate: a {analysis.depth}-move search, not to the end"
        mover = self.game.names[position.to_move - 1]
        if not every_move:
            move = analysis.best_moves[0]
            kind = kind_name(position.cells[move[0]])
            others = [move_name(m) for m in analysis.best_moves[1:]]
            also = f" (as good: {', '.join(others)})" if others else ""
            points = position.move_points(move)
            self.say(f"Hint: {move_name(move)}, a pair of {kind}, {points} point{'s' if points != 1 else ''}{also}.")
            self.say(f"With best play on both sides {mover} {_margin(analysis.value)} from here ({how}).")
            return
        self.say(f"{mover} to move; with best play {_margin(analysis.value)} from here ({how}).")
        best = set(analysis.best_moves)
        self.say("  move      points  final margin")
        for mv in analysis.move_values:
            mark = "*" if mv.move in best else " "
            self.say(f"{mark} {mv.notation:<8}  {position.move_points(mv.move):>5}  {mv.describe():>12}")
        self.say("* best. The margin counts the points each side still takes, the mover's minus the other's.")

    def _computer_move(self, mover: int) -> None:
        move = self.computers[mover](self.game.position.copy())
        kind = self.game.position.cells[move[0]]
        points = self.game.play(move)
        self.say(f"{self.game.names[mover - 1]} plays {move_name(move)}: a pair of {kind_name(kind)}, {points} points.")
        self._after_move()

    def _after_move(self) -> None:
        self._save()
        self.show()

    def _undo(self) -> None:
        if not self.game.can_undo():
            self.say("Nothing to undo.")
            return
        self.game.undo()
        # Against the computer, go back to the human's own turn.
        while self.game.can_undo() and self.game.position.to_move in self.computers:
            self.game.undo()
        self._after_move()

    def _redo(self) -> None:
        if not self.game.can_redo():
            self.say("Nothing to redo.")
            return
        self.game.redo()
        while self.game.can_redo() and self.game.position.to_move in self.computers:
            self.game.redo()
        self._after_move()

    def _save_to(self, name: str) -> None:
        if not name:
            self.say("Usage: save FILE (for example: save game.mbg)")
            return
        try:
            write_atomically(Path(name).expanduser(), self.game.to_text())
        except OSError as error:
            self.say(f"Could not save to {name}: {error.strerror or error}")
            return
        self.say(f"Saved to {name}.")

    def _save(self) -> None:
        if self.autosave is None:
            return
        try:
            write_atomically(self.autosave, self.game.to_text())
        except OSError as error:
            self.say(f"(autosave to {self.autosave} failed: {error.strerror or error})")

    def _quit(self) -> None:
        self._save()
        if self.autosave is not None and not self.game.is_over():
            self.say(f"Game saved to {self.autosave}; continue with 'mahjong-battle play --resume'.")
