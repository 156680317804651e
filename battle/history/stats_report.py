"""The statistics as terminal text (``mahjong-battle stats``): tables, a sparkline for each curve."""

from __future__ import annotations

import time
from collections.abc import Sequence

from battle.history.stats import Stats
from battle.history.store import GameEntry
from battle.i18n import ngettext
from battle.ratings.level_ratings import LEVEL_NAMES, LEVEL_RATINGS
from battle.rules.wording import plural

SPARKS = "▁▂▃▄▅▆▇█"
SPARK_WIDTH = 40
"""Points a sparkline shows at most: the latest ones."""
RECENT = 5
"""Reviewed games listed under the accuracy curve."""


def sparkline(values: Sequence[float], width: int = SPARK_WIDTH) -> str:
    """The latest ``width`` values as block characters, lowest to highest of them."""
    shown = list(values)[-width:]
    if not shown:
        return ""
    low, high = min(shown), max(shown)
    span = high - low
    return "".join(SPARKS[0 if span == 0 else round((value - low) / span * (len(SPARKS) - 1))] for value in shown)


def _date(seconds: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(seconds))


def _opponent(entry: GameEntry) -> str:
    level = entry.opponent_level()
    if level is not None:
        return level
    assert entry.you is not None
    return entry.players[2 - entry.you]


def describe_game(entry: GameEntry) -> str:
    """One line: ``#12  2026-11-25  vs club  150-120  +30  deal 5``."""
    assert entry.you is not None
    where = f"deal {entry.deal}" if entry.deal is not None else "composed start"
    return (f"#{entry.id}  {_date(entry.finished_at)}  vs {_opponent(entry):<12} "
            f"{entry.scores[0]}-{entry.scores[1]}  {entry.margin_for(entry.you):+d}  {where}")


def format_stats(stats: Stats) -> str:
    """The whole report."""
    lines = [f"Games: {stats.games} stored, {stats.your_games} yours"]
    if stats.tallies:
        lines.append(f"  {'against':<10} {'games':>5} {'won':>4} {'drawn':>5} {'lost':>4}  average margin")
        for tally in stats.tallies:
            lines.append(f"  {tally.opponent:<10} {tally.games:>5} {tally.wins:>4} {tally.draws:>5} {tally.losses:>4}"
                         f"  {tally.average_margin:+.1f}")
    if stats.average_margin is not None:
        lines.append(f"  average margin over your games: {stats.average_margin:+.1f}")
    lines += ["", *_solver_lines(stats)]
    if stats.accuracy:
        values = [percent for _, percent in stats.accuracy]
        lines += ["", f"Accuracy over time ({plural(len(values), 'reviewed game')}): {sparkline(values)}  "
                      f"latest {values[-1]:.0f}%, average {sum(values) / len(values):.0f}%"]
    if stats.best:
        lines += ["", "Best games:", *(f"  {describe_game(entry)}" for entry in stats.best)]
    if stats.worst:
        lines += ["Worst games:", *(f"  {describe_game(entry)}" for entry in stats.worst)]
    if stats.best or stats.worst:
        lines.append("  (mahjong-battle stats --record N prints game #N as a record, for review -)")
    lines += ["", *_puzzle_lines(stats)]
    return "\n".join(lines) + "\n"


def _solver_lines(stats: Stats) -> list[str]:
    solver = stats.solver
    scale = ", ".join(f"{level} {LEVEL_RATINGS[level]:.0f}" for level in LEVEL_NAMES)
    unrated = ([f"  ({unrated_words(stats.unrated)})"] if stats.unrated else [])
    if not solver.games:
        return [f"Rating against the solver: no {'rated ' if stats.unrated else ''}game against a level yet",
                *unrated, f"  (levels: {scale})"]
    return [f"Rating against the solver: {solver.current.describe()} after {plural(solver.games, 'game')}: "
            f"you play like a {solver.plays_like()}-level solver",
            *unrated, f"  (levels: {scale})"]


def unrated_words(count: int) -> str:
    """Why some games against a level do not move the rating, for the terminal and the window."""
    return ngettext("{count} game against a level from a composed position, not rated: only numbered or "
                    "random deals count",
                    "{count} games against a level from a composed position, not rated: only numbered or "
                    "random deals count", count).format(count=count)


def _puzzle_lines(stats: Stats) -> list[str]:
    if not stats.puzzles_tried:
        return ["Puzzles: none tried yet (mahjong-battle puzzles play)"]
    rating = stats.puzzle_ratings[-1][1]
    curve = sparkline([rating.rating for _, rating in stats.puzzle_ratings])
    return [f"Puzzles: {stats.puzzles_tried} tried, {stats.puzzles_solved} solved; "
            f"streak {stats.streak} (best {stats.best_streak})",
            f"  puzzle rating {rating.describe()}  {curve}"]
