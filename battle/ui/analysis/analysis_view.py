"""Drawing analysis mode: value badges on the pairs, what a pair opens, the PV preview, the panel box.

Reads only what the study mode prepared (``AnalysisMode``, the opening under
the pointer); changes nothing. Where a badge goes is plain arithmetic
(``badge_spots``), so the placement rule is stated once and can be tested.

A badge sits just beyond the free edge of its tile (above a column's top tile,
below its bottom tile), on the empty cloth where the column's tiles are gone, so
it hides nothing of any tile's face: its index and its symbol stay readable. Both
tiles of a pair carry the same badge; a tile in several pairs (three or four free
copies) gets one badge per pair, stacked outwards and naming the partner cell.
Beyond the first or last row there is only the board's margin: a stack that does
not fit there before the window's edge (or the status line) closes up, its badges
overlapping one another, never a tile.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from battle.i18n import _, ngettext
from battle.rules.board import ROWS, Move, Position, cell_name, move_name
from battle.rules.opens import Opening
from battle.rules.wording import about
from battle.ui.analysis.analysis_mode import AnalysisMode, MoveBadge, Projection
from battle.ui.art import theme
from battle.ui.widgets.board_view import BoardView, face_rect
from battle.ui.widgets.layout import Layout, Rect, cell_rect

BEST_COLOUR: theme.Colour = (86, 204, 120)
"""The best pairs: green, as in every analysis board."""
BEST_MARK = "★"
"""Heads a best pair's badge: to a red-green colour-blind eye the green, yellow and red badges are
all much the same olive, so the star, not the colour, says which pairs are best."""
BADGE_TEXT_SHARE = 0.66
"""A badge's text height as a share of the badge's."""
MIN_BADGE_TEXT = 12.0
"""The smallest badge text in pixels at text size 1: a badge of 0.27 of a tile would carry 9 px at 800x600."""
NEAR_COLOUR: theme.Colour = (236, 214, 102)
FAR_COLOUR: theme.Colour = (246, 96, 92)
"""Worse pairs shade from yellow (a point or two) to red (ten or more points given away)."""
BADGE_TEXT: theme.Colour = (14, 30, 22)
FREED_COLOUR: theme.Colour = (255, 160, 70)
"""Outline of the tiles a pointed-at pair would free."""
FOCUS_COLOUR: theme.Colour = (110, 215, 255)
"""The pair under the pointer (tiles are ivory: an ivory frame would not show)."""
GIFT_COLOUR: theme.Colour = (255, 110, 96)
"""Marks the tiles of the pairs that would become the opponent's."""


def badge_colour(badge: MoveBadge) -> theme.Colour:
    worse = theme.mix(NEAR_COLOUR, FAR_COLOUR, min(1.0, max(0, badge.loss - 1) / 9))
    colour = BEST_COLOUR if badge.best else worse
    if not badge.exact:
        colour = theme.mix(colour, (150, 160, 150), 0.35)  # not proved yet: a paler badge
    return colour


@dataclass(frozen=True)
class BadgeSpot:
    """Where one badge of one pair is drawn."""

    move: Move
    cell: int
    centre: tuple[int, int]
    partner: int | None
    """The other cell, named on the badge when its tile has several pairs."""


