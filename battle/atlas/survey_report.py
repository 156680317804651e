"""What a survey found: the first player's value over the deals, how often the biggest pair is
not a best first move, and how long the solves took. Plain numbers and text, no plotting."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field

from battle.atlas.solve_deal import start_position
from battle.atlas.survey_db import DealResult
from battle.i18n import _, format_number, format_short, format_signed, ngettext
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
    """Solved deals stored with their best first moves, from a start with a move to make (the base of
    ``biggest_not_best``)."""
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
        position = start_position(result.deal, result.tiles)
        moves = position.legal_moves()
        if result.best_moves is None or not moves:  # a start the greedy line left with no pair has no first move
            continue
        with_moves += 1
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
    """``3 (75%)``: a count with its share of ``total``, the percent as the language writes it."""
    if not total:
        return str(count)
    return _("{count} ({percent}%)").format(count=count, percent=format_number(100 * count / total, 0))


def _signed(value: float, decimals: int) -> str:
    return format_signed(value, decimals)


def _signed_short(value: float) -> str:
    """``+2``, ``-1.5``: a signed number as short as it reads, the language's way (``+1,5``)."""
    return ("+" if value >= 0 else "-") + format_short(abs(value))


def _hours(seconds: float) -> str:
    return format_number(seconds / 3600, 2)


def _seconds(seconds: float) -> str:
    return format_number(seconds, 1)


def format_report(report: SurveyReport, tiles: int = 108) -> str:
    """The report as text in the reader's language: the counts, the value's distribution as a bar
    chart, the solve times."""
    lines = [_heading(report, tiles)]
    if report.over_limit:
        lines.append(_over_limit_line(report.over_limit))
    if not report.values or report.mean is None:
        return "\n".join([*lines, _("no solved deal yet")])
    lines += _value_lines(report, report.mean)
    lines.append(_solve_time_line(report))
    lines.append("")
    lines.append(_("value  deals"))
    lines += _value_bars(report.values)
    return "\n".join(lines)


def _heading(report: SurveyReport, tiles: int) -> str:
    """The first line: how many deals, from where in each, how many solved."""
    if tiles >= 108:
        heading = ngettext(
            "{count} deal surveyed (whole deals): {solved} solved exactly, {unsolved} unsolved (over the time limit)",
            "{count} deals surveyed (whole deals): {solved} solved exactly, {unsolved} unsolved (over the time limit)",
            report.deals,
        )
    else:
        heading = ngettext(
            "{count} deal surveyed (starts {tiles} tiles into each deal): {solved} solved exactly, "
            "{unsolved} unsolved (over the time limit)",
            "{count} deals surveyed (starts {tiles} tiles into each deal): {solved} solved exactly, "
            "{unsolved} unsolved (over the time limit)",
            report.deals,
        )
    return heading.format(count=report.deals, tiles=tiles, solved=report.solved, unsolved=report.unsolved)


def _over_limit_line(over_limit: list[tuple[int, int, float]]) -> str:
    """The unsolved deals with their estimates, the first ``UNSOLVED_LISTED`` named and the rest
    counted, and the command that tries them again."""
    listed = ", ".join(f"{deal} (~{value:+d})" for deal, value, _spent in over_limit[:UNSOLVED_LISTED])
    more = len(over_limit) - UNSOLVED_LISTED
    if more > 0:
        said = ngettext(
            "over the time limit: deals {deals} and {more} more ('survey DEALS --retry-unsolved "
            "--time-limit S' tries them again)",
            "over the time limit: deals {deals} and {more} more ('survey DEALS --retry-unsolved "
            "--time-limit S' tries them again)",
            more,
        )
    else:
        said = ngettext(
            "over the time limit: deal {deals} ('survey DEALS --retry-unsolved --time-limit S' tries it again)",
            "over the time limit: deals {deals} ('survey DEALS --retry-unsolved --time-limit S' tries them again)",
            len(over_limit),
        )
    return said.format(deals=listed, more=more)


def _value_lines(report: SurveyReport, mean: float) -> list[str]:
    """The first player's value over the solved deals (``mean`` is the report's, known to be
    there), how often that player wins, and how often the biggest pair is no best first move."""
    solved = report.solved
    values = {
        "mean": _signed(mean, 2),
        "median": _signed_short(statistics.median(report.values)),
        "low": f"{min(report.values):+d}",
        "high": f"{max(report.values):+d}",
    }
    if report.interval is not None:
        said = _(
            "first player's value under perfect play: mean {mean} (95% interval {low_mean} to {high_mean}), "
            "median {median}, from {low} to {high}"
        )
        values |= {"low_mean": _signed(report.interval[0], 2), "high_mean": _signed(report.interval[1], 2)}
    else:
        said = _("first player's value under perfect play: mean {mean}, median {median}, from {low} to {high}")
    lines = [
        said.format(**values),
        _("first player wins {wins}, draws {draws}, loses {losses}").format(
            wins=_share(report.wins, solved), draws=_share(report.draws, solved), losses=_share(report.losses, solved)
        ),
    ]
    if report.with_moves:
        share = _share(report.biggest_not_best, report.with_moves)
        lines.append(_("the biggest pair is not a best first move in {share} of the deals").format(share=share))
    return lines


def _solve_time_line(report: SurveyReport) -> str:
    """The solved deals' solve times (of which there is at least one), and the hours the unsolved
    ones took when there are any."""
    seconds = sorted(report.seconds)
    times = {
        "median": _seconds(statistics.median(seconds)),
        "ninetieth": _seconds(seconds[min(len(seconds) - 1, int(0.9 * len(seconds)))]),
        "longest": _seconds(seconds[-1]),
        "hours": _hours(sum(seconds)),
    }
    if report.over_limit:
        said = _(
            "solve time: median {median} s, 90th percentile {ninetieth} s, longest {longest} s, {hours} h in all "
            "(and {over_hours} h on the deals over the limit)"
        )
        times["over_hours"] = _hours(sum(spent for _deal, _value, spent in report.over_limit))
    else:
        said = _("solve time: median {median} s, 90th percentile {ninetieth} s, longest {longest} s, {hours} h in all")
    return said.format(**times)


def _value_bars(values: list[int]) -> list[str]:
    """One line a value from the lowest to the highest, gaps included: the value, its count of
    deals and a bar of ``#`` as long as 40 for the commonest (one at least for a value found)."""
    counts = Counter(values)
    widest = max(counts.values())
    lines: list[str] = []
    for value in range(min(counts), max(counts) + 1):
        bar = "#" * max(1 if counts[value] else 0, round(40 * counts[value] / widest))
        lines.append(f"{value:+5d}  {counts[value]:>5}  {bar}".rstrip())
    return lines
