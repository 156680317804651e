"""Drawing the review screen: the graded move list, the summary, the turning points, the progress card.

Reads the finished ``battle.players.review_report.Review`` and the scene's selection; changes
nothing. Class colours and signs are the evaluation graph's, so the list and the
graph's markers agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame

from battle.i18n import _, format_percent, format_short
from battle.rules.board import Move
from battle.rules.wording import grade_word, plural, shown_name
from battle.ui.art import theme
from battle.ui.review.review_layout import ReviewLayout, chip_rects, move_row_rect
from battle.ui.widgets.board_view import face_rect
from battle.ui.widgets.eval_graph import CLASS_COLOURS, CLASS_SIGNS
from battle.ui.widgets.layout import Layout, cell_rect

if TYPE_CHECKING:
    from battle.players import PlayerSummary, Review
    from battle.ui.widgets.layout import Rect


class ReviewOnScreen(Protocol):
    """What the panel's drawing reads of the review screen (``review_scene.ReviewScene``)."""

    @property
    def graded(self) -> Review:
        """The finished review."""
        ...

    @property
    def names(self) -> tuple[str, str]: ...

    @property
    def selected(self) -> int:
        """The shown position's ply."""
        ...

    @property
    def first_row(self) -> int:
        """The move list's top row."""
        ...

    @property
    def hover_row(self) -> int | None: ...


GOOD_COLOURS: dict[str, theme.Colour] = {"best": (86, 204, 120), "good": (160, 210, 140)}


def class_colour(name: str) -> theme.Colour:
    return GOOD_COLOURS.get(name) or CLASS_COLOURS.get(name, theme.IVORY)


def class_sign(name: str) -> str:
    return CLASS_SIGNS.get(name, "")


# -- the board ---------------------------------------------------------------------------------


Frames = dict[int, list[tuple[theme.Colour, str]]]
"""For each marked cell, its frames from the inside out as (colour, label)."""


def played_label(played_class: str | None) -> str:
    """The played pair's chip: its grade in words or in the chess sign, so the chip reads the same
    to an eye that cannot tell the class colours apart (``played ??``, ``played · good``)."""
    sign = class_sign(played_class or "")
    if sign:
        return _("played {sign}").format(sign=sign)
    if played_class == "good":
        return _("played · {played_class}").format(played_class=grade_word("good"))
    return _("played")


def move_marks(played: Move | None, played_class: str | None, best: list[Move]) -> Frames:
    """The best pair(s) framed in green, the played pair in its class colour and labelled with its grade
    (one green "played · best" frame when they agree)."""
    frames: Frames = {}
    best_colour = GOOD_COLOURS["best"]
    if played is not None and played in best:
        for cell in played:
            frames.setdefault(cell, []).append((best_colour, _("played · best")))
    else:
        for move in best:
            for cell in move:
                frames.setdefault(cell, []).append((best_colour, grade_word("best")))
        if played is not None:
            colour = class_colour(played_class or "")
            for cell in played:
                frames.setdefault(cell, []).append((colour, played_label(played_class)))
    return frames


