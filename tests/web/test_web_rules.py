"""The page's rules module (``battle/web/rules.js``) against the rules model, in a real browser:
the same positions through both, every ply of random legal playouts of numbered deals (and of
mid-game positions written back as ``.mbp`` starts, with ``..`` cells, scores and player 2 to
move): free cells, the legal moves as notation strings in order, what each of them opens, the
scores, the points on the board and the end, all identical. The page only shows what this module says; the server
checks every move with ``battle.rules`` again."""

from __future__ import annotations

import random
from typing import Any

from battle.rules.board import Move, Position, cell_name, move_name
from battle.rules.deal import deal
from battle.rules.notation import format_position, parse_position
from battle.rules.opens import what_opens
from tests.web.conftest import Served

DEALS = range(1, 25)
"""24 deals x 2 playouts x about 50 plies: some 2,400 positions."""

COMPARE = """
async (cases) => {
  const rules = await import("/rules.js");
  return cases.map(([start, moves]) => {
    let position = rules.parsePosition(start);
    const seen = [];
    for (let ply = 0; ply <= moves.length; ply++) {
      seen.push({
        free: rules.freeCells(position).map(rules.cellName),
        legal: rules.legalMoves(position).map(rules.moveName),
        scores: position.scores.slice(),
        toMove: position.toMove,
        points: rules.pointsOnBoard(position),
        over: rules.isOver(position),
        opens: rules.legalMoves(position).map((move) => {
          const opening = rules.whatOpens(position, move);
          return [opening.freed.map(rules.cellName), opening.newPairs.map(rules.moveName), opening.opponentMoves];
        }),
      });
      if (ply < moves.length) position = rules.play(position, rules.parseMove(moves[ply])).position;
    }
    return seen;
  });
}
"""


def seen_by_python(position: Position, moves: list[str]) -> list[dict[str, Any]]:
    seen = []
    for ply in range(len(moves) + 1):
        seen.append(
            {
                "free": [cell_name(cell) for cell in position.free_cells()],
                "legal": [move_name(move) for move in position.legal_moves()],
                "scores": list(position.scores),
                "toMove": position.to_move,
                "points": position.points_on_board(),
                "over": position.is_over(),
                "opens": [_opening(position, move) for move in position.legal_moves()],
            }
        )
        if ply < len(moves):
            position.push(next(m for m in position.legal_moves() if move_name(m) == moves[ply]))
    return seen


def _opening(position: Position, move: Move) -> list[Any]:
    opening = what_opens(position, move)
    return [
        [cell_name(cell) for cell in opening.freed],
        [move_name(pair) for pair in opening.new_pairs],
        opening.opponent_moves,
    ]


def random_playout(position: Position, rng: random.Random) -> list[str]:
    position = position.copy()
    moves = []
    while legal := position.legal_moves():
        move = rng.choice(legal)
        position.push(move)
        moves.append(move_name(move))
    return moves


def test_the_pages_rules_match_the_rules_model_on_thousands_of_positions(browser: Any, served: Served) -> None:
    rng = random.Random(44)
    cases: list[tuple[str, list[str]]] = []
    for number in DEALS:
        start = deal(number)
        cases.append((format_position(start), random_playout(start, rng)))
        middle = start.copy()
        for _ in range(rng.randrange(5, 25)):
            if not middle.legal_moves():
                break
            middle.push(rng.choice(middle.legal_moves()))
        middle = Position(middle.cells, middle.to_move, middle.scores)  # a composed start: no move stack
        cases.append((format_position(middle), random_playout(middle, rng)))

    page = browser.new_page()
    try:
        page.goto(served.base + "/")
        seen_by_page = page.evaluate(COMPARE, cases)
    finally:
        page.close()

    positions = 0
    for (start, moves), by_page in zip(cases, seen_by_page, strict=True):
        expected = seen_by_python(parse_position(start), moves)
        assert len(by_page) == len(expected)
        for ply, (ours, theirs) in enumerate(zip(by_page, expected, strict=True)):
            assert ours == theirs, f"{start.splitlines()[2]}... after {moves[:ply]}"
        positions += len(expected)
    assert positions >= 1000
