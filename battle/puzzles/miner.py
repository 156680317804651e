"""The puzzle miner: positions from games the solver's levels play, kept when exact analysis makes them puzzles.

Game ``i`` of a run with seed ``S`` is fixed by ``S`` and ``i`` alone (``game_plan``): a numbered
deal and two levels from ``MINING_LEVELS``, which play it out with seeded choices. Every
position with a tile count in the asked range is solved exactly, every move's value
(``Engine.search(..., all_exact=True)``), and kept when it is a puzzle step (``criteria``);
the line then follows the solver's best replies while the side that solves again faces a
puzzle step, up to ``MAX_STEPS`` moves. The game goes on with the levels' own moves, past
positions a kept line already covers. The shipped set's run played 626 games, solved the
positions of 20-60 tiles of each (about 21 a game) and let the levels try 600 puzzles in
75 s on one core (``assets/puzzles/README.md``).

The levels play by depth alone here (no time limit), so a run gives the same puzzles on
any machine and with any number of worker processes: the games are mined independently
and their puzzles are taken in game order. For the same reason each level's tries at a
puzzle (``find_rates``) start from an emptied table.

This module is the puzzles' only door to the solver (through ``battle.players``).
"""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from battle.players import LEVELS, SMALLEST_TABLE_MEGABYTES, Advisor, Analysis, Limits, choose_from, get_level
from battle.puzzles.criteria import PuzzleStep, puzzle_step
from battle.puzzles.difficulty import FIND_TRIES, difficulty, puzzle_rating
from battle.puzzles.puzzle import Puzzle, PuzzleSource, position_text, puzzle_id
from battle.puzzles.themes import themes_of
from battle.rules.board import Move, Position
from battle.rules.deal import deal

MINING_LEVELS: tuple[str, ...] = ("beginner", "casual", "club", "expert")
"""The levels whose games give the positions: from careless to strong, so the positions are
the kind people reach. ``master`` and ``perfect`` think for seconds a move on a full board."""
MAX_STEPS = 5
"""Moves to find in one puzzle at most; longer lines are cut there."""
DEALS = 1_000_000
"""Deals are drawn from 0 to this (the numbers the game itself deals)."""
GAMES_PER_PUZZLE_LIMIT = 40
"""A run gives up after this many games per puzzle asked for (20-60 tiles gives about one
puzzle a game), so a range that gives next to none ends instead of running forever."""


PositionKey = tuple[tuple[int, ...], int, tuple[int, int]]
"""``Position.key()``: a position already covered by a kept line."""


@dataclass(frozen=True)
class GamePlan:
    """What game ``index`` of a run is: a deal, the levels of player 1 and 2, the seed of their choices."""

    index: int
    deal: int
    levels: tuple[str, str]
    choice_seed: int


def game_plan(seed: int, index: int) -> GamePlan:
    """Game ``index`` of the run with ``seed``: the same on every machine and Python version (string
    seeds of ``random.Random`` hash with SHA-512)."""
    rng = random.Random(f"mahjong-battle puzzles {seed} {index}")
    number = rng.randrange(DEALS)
    levels = (rng.choice(MINING_LEVELS), rng.choice(MINING_LEVELS))
    return GamePlan(index, number, levels, rng.randrange(2**32))


def exact_values(analysis: Analysis) -> dict[Move, int]:
    """Every move's exact value from an ``all_exact`` search (a ValueError if the search was not exact)."""
    if not analysis.exact:
        raise ValueError("the search stopped before it proved every move's value")
    return {value.move: value.value for value in analysis.move_values}