def badge_spots(layout: Layout, position: Position, moves: list[Move]) -> list[BadgeSpot]:
    """Badge centres for the pairs ``moves`` (ordered best first), one per tile per pair."""
    per_cell: dict[int, list[Move]] = {}
    for move in moves:
        for cell in move:
            per_cell.setdefault(cell, []).append(move)
    height = badge_height(layout)
    gap = max(1, height // 8)
    spots = []
    for cell, pairs in per_cell.items():
        col, row = divmod(cell, ROWS)
        top, _unused = position.column_run(col)
        face = face_rect(cell_rect(layout, cell))
        upward = row == top
        # from the free edge to the window's top, or to the status line under the board
        room = face.y - gap if upward else layout.status.y - face.bottom - gap
        step = height + gap
        if len(pairs) > 1 and room < height + (len(pairs) - 1) * step:
            step = max(1, (room - height) // (len(pairs) - 1))
        for index, move in enumerate(pairs):
            distance = gap + height // 2 + index * step
            y = face.y - distance if upward else face.bottom + distance
            partner = (move[1] if move[0] == cell else move[0]) if len(pairs) > 1 else None
            spots.append(BadgeSpot(move, cell, (face.x + face.w // 2, y), partner))
    return spots


def badge_height(layout: Layout) -> int:
    """A quarter of a tile's height, or more where that would make the text smaller than 12 px (times the
    player's text size)."""
    return max(round(layout.tile_h * 0.27), math.ceil(MIN_BADGE_TEXT * layout.zoom / BADGE_TEXT_SHARE))


def badge_text_sizes(layout: Layout) -> tuple[float, float, float]:
    """The badge's text sizes: the value, the partner cell (several pairs on one tile), the search depth."""
    size = badge_height(layout) * BADGE_TEXT_SHARE
    least = MIN_BADGE_TEXT * layout.zoom
    return size, max(least, size * 0.85), max(least, size * 0.7)


def badge_text(badge: MoveBadge, partner: int | None = None) -> str:
    """The badge's words as one string (the drawing sets its parts in different weights and leaves
    the depth out where its column is too narrow): ``★ +3`` for a best pair, ``c9 ~-2 6`` for an
    estimate at depth 6 shared with another pair at c9."""
    parts = [BEST_MARK] if badge.best else []
    if partner is not None:
        parts.append(cell_name(partner))
    parts.append(badge.label)
    if not badge.exact:
        parts.append(str(badge.depth))
    return " ".join(parts)


def draw_badges(
    surface: pygame.Surface,
    fonts: theme.Fonts,
    layout: Layout,
    position: Position,
    badges: dict[Move, MoveBadge],
    focus: Move | None,
) -> None:
    """Every pair's value on its tiles; the pair in ``focus`` (pointed at) drawn last and framed."""
    moves = sorted(badges, key=lambda move: (-badges[move].value, move))
    spots = badge_spots(layout, position, moves)
    spots.sort(key=lambda spot: spot.move == focus)
    for spot in spots:
        badge = badges[spot.move]
        _draw_badge(surface, fonts, layout, spot, badge, spot.move == focus)


def _badge_parts(
    fonts: theme.Fonts, layout: Layout, spot: BadgeSpot, badge: MoveBadge
) -> tuple[list[pygame.Surface], bool]:
    """The badge's text pieces, left to right (``badge_text`` spells them out), and whether the last is
    an estimate's depth: it is there only where the badge stays within its column (the panel names the
    depth too), for on a full board at 800x600 it would push neighbouring badges 15 px into each other."""
    size, partner_size, depth_size = badge_text_sizes(layout)
    sign, number = badge.label[: -len(f"{badge.value:+d}")], f"{badge.value:+d}"
    parts = []
    if badge.best:
        parts.append(fonts.text(BEST_MARK, size, BADGE_TEXT))
    if spot.partner is not None:
        parts.append(fonts.text(cell_name(spot.partner), partner_size, BADGE_TEXT))
    if sign:
        parts.append(fonts.text(sign, size, BADGE_TEXT))
    parts.append(fonts.text(number, size, BADGE_TEXT, bold=True))
    if not badge.exact:
        depth = fonts.text(str(badge.depth), depth_size, (50, 66, 58))
        height = badge_height(layout)
        width = (
            sum(part.get_width() for part in (*parts, depth)) + round(height * 0.08) * len(parts) + round(height * 0.6)
        )
        if width <= layout.pitch_x - 2:
            return [*parts, depth], True
    return parts, False


def badge_rect(fonts: theme.Fonts, layout: Layout, spot: BadgeSpot, badge: MoveBadge) -> pygame.Rect:
    """The pill one badge fills on the screen."""
    height = badge_height(layout)
    parts, _unused = _badge_parts(fonts, layout, spot, badge)
    gap = max(1, round(height * 0.08))
    width = sum(part.get_width() for part in parts) + gap * (len(parts) - 1) + round(height * 0.6)
    rect = pygame.Rect(0, 0, max(width, round(height * 1.5)), height)
    rect.center = spot.centre
    return rect


def _draw_badge(
    surface: pygame.Surface, fonts: theme.Fonts, layout: Layout, spot: BadgeSpot, badge: MoveBadge, focused: bool
) -> None:
    height = badge_height(layout)
    parts, with_depth = _badge_parts(fonts, layout, spot, badge)
    gap = max(1, round(height * 0.08))
    width = sum(part.get_width() for part in parts) + gap * (len(parts) - 1) + round(height * 0.6)
    rect = badge_rect(fonts, layout, spot, badge)
    colour = badge_colour(badge)
    radius = height // 2
    pygame.draw.rect(surface, (8, 24, 16), rect.inflate(2, 2), border_radius=radius + 1)
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if focused:
        pygame.draw.rect(surface, FOCUS_COLOUR, rect.inflate(6, 6), width=3, border_radius=radius + 3)
    x = rect.centerx - (width - round(height * 0.6)) // 2
    for part in parts:
        baseline_shift = round(height * 0.12) if with_depth and part is parts[-1] else 0
        surface.blit(part, part.get_rect(midleft=(x, rect.centery + baseline_shift)))
        x += part.get_width() + gap


def draw_opening(surface: pygame.Surface, layout: Layout, opening: Opening, now: float) -> None:
    """The pointed-at pair framed in ivory, the tiles it frees in orange, the opponent's new pairs marked."""
    width = max(2, round(3 * layout.scale))
    for cell in opening.move:
        rect = pygame.Rect(face_rect(cell_rect(layout, cell)).as_tuple()).inflate(6, 6)
        pygame.draw.rect(surface, (8, 24, 16), rect.inflate(2, 2), width=1, border_radius=max(3, rect.w // 7))
        pygame.draw.rect(surface, FOCUS_COLOUR, rect, width=width, border_radius=max(3, rect.w // 7))
    gifts = {cell for pair in opening.new_pairs for cell in pair}
    for cell in opening.freed:
        rect = pygame.Rect(face_rect(cell_rect(layout, cell)).as_tuple()).inflate(2, 2)
        pygame.draw.rect(surface, FREED_COLOUR, rect, width=width, border_radius=max(3, rect.w // 7))
    pulse = 0.6 + 0.4 * abs(((now * 1.5) % 2) - 1)
    radius = max(3, round(layout.tile_h * 0.07))
    for cell in gifts:
        face = face_rect(cell_rect(layout, cell))
        centre = (face.right - radius - 2, face.y + face.h // 2)
        pygame.draw.circle(surface, (8, 24, 16), centre, radius + 2)
        pygame.draw.circle(surface, theme.mix(GIFT_COLOUR, theme.IVORY, 1 - pulse), centre, radius)


def draw_pv_ghosts(
    surface: pygame.Surface,
    board_view: BoardView,
    fonts: theme.Fonts,
    layout: Layout,
    study: AnalysisMode,
    first_number: int,
) -> None:
    """The PV preview: tiles the previewed moves took, faint where they were, with their move numbers."""
    position = study.position.copy()
    number_size = max(9.0, layout.tile_h * 0.22)
    for index, move in enumerate(study.pv[: study.pv_step]):
        mover = position.to_move
        kind = position.cells[move[0]]
        position.push(move)
        ghost = board_view.tile(kind, "normal", layout).copy()
        ghost.set_alpha(70)
        for cell in move:
            rect = cell_rect(layout, cell)
            surface.blit(ghost, (rect.x, rect.y))
            face = face_rect(rect)
            label = fonts.text(str(first_number + index), number_size, BADGE_TEXT, bold=True)
            chip = pygame.Rect(
                0,
                0,
                max(label.get_width() + round(number_size * 0.7), round(number_size * 1.5)),
                round(number_size * 1.5),
            )
            chip.center = (face.x + face.w // 2, face.y + face.h // 2)
            pygame.draw.rect(surface, (8, 24, 16), chip.inflate(3, 3), border_radius=chip.h // 2 + 1)
            pygame.draw.rect(surface, theme.PLAYER_COLOURS[mover - 1], chip, border_radius=chip.h // 2)
            surface.blit(label, label.get_rect(center=chip.center))


# -- the panel box ---------------------------------------------------------------------------


@dataclass
class StudyInfo:
    """What the analysis box in the panel shows, prepared by ``study_view``."""

    names: tuple[str, str]
    state: str
    """``"exact"``, ``"searching"`` or ``"starting"`` (no values yet) or ``"over"``."""
    depth: int | None
    """Depth of the values shown (None: none yet)."""
    searching_depth: int | None
    projection: Projection | None
    pv: list[tuple[int, int, str, int]]
    """The best line as (number, mover, notation, points)."""
    pv_step: int
    variation: list[str]
    error: str | None = None


def draw_study_box(
    surface: pygame.Surface, fonts: theme.Fonts, rect: Rect, info: StudyInfo, scale: float, now: float
) -> None:
    """The evaluation bar, the margin in words, the best line and the variation."""
    x, y, w = rect.x, rect.y, rect.w
    title = fonts.text(_("Analysis"), 16 * scale, theme.GOLD, bold=True)
    surface.blit(title, (x, y))
    state_text, state_colour = _state_line(info, now)
    beside = w - title.get_width() - 10
    # the widest state ("depth 20, searching depth 24...") goes under the title when it is cut beside it
    widest = fonts.width(state_text.rstrip(".") + "...", 13.5 * scale)
    if widest <= beside:
        state = fonts.text(state_text, 13.5 * scale, state_colour)
        surface.blit(state, state.get_rect(bottomright=(rect.right, y + title.get_height() - round(2 * scale))))
        y += title.get_height() + round(6 * scale)
    else:
        y += title.get_height() - round(4 * scale)
        state = fonts.text(fonts.fit(state_text, 13.5 * scale, w), 13.5 * scale, state_colour)
        surface.blit(state, (x, y))
        y += state.get_height() + round(6 * scale)

    bar = pygame.Rect(x, y, w, max(12, round(20 * scale)))
    _draw_eval_bar(surface, fonts, bar, info, scale)
    y = bar.bottom + round(5 * scale)
    for line in fonts.wrap(_verdict(info), 14 * scale, w, max_lines=2):
        verdict = fonts.text(line, 14 * scale, theme.IVORY)
        surface.blit(verdict, (x, y))
        y += round(18 * scale)
    y += round(6 * scale)

    pygame.draw.line(surface, (*theme.GOLD, 90), (x, y), (rect.right, y), 1)
    y += round(4 * scale)
    if info.pv_step:
        heading = _("Best line  ·  preview {pv_step}/{len}").format(pv_step=info.pv_step, len=len(info.pv))
    else:
        heading = _("Best line")
    surface.blit(fonts.text(heading, 14 * scale, theme.GOLD, bold=True), (x, y))
    keys = fonts.text("◀ , . ▶", 12.5 * scale, theme.IVORY_FAINT)
    surface.blit(keys, keys.get_rect(topright=(rect.right, y + round(2 * scale))))
    y += round(22 * scale)

    if info.variation:
        label = _("Variation ({len}): {moves}").format(len=len(info.variation), moves=" ".join(info.variation))
        colour = theme.HINT
    else:
        label = _("At the game position: play moves to explore.")
        colour = theme.IVORY_DIM
    # whole sentences on as many lines as the panel's width needs (two or three at 800x600);
    # a long variation keeps its last two lines' worth and the board shows the rest
    label_lines = fonts.wrap(label, 13 * scale, w, max_lines=2)
    help_lines = fonts.wrap(_("B back to game  ·  P play line  ·  A analysis off"), 12.5 * scale, w, separator="  ·  ")
    label_h, help_h = round(19 * scale), round(17 * scale)
    footer_h = round(6 * scale) + len(label_lines) * label_h + len(help_lines) * help_h
    legend_h = round(26 * scale)
    row_h = max(12, round(21 * scale))
    room = rect.bottom - footer_h - y
    with_legend = room - legend_h >= 4 * row_h  # the legend only when the line keeps four rows
    rows = max(1, (room - (legend_h if with_legend else 0)) // row_h)
    _draw_line_entries(surface, fonts, pygame.Rect(x, y, w, rows * row_h), info, rows, row_h, scale)
    if with_legend:
        _draw_legend(surface, fonts, x, rect.bottom - footer_h - legend_h + round(2 * scale), w, scale)
    y = rect.bottom - footer_h + round(6 * scale)
    pygame.draw.line(surface, (*theme.GOLD, 90), (x, y - round(3 * scale)), (rect.right, y - round(3 * scale)), 1)
    for line in label_lines:
        surface.blit(fonts.text(line, 13 * scale, colour), (x, y))
        y += label_h
    for line in help_lines:
        surface.blit(fonts.text(line, 12.5 * scale, theme.IVORY_FAINT), (x, y))
        y += help_h


def _draw_legend(surface: pygame.Surface, fonts: theme.Fonts, x: int, y: int, width: int, scale: float) -> None:
    """What the badge colours mean, in one line of sample chips: every chip, in smaller type where
    the words are longer (German's four do not fit the panel at the English size, and "~ Schätzung",
    the mark every estimated badge carries, is the one a cut line would leave out)."""
    height = max(10, round(17 * scale))
    chips = (
        (_("{BEST_MARK} best").format(BEST_MARK=BEST_MARK), BEST_COLOUR),
        (_("2 worse"), NEAR_COLOUR),
        (_("10 worse"), FAR_COLOUR),
        (_("~ estimate"), theme.mix(NEAR_COLOUR, (150, 160, 150), 0.35)),
    )
    pad, gap = round(12 * scale), round(6 * scale)
    size = 12.5 * scale
    while size > 8 * scale:
        words = sum(fonts.width(text, size, bold=BEST_MARK not in text) for text, _colour in chips)
        if words + len(chips) * pad + (len(chips) - 1) * gap <= width:
            break
        size -= 0.5 * scale
    for text, colour in chips:
        label = fonts.text(text, size, BADGE_TEXT, bold=BEST_MARK not in text)  # the bold face has no star
        chip = pygame.Rect(x, y, label.get_width() + pad, height)
        pygame.draw.rect(surface, colour, chip, border_radius=height // 2)
        surface.blit(label, label.get_rect(center=chip.center))
        x = chip.right + gap


def _state_line(info: StudyInfo, now: float) -> tuple[str, theme.Colour]:
    if info.error:
        return (_("solver error: {error}").format(error=info.error), theme.ERROR)
    if info.state == "over":
        return (_("no pair left"), theme.IVORY_DIM)
    if info.state == "exact":
        return (_("exact (solved)"), BEST_COLOUR)
    dots = "." * (1 + int(now * 3) % 3)
    going = (
        _("full depth")
        if info.searching_depth is None
        else _("depth {searching_depth}").format(searching_depth=info.searching_depth)
    )
    if info.depth is None:
        return (_("searching {going}{dots}").format(going=going, dots=dots), theme.HINT)
    return (_("depth {depth}, searching {going}{dots}").format(depth=info.depth, going=going, dots=dots), theme.HINT)


def _verdict(info: StudyInfo) -> str:
    projection = info.projection
    if projection is None:
        return _("No values yet.") if info.state != "over" else _("No pair left: the game ends here.")
    margin = projection.margin
    if margin == 0:
        return _("A draw under perfect play") if projection.exact else _("~ A draw under perfect play")
    leader = info.names[0] if margin > 0 else info.names[1]
    count = abs(margin)
    if projection.exact:
        return about(
            leader,
            ngettext("You win by {count} under perfect play", "You win by {count} under perfect play", count),
            ngettext("{name} wins by {count} under perfect play", "{name} wins by {count} under perfect play", count),
            count=count,
        )
    return about(
        leader,
        ngettext(
            "~ You win by {count} (estimate, depth {depth})", "~ You win by {count} (estimate, depth {depth})", count
        ),
        ngettext(
            "~ {name} wins by {count} (estimate, depth {depth})",
            "~ {name} wins by {count} (estimate, depth {depth})",
            count,
        ),
        count=count,
        depth=info.depth,
    )


def _draw_eval_bar(
    surface: pygame.Surface, fonts: theme.Fonts, bar: pygame.Rect, info: StudyInfo, scale: float
) -> None:
    """Both players' projected final scores as one bar: player 1's share from the left."""
    radius = bar.h // 2
    pygame.draw.rect(surface, (6, 22, 15), bar.inflate(2, 2), border_radius=radius + 1)
    projection = info.projection
    if projection is None:
        pygame.draw.rect(surface, (40, 60, 50), bar, border_radius=radius)
        return
    first, second = projection.scores
    share = 0.5 if first + second <= 0 else first / (first + second)
    split = bar.x + round(bar.w * share)
    left = pygame.Rect(bar.x, bar.y, max(0, split - bar.x), bar.h)
    right = pygame.Rect(split, bar.y, max(0, bar.right - split), bar.h)
    for part, colour in ((left, theme.PLAYER_COLOURS[0]), (right, theme.PLAYER_COLOURS[1])):
        if part.w > 0:
            pygame.draw.rect(
                surface,
                colour if projection.exact else theme.mix(colour, (120, 130, 120), 0.3),
                part,
                border_radius=radius,
            )
    middle = bar.x + bar.w // 2
    pygame.draw.line(surface, theme.IVORY, (middle, bar.y - 2), (middle, bar.bottom + 1), 1)
    size = max(9.0, bar.h * 0.72)
    approx = "" if projection.exact else "~"
    for value, anchor, spot in (
        (first, "midleft", (bar.x + round(6 * scale), bar.centery)),
        (second, "midright", (bar.right - round(6 * scale), bar.centery)),
    ):
        label = fonts.text(f"{approx}{value:.0f}", size, BADGE_TEXT, bold=not approx)
        surface.blit(label, label.get_rect(**{anchor: spot}))


def _draw_line_entries(
    surface: pygame.Surface, fonts: theme.Fonts, area: pygame.Rect, info: StudyInfo, rows: int, row_h: int, scale: float
) -> None:
    """The best line in two columns, like the move list; previewed moves gold, the next one framed."""
    if not info.pv:
        text = _("none: no pair to take") if info.state == "over" else _("waiting for the first search...")
        surface.blit(fonts.text(text, 13.5 * scale, theme.IVORY_FAINT), (area.x, area.y))
        return
    size = 14 * scale
    half = area.w // 2
    number_w = fonts.width("888.", size)
    # a line longer than the rows keeps its last cell for "+N more", inside the area (below it is the legend)
    cells = rows * 2
    shown = info.pv[:cells] if len(info.pv) <= cells else info.pv[: cells - 1]
    for index, (number, mover, notation, points) in enumerate(shown):
        row, column = divmod(index, 2)
        entry = pygame.Rect(area.x + column * half, area.y + row * row_h, half, row_h)
        previewed = index < info.pv_step
        upcoming = index == info.pv_step and info.pv_step > 0
        if previewed or upcoming:
            fill = (*theme.GOLD, 60) if previewed else (*theme.HINT, 50)
            surface.blit(theme.rounded_panel((entry.w - 4, entry.h - 2), fill, 4), entry.topleft)
        cy = entry.centery
        theme.draw_player_mark(surface, mover, (entry.x + round(7 * scale), cy), max(2.5, 3.5 * scale))
        x = entry.x + round(14 * scale)
        num = fonts.text(f"{number}.", size, theme.IVORY_FAINT)
        surface.blit(num, num.get_rect(midright=(x + number_w, cy)))
        colour = theme.GOLD_BRIGHT if previewed else theme.IVORY
        move_text = fonts.text(notation, size, colour)
        surface.blit(move_text, move_text.get_rect(midleft=(x + number_w + round(6 * scale), cy)))
        pts = fonts.text(f"({points})", size, theme.GOLD)
        surface.blit(pts, pts.get_rect(midright=(entry.right - round(8 * scale), cy)))
    if len(info.pv) > len(shown):
        row, column = divmod(len(shown), 2)
        cell = pygame.Rect(area.x + column * half, area.y + row * row_h, half, row_h)
        more = fonts.text(_("+{value} more").format(value=len(info.pv) - len(shown)), 12 * scale, theme.IVORY_FAINT)
        surface.blit(more, more.get_rect(midright=(cell.right - round(8 * scale), cell.centery)))


def pv_entries(study: AnalysisMode, first_number: int) -> list[tuple[int, int, str, int]]:
    """The best line as move-list entries, numbered on from the study position."""
    position = study.position.copy()
    entries = []
    for index, move in enumerate(study.pv):
        mover, points = position.to_move, position.move_points(move)
        position.push(move)
        entries.append((first_number + index, mover, move_name(move), points))
    return entries
