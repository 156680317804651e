"""A puzzle's themes, read from the rules model alone: what kind of idea its answer is.

Every puzzle's answer is a smaller pair than the biggest free one (``criteria``), so each
theme says why giving up those points pays, from the position, the answer, and the
perfect line that follows it (the puzzle's ``line`` and ``then``). A move *opens a pair*
for the side to move next when a tile it uncovers (the next tile of a column it took from)
is free after it and has a free twin: a pair that was not there before.

``tempo``
    a bigger pair is left for later: with one of its next ``TEMPO_HORIZON`` moves of the
    perfect line, the side that solves takes a pair that was already free before the answer
    and is worth more than the answer. The opponent could have taken it meanwhile, but
    taking it would have cost more than it gave.
``blockade``
    the answer keeps twins buried: it opens no pair for the opponent, while every move of
    the biggest points would open one (it uncovers a twin of a free tile).
``sacrifice``
    the answer gives something away and the opponent takes it: it opens a pair worth more
    than the answer itself, and the opponent's reply in the perfect line is that pair.
"""

from __future__ import annotations

from collections.abc import Sequence

from battle.i18n import NP_, pgettext
from battle.rules.board import Move, Position

THEMES: tuple[str, ...] = ("tempo", "blockade", "sacrifice")
"""Every theme, in the order a puzzle lists them."""
_THEME_WORDS: dict[str, tuple[str, str]] = {
    "tempo": NP_("puzzle theme", "tempo"),
    "blockade": NP_("puzzle theme", "blockade"),
    "sacrifice": NP_("puzzle theme", "sacrifice"),
}
"""The themes in the player's words; ``--theme`` and the puzzle files keep the English names."""
TEMPO_HORIZON = 2
"""The solving side's moves after the answer in which taking the bigger pair counts as tempo: a
pair taken later than that was left for other reasons (in the shipped set 87 of 600 puzzles
take it within two moves, while about a third take it at some point of the perfect line)."""


def opened_pairs(position: Position, move: Move) -> list[Move]:
    """The pairs the move opens for the side to move next: legal after it, and holding a tile it uncovered."""
    before = set(position.free_cells())
    position.push(move)
    try:
        uncovered = set(position.free_cells()) - before
        return [pair for pair in position.legal_moves() if pair[0] in uncovered or pair[1] in uncovered]
    finally:
        position.pop()


def is_tempo(position: Position, perfect_line: Sequence[Move]) -> bool:
    """The solving side takes, within ``TEMPO_HORIZON`` of its next moves, a bigger pair free before the answer."""
    answer_points = position.move_points(perfect_line[0])
    bigger = {move for move in position.legal_moves() if position.move_points(move) > answer_points}
    later = perfect_line[2 : 2 + 2 * TEMPO_HORIZON : 2]
    return any(move in bigger for move in later)


def is_blockade(position: Position, answer: Move) -> bool:
    """The answer opens no pair, while every move of the biggest points opens one."""
    if opened_pairs(position, answer):
        return False
    moves = position.legal_moves()
    biggest = max(position.move_points(move) for move in moves)
    tempting = [move for move in moves if position.move_points(move) == biggest]
    return all(opened_pairs(position, move) for move in tempting)


def is_sacrifice(position: Position, perfect_line: Sequence[Move]) -> bool:
    """The opponent's reply in the perfect line takes a pair the answer opened, worth more than the answer
    (its tiles are on the board before the answer too, only covered, so ``move_points`` reads them there)."""
    if len(perfect_line) < 2:
        return False
    answer, reply = perfect_line[0], perfect_line[1]
    return reply in opened_pairs(position, answer) and position.move_points(reply) > position.move_points(answer)


def theme_word(theme: str) -> str:
    """A theme's name in the player's language ("sacrifice" is "Opfer" in German)."""
    marked = _THEME_WORDS.get(theme)
    return pgettext(*marked) if marked is not None else theme


def themes_of(position: Position, perfect_line: Sequence[Move]) -> tuple[str, ...]:
    """The themes of a puzzle starting at ``position`` whose perfect line (answer first) is ``perfect_line``."""
    answer = perfect_line[0]
    found = {
        "tempo": is_tempo(position, perfect_line),
        "blockade": is_blockade(position, answer),
        "sacrifice": is_sacrifice(position, perfect_line),
    }
    return tuple(theme for theme in THEMES if found[theme])
