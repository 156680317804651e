"""The evaluation graph of a reviewed game, drawn on a pygame surface.

Pure drawing: ``render_eval_graph`` reads a ``battle.players.review_report.Review`` and returns a
new surface; it opens no window and changes nothing, so the command line can
save it as a PNG (``save_eval_graph``, with SDL's dummy video driver) and the
window can blit the same picture in its review screen. The window takes it as a
``GraphPicture`` (``draw_eval_graph``), which also says where the plot and its texts
are: the selected move's cursor stands inside the plot, off the titles and the
legend, with a gap where it would cross a text (``cursor_segments``).

The curve is the projected final margin for player 1 under perfect play, from
the start (x = 0) to after the last move (x = n). The area above the zero line
is shaded in player 1's colour, below it in player 2's, so who is ahead reads at
a glance; mistakes and blunders are marked where they happened, and segments
that rest on estimates (the time ran out before a proof) are dashed.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from battle.i18n import _
from battle.rules.wording import about, grade_word, shown_name
from battle.storage.paths import write_atomically
from battle.ui.art import theme

if TYPE_CHECKING:
    from battle.players import Review

Colour = tuple[int, int, int]
Point = tuple[float, float]
Scale = Callable[[float], float]
"""Maps a move number (x) or a margin (y) to a pixel coordinate."""

DEFAULT_SIZE = (900, 360)
BACKGROUND: Colour = (12, 48, 33)
PLOT_BACKGROUND: Colour = (7, 33, 23)
GRID: Colour = (34, 78, 58)
CURVE: Colour = theme.IVORY
CLASS_COLOURS: dict[str, Colour] = {
    "inaccuracy": (240, 214, 96),
    "mistake": (255, 158, 54),
    "blunder": (255, 64, 92),
}
"""Marker colours, in the yellow-orange-red order readers know from chess reviews."""
MARKED_CLASSES = ("mistake", "blunder")
CLASS_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
FILL_ALPHA = 110
NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100)
SUPERSAMPLE = 2
TITLE_SIZE, LABEL_SIZE = 20.0, 12.5
"""Text sizes in pixels at the default size; everything else scales with them."""


@dataclass(frozen=True)
class GraphPicture:
    """The drawn graph and where its parts are, in the picture's pixels."""

    surface: pygame.Surface
    plot: pygame.Rect
    """The plot's frame: above it the names and the caption, below it the move numbers and the legend."""
    texts: tuple[pygame.Rect, ...]
    """The texts inside the plot: whose lead each side is, the marked moves' numbers, the last value."""
    legend: pygame.Rect | None
    """The marker colours' legend under the plot (None when no move is marked)."""


def render_eval_graph(
    review: Review,
    size: tuple[int, int] = DEFAULT_SIZE,
    names: Sequence[str] | None = None,
    fonts: theme.Fonts | None = None,
    text_scale: float | None = None,
) -> pygame.Surface:
    """The graph as a new opaque surface of ``size`` pixels.

    ``names`` overrides the review's player names (the window may show
    shortened ones); ``fonts`` lets the window share its text cache.
    ``text_scale`` sets the size of text and margins (1.0: as at the default
    size) instead of deriving it from ``size``: a wide, low strip under the
    board still wants readable labels.
    """
    return draw_eval_graph(review, size, names, fonts, text_scale).surface


def draw_eval_graph(
    review: Review,
    size: tuple[int, int] = DEFAULT_SIZE,
    names: Sequence[str] | None = None,
    fonts: theme.Fonts | None = None,
    text_scale: float | None = None,
    par_line: str | None = None,
) -> GraphPicture:
    """``render_eval_graph``'s picture with the places of its plot and texts; ``par_line`` (``Par: +4
    for Ann``) at the right of the caption."""
    width, height = max(240, size[0]), max(140, size[1])
    names = tuple(names if names else review.names)  # as the record has them: "You" makes its own sentences
    fonts = fonts or theme.Fonts()
    # Drawn at twice the size and scaled down: pygame's thick lines, circles and
    # polygons have no anti-aliasing of their own.
    scale = None if text_scale is None else text_scale * SUPERSAMPLE
    big = _draw(review, (width * SUPERSAMPLE, height * SUPERSAMPLE), names, fonts, scale, par_line)
    return GraphPicture(
        pygame.transform.smoothscale(big.surface, (width, height)),
        _shrunk(big.plot),
        tuple(_shrunk(rect) for rect in big.texts),
        None if big.legend is None else _shrunk(big.legend),
    )


