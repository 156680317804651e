"""Reading and writing the text formats of the notation contract, ``docs/notation.md``.

Positions (``.mbp``) and game records (``.mbg``) are contracts: whatever
``format_*`` writes, ``parse_*`` reads back to the same thing, and every way a
file can be wrong raises a ``NotationError`` that names the line, the token and
the reason, so a user can fix the file by hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from battle.i18n import N_
from battle.rules.board import COLS, ROWS, Move, Position, find_layout_problem, move_name, parse_cell
from battle.rules.deal import deal, parse_deal_number
from battle.rules.errors import BattleError, IllegalMoveError, NotationError, Phrase, PositionError, RecordError
from battle.rules.tiles import EMPTY, kind_name, kind_value, parse_kind

MOVES_PER_LINE = 6
MAX_SCORE = 999_999
"""The largest score a file may hold. A position's scores plus the points still on its board
must stay within it too, so every position and result line a game reaches from a readable
start is itself readable (a score of 999999 with tiles left would end past six digits)."""


# -- lines ------------------------------------------------------------------------------


@dataclass
class _Line:
    number: int
    text: str


def _content_lines(text: str) -> Iterator[_Line]:
    """Non-blank lines with their 1-based numbers, comments removed."""
    if not isinstance(text, str):
        raise NotationError(N_("expected text, got {kind}"), kind=type(text).__name__)
    # Split on newlines only: a comment runs to the end of its line, whatever
    # other line-break-like characters (form feed, U+2028) it holds.
    for number, raw in enumerate(text.split("\n"), start=1):
        content = raw.split("#", 1)[0].strip()
        if content:
            yield _Line(number, content)


_HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)$")


def _split_header(line: _Line) -> tuple[str, str] | None:
    match = _HEADER.match(line.text)
    return (match.group(1).lower(), match.group(2).strip()) if match else None


def _fail(
    line: _Line | int, reason: Phrase | NotationError, error: type[NotationError] = NotationError
) -> NotationError:
    number = line.number if isinstance(line, _Line) else line
    return error(N_("line {line}: {reason}"), line=number, reason=reason)


# -- positions --------------------------------------------------------------------------


def _parse_grid_row(line: _Line) -> list[int]:
    tokens = line.text.split()
    if len(tokens) != COLS:
        raise _fail(
            line,
            Phrase(
                N_("expected {expected} cells in a grid row, got {count}: {text}"),
                expected=COLS,
                count=len(tokens),
                text=repr(line.text),
            ),
        )
    row: list[int] = []
    for token in tokens:
        try:
            row.append(parse_kind(token))
        except NotationError as error:
            raise _fail(line, error) from None
    return row


def _parse_to_move(line: _Line, value: str) -> int:
    if value not in ("1", "2"):
        raise _fail(line, Phrase(N_("to-move must be 1 or 2, not {value}"), value=repr(value)))
    return int(value)


def _parse_score(line: _Line, value: str) -> tuple[int, int]:
    parts = value.split()
    if len(parts) != 2 or not all(part.isascii() and part.isdigit() for part in parts):
        raise _fail(
            line,
            Phrase(N_("score must be two whole numbers >= 0 (player 1, player 2), not {value}"), value=repr(value)),
        )
    if any(len(part) > 6 for part in parts):
        raise _fail(line, Phrase(N_("score {value} is too large (at most {most})"), value=repr(value), most=MAX_SCORE))
    return int(parts[0]), int(parts[1])


def _build_position(
    rows: list[list[int]],
    row_lines: list[_Line],
    to_move: int,
    scores: tuple[int, int],
    score_line: _Line | None = None,
) -> Position:
    position_cells = [EMPTY] * (COLS * ROWS)
    for row, kinds in enumerate(rows):
        for col, kind in enumerate(kinds):
            position_cells[col * ROWS + row] = kind
    problem = find_layout_problem(position_cells)
    if problem is not None:
        row, reason = problem
        raise _fail(row_lines[row], reason, PositionError)
    position = Position(position_cells, to_move, scores)
    total = scores[0] + scores[1] + position.points_on_board()
    if total > MAX_SCORE:
        reason = Phrase(
            N_(
                "score {first} {second} is too large: with the {on_board} points on the board "
                "it could reach {total}, more than {most}"
            ),
            first=scores[0],
            second=scores[1],
            on_board=position.points_on_board(),
            total=total,
            most=MAX_SCORE,
        )
        raise _fail(score_line, reason) if score_line is not None else NotationError(reason.message, **reason.values)
    return position


def _missing_rows(rows: list[list[int]], last_line: int) -> NotationError:
    return _fail(last_line, Phrase(N_("expected {expected} grid rows, got {count}"), expected=ROWS, count=len(rows)))


def parse_position(text: str) -> Position:
    """Read a ``.mbp`` position."""
    to_move: int | None = None
    scores: tuple[int, int] | None = None
    score_line: _Line | None = None
    rows: list[list[int]] = []
    row_lines: list[_Line] = []
    last = 0
    for line in _content_lines(text):
        last = line.number
        header = _split_header(line)
        if header is not None:
            name, value = header
            if name == "to-move":
                if to_move is not None:
                    raise _fail(line, Phrase(N_("{field} is given twice"), field="to-move"))
                to_move = _parse_to_move(line, value)
            elif name == "score":
                if scores is not None:
                    raise _fail(line, Phrase(N_("{field} is given twice"), field="score"))
                scores = _parse_score(line, value)
                score_line = line
            else:
                raise _fail(
                    line,
                    Phrase(N_("unknown field {field} in a position (expected to-move or score)"), field=repr(name)),
                )
            continue
        if len(rows) == ROWS:
            raise _fail(line, Phrase(N_("more than {most} grid rows: {text}"), most=ROWS, text=repr(line.text)))
        rows.append(_parse_grid_row(line))
        row_lines.append(line)
    if to_move is None:
        raise NotationError(N_("missing 'to-move:' line (1 or 2)"))
    if scores is None:
        raise NotationError(N_("missing 'score:' line (points of player 1 and player 2)"))
    if len(rows) != ROWS:
        raise _missing_rows(rows, last)
    return _build_position(rows, row_lines, to_move, scores, score_line)


def format_grid(position: Position) -> str:
    """The 9 grid rows, cells separated by single spaces."""
    return "\n".join(" ".join(kind_name(kind) for kind in row) for row in position.rows())


def format_position(position: Position, comment: str | None = None) -> str:
    """Write a ``.mbp`` position (with an optional leading comment line)."""
    head = "".join(f"# {line}\n" for line in comment.splitlines()) if comment else ""
    return (
        f"{head}to-move: {position.to_move}\n"
        f"score: {position.scores[0]} {position.scores[1]}\n"
        f"{format_grid(position)}\n"
    )


# -- game records -----------------------------------------------------------------------


@dataclass
class Record:
    """A game as a record holds it: who played, where it started, the moves.

    ``deal`` is set for games from a numbered deal, otherwise ``start`` is a
    composed layout. ``result`` is the final score when the game is over.
    """

    player1: str = "Player 1"
    player2: str = "Player 2"
    deal: int | None = None
    start: Position = field(default_factory=lambda: Position([EMPTY] * (COLS * ROWS)))
    moves: list[Move] = field(default_factory=list)

    def final_position(self) -> Position:
        """The start with every move played (moves are known to be legal)."""
        position = self.start.copy()
        for move in self.moves:
            position.push(move)
        return position

    def result(self) -> tuple[int, int] | None:
        final = self.final_position()
        return (final.scores[0], final.scores[1]) if final.is_over() else None


_MOVE_TOKEN = re.compile(
    r"(?P<number>\d+)\.(?!\d)"
    r"|(?P<move>[a-z]\d+(?:\s*-\s*|\s+)[a-z]\d+)"
    r"|\((?P<points>[^)]*)\)"
    r"|(?P<other>\S+)"
)


def _parse_move_tokens(lines: list[_Line]) -> list[tuple[_Line, int | None, str, int | None]]:
    """Split the move text into (line, number, move text, points) entries."""
    entries: list[tuple[_Line, int | None, str, int | None]] = []
    pending_number: int | None = None
    for line in lines:
        for match in _MOVE_TOKEN.finditer(line.text):
            if match.group("number") is not None:
                if pending_number is not None:
                    raise _fail(
                        line,
                        Phrase(
                            N_("move number {number}. is followed by another number, not a move"),
                            number=pending_number,
                        ),
                    )
                pending_number = int(match.group("number")[:9])
            elif match.group("move") is not None:
                entries.append((line, pending_number, match.group("move"), None))
                pending_number = None
            elif match.group("points") is not None:
                points_text = match.group("points").strip()
                if not entries or entries[-1][3] is not None or pending_number is not None:
                    raise _fail(line, Phrase(N_("points ({points}) must follow a move"), points=points_text))
                if not (points_text.isascii() and points_text.isdigit() and len(points_text) <= 2):
                    raise _fail(
                        line, Phrase(N_("points must be a number from 1 to 9, not ({points})"), points=points_text)
                    )
                last = entries[-1]
                entries[-1] = (last[0], last[1], last[2], int(points_text))
            else:
                raise _fail(
                    line,
                    Phrase(N_("{text} is not a move (expected e.g. 1. c1-c9 (7))"), text=repr(match.group("other"))),
                )
    if pending_number is not None:
        raise _fail(lines[-1], Phrase(N_("move number {number}. has no move after it"), number=pending_number))
    return entries


def _parse_result(line: _Line, value: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d{1,6})\s*-\s*(\d{1,6})", value)
    if not match:
        raise _fail(line, Phrase(N_("result must be two scores like 131-139, not {value}"), value=repr(value)))
    return int(match.group(1)), int(match.group(2))


def parse_record(text: str) -> Record:
    """Read a ``.mbg`` game record and replay it, checking every move."""
    record = Record()
    fields: dict[str, _Line] = {}
    layout_rows: list[list[int]] = []
    layout_lines: list[_Line] = []
    in_layout = False
    to_move, scores = 1, (0, 0)
    move_lines: list[_Line] = []
    result: tuple[int, int] | None = None
    result_line: _Line | None = None
    for line in _content_lines(text):
        if in_layout and len(layout_rows) < ROWS:
            layout_rows.append(_parse_grid_row(line))
            layout_lines.append(line)
            continue
        header = _split_header(line)
        if header is None:
            if result_line is not None:
                raise _fail(line, Phrase(N_("moves after the result line")))
            move_lines.append(line)
            continue
        name, value = header
        if name in fields:
            raise _fail(line, Phrase(N_("{field} is given twice"), field=name))
        if move_lines and name != "result":
            raise _fail(line, Phrase(N_("{field}: must come before the moves"), field=name))
        fields[name] = line
        if name in ("player1", "player2"):
            setattr(record, name, value)
        elif name == "deal":
            try:
                record.deal = parse_deal_number(value)
            except NotationError as error:
                raise _fail(line, error) from None
        elif name == "layout":
            if value:
                raise _fail(
                    line,
                    Phrase(N_("layout: takes the 9 grid rows on the following lines, not {value}"), value=repr(value)),
                )
            in_layout = True
        elif name == "to-move":
            to_move = _parse_to_move(line, value)
        elif name == "score":
            scores = _parse_score(line, value)
        elif name == "result":
            result = _parse_result(line, value)
            result_line = line
        else:
            raise _fail(line, Phrase(N_("unknown field {field} in a game record"), field=repr(name)))
    if "deal" in fields and "layout" in fields:
        raise _fail(fields["layout"], Phrase(N_("a record has either deal: or layout:, not both")))
    if "layout" in fields:
        if len(layout_rows) != ROWS:
            raise _missing_rows(layout_rows, layout_lines[-1].number if layout_lines else fields["layout"].number)
        record.start = _build_position(layout_rows, layout_lines, to_move, scores, fields.get("score"))
    elif record.deal is not None:
        if "to-move" in fields or "score" in fields:
            line = fields.get("to-move") or fields["score"]
            raise _fail(
                line,
                Phrase(N_("to-move: and score: belong to a layout:, a numbered deal starts 0-0 with player 1")),
            )
        record.start = deal(record.deal)
    else:
        raise NotationError(N_("missing 'deal:' or 'layout:' line: the record must say where the game started"))
    _replay(record, _parse_move_tokens(move_lines) if move_lines else [], result, result_line)
    return record


def _replay(
    record: Record,
    entries: list[tuple[_Line, int | None, str, int | None]],
    result: tuple[int, int] | None,
    result_line: _Line | None,
) -> None:
    position = record.start.copy()
    for index, (line, number, text, points) in enumerate(entries, start=1):
        if number is not None and number != index:
            raise _fail(line, Phrase(N_("move {index} is numbered {number}"), index=index, number=number), RecordError)
        try:
            move = _parse_record_move(text)
        except NotationError as error:
            raise _fail(line, _in_move(index, error), RecordError) from None
        label = move_name(move)
        if position.is_over():
            over = Phrase(N_("{move}: the game is already over"), move=label)
            raise _fail(line, _in_move(index, over), RecordError)
        try:
            scored = position.push(move)
        except IllegalMoveError as error:
            raise _fail(line, _in_move(index, error), RecordError) from None
        if points is not None and points != scored:
            wrong = Phrase(
                N_("{move} takes a pair of {tile} worth {points}, not ({written})"),
                move=label,
                tile=kind_name(record.start.cells[move[0]]),
                points=scored,
                written=points,
            )
            raise _fail(line, _in_move(index, wrong), RecordError)
        record.moves.append(move)
    if result is not None and result_line is not None:
        if not position.is_over():
            early = Phrase(N_("result given, but the game is not over after move {count}"), count=len(record.moves))
            raise _fail(result_line, early, RecordError)
        final = (position.scores[0], position.scores[1])
        if result != final:
            wrong = Phrase(
                N_("result {written} does not match the replayed score {replayed}"),
                written=f"{result[0]}-{result[1]}",
                replayed=f"{final[0]}-{final[1]}",
            )
            raise _fail(result_line, wrong, RecordError)


def _in_move(index: int, reason: Phrase | BattleError) -> Phrase:
    """A reason about the record's move number ``index``: "move 3: c1-c9: ..."."""
    return Phrase(N_("move {index}: {reason}"), index=index, reason=reason)


