"""How much a perfect choice among the cutting moves would save at a cut node, offline.

For random-move positions, every move's exact value is solved first. Then for windows
whose beta lies d points below the position's value, each move's proof cost is
measured: the nodes a null-window search of its child needs from an empty table (one
thread, 2^20 entries), to show that it reaches beta, or that it does not. A node's cost
under an ordering is what its moves cost in that order up to the first that cuts; the
oracle takes the cheapest cutting move. The ratios say how far an ordering is from that
oracle at one node (the search below keeps the kernel's own ordering).

    python benchmarks/cut_study.py --positions 40 --tiles 44-52

The ordering score is the kernel's at a node with no table move, no killer and no
opponent's move before it (``negamax`` in solver/_search.py): 5 x points - the best pair
the move exposes, in sixteenths, + points - the reply term. The standing table is in
benchmarks/README.md, what it ruled out in docs/solver-notes.md ("How much ordering has
left").
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from bench_solver import played_down  # noqa: E402

from battle.rules.board import ROWS, Move, Position, cell_col  # noqa: E402
from battle.rules.tiles import kind_value  # noqa: E402
from solver import Engine  # noqa: E402
from solver import _search as k  # noqa: E402

MARGINS = (1, 7, 15)
"""How far below the position's value beta lies: a close call, a common one, an easy cut."""


@dataclass
class MoveFacts:
    """One move of a studied node: its exact value, its ordering features and proof cost."""

    move: Move
    value: int
    gain: int
    threat: int
    replies: int
    cost: int = 0

    def score(self, moves: int) -> int:
        """The kernel's ordering score at a node with nothing else to go on."""
        reply_weight = k.REPLY_SCALE // moves
        return (5 * self.gain - k.THREAT_WEIGHT * self.threat) * 16 + self.gain - reply_weight * self.replies


@dataclass
class Node:
    """A position with a window: beta = value - margin."""

    position: Position
    margin: int
    beta: int
    moves: list[MoveFacts] = field(default_factory=list)

    def cost(self, key: Callable[[MoveFacts], object]) -> int:
        """Nodes spent when the moves are searched in the order ``key`` gives, up to the first cut."""
        spent = 0
        for facts in sorted(self.moves, key=key):
            spent += facts.cost
            if facts.value >= self.beta:
                break
        return spent

    def oracle(self) -> int:
        return min(facts.cost for facts in self.moves if facts.value >= self.beta)


def random_position(rng: random.Random, low: int, high: int) -> Position:
    """A numbered deal played down by random legal moves (``played_down``) to ``low``-``high`` tiles."""
    while True:
        position = played_down(rng.randrange(1_000_000), rng.randrange(low, high + 1, 2), rng.randrange(1_000_000))
        if position is not None:
            return position


def exposed_cells(position: Position, move: Move) -> list[int]:
    """The cells the move uncovers: its columns' new ends that were not ends before."""
    cells = []
    for col in sorted({cell_col(cell) for cell in move}):
        top, bottom = position.column_run(col)
        new_top, new_bottom = top, bottom
        for cell in move:
            if cell == col * ROWS + new_top:
                new_top += 1
            elif cell == col * ROWS + new_bottom:
                new_bottom -= 1
        if new_top <= new_bottom:
            if new_top not in (top, bottom):
                cells.append(col * ROWS + new_top)
            if new_bottom != new_top and new_bottom not in (top, bottom):
                cells.append(col * ROWS + new_bottom)
    return cells


def move_facts(position: Position, free: dict[int, int], move: Move, value: int) -> MoveFacts:
    """The ordering's features of a move, counted as the kernel counts them (``free``: the free
    tiles of each kind)."""
    kind = position.cells[move[0]]
    exposed = exposed_cells(position, move)
    threat = 0
    replies = 3 - 2 * free[kind]
    for cell in exposed:
        other = position.cells[cell]
        free_after = free.get(other, 0) + sum(1 for x in exposed if position.cells[x] == other)
        if other == kind:
            free_after -= 2
        replies += free_after - 1
        if free_after >= 2:
            threat = max(threat, kind_value(other))
    return MoveFacts(move, value, kind_value(kind), threat, replies)