def _shrunk(rect: pygame.Rect) -> pygame.Rect:
    """A rectangle of the supersampled drawing in the picture's pixels, every pixel it touches kept."""
    left, top = rect.left // SUPERSAMPLE, rect.top // SUPERSAMPLE
    return pygame.Rect(left, top, -(-rect.right // SUPERSAMPLE) - left, -(-rect.bottom // SUPERSAMPLE) - top)


def cursor_segments(picture: GraphPicture, x: float, width: int, margin: int = 3) -> list[tuple[int, int]]:
    """Top and bottom of each piece of a vertical cursor ``width`` pixels wide at column ``x``: the
    plot's height, broken ``margin`` pixels before each text it would cross, so no text is struck through."""
    half = width / 2 + margin
    crossed = sorted(
        (rect.top - margin, rect.bottom + margin)
        for rect in picture.texts
        if rect.left - half <= x <= rect.right + half
    )
    segments, top = [], picture.plot.top
    for start, end in crossed:
        if start > top:
            segments.append((top, min(start, picture.plot.bottom)))
        top = max(top, end)
    if top < picture.plot.bottom:
        segments.append((top, picture.plot.bottom))
    return [(start, end) for start, end in segments if end > start]


def _scale(width: int, height: int) -> float:
    return max(0.6, min(width / DEFAULT_SIZE[0], height / DEFAULT_SIZE[1]))


def _plot_x(width: int, scale: float) -> tuple[int, int]:
    """Left and right edge of the plot on a drawing ``width`` pixels wide."""
    return round(56 * scale), width - round(22 * scale)


def plot_x_span(size: tuple[int, int], text_scale: float | None = None) -> tuple[float, float]:
    """Left and right edge of the plot in a ``render_eval_graph(review, size, text_scale=...)`` picture.

    The window maps a click on the graph to a move with it (``ply_at``), so the
    drawing and the click cannot disagree about where a move is.
    """
    width, height = max(240, size[0]), max(140, size[1])
    big_w, big_h = width * SUPERSAMPLE, height * SUPERSAMPLE
    scale = _scale(big_w, big_h) if text_scale is None else text_scale * SUPERSAMPLE
    left, right = _plot_x(big_w, scale)
    return left / SUPERSAMPLE, right / SUPERSAMPLE


def x_of_ply(size: tuple[int, int], moves: int, ply: int, text_scale: float | None = None) -> float:
    """Where the curve is after ``ply`` of ``moves`` moves (0: the start), in picture pixels."""
    left, right = plot_x_span(size, text_scale)
    return left + (right - left) * ply / max(1, moves)


def ply_at(size: tuple[int, int], moves: int, x: float, text_scale: float | None = None) -> int:
    """The number of moves (0..moves) whose point on the curve is nearest to picture column ``x``."""
    left, right = plot_x_span(size, text_scale)
    return max(0, min(moves, round((x - left) / max(1.0, right - left) * max(1, moves))))


def _draw(
    review: Review,
    size: tuple[int, int],
    names: Sequence[str],
    fonts: theme.Fonts,
    scale: float | None = None,
    par_line: str | None = None,
) -> GraphPicture:
    width, height = size
    scale = _scale(width, height) if scale is None else scale
    surface = pygame.Surface((width, height))
    surface.fill(BACKGROUND)

    title_size, label_size = TITLE_SIZE * scale, LABEL_SIZE * scale
    top = _draw_title(surface, review, names, fonts, title_size, label_size, par_line)
    left, right = _plot_x(width, scale)
    plot = pygame.Rect(left, top, right - left, height - top - round(50 * scale))
    pygame.draw.rect(surface, PLOT_BACKGROUND, plot.inflate(2, 2), border_radius=round(6 * scale))

    evals = review.evals
    limit, step = _value_axis(evals)
    moves = max(1, len(evals) - 1)

    def to_x(ply: float) -> float:
        return plot.left + plot.width * ply / moves

    def to_y(value: float) -> float:
        return plot.top + plot.height * (limit - value) / (2 * limit)

    zero = to_y(0)
    _draw_value_axis(surface, plot, limit, step, to_y, fonts, label_size)
    _draw_move_axis(surface, plot, moves, to_x, fonts, label_size)
    points = [(to_x(ply), to_y(value)) for ply, value in enumerate(evals)]
    _draw_areas(surface, plot, points, zero)
    pygame.draw.line(
        surface, theme.IVORY_FAINT, (plot.left, round(zero)), (plot.right - 1, round(zero)), max(2, round(2 * scale))
    )
    _draw_curve(surface, points, review.evals_exact, scale)
    texts = _draw_side_labels(surface, plot, names, fonts, label_size, zero)  # over the curve: it never crosses them
    texts += _draw_markers(surface, review, to_x, to_y, fonts, label_size, scale)
    texts.append(_draw_end_label(surface, plot, points[-1], evals[-1], fonts, label_size))
    legend = _draw_legend(surface, plot, review, fonts, label_size * 0.95, scale)
    return GraphPicture(surface, plot, tuple(texts), legend)


def save_eval_graph(
    review: Review,
    path: str | Path,
    size: tuple[int, int] = DEFAULT_SIZE,
    names: Sequence[str] | None = None,
) -> None:
    """Render the graph and write it as an image (PNG for a ``.png`` path)."""
    image = io.BytesIO()
    pygame.image.save(render_eval_graph(review, size, names), image, "graph.png")
    write_atomically(path, image.getvalue())  # never over a FIFO or a device, never half an image


# -- axes --------------------------------------------------------------------------------------


def _value_axis(evals: Sequence[int]) -> tuple[int, int]:
    """A symmetric range around 0 and a tick step: at most 4 ticks on each side."""
    biggest = max([4, *(abs(value) for value in evals)])
    step = next((step for step in NICE_STEPS if biggest / step <= 4), NICE_STEPS[-1])
    limit = step * math.ceil(biggest / step)
    if limit - biggest < step * 0.15:
        limit += step  # headroom: the curve never grazes the frame
    return limit, step


def _move_step(moves: int) -> int:
    return next((step for step in (1, 2, 5, 10, 20, 50) if moves / step <= 14), 100)


def _draw_value_axis(
    surface: pygame.Surface, plot: pygame.Rect, limit: int, step: int, to_y: Scale, fonts: theme.Fonts, size: float
) -> None:
    unit = size / LABEL_SIZE
    for value in range(-limit, limit + 1, step):
        y = round(to_y(value))
        if value:
            pygame.draw.line(surface, GRID, (plot.left, y), (plot.right - 1, y), max(1, round(unit)))
        label = fonts.text(f"{value:+d}" if value else "0", size, theme.IVORY_DIM)
        surface.blit(label, label.get_rect(midright=(plot.left - round(8 * unit), y)))


def _draw_move_axis(
    surface: pygame.Surface, plot: pygame.Rect, moves: int, to_x: Scale, fonts: theme.Fonts, size: float
) -> None:
    unit = size / LABEL_SIZE
    step = _move_step(moves)
    for ply in range(0, moves + 1, step):
        x = round(to_x(ply))
        pygame.draw.line(surface, GRID, (x, plot.top), (x, plot.bottom - 1), max(1, round(unit)))
        pygame.draw.line(
            surface, theme.IVORY_FAINT, (x, plot.bottom), (x, plot.bottom + round(4 * unit)), max(1, round(unit))
        )
        label = fonts.text(str(ply), size, theme.IVORY_DIM)
        surface.blit(label, label.get_rect(midtop=(x, plot.bottom + round(6 * unit))))
    title = fonts.text(_("move"), size, theme.IVORY_FAINT)
    surface.blit(title, title.get_rect(topright=(plot.right, plot.bottom + round(6 * unit) + round(size * 1.4))))


# -- title and labels --------------------------------------------------------------------------


def _draw_title(
    surface: pygame.Surface,
    review: Review,
    names: Sequence[str],
    fonts: theme.Fonts,
    title_size: float,
    label_size: float,
    par_line: str | None = None,
) -> int:
    """Names and result on the first line, what the curve means on the second (and at its right the
    deal's par, where the curve of a game graded from move 1 starts); returns their bottom."""
    left, y = round(title_size * 0.9), round(title_size * 0.6)
    right = surface.get_width() - left
    shown = (shown_name(names[0]), shown_name(names[1]))
    first = fonts.text(shown[0], title_size, theme.PLAYER_COLOURS[0], bold=True)
    versus = fonts.text("  " + _("vs") + "  ", title_size, theme.IVORY_DIM)
    outcome = fonts.text(_outcome(review, names), title_size * 0.85, theme.GOLD, bold=True)
    room = right - left - outcome.get_width() - versus.get_width() - round(title_size)
    first = fonts.text(
        fonts.fit(shown[0], title_size, room // 2, bold=True), title_size, theme.PLAYER_COLOURS[0], bold=True
    )
    second = fonts.text(
        fonts.fit(shown[1], title_size, room // 2, bold=True), title_size, theme.PLAYER_COLOURS[1], bold=True
    )
    x = left
    for part in (first, versus, second):
        surface.blit(part, (x, y))
        x += part.get_width()
    surface.blit(outcome, outcome.get_rect(bottomright=(right, y + first.get_height() - round(title_size * 0.1))))
    y += first.get_height() + round(label_size * 0.3)
    caption = _("Projected final margin under perfect play after each move")
    if not review.exact:
        caption += _(" (dashed: estimate)")
    room = right - left
    if par_line is not None:
        par = fonts.text(par_line, label_size, theme.GOLD, bold=True)
        surface.blit(par, par.get_rect(topright=(right, y)))
        room -= par.get_width() + round(label_size)
    text = fonts.text(fonts.fit(caption, label_size, room), label_size, theme.IVORY_DIM)
    surface.blit(text, (left, y))
    return y + text.get_height() + round(label_size * 0.9)


def _outcome(review: Review, names: Sequence[str]) -> str:
    if not review.complete:
        return _("review stopped after move {len} of {moves_in_record}").format(
            len=len(review.moves), moves_in_record=review.moves_in_record
        )
    result = review.result
    if result is not None:
        return result.describe((names[0], names[1]))
    return _("unfinished, {final_scores}-{final_scores2}").format(
        final_scores=review.final_scores[0], final_scores2=review.final_scores[1]
    )


def _draw_side_labels(
    surface: pygame.Surface, plot: pygame.Rect, names: Sequence[str], fonts: theme.Fonts, size: float, zero: float
) -> list[pygame.Rect]:
    """Which side of the zero line is whose lead, inside the plot's left corners, each on a patch of
    the plot's own ground (a curve that starts far from zero would run through the words); where
    they went."""
    drawn = []
    for player, anchor in ((0, "topleft"), (1, "bottomleft")):
        label = fonts.text(
            fonts.fit(about(names[player], _("You ahead"), _("{name} ahead")), size, plot.width // 3),
            size,
            theme.PLAYER_COLOURS[player],
        )
        inset = round(size * 0.6)
        spot = (plot.left + inset, plot.top + inset) if player == 0 else (plot.left + inset, plot.bottom - inset)
        rect = label.get_rect(**{anchor: spot})
        if abs(rect.centery - zero) > size:
            patch = rect.inflate(round(size * 0.5), round(size * 0.2))
            pygame.draw.rect(surface, PLOT_BACKGROUND, patch, border_radius=round(size * 0.3))
            surface.blit(label, rect)
            drawn.append(patch)
    return drawn


# -- the curve ---------------------------------------------------------------------------------


def _with_crossings(points: Sequence[Point], zero: float) -> list[Point]:
    """The curve with a point added wherever it crosses the zero line, for clean fills."""
    result = [points[0]]
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if (y0 - zero) * (y1 - zero) < 0:
            t = (zero - y0) / (y1 - y0)
            result.append((x0 + (x1 - x0) * t, zero))
        result.append((x1, y1))
    return result


def _draw_areas(surface: pygame.Surface, plot: pygame.Rect, points: Sequence[Point], zero: float) -> None:
    """Shade player 1's lead above the zero line and player 2's below, translucent over the grid."""
    if len(points) < 2:
        return
    outline = _with_crossings(points, zero)
    polygon = [(outline[0][0], zero), *outline, (outline[-1][0], zero)]
    layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    above = pygame.Rect(plot.left, plot.top, plot.width, max(0, round(zero) - plot.top))
    below = pygame.Rect(plot.left, round(zero), plot.width, max(0, plot.bottom - round(zero)))
    for rect, colour in ((above, theme.PLAYER_COLOURS[0]), (below, theme.PLAYER_COLOURS[1])):
        layer.set_clip(rect)
        pygame.draw.polygon(layer, (*colour, FILL_ALPHA), polygon)
    layer.set_clip(None)
    surface.blit(layer, (0, 0))


def _draw_curve(surface: pygame.Surface, points: Sequence[Point], exact: Sequence[bool], scale: float) -> None:
    width = max(2, round(2.2 * scale))
    if len(points) == 1:
        pygame.draw.circle(surface, CURVE, points[0], width + 1)
        return
    for index, (start, end) in enumerate(zip(points, points[1:], strict=False)):
        if exact[index] and exact[index + 1]:
            pygame.draw.line(surface, CURVE, start, end, width)
            # Fill the notch a thick line leaves at a bend.
            pygame.draw.circle(surface, CURVE, end, width / 2 - 0.5)
        else:
            _dashed_line(surface, theme.IVORY_DIM, start, end, width, round(7 * scale))


def _dashed_line(surface: pygame.Surface, colour: Colour, start: Point, end: Point, width: int, dash: int) -> None:
    length = math.dist(start, end)
    if length == 0:
        return
    dx, dy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    position = 0.0
    while position < length:
        stop = min(length, position + dash)
        a = (start[0] + dx * position, start[1] + dy * position)
        b = (start[0] + dx * stop, start[1] + dy * stop)
        pygame.draw.line(surface, colour, a, b, width)
        position += dash * 1.8


def _draw_markers(
    surface: pygame.Surface, review: Review, to_x: Scale, to_y: Scale, fonts: theme.Fonts, size: float, scale: float
) -> list[pygame.Rect]:
    """A dot where each mistake or blunder landed, with the chess sign (? or ??) and move number; where
    the numbers went."""
    drawn = []
    radius = max(4, round(5.5 * scale))
    for move in review.moves:
        if move.classification not in MARKED_CLASSES:
            continue
        colour = CLASS_COLOURS[move.classification]
        point = (to_x(move.number), to_y(move.eval_after))
        pygame.draw.circle(surface, PLOT_BACKGROUND, point, radius + round(2 * scale))
        pygame.draw.circle(surface, colour, point, radius)
        label = fonts.text(f"{move.number}{CLASS_SIGNS[move.classification]}", size, colour, bold=True)
        # The label goes on the side away from where the curve came from, so it stays readable.
        above = move.eval_after >= move.eval_before
        gap = radius + round(3 * scale)
        rect = (
            label.get_rect(midbottom=(point[0], point[1] - gap))
            if above
            else label.get_rect(midtop=(point[0], point[1] + gap))
        )
        rect.clamp_ip(surface.get_rect())
        surface.blit(label, rect)
        drawn.append(rect)
    return drawn


def _draw_end_label(
    surface: pygame.Surface, plot: pygame.Rect, point: Point, value: int, fonts: theme.Fonts, size: float
) -> pygame.Rect:
    """The last value, next to the end of the curve; where it went."""
    label = fonts.text(f"{value:+d}" if value else "0", size * 1.05, theme.GOLD_BRIGHT, bold=True)
    rect = label.get_rect(midright=(point[0] - size * 0.6, point[1] - size * 1.1))
    rect.clamp_ip(plot.inflate(-round(size * 0.3), -round(size * 0.3)))
    surface.blit(label, rect)
    return rect


def _draw_legend(
    surface: pygame.Surface, plot: pygame.Rect, review: Review, fonts: theme.Fonts, size: float, scale: float
) -> pygame.Rect | None:
    """The marker colours, bottom left under the plot (only the classes that occur); where it went."""
    present = [name for name in MARKED_CLASSES if any(move.classification == name for move in review.moves)]
    x = plot.left
    y = plot.bottom + round(6 * scale) + round(size * 1.45)
    radius = max(3, round(5 * scale))
    drawn = None
    for name in present:
        colour = CLASS_COLOURS[name]
        label = fonts.text(f"{CLASS_SIGNS[name]} {grade_word(name)}", size, theme.IVORY_DIM)
        centre_y = y + label.get_height() // 2
        pygame.draw.circle(surface, colour, (x + radius, centre_y), radius)
        text = surface.blit(label, (x + 2 * radius + round(5 * scale), y))
        entry = text.union(pygame.Rect(x, centre_y - radius, 2 * radius, 2 * radius))
        drawn = entry if drawn is None else drawn.union(entry)
        x += 2 * radius + round(5 * scale) + label.get_width() + round(16 * scale)
    return drawn