def _parse_record_move(text: str) -> Move:
    parts = text.replace("-", " ").split()
    a, b = parse_cell(parts[0]), parse_cell(parts[1])
    if a == b:
        raise NotationError(N_("{text}: the two cells must differ"), text=repr(text))
    return (a, b) if a < b else (b, a)


def format_record(record: Record) -> str:
    """Write a ``.mbg`` game record; the result line is written once the game is over."""
    lines = [f"player1: {record.player1}", f"player2: {record.player2}"]
    if record.deal is not None:
        lines.append(f"deal: {record.deal}")
    else:
        start = record.start
        if start.to_move != 1:
            lines.append(f"to-move: {start.to_move}")
        if start.scores != [0, 0]:
            lines.append(f"score: {start.scores[0]} {start.scores[1]}")
        lines.append("layout:")
        lines.append(format_grid(start))
    position = record.start.copy()
    entries = []
    for index, move in enumerate(record.moves, start=1):
        points = kind_value(position.cells[move[0]])
        position.push(move)
        entries.append(f"{index}. {move_name(move)} ({points})")
    for start_index in range(0, len(entries), MOVES_PER_LINE):
        lines.append("  ".join(entries[start_index : start_index + MOVES_PER_LINE]))
    if position.is_over():
        lines.append(f"result: {position.scores[0]}-{position.scores[1]}")
    return "\n".join(lines) + "\n"


def is_record_text(text: str) -> bool:
    """Whether text looks like a game record rather than a position (for ``-`` input)."""
    for line in _content_lines(text):
        header = _split_header(line)
        if header and header[0] in ("deal", "layout", "player1", "player2"):
            return True
    return False


def parse_any(text: str) -> Position:
    """The current position of either a ``.mbp`` file or a ``.mbg`` record."""
    if is_record_text(text):
        return parse_record(text).final_position()
    return parse_position(text)