def proof_cost(engine: Engine, position: Position, move: Move, beta: int) -> int:
    """Nodes a null-window search at beta needs for the move, from an empty table."""
    engine.clear()
    root = engine._encode(position)
    before = int(engine.counters[k.C_NODES])
    engine._child_value(root, move, k.FULL_DEPTH, beta - 1, beta)
    return int(engine.counters[k.C_NODES]) - before


def study(count: int, low: int, high: int, seed: int) -> list[Node]:
    engine = Engine(table_bits=20, threads=1)
    rng = random.Random(seed)
    nodes = []
    while len(nodes) < count * len(MARGINS):
        position = random_position(rng, low, high)
        if len(position.legal_moves()) < 3:
            continue
        engine.clear()
        analysis = engine.search(position, all_exact=True)
        values = {mv.move: mv.value for mv in analysis.move_values}
        free: dict[int, int] = {}
        for cell in position.free_cells():
            free[position.cells[cell]] = free.get(position.cells[cell], 0) + 1
        facts = [move_facts(position, free, move, values[move]) for move in position.legal_moves()]
        for margin in MARGINS:
            node = Node(position, margin, analysis.value - margin)
            node.moves = [replace(f, cost=proof_cost(engine, position, f.move, node.beta)) for f in facts]
            nodes.append(node)
        print(f"  {len(nodes) // len(MARGINS)}/{count}: {position.tiles_left()} tiles", file=sys.stderr, flush=True)
    return nodes


ORDERINGS: dict[str, Callable[[int], Callable[[MoveFacts], object]]] = {
    "the kernel's score": lambda n: lambda f: -f.score(n),
    "biggest pair first": lambda n: lambda f: (-f.gain, f.replies),
    "fewest replies first (fewest opponent moves)": lambda n: lambda f: (f.replies, -f.gain),
    "best value first (an oracle)": lambda n: lambda f: (-f.value, -f.score(n)),
}


def report(nodes: list[Node]) -> None:
    print("| ordering | " + " | ".join(f"beta = value - {m}" for m in MARGINS) + " |")
    print("|---|" + "---:|" * len(MARGINS))
    for name, make_key in ORDERINGS.items():
        cells = []
        for margin in MARGINS:
            group = [node for node in nodes if node.margin == margin]
            spent = [node.cost(make_key(len(node.moves))) for node in group]
            best = [node.oracle() for node in group]
            mean_log = sum(math.log(s / max(1, b)) for s, b in zip(spent, best, strict=True)) / len(group)
            cells.append(f"{sum(spent) / sum(best):.2f}x ({math.exp(mean_log):.2f}x)")
        print(f"| {name} | " + " | ".join(cells) + " |")
    for margin in MARGINS:
        group = [node for node in nodes if node.margin == margin]
        cutting = sum(sum(f.value >= node.beta for f in node.moves) for node in group) / len(group)
        moves = sum(len(node.moves) for node in group) / len(group)
        print(
            f"\nbeta = value - {margin}: {len(group)} nodes, {cutting:.1f} of {moves:.1f} moves cut on average", end=""
        )
    print(
        "\n\nEach cell: the nodes an ordering spends over the oracle's, in total (and the geometric mean of "
        "the per-node ratios)."
    )


def tile_range(text: str) -> tuple[int, int]:
    """``--tiles``: two tile counts, ``LOW-HIGH``."""
    try:
        low, high = (int(x) for x in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH, like 44-52, not {text!r}") from None
    if not 2 <= low <= high <= 108:
        raise argparse.ArgumentTypeError(f"expected 2 <= LOW <= HIGH <= 108, not {text!r}")
    return low, high


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40, help="positions to study (default 40)")
    parser.add_argument(
        "--tiles", type=tile_range, default=(44, 52), help="tile range of the positions, LOW-HIGH (default 44-52)"
    )
    parser.add_argument("--seed", type=int, default=19, help="random seed (default 19)")
    args = parser.parse_args(argv)
    if args.positions < 1:
        parser.error("--positions must be at least 1")
    report(study(args.positions, *args.tiles, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
