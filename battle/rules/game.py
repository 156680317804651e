"""A game: two players, a start position, the moves played, undo and redo.

The game owns a live ``Position`` that always equals the start with the played
moves pushed, so undo is a ``pop`` and redo a ``push`` of a remembered move.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from battle.i18n import _, pgettext
from battle.rules.board import Move, Position, move_name
from battle.rules.deal import deal, random_deal_number
from battle.rules.notation import Record, format_record, is_record_text, parse_position, parse_record
from battle.rules.tiles import kind_value
from battle.rules.wording import about, is_you

MAX_NAME_LENGTH = 40

KnownStart = tuple[int, tuple[Move, ...]]
"""What a catalogue knows of a start position: its exact value for the player to move and its best
first moves (empty when not stored); a review grades move 1 with it where its search cannot."""


JOINERS = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: format characters that Persian and other scripts spell with
and emoji sequences are made of, so they stay in a name where every other format character goes."""
BLANKS = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
"""Letters and symbols that draw nothing: the Hangul fillers, the Khmer inherent vowels, the blank
Braille pattern. A name of them alone looks empty."""


def clean_name(name: str, default: str) -> str:
    """A player name that survives a record and can be seen: one line, no comment sign, at most
    ``MAX_NAME_LENGTH`` characters, and a visible character in it (else ``default``)."""
    text = "".join(
        ch for ch in str(name) if ch != "#" and (ch in JOINERS or not unicodedata.category(ch).startswith("C"))
    )
    text = " ".join(text.split())[:MAX_NAME_LENGTH].strip()
    return text if any(_visible(ch) for ch in text) else default