class Miner:
    """Mines games one at a time; owns two advisors (32 MiB tables): one for the games and their
    exact solves, one emptied before each level's tries."""

    def __init__(self) -> None:
        self.advisor = Advisor(megabytes=SMALLEST_TABLE_MEGABYTES)
        self.level_advisor = Advisor(megabytes=SMALLEST_TABLE_MEGABYTES)

    def exact(self, position: Position) -> Analysis:
        return self.advisor.search(position, Limits(), all_exact=True)

    def level_move(self, position: Position, level_name: str, rng: random.Random) -> Move:
        """The level's move by its depth alone (see the module docstring)."""
        level = get_level(level_name)
        analysis = self.advisor.search(position, Limits(depth=level.depth), all_exact=level.temperature > 0)
        return choose_from(analysis, level, rng)

    def mine_game(self, plan: GamePlan, min_tiles: int, max_tiles: int) -> list[Puzzle]:
        """The puzzles of one game, in the order they arose."""
        self.advisor.clear()
        position = deal(plan.deal)
        rng = random.Random(plan.choice_seed)
        covered: set[PositionKey] = set()
        puzzles: list[Puzzle] = []
        ply = 0
        while not position.is_over():
            if min_tiles <= position.tiles_left() <= max_tiles and position.key() not in covered:
                source = PuzzleSource(plan.deal, ply, plan.levels)
                puzzle = self.puzzle_at(position, source, covered)
                if puzzle is not None:
                    puzzles.append(puzzle)
            position.push(self.level_move(position, plan.levels[position.to_move - 1], rng))
            ply += 1
        return puzzles

    def puzzle_at(
        self, start: Position, source: PuzzleSource | None = None, covered: set[PositionKey] | None = None
    ) -> Puzzle | None:
        """The puzzle starting at ``start``, or None when the position is not one."""
        first = puzzle_step(start, exact_values(self.exact(start)))
        if first is None:
            return None
        line, losses, then = self._line(start, first, covered if covered is not None else set())
        text = position_text(start)
        identity = puzzle_id(text)
        rates = self.find_rates(start, line, identity)
        return Puzzle(
            id=identity,
            position_text=text,
            to_move=start.to_move,
            line=tuple(line),
            losses=tuple(losses),
            then=tuple(then),
            value=first.value,
            themes=themes_of(start, [*line, *then]),
            difficulty=difficulty(rates),
            rating=float(round(puzzle_rating(rates))),
            find_rates=rates,
            source=source,
        )

    def _line(
        self, start: Position, first: PuzzleStep, covered: set[PositionKey]
    ) -> tuple[list[Move], list[dict[Move, int]], list[Move]]:
        """The solution line (answer, reply, answer...), each answer's losses, and perfect play after it."""
        position = start.copy()
        line, losses = [first.answer], [first.losses]
        covered.add(position.key())
        while True:
            position.push(line[-1])
            if position.is_over():
                return line, losses, []
            reply = self.advisor.search(position, Limits()).best_moves[0]
            position.push(reply)
            if position.is_over():
                return line, losses, [reply]
            following = self.exact(position)
            step = puzzle_step(position, exact_values(following)) if len(losses) < MAX_STEPS else None
            if step is None:
                return line, losses, [reply, *following.pv]
            covered.add(position.key())
            line += [reply, step.answer]
            losses.append(step.losses)

    def find_rates(self, start: Position, line: list[Move], seed_text: str) -> dict[str, float]:
        """For each level, the fraction of ``FIND_TRIES`` seeded tries in which it plays every move of the line."""
        steps: list[Position] = []
        position = start.copy()
        for index, move in enumerate(line):
            if index % 2 == 0:
                steps.append(position.copy())
            position.push(move)
        answers = line[::2]
        rates = {}
        for name in LEVELS:
            level = get_level(name)
            self.level_advisor.clear()
            analyses = [
                self.level_advisor.search(step, Limits(depth=level.depth), all_exact=level.temperature > 0)
                for step in steps
            ]
            rng = random.Random(f"{seed_text} {name}")
            found = sum(
                all(
                    choose_from(analysis, level, rng) == answer
                    for analysis, answer in zip(analyses, answers, strict=True)
                )
                for _ in range(FIND_TRIES)
            )
            rates[name] = found / FIND_TRIES
        return rates


# -- runs -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MiningRun:
    """What a run asks for."""

    count: int = 100
    min_tiles: int = 20
    max_tiles: int = 60
    seed: int = 1
    workers: int = 1


@dataclass(frozen=True)
class MiningProgress:
    """Reported after each game: puzzles kept so far, games mined, seconds since the start."""

    puzzles: int
    games: int
    seconds: float


_worker_miner: list[Miner] = []
"""A worker process's miner, made at its first game."""


def _mine_in_worker(task: tuple[GamePlan, int, int]) -> list[Puzzle]:
    if not _worker_miner:
        _worker_miner.append(Miner())
    plan, low, high = task
    return _worker_miner[0].mine_game(plan, low, high)


def _games(run: MiningRun) -> Iterator[list[Puzzle]]:
    """Each game's puzzles, in game order, mined in this process or in ``run.workers`` others."""
    tasks = (
        (game_plan(run.seed, index), run.min_tiles, run.max_tiles)
        for index in range(run.count * GAMES_PER_PUZZLE_LIMIT)
    )
    if run.workers <= 1:
        miner = Miner()
        for plan, low, high in tasks:
            yield miner.mine_game(plan, low, high)
        return
    # spawn: a forked child would inherit the parent's numba and thread state
    with multiprocessing.get_context("spawn").Pool(run.workers) as pool:
        yield from pool.imap(_mine_in_worker, tasks, chunksize=1)


def mine(run: MiningRun, progress: Callable[[MiningProgress], None] | None = None) -> list[Puzzle]:
    """``run.count`` puzzles (fewer if ``GAMES_PER_PUZZLE_LIMIT`` games a puzzle find no more), in game order,
    each position once. A KeyboardInterrupt ends the run with the puzzles found so far."""
    started = time.monotonic()
    found: list[Puzzle] = []
    seen: set[str] = set()
    games = 0
    try:
        for puzzles in _games(run):
            games += 1
            for puzzle in puzzles:
                if puzzle.id not in seen and len(found) < run.count:
                    seen.add(puzzle.id)
                    found.append(puzzle)
            if progress is not None:
                progress(MiningProgress(len(found), games, time.monotonic() - started))
            if len(found) >= run.count:
                break
    except KeyboardInterrupt:
        pass
    return found
