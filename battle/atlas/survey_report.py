"""What a survey found: the first player's value over the deals, how often the biggest pair is
not a best first move, and how long the solves took. Plain numbers and text, no plotting."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field

from battle.atlas.solve_deal import start_position
from battle.atlas.survey_db import DealResult
from battle.rules.board import move_name


@dataclass(frozen=True)
class SurveyReport:
    deals: int
    solved: int
    unsolved: int
    values: list[int]
    """The exact value of each solved deal, for the player to move at its start (player 1)."""
    mean: float | None
    interval: tuple[float, float] | None
    """The mean's 95% interval (normal approximation; t for fewer than 30 deals)."""
    wins: int
    draws: int
    losses: int
    biggest_not_best: int
    """Solved deals whose best first moves include none of the biggest pairs."""
    with_moves: int
    """Solved deals stored with their best first moves (the base of ``biggest_not_best``)."""
    seconds: list[float]
    """The solved deals' solve times."""
    over_limit: list[tuple[int, int, float]] = field(default_factory=list)
    """Each unsolved deal: its number, its estimate when the time ran out and the seconds spent."""


UNSOLVED_LISTED = 20
"""Unsolved deals named in the report; more are counted."""
_T95 = {
    1: 12.71,
    2: 4.30,
    3: 3.18,
    4: 2.78,
    5: 2.57,
    6: 2.45,
    7: 2.36,
    8: 2.31,
    9: 2.26,
    10: 2.23,
    12: 2.18,
    15: 2.13,
    20: 2.09,
    25: 2.06,
    29: 2.05,
}


def _t95(degrees: int) -> float:
    if degrees >= 30:
        return 1.96
    return _T95[max(key for key in _T95 if key <= degrees)]


def summarise(results: list[DealResult]) -> SurveyReport:
    solved = [result for result in results if result.solved]
    values = [result.value for result in solved]
    mean = statistics.fmean(values) if values else None
    interval = None
    if len(values) >= 2 and mean is not None:
        half = _t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
        interval = (mean - half, mean + half)
    biggest_not_best = with_moves = 0
    for result in solved:
        if result.best_moves is None:
            continue
        with_moves += 1
        position = start_position(result.deal, result.tiles)
        moves = position.legal_moves()
        top = max(position.move_points(move) for move in moves)
        biggest = {move_name(move) for move in moves if position.move_points(move) == top}
        biggest_not_best += not biggest & set(result.best_moves)
    return SurveyReport(
        deals=len(results),
        solved=len(solved),
        unsolved=len(results) - len(solved),
        values=values,
        mean=mean,
        interval=interval,
        wins=sum(v > 0 for v in values),
        draws=sum(v == 0 for v in values),
        losses=sum(v < 0 for v in values),
        biggest_not_best=biggest_not_best,
        with_moves=with_moves,
        seconds=[result.seconds for result in solved],
        over_limit=[(result.deal, result.value, result.seconds) for result in results if not result.solved],
    )


def _share(count: int, total: int) -> str:
    return f"{count} ({100 * count / total:.0f}%)" if total else str(count)


def format_report(report: SurveyReport, tiles: int = 108) -> str:
    """The report as text: the counts, the value's distribution as a bar chart, the solve times."""
    start = "whole deals" if tiles >= 108 else f"starts {tiles} tiles into each deal"
    lines = [
        f"{report.deals} deals surveyed ({start}): {report.solved} solved exactly, {report.unsolved} unsolved "
        "(over the time limit)"
    ]
    if report.over_limit:
        listed = ", ".join(f"{deal} (~{value:+d})" for deal, value, _ in report.over_limit[:UNSOLVED_LISTED])
        more = len(report.over_limit) - UNSOLVED_LISTED
        lines.append(
            f"over the time limit: deal{'s' if len(report.over_limit) > 1 else ''} {listed}"
            f"{f' and {more} more' if more > 0 else ''} ('survey DEALS --retry-unsolved --time-limit S' "
            "tries them again)"
        )
    if not report.values:
        return "\n".join(lines + ["no solved deal yet"])
    solved = report.solved
    mean = f"{report.mean:+.2f}"
    if report.interval is not None:
        mean += f" (95% interval {report.interval[0]:+.2f} to {report.interval[1]:+.2f})"
    lines += [
        f"first player's value under perfect play: mean {mean}, median {statistics.median(report.values):+g}, "
        f"from {min(report.values):+d} to {max(report.values):+d}",
        f"first player wins {_share(report.wins, solved)}, draws {_share(report.draws, solved)}, "
        f"loses {_share(report.losses, solved)}",
    ]
    if report.with_moves:
        share = _share(report.biggest_not_best, report.with_moves)
        lines.append(f"the biggest pair is not a best first move in {share} of the deals")
    seconds = sorted(report.seconds)
    lines.append(
        f"solve time: median {statistics.median(seconds):.1f} s, 90th percentile "
        f"{seconds[min(len(seconds) - 1, int(0.9 * len(seconds)))]:.1f} s, longest {seconds[-1]:.1f} s, "
        f"{sum(seconds) / 3600:.2f} h in all"
        + (
            f" (and {sum(spent for _, _, spent in report.over_limit) / 3600:.2f} h on the deals over the limit)"
            if report.over_limit
            else ""
        )
    )
    lines.append("")
    lines.append("value  deals")
    counts = Counter(report.values)
    widest = max(counts.values())
    for value in range(min(counts), max(counts) + 1):
        bar = "#" * max(1 if counts[value] else 0, round(40 * counts[value] / widest))
        lines.append(f"{value:+5d}  {counts[value]:>5}  {bar}".rstrip())
    return "\n".join(lines)
