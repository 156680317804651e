"""The statistics as terminal text (``mahjong-battle stats``): tables, a sparkline for each curve."""

from __future__ import annotations

import time
from collections.abc import Sequence

from battle.history.stats import COMPOSED, PEOPLE, Stats
from battle.history.store import GameEntry
from battle.i18n import N_, _, format_percent, format_signed, ngettext
from battle.ratings.level_ratings import LEVEL_NAMES, LEVEL_RATINGS
from battle.rules.wording import level_word, plural, shown_name

SPARKS = "▁▂▃▄▅▆▇█"
SPARK_WIDTH = 40
"""Points a sparkline shows at most: the latest ones."""
RECENT = 5
"""Reviewed games listed under the accuracy curve."""
KEPT_APART = N_(
    "This computer's games only: what a browser plays on a server's page is counted in that page's "
    "statistics, kept apart."
)
"""The sentence the terminal and the window say of their figures: the history (a file on this
computer) and a server's figures for a browser (filed under its device key) are never merged."""


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
        return level_word(level)
    assert entry.you is not None
    return shown_name(entry.players[2 - entry.you])


def describe_game(entry: GameEntry) -> str:
    """One line: ``#12  2026-11-25  vs club  150-120  +30  deal 5``."""
    assert entry.you is not None
    where = _("deal {deal}").format(deal=entry.deal) if entry.deal is not None else _("composed start")
    return _("#{number}  {date}  vs {opponent:<12} {score1}-{score2}  {margin}  {where}").format(
        number=entry.id,
        date=_date(entry.finished_at),
        opponent=_opponent(entry),
        score1=entry.scores[0],
        score2=entry.scores[1],
        margin=f"{entry.margin_for(entry.you):+d}",
        where=where,
    )


def format_stats(stats: Stats) -> str:
    """The whole report, in the player's language (the levels' names too)."""
    lines = [_("Games: {games} stored, {yours} yours").format(games=stats.games, yours=stats.your_games), _(KEPT_APART)]
    if stats.tallies:
        heads = (_("against"), _("games"), _("won"), _("drawn"), _("lost"))
        widths = [max(least, len(head)) for least, head in zip((10, 5, 4, 5, 4), heads, strict=True)]
        row = "  {0:<{w0}} {1:>{w1}} {2:>{w2}} {3:>{w3}} {4:>{w4}}  {5}"
        spread = {f"w{index}": width for index, width in enumerate(widths)}
        lines.append(row.format(*heads, _("average margin"), **spread))
        for tally in stats.tallies:
            opponent = opponent_word(tally.opponent)
            lines.append(
                row.format(
                    opponent,
                    tally.games,
                    tally.wins,
                    tally.draws,
                    tally.losses,
                    format_signed(tally.average_margin),
                    **spread,
                )
            )
    if stats.average_margin is not None:
        lines.append(_("  average margin over your games: {margin}").format(margin=format_signed(stats.average_margin)))
    lines += ["", *_solver_lines(stats)]
    if stats.accuracy:
        values = [percent for _unused, percent in stats.accuracy]
        lines += [
            "",
            _("Accuracy over time ({games}): {curve}  latest {latest}, average {average}").format(
                games=plural(len(values), "reviewed game"),
                curve=sparkline(values),
                latest=format_percent(values[-1]),
                average=format_percent(sum(values) / len(values)),
            ),
        ]
    if stats.best:
        lines += ["", _("Best games:"), *(f"  {describe_game(entry)}" for entry in stats.best)]
    if stats.worst:
        lines += [_("Worst games:"), *(f"  {describe_game(entry)}" for entry in stats.worst)]
    if stats.best or stats.worst:
        lines.append(_("  (mahjong-battle stats --record N prints game #N as a record, for review -)"))
    lines += ["", *_puzzle_lines(stats)]
    return "\n".join(lines) + "\n"


def _solver_lines(stats: Stats) -> list[str]:
    solver = stats.solver
    scale = ", ".join(f"{level_word(level)} {LEVEL_RATINGS[level]:.0f}" for level in LEVEL_NAMES)
    unrated = [f"  ({unrated_words(stats.unrated)})"] if stats.unrated else []
    levels = _("  (levels: {scale})").format(scale=scale)
    if not solver.games:
        none_yet = (
            _("Rating against the solver: no rated game against a level yet")
            if stats.unrated
            else _("Rating against the solver: no game against a level yet")
        )
        return [none_yet, *unrated, levels]
    rated = _("Rating against the solver: {rating} after {games}: you play like a {level}-level solver").format(
        rating=solver.current.describe(),
        games=plural(solver.games, "game"),
        level=level_word(solver.plays_like() or ""),
    )
    return [rated, *unrated, levels]


def opponent_word(opponent: str) -> str:
    """A tally's row in words: a level's name, "people", or "composed" for games against a level
    from a composed start, for the terminal and the window."""
    if opponent == PEOPLE:
        return _("people")
    if opponent == COMPOSED:
        return _("composed")
    return level_word(opponent)


def unrated_words(count: int) -> str:
    """Why some games against a level do not move the rating, for the terminal and the window."""
    return ngettext(
        "{count} game against a level from a composed position, not rated: only numbered or random deals count",
        "{count} games against a level from a composed position, not rated: only numbered or random deals count",
        count,
    ).format(count=count)


def _puzzle_lines(stats: Stats) -> list[str]:
    if not stats.puzzles_tried:
        return [_("Puzzles: none tried yet (mahjong-battle puzzles play)")]
    rating = stats.puzzle_ratings[-1][1]
    curve = sparkline([rating.rating for _unused, rating in stats.puzzle_ratings])
    return [
        _("Puzzles: {tried} tried, {solved} solved; streak {streak} (best {best})").format(
            tried=stats.puzzles_tried, solved=stats.puzzles_solved, streak=stats.streak, best=stats.best_streak
        ),
        _("  puzzle rating {rating}  {curve}").format(rating=rating.describe(), curve=curve),
    ]
