"""Drawing the statistics screen's cards from a ``Stats``: the results table, the rating against the
solver on the levels' scale, the puzzles, the curves' frames and the lists' headings.

Only paints: every function reads its arguments and draws into a rectangle, dropping the rows
a short window has no room for.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pygame

from battle.history.stats import Stats
from battle.history.stats_report import KEPT_APART, opponent_word, unrated_words
from battle.history.store import GameEntry
from battle.i18n import _, format_date, format_signed
from battle.ratings.level_ratings import LEVEL_NAMES, LEVEL_RATINGS
from battle.rules.wording import level_word, plural, shown_name
from battle.ui.art import theme
from battle.ui.widgets.layout import Rect

HEADING_SIZE = 16
TEXT_SIZE = 14
SMALL_SIZE = 12
"""Text sizes at the 1200x800 design size."""
SCALE_RANGE = (800.0, 2900.0)
"""The rating axis under the rating against the solver: beginner's 1000 to perfect's 2717, with room."""


def game_line(entry: GameEntry) -> str:
    """A stored game in a few words: ``26 Nov 2026 · vs club · 150-120 (+30) · deal 5``."""
    assert entry.you is not None
    level = entry.opponent_level()
    opponent = level_word(level) if level else shown_name(entry.players[2 - entry.you])
    when = format_date(datetime.date.fromtimestamp(entry.finished_at), _("d MMM yyyy"))
    where = _("deal {deal}").format(deal=entry.deal) if entry.deal is not None else _("composed")
    return _("{when} · vs {opponent} · {score1}-{score2} ({margin}) · {where}").format(
        when=when,
        opponent=opponent,
        score1=entry.scores[0],
        score2=entry.scores[1],
        margin=f"{entry.margin_for(entry.you):+d}",
        where=where,
    )


def draw_card(surface: pygame.Surface, fonts: theme.Fonts, rect: Rect, title: str, scale: float) -> Rect:
    """A rounded card with its heading; the room left under the heading."""
    surface.blit(
        theme.rounded_panel((rect.w, rect.h), theme.PANEL, max(4, round(10 * scale)), (*theme.GOLD, 60), 1),
        (rect.x, rect.y),
    )
    pad = max(6, round(12 * scale))
    heading = fonts.text(
        fonts.fit(title, HEADING_SIZE * scale, rect.w - 2 * pad, bold=True), HEADING_SIZE * scale, theme.GOLD, bold=True
    )
    surface.blit(heading, (rect.x + pad, rect.y + round(pad * 0.7)))
    top = rect.y + round(pad * 0.7) + heading.get_height() + round(4 * scale)
    return Rect(rect.x + pad, top, max(1, rect.w - 2 * pad), max(0, rect.bottom - pad // 2 - top))


def _lines(
    surface: pygame.Surface, fonts: theme.Fonts, area: Rect, y: int, lines: list[str], size: float, colour: theme.Colour
) -> int:
    """Paragraphs wrapped to the area's width, while they fit; the y under the last one drawn."""
    for paragraph in lines:
        for line in fonts.wrap(paragraph, size, area.w):
            rendered = fonts.text(line, size, colour)
            if y + rendered.get_height() > area.bottom:
                return y
            surface.blit(rendered, (area.x, y))
            y += rendered.get_height()
    return y