def mark_labels(fonts: theme.Fonts, layout: Layout, frames: Frames) -> list[tuple[pygame.Rect, theme.Colour, str]]:
    """Each marked cell's label chip (its outermost frame's), as (rect, colour, text).

    A chip hangs half below its tile, centred; the chips are wider than a tile, so on the edge
    columns and the bottom row they are moved inside the board rectangle, off the coordinates.
    """
    size = label_size(layout)
    board = pygame.Rect(layout.board.as_tuple()).inflate(-2, -2)  # the chip's 1 px outline stays inside too
    chips = []
    for cell, marks in frames.items():
        colour, label = marks[-1]
        text = fonts.text(label, size, (14, 30, 22), bold="·" not in label)
        chip = pygame.Rect(0, 0, text.get_width() + round(size * 0.8), round(size * 1.45))
        face = face_rect(cell_rect(layout, cell))
        chip.midtop = (face.x + face.w // 2, face.bottom - chip.h // 2)
        chip.clamp_ip(board)
        chips.append((chip, colour, label))
    return chips


def label_size(layout: Layout) -> float:
    """The chips' text: a fifth of a tile's height, and 12 px (times the player's text size) at least,
    the size that reads at 800x600, where a fifth of the review's 36 px tiles is 7 px."""
    return max(12.0 * layout.zoom, layout.tile_h * 0.2)


def draw_move_marks(
    surface: pygame.Surface,
    fonts: theme.Fonts,
    layout: Layout,
    played: Move | None,
    played_class: str | None,
    best: list[Move],
) -> None:
    """The played pair framed in its class colour, the best pair(s) in green, each with a small label."""
    width = max(2, round(4 * layout.scale))
    frames = move_marks(played, played_class, best)
    for cell, marks in frames.items():
        for index, (colour, _unused) in enumerate(marks):
            rect = pygame.Rect(face_rect(cell_rect(layout, cell)).as_tuple()).inflate(4 + 8 * index, 4 + 8 * index)
            pygame.draw.rect(surface, (8, 24, 16), rect.inflate(2, 2), width=1, border_radius=6)
            pygame.draw.rect(surface, colour, rect, width=width, border_radius=6)
    size = label_size(layout)
    for chip, colour, label in mark_labels(fonts, layout, frames):
        text = fonts.text(label, size, (14, 30, 22), bold="·" not in label)
        pygame.draw.rect(surface, (8, 24, 16), chip.inflate(2, 2), border_radius=chip.h // 2 + 1)
        pygame.draw.rect(surface, colour, chip, border_radius=chip.h // 2)
        surface.blit(text, text.get_rect(center=chip.center))


# -- the panel ---------------------------------------------------------------------------------


def draw_review_panel(surface: pygame.Surface, fonts: theme.Fonts, geo: ReviewLayout, scene: ReviewOnScreen) -> None:
    review = scene.graded
    scale = geo.scale
    panel = geo.panel
    surface.blit(
        theme.rounded_panel((panel.w, panel.h), theme.PANEL, max(6, round(14 * scale)), (*theme.GOLD, 60), 1),
        (panel.x, panel.y),
    )
    title = fonts.text(_("Game review"), 21 * scale, theme.IVORY, bold=True)
    surface.blit(title, (geo.header.x, geo.header.y))
    budget = (
        _("{seconds} s a move").format(seconds=format_short(review.time_per_move))
        if review.time_per_move
        else _("no time limit")
    )
    inexact = sum(not move.exact for move in review.moves)
    certainty = _("all exact") if inexact == 0 else _("{inexact} estimated").format(inexact=inexact)
    heading = f"{plural(len(review.moves), 'move')} · {budget} · {certainty}"
    sub = fonts.text(fonts.fit(heading, 14 * scale, geo.header.w), 14 * scale, theme.IVORY_DIM)
    surface.blit(sub, (geo.header.x, geo.header.y + title.get_height() + round(2 * scale)))
    for index, summary in enumerate(review.summary()):
        _draw_summary_card(surface, fonts, geo, index, summary, shown_name(scene.names[index]), scale)
    _draw_turning_points(surface, fonts, geo, scene)
    _draw_move_list(surface, fonts, geo, scene)


def _draw_summary_card(
    surface: pygame.Surface,
    fonts: theme.Fonts,
    geo: ReviewLayout,
    index: int,
    summary: PlayerSummary,
    name: str,
    scale: float,
) -> None:
    rect = geo.cards[index]
    surface.blit(
        theme.rounded_panel((rect.w, rect.h), theme.CARD, max(4, round(10 * scale)), (255, 255, 255, 26)),
        (rect.x, rect.y),
    )
    colour = theme.PLAYER_COLOURS[index]
    strip = pygame.Rect(
        rect.x + round(7 * scale), rect.y + round(10 * scale), max(3, round(4 * scale)), rect.h - round(20 * scale)
    )
    mark_r = max(5, round(6.5 * scale))
    strip.centerx = max(strip.centerx, rect.x + round(mark_r * 1.25) + 3)  # the diamond clear of the edge
    mark = theme.draw_player_mark(surface, index + 1, (strip.centerx, strip.y + mark_r), mark_r, fonts)
    strip.h -= mark.bottom + round(4 * scale) - strip.y
    strip.y = mark.bottom + round(4 * scale)
    pygame.draw.rect(surface, colour, strip, border_radius=2)
    x = strip.right + round(10 * scale)
    accuracy = "-" if summary.accuracy is None else format_percent(summary.accuracy, 0)
    big = fonts.text(accuracy, 26 * scale, theme.IVORY, bold=True)
    big_rect = big.get_rect(topright=(rect.right - round(12 * scale), rect.y + round(6 * scale)))
    surface.blit(big, big_rect)
    caption = fonts.text(_("accuracy"), 11.5 * scale, theme.IVORY_FAINT)
    surface.blit(caption, caption.get_rect(midtop=(big_rect.centerx, big_rect.bottom - round(3 * scale))))
    width = big_rect.x - x - round(8 * scale)
    head = fonts.text(fonts.fit(name, 17 * scale, width, bold=True), 17 * scale, theme.IVORY, bold=True)
    surface.blit(head, (x, rect.y + round(7 * scale)))
    lost_text = _("lost {plural} in {plural2}").format(
        plural=plural(summary.points_lost, "point"), plural2=plural(summary.moves, "move")
    )
    if fonts.width(lost_text, 13.5 * scale) > width:  # at 800x600 the moves go first, the points stay
        lost_text = _("lost {plural}").format(plural=plural(summary.points_lost, "point"))
    lost = fonts.text(fonts.fit(lost_text, 13.5 * scale, width), 13.5 * scale, theme.IVORY_DIM)
    y = rect.y + round(7 * scale) + head.get_height()
    surface.blit(lost, (x, y))
    y += lost.get_height()
    counts = summary.counts
    for name_, label in (("inaccuracy", "?!"), ("mistake", "?"), ("blunder", "??")):
        part = fonts.text(
            f"{counts[name_]}{label}",
            13.5 * scale,
            class_colour(name_) if counts[name_] else theme.IVORY_FAINT,
            bold=bool(counts[name_]),
        )
        surface.blit(part, (x, y))
        x += part.get_width() + round(10 * scale)
    good = fonts.text(
        _("{counts} best · {counts2} good").format(counts=counts["best"], counts2=counts["good"]),
        13.5 * scale,
        theme.IVORY_FAINT,
    )
    surface.blit(good, (x, y))


def turning_chip_labels(scene: ReviewOnScreen) -> list[tuple[int, str, theme.Colour]]:
    """Each turning point as (move index, chip text, colour): ``12?``, ``27??``, ``31 lead``."""
    chips = []
    for point in scene.graded.turning_points():
        sign = class_sign(point.classification)
        text = f"{point.number}{sign}" if sign else _("{number} lead").format(number=point.number)
        colour = class_colour(point.classification) if sign else theme.HINT
        chips.append((point.number - 1, text, colour))
    return chips


def turning_chips(
    fonts: theme.Fonts, geo: ReviewLayout, scene: ReviewOnScreen
) -> list[tuple[Rect, int, str, theme.Colour]]:
    """The chips that fit: (rect, move index, text, colour)."""
    size = 13 * geo.scale
    labels = turning_chip_labels(scene)
    widths = [fonts.width(text, size, bold=True) + round(14 * geo.scale) for _, text, _ in labels]
    rects = chip_rects(geo, widths, round(6 * geo.scale))
    return [(rect, index, text, colour) for rect, (index, text, colour) in zip(rects, labels, strict=False)]


def _draw_turning_points(surface: pygame.Surface, fonts: theme.Fonts, geo: ReviewLayout, scene: ReviewOnScreen) -> None:
    scale = geo.scale
    area = geo.turning
    title = fonts.text(_("Turning points"), 14.5 * scale, theme.GOLD, bold=True)
    surface.blit(title, (area.x, area.y))
    chips = turning_chips(fonts, geo, scene)
    if not chips:
        none = fonts.text(_("none: no lead change, no mistake"), 13 * scale, theme.IVORY_FAINT)
        surface.blit(none, (area.x, area.bottom - none.get_height()))
        return
    hidden = len(turning_chip_labels(scene)) - len(chips)
    if hidden:
        more = fonts.text(_("+{hidden} more").format(hidden=hidden), 12 * scale, theme.IVORY_FAINT)
        surface.blit(more, more.get_rect(topright=(area.right, area.y + round(2 * scale))))
    for rect, index, text, colour in chips:
        selected = index == scene.selected
        box = pygame.Rect(rect.as_tuple())
        fill = (*colour, 200) if selected else (*colour, 50)
        surface.blit(theme.rounded_panel(box.size, fill, box.h // 2, (*colour, 220), 1), box)
        label = fonts.text(text, 13 * scale, (14, 30, 22) if selected else colour, bold=True)
        surface.blit(label, label.get_rect(center=box.center))


def _draw_move_list(surface: pygame.Surface, fonts: theme.Fonts, geo: ReviewLayout, scene: ReviewOnScreen) -> None:
    scale = geo.scale
    header = geo.moves_header
    pygame.draw.line(surface, theme.GOLD, (header.x, header.y), (header.right, header.y), 1)
    title = fonts.text(_("Moves"), 15 * scale, theme.GOLD, bold=True)
    surface.blit(title, (header.x, header.y + (header.h - title.get_height()) // 2 + round(2 * scale)))
    columns = fonts.text(_("loss · best instead"), 12.5 * scale, theme.IVORY_FAINT)
    surface.blit(columns, columns.get_rect(midright=(header.right, header.y + header.h // 2 + round(2 * scale))))
    moves = scene.graded.moves
    if not moves:
        surface.blit(fonts.text(_("No moves to review"), 14 * scale, theme.IVORY_FAINT), (geo.moves.x, geo.moves.y))
        return
    size = 14 * scale
    number_w = fonts.width("88.", size)
    move_w = max(fonts.width(move.move, size) for move in moves)
    for index, move in enumerate(moves):
        entry = move_row_rect(geo, index, scene.first_row)
        if entry is None:
            continue
        selected = index == scene.selected
        hovered = index == scene.hover_row
        if selected or hovered:
            fill = (*theme.GOLD, 70) if selected else (255, 255, 255, 26)
            surface.blit(theme.rounded_panel((entry.w - 4, entry.h - 2), fill, 4), (entry.x, entry.y))
        cy = entry.y + entry.h // 2
        theme.draw_player_mark(surface, move.player, (entry.x + round(7 * scale), cy), max(2.5, 3.5 * scale))
        x = entry.x + round(16 * scale)
        number = fonts.text(f"{move.number}.", size, theme.IVORY_FAINT)
        surface.blit(number, number.get_rect(midright=(x + number_w, cy)))
        x += number_w + round(5 * scale)
        notation = fonts.text(move.move, size, theme.GOLD_BRIGHT if selected else theme.IVORY)
        surface.blit(notation, notation.get_rect(midleft=(x, cy)))
        x += move_w + round(4 * scale)
        points = fonts.text(f"({move.points})", size * 0.92, theme.GOLD)
        surface.blit(points, points.get_rect(midleft=(x, cy)))
        x += fonts.width("(9)", size * 0.92) + round(6 * scale)
        colour = class_colour(move.classification)
        sign = class_sign(move.classification)
        approx = "" if move.exact else "~"
        mark = fonts.text(sign or ("✓" if move.classification == "best" else ""), size, colour, bold=bool(sign))
        surface.blit(mark, mark.get_rect(midleft=(x, cy)))
        x += fonts.width("??", size, bold=True) + round(6 * scale)
        if move.loss:
            loss = fonts.text(f"{approx}-{move.loss}", size, colour, bold=move.loss >= 6)
            surface.blit(loss, loss.get_rect(midleft=(x, cy)))
            x += fonts.width("~-88", size) + round(4 * scale)
            alternative = move.best_moves[0] if move.best_moves else "?"
            best = fonts.text(
                fonts.fit(alternative, size * 0.92, entry.right - x - round(6 * scale)), size * 0.92, theme.IVORY_DIM
            )
            surface.blit(best, best.get_rect(midright=(entry.right - round(6 * scale), cy)))
        else:
            label = fonts.text(grade_word(move.classification), size * 0.92, colour)
            surface.blit(label, label.get_rect(midleft=(x, cy)))
    rows = len(moves)
    if rows > geo.visible_rows:
        track = geo.moves
        bar_h = max(12, round(track.h * geo.visible_rows / rows))
        top = track.y + round((track.h - bar_h) * scene.first_row / max(1, rows - geo.visible_rows))
        pygame.draw.rect(surface, theme.GOLD, (track.right - 2, top, 3, bar_h), border_radius=2)


# -- while the review runs ---------------------------------------------------------------------


def draw_progress_card(
    surface: pygame.Surface,
    fonts: theme.Fonts,
    rect: pygame.Rect,
    scale: float,
    lines: list[tuple[str, theme.Colour]],
    fraction: float,
) -> pygame.Rect:
    """The card shown while reviewing: a title, a few lines, a progress bar; returns the bar's rect."""
    theme.draw_overlay_card(surface, rect, scale, shadow=True)
    y = rect.y + round(22 * scale)
    title = fonts.text(_("REVIEWING THE GAME"), 14 * scale, theme.GOLD, bold=True)
    surface.blit(title, title.get_rect(midtop=(rect.centerx, y)))
    y += title.get_height() + round(12 * scale)
    for index, (text, colour) in enumerate(lines):
        size = (22 if index == 0 else 15) * scale
        rendered = fonts.text(fonts.fit(text, size, rect.w - 40, bold=index == 0), size, colour, bold=index == 0)
        surface.blit(rendered, rendered.get_rect(midtop=(rect.centerx, y)))
        y += rendered.get_height() + round(8 * scale)
    bar = pygame.Rect(
        rect.x + round(30 * scale), y + round(6 * scale), rect.w - round(60 * scale), max(8, round(14 * scale))
    )
    pygame.draw.rect(surface, (6, 22, 15), bar.inflate(2, 2), border_radius=bar.h // 2 + 1)
    filled = bar.copy()
    filled.w = max(bar.h, round(bar.w * max(0.0, min(1.0, fraction))))
    pygame.draw.rect(surface, theme.GOLD, filled, border_radius=bar.h // 2)
    return bar