def _visible(ch: str) -> bool:
    """Whether ``ch`` draws something on its own: not a space, a joiner, a mark or a blank."""
    return ch not in BLANKS and unicodedata.category(ch)[0] not in "ZCM" and not ch.isspace()


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game."""

    scores: tuple[int, int]
    winner: int | None
    """1 or 2, or None for a draw."""
    margin: int
    """The winner's points minus the loser's (0 for a draw)."""

    def describe(self, names: tuple[str, str], *, start: bool = True) -> str:
        """The outcome as a clause: "Alice wins 140-130 (by 10)", "You win ...", "Draw, 135-135".

        ``start=False`` is for a clause inside a sentence ("you win", "draw").
        """
        score = self.score_text(names)
        if self.winner is None:
            return (_("Draw, {score}") if start else pgettext("inside a sentence", "draw, {score}")).format(score=score)
        winner = names[self.winner - 1]
        if start:
            return about(
                winner,
                _("You win {score} (by {margin})"),
                _("{name} wins {score} (by {margin})"),
                score=score,
                margin=self.margin,
            )
        return about(
            winner,
            pgettext("inside a sentence", "you win {score} (by {margin})"),
            pgettext("inside a sentence", "{name} wins {score} (by {margin})"),
            score=score,
            margin=self.margin,
        )

    def score_text(self, names: tuple[str, str]) -> str:
        """The scores from the reader's side: "You win 146-124" when you are player 2 (your score
        first); seat order when neither name is "you"."""
        first, second = self.scores
        if is_you(names[1]) and not is_you(names[0]):
            first, second = second, first
        return f"{first}-{second}"


def result_of(scores: tuple[int, int] | list[int]) -> Result:
    first, second = scores[0], scores[1]
    winner = None if first == second else (1 if first > second else 2)
    return Result((first, second), winner, abs(first - second))


class Game:
    """A game in progress or finished, with history for undo, redo and records."""

    def __init__(
        self,
        start: Position,
        player1: str = "Player 1",
        player2: str = "Player 2",
        deal_number: int | None = None,
    ) -> None:
        self.start: Position = start.copy()
        """The position before the first move."""
        self._names = [clean_name(player1, "Player 1"), clean_name(player2, "Player 2")]
        self.deal_number: int | None = deal_number
        """The numbered deal the game started from, or None for a composed start."""
        self.position: Position = start.copy()
        """The current position; change it only through the game's methods."""
        self._redo: list[Move] = []

    @classmethod
    def new(cls, deal_number: int | None = None, player1: str = "Player 1", player2: str = "Player 2") -> Game:
        """A game from a numbered deal; without a number, a random one (shown in records)."""
        number = random_deal_number() if deal_number is None else deal_number
        return cls(deal(number), player1, player2, number)

    @classmethod
    def from_record(cls, record: Record) -> Game:
        game = cls(record.start, record.player1, record.player2, record.deal)
        for move in record.moves:
            game.play(move)
        return game

    @classmethod
    def from_text(cls, text: str) -> Game:
        """Load a ``.mbg`` record (replayed and checked move by move)."""
        return cls.from_record(parse_record(text))

    @classmethod
    def from_file_text(cls, text: str) -> tuple[Game, str]:
        """A game from a ``.mbg`` record, or a fresh one from a ``.mbp`` position,
        and which of the two the text was ("game record" or "position")."""
        if is_record_text(text):
            return cls.from_text(text), "game record"
        return cls(parse_position(text)), "position"

    # -- state -----------------------------------------------------------------------

    @property
    def player1(self) -> str:
        return self._names[0]

    @player1.setter
    def player1(self, name: str) -> None:
        self._names[0] = clean_name(name, "Player 1")

    @property
    def player2(self) -> str:
        return self._names[1]

    @player2.setter
    def player2(self, name: str) -> None:
        self._names[1] = clean_name(name, "Player 2")

    @property
    def names(self) -> tuple[str, str]:
        return (self._names[0], self._names[1])

    @property
    def moves(self) -> list[Move]:
        """Moves played so far, oldest first."""
        return self.position.move_stack

    @property
    def ply(self) -> int:
        return self.position.pushed

    def is_over(self) -> bool:
        return self.position.is_over()

    def result(self) -> Result | None:
        """The result once no pair is left, else None."""
        if not self.position.is_over():
            return None
        return result_of(self.position.scores)

    def can_undo(self) -> bool:
        return self.ply > 0

    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def redo_count(self) -> int:
        """How many undone moves ``redo`` can still replay."""
        return len(self._redo)

    def mover_of(self, ply: int) -> int:
        """The player (1 or 2) who made move number ``ply + 1``."""
        return self.start.to_move if ply % 2 == 0 else 3 - self.start.to_move

    # -- changes ---------------------------------------------------------------------

    def play(self, move: Move) -> int:
        """Play a move for the player to move; returns its points.

        A new move drops the redo list, as in any editor: the old future is gone.
        """
        points = self.position.push(move)
        if self._redo and self._redo[-1] == (min(move), max(move)):
            self._redo.pop()
        else:
            self._redo.clear()
        return points

    def undo(self) -> Move:
        """Take back the last move (raises IndexError when there is none)."""
        move = self.position.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Play again the last undone move (raises IndexError when there is none)."""
        if not self._redo:
            raise IndexError("no move to redo")
        move = self._redo[-1]
        self.position.push(move)
        self._redo.pop()
        return move

    def position_at(self, ply: int) -> Position:
        """The position after the first ``ply`` moves (0 is the start)."""
        position = self.start.copy()
        for move in self.moves[:ply]:
            position.push(move)
        return position

    # -- records ---------------------------------------------------------------------

    def to_record(self) -> Record:
        return Record(self.player1, self.player2, self.deal_number, self.start.copy(), list(self.moves))

    def to_text(self) -> str:
        """The game as a ``.mbg`` record."""
        return format_record(self.to_record())

    def move_list(self) -> list[tuple[int, int, str, int]]:
        """(number, mover, notation, points) for each move played."""
        position = self.start.copy()
        listing = []
        for index, move in enumerate(self.moves):
            points = kind_value(position.cells[move[0]])
            listing.append((index + 1, position.to_move, move_name(move), points))
            position.push(move)
        return listing