def draw_results(surface: pygame.Surface, fonts: theme.Fonts, rect: Rect, stats: Stats, scale: float) -> None:
    """Wins, draws and losses per opponent with the average margin, and the totals above them."""
    area = draw_card(surface, fonts, rect, _("Your games"), scale)
    size = TEXT_SIZE * scale
    summary = _("{plural} stored, {your_games} yours").format(
        plural=plural(stats.games, "game"), your_games=stats.your_games
    )
    if stats.average_margin is not None:
        summary += _(" · average margin {average_margin}").format(average_margin=format_signed(stats.average_margin))
    y = _lines(surface, fonts, area, area.y, [summary, _(KEPT_APART)], size, theme.IVORY_DIM) + round(6 * scale)
    if not stats.tallies:
        _lines(
            surface,
            fonts,
            area,
            y,
            [
                _(
                    "None against the solver or online yet: games between two people at "
                    "this screen count in the total only."
                )
            ],
            size,
            theme.IVORY_FAINT,
        )
        return
    columns = (_("against"), _("games"), _("won"), _("drawn"), _("lost"), _("margin"))
    # each number column as wide as its heading or "+88.8"; the first column takes what they leave
    # (one width for all five cut German's "gegen" and "Partien" into each other at 800x600)
    widths = [
        max(fonts.width(name, SMALL_SIZE * scale), fonts.width("+88.8", size)) + round(10 * scale)
        for name in columns[1:]
    ]
    rights = [area.right - sum(widths[index + 1 :]) for index in range(len(widths))]
    line_h = round(size * 1.5)
    if y + line_h > area.bottom:
        return
    _table_row(
        surface,
        area.x,
        rights,
        y + line_h // 2,
        [fonts.text(name, SMALL_SIZE * scale, theme.IVORY_FAINT) for name in columns],
    )
    y += line_h
    for tally in stats.tallies:
        if y + line_h > area.bottom:
            return
        numbers = (
            str(tally.games),
            str(tally.wins),
            str(tally.draws),
            str(tally.losses),
            format_signed(tally.average_margin),
        )
        cells = [fonts.text(opponent_word(tally.opponent), size, theme.GOLD_BRIGHT, bold=True)]
        cells += [fonts.text(number, size, theme.IVORY) for number in numbers]
        _table_row(surface, area.x, rights, y + line_h // 2, cells)
        y += line_h


def _table_row(
    surface: pygame.Surface, left: int, rights: list[int], centre_y: int, cells: list[pygame.Surface]
) -> None:
    """One row of the results table: the first cell from ``left``, each number ending at its column's right edge."""
    surface.blit(cells[0], cells[0].get_rect(midleft=(left, centre_y)))
    for cell, right in zip(cells[1:], rights, strict=True):
        surface.blit(cell, cell.get_rect(midright=(right, centre_y)))


def draw_solver(surface: pygame.Surface, fonts: theme.Fonts, rect: Rect, stats: Stats, scale: float) -> None:
    """The rating against the solver on the levels' scale, with its 95% interval; then the puzzles."""
    area = draw_card(surface, fonts, rect, _("Rating against the solver"), scale)
    size = TEXT_SIZE * scale
    solver = stats.solver
    y = area.y
    if solver.games:
        big = fonts.text(solver.current.describe(), 24 * scale, theme.IVORY)  # the bold face has no ±
        surface.blit(big, (area.x, y))
        after = fonts.text(_(" after {plural}").format(plural=plural(solver.games, "game")), size, theme.IVORY_DIM)
        surface.blit(after, after.get_rect(bottomleft=(area.x + big.get_width(), y + big.get_height() - 3)))
        y += big.get_height()
        y = _lines(
            surface,
            fonts,
            area,
            y,
            [_("You play like a {plays_like}-level solver.").format(plays_like=level_word(solver.plays_like() or ""))],
            size,
            theme.GOLD_BRIGHT,
        )
    elif stats.unrated:
        unrated = _("No rated game against a level yet: {unrated}.").format(unrated=unrated_words(stats.unrated))
        y = _lines(surface, fonts, area, y, [unrated], size, theme.IVORY_FAINT)
    else:
        y = _lines(
            surface,
            fonts,
            area,
            y,
            [
                _(
                    "No game against a level yet: play the solver from the title, and "
                    "your results against its levels place you on their scale."
                )
            ],
            size,
            theme.IVORY_FAINT,
        )
    puzzle_lines = [_puzzle_words(stats)]
    puzzle_h = round(size * 1.4) * 2
    scale_h = round(46 * scale)
    if y + scale_h + puzzle_h <= area.bottom:
        draw_level_scale(surface, fonts, Rect(area.x, y + round(4 * scale), area.w, scale_h), stats, scale)
        y += scale_h + round(8 * scale)
    _lines(surface, fonts, area, y, puzzle_lines, size, theme.IVORY_DIM)


def _puzzle_words(stats: Stats) -> str:
    if not stats.puzzles_tried:
        return _("Puzzles: none tried yet (Puzzles on the title).")
    rating = stats.puzzle_ratings[-1][1]
    return _(
        "Puzzles: {puzzles_solved} of {puzzles_tried} solved, streak {streak} (best {best_streak}), puzzle "
        "rating {what}."
    ).format(
        puzzles_solved=stats.puzzles_solved,
        puzzles_tried=stats.puzzles_tried,
        streak=stats.streak,
        best_streak=stats.best_streak,
        what=rating.describe(),
    )


def draw_level_scale(surface: pygame.Surface, fonts: theme.Fonts, rect: Rect, stats: Stats, scale: float) -> None:
    """The levels' ratings as ticks on an axis, names above and below in turn (the top three lie
    within 204 points), and the player's rating as a dot in its 95% interval."""
    low, high = SCALE_RANGE
    axis_y = rect.y + rect.h // 2

    def to_x(rating: float) -> int:
        share = (min(high, max(low, rating)) - low) / (high - low)
        return rect.x + round(share * rect.w)

    pygame.draw.line(surface, theme.IVORY_FAINT, (rect.x, axis_y), (rect.right, axis_y), 1)
    solver = stats.solver
    if solver.games:
        first, last = solver.current.interval()
        band = pygame.Rect(to_x(first), axis_y - round(5 * scale), max(2, to_x(last) - to_x(first)), round(10 * scale))
        surface.blit(theme.rounded_panel(band.size, (*theme.GOLD, 90), band.h // 2), band)
    size = SMALL_SIZE * scale
    ends = {True: rect.x - 100, False: rect.x - 100}  # the last name's right edge above and below: none overlap
    for index, level in enumerate(LEVEL_NAMES):
        x = to_x(LEVEL_RATINGS[level])
        pygame.draw.line(surface, theme.IVORY_DIM, (x, axis_y - round(4 * scale)), (x, axis_y + round(4 * scale)), 1)
        above = index % 2 == 0
        label = fonts.text(level_word(level), size, theme.IVORY_DIM)
        place = (
            label.get_rect(midbottom=(x, axis_y - round(5 * scale)))
            if above
            else label.get_rect(midtop=(x, axis_y + round(5 * scale)))
        )
        place.clamp_ip(pygame.Rect(rect.as_tuple()).inflate(0, 2 * size))
        if place.x > ends[above] + 4:
            surface.blit(label, place)
            ends[above] = place.right
    if solver.games:
        pygame.draw.circle(surface, theme.GOLD_BRIGHT, (to_x(solver.current.rating), axis_y), max(3, round(5 * scale)))


def draw_plot_card(
    surface: pygame.Surface,
    fonts: theme.Fonts,
    rect: Rect,
    title: str,
    plot: Callable[[tuple[int, int]], pygame.Surface] | None,
    empty: str,
    scale: float,
) -> None:
    """A card holding a curve, ``plot`` giving it at the size of the card's room (``line_plot``),
    or the sentence that says why there is none yet."""
    area = draw_card(surface, fonts, rect, title, scale)
    if plot is None:
        _lines(surface, fonts, area, area.y, [empty], TEXT_SIZE * scale, theme.IVORY_FAINT)
    elif area.h >= 30:
        surface.blit(plot((area.w, area.h)), (area.x, area.y))


def draw_list_heading(
    surface: pygame.Surface, fonts: theme.Fonts, rect: Rect, title: str, empty: bool, scale: float
) -> None:
    """A list of games' heading (its buttons are widgets), or the line that says it is empty."""
    heading = fonts.text(title, HEADING_SIZE * scale, theme.GOLD, bold=True)
    surface.blit(heading, (rect.x, rect.y))
    if empty:
        line = fonts.text(
            fonts.fit(
                _("None yet: your games against the solver or online are listed here."), TEXT_SIZE * scale, rect.w
            ),
            TEXT_SIZE * scale,
            theme.IVORY_FAINT,
        )
        surface.blit(line, (rect.x, rect.y + heading.get_height() + round(6 * scale)))
