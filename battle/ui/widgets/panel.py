"""The side panel: who plays, the scores, whose turn it is, what is left, and the moves so far.

The scene fills a ``PanelInfo`` with plain values each frame; this module only
paints it, so what the panel shows is decided (and testable) in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import pygame

from battle.i18n import _, current_language, pgettext
from battle.rules.wording import shown_name, solver_level
from battle.ui.art import theme
from battle.ui.widgets.layout import PanelLayout, Rect, move_entry_rect

_PANEL_CACHE: dict[tuple, pygame.Surface] = {}
HEADER_TEXT_SIZE = 14
"""The header's line under the title (the deal, its par, the mode), at the design size."""


@dataclass
class PlayerInfo:
    name: str
    role: str
    """``"Player 1"``, ``"Solver · club"``..."""
    score: int
    to_move: bool
    colour: tuple[int, int, int]
    thinking: float | None = None
    """Wall-clock seconds the solver has been thinking, when it is (while ``preparing``: the seconds
    the kernels' preparation has run)."""
    preparing: bool = False
    """While thinking: the solver's move waits for the kernels' first-run compile."""
    limit: float | None = None
    """While thinking: the most seconds the move takes, said under the count (master's plain Python
    move during the first run's compile)."""
    pulse: float = 0.0
    """0..1: the score just went up."""
    winner: bool = False


@dataclass
class PanelInfo:
    players: tuple[PlayerInfo, PlayerInfo]
    start_label: str
    points_left: int
    tiles_left: int
    pairs_available: int
    game_over: bool
    moves: list[tuple[int, int, str, int]] = field(default_factory=list)
    """(number, mover, notation, points) as ``Game.move_list`` gives them."""
    first_row: int = 0
    shown_ply: int | None = None
    """While browsing: the number of moves shown (the entry of that move is highlighted)."""
    hover: int | None = None
    column_names: tuple[str, str] = ("", "")
    now: float = 0.0
    study: bool = False
    """Analysis mode: the info lines and the move list give way to the analysis box (drawn by the scene)."""
    par: tuple[str, str] | None = None
    """The deal's par and what it means (``Par: +4 for Alice``, ``Alice's final margin if both play
    perfectly``), shown in the empty move list before move 1; None when the deal is not catalogued."""


class PanelView:
    def __init__(self, fonts: theme.Fonts) -> None:
        self.fonts = fonts
        self._kept: tuple[tuple, pygame.Surface] | None = None

    def draw(self, surface: pygame.Surface, panel: PanelLayout, info: PanelInfo, scale: float) -> None:
        """The panel as ``info`` describes it. Only a thinking card's words, seconds and spinner move
        with the clock, so the pixels of the rest are kept and blitted again until ``info`` changes,
        and those parts are drawn over them. A frame that animates only the board (a picked tile's
        twins pulse at 60 fps) then costs one blit here instead of about 40: 1.1-1.2 ms a frame
        instead of 2.2-2.5 ms (median of 600, headless); while the solver thinks, 1.2-1.8 ms
        instead of 2.1-2.4 ms (``benchmarks/bench_ui.py``, four runs each), time left to the search."""
        area = pygame.Rect(panel.rect.as_tuple()).clip(surface.get_rect())
        # the surface itself too (by identity): what is kept lies on that surface's background
        key = (surface, surface.get_size(), panel, scale, current_language(), _still(info))
        if self._kept is not None and self._kept[0] == key:
            surface.blit(self._kept[1], area)
        else:
            self._paint(surface, panel, info, scale)
            self._kept = (key, surface.subsurface(area).copy())
        for index, player in enumerate(info.players):
            if player.thinking is not None:
                self._thinking(surface, panel.cards[index], player, panel.pad, scale, info.now)

    def _paint(self, surface: pygame.Surface, panel: PanelLayout, info: PanelInfo, scale: float) -> None:
        rect = panel.rect
        radius = max(6, round(14 * scale))
        key = ("panel", rect.w, rect.h, radius)
        background = _PANEL_CACHE.get(key)
        if background is None:
            background = theme.rounded_panel((rect.w, rect.h), theme.PANEL, radius, (*theme.GOLD, 60), 1)
            _PANEL_CACHE.clear()
            _PANEL_CACHE[key] = background
        surface.blit(background, (rect.x, rect.y))
        self._header(surface, panel, info, scale)
        for player in (1, 2):
            self._card(surface, panel.cards[player - 1], info.players[player - 1], panel.pad, scale, player)
        if not info.study:
            self._info(surface, panel, info, scale)
            self._moves(surface, panel, info, scale)

    # -- parts ---------------------------------------------------------------------------

    def _header(self, surface: pygame.Surface, panel: PanelLayout, info: PanelInfo, scale: float) -> None:
        fonts = self.fonts
        rect = panel.header
        mark = fonts.text("麻将", 24 * scale, theme.GOLD, bold=True)
        title = fonts.text(_("Mahjong Battle"), 21 * scale, theme.IVORY, bold=True)
        surface.blit(mark, (rect.x, rect.y))
        surface.blit(
            title,
            (rect.x + mark.get_width() + round(8 * scale), rect.y + (mark.get_height() - title.get_height()) // 2),
        )
        size = HEADER_TEXT_SIZE * scale
        sub = fonts.text(fonts.fit(info.start_label, size, rect.w), size, theme.IVORY_DIM)
        surface.blit(sub, (rect.x, rect.y + mark.get_height() + round(2 * scale)))

    def _card(
        self, surface: pygame.Surface, rect: Rect, player: PlayerInfo, pad: int, scale: float, number: int = 1
    ) -> None:
        """A player's card but what moves while its player thinks (``_thinking`` draws that over it)."""
        fonts = self.fonts
        radius = max(4, round(10 * scale))
        active = player.to_move
        fill = theme.CARD_ACTIVE if active else theme.CARD
        border = (*theme.GOLD_BRIGHT, 200) if active else (255, 255, 255, 26)
        surface.blit(theme.rounded_panel((rect.w, rect.h), fill, radius, border, 2 if active else 1), (rect.x, rect.y))
        strip = pygame.Rect(
            rect.x + round(7 * scale), rect.y + round(12 * scale), max(3, round(4 * scale)), rect.h - round(24 * scale)
        )
        # the player's numbered shape heads the colour strip: who is who without telling red from blue
        mark_r = max(5, round(6.5 * scale))
        strip.centerx = max(strip.centerx, rect.x + round(mark_r * 1.25) + 3)  # the diamond clear of the edge
        mark = theme.draw_player_mark(surface, number, (strip.centerx, strip.y + mark_r), mark_r, fonts)
        strip.h -= mark.bottom + round(4 * scale) - strip.y
        strip.y = mark.bottom + round(4 * scale)
        pygame.draw.rect(surface, player.colour, strip, border_radius=2)

        score_colour = theme.mix(theme.IVORY, theme.GOLD_BRIGHT, max(player.pulse, 0.6 if player.winner else 0))
        score = fonts.text(str(player.score), _score_size(player, scale), score_colour, bold=True)
        surface.blit(score, score.get_rect(midright=(rect.right - pad, rect.y + rect.h // 2)))

        places = self._places(rect, player, pad, scale)
        surface.blit(fonts.text(places.name, 18 * scale, theme.IVORY, bold=True), (places.text_x, places.name_y))
        for index, line in enumerate(places.lines):
            text = fonts.text(line, 14 * scale, theme.GOLD_BRIGHT if active else theme.IVORY_DIM)
            surface.blit(text, (places.text_x, places.line_y + index * places.line_h))

    def _thinking(
        self, surface: pygame.Surface, rect: Rect, player: PlayerInfo, pad: int, scale: float, now: float
    ) -> None:
        """What moves on a thinking player's card: its words and seconds under the name, and the spinner."""
        fonts = self.fonts
        places = self._places(rect, player, pad, scale)
        small = 14 * scale
        text_x, line_y, line_h = places.text_x, places.line_y, places.line_h
        if player.preparing:
            # a first run's compile: minutes on a loaded machine, so the card says what the wait is
            text = fonts.text(fonts.fit(_("preparing the solver"), small, places.text_w), small, theme.GOLD_BRIGHT)
            surface.blit(text, (text_x, line_y))
            more = _("(first run only) {seconds} s").format(seconds=f"{player.thinking:.0f}")
            surface.blit(
                fonts.text(fonts.fit(more, small, places.text_w), small, theme.IVORY_DIM), (text_x, line_y + line_h)
            )
        else:
            dots = "." * (1 + int(now * 3) % 3)
            text = fonts.text(_("thinking{dots}").format(dots=dots), small, theme.GOLD_BRIGHT)
            surface.blit(text, (text_x, line_y))
            seconds = fonts.text(f"{player.thinking:4.1f} s", small, theme.IVORY_DIM)
            widest = fonts.width(_("thinking{dots}").format(dots="..."), small)
            surface.blit(seconds, (text_x + widest + round(8 * scale), line_y))
            if player.limit is not None:
                # a first run's compile: the level plays shallower meanwhile, within its own time
                words = _("(first run: at most {seconds} s)").format(seconds=f"{player.limit:.0f}")
                surface.blit(
                    fonts.text(fonts.fit(words, small, places.text_w), small, theme.IVORY_DIM),
                    (text_x, line_y + line_h),
                )
        score_x = rect.right - pad - fonts.width(str(player.score), _score_size(player, scale), bold=True)
        self._spinner(surface, (score_x - round(18 * scale), rect.y + rect.h // 2), 7 * scale, now)

    def _places(self, rect: Rect, player: PlayerInfo, pad: int, scale: float) -> _CardPlaces:
        """Where a card's name and the lines under it go: the name and the lines centred together
        (a thinking card's lines are its words and seconds, one row or two)."""
        fonts = self.fonts
        text_x, text_w = self._text_column(rect, player, pad, scale)
        name_size = 18 * scale
        line_h = round(16 * scale)
        shown = fonts.fit(shown_name(player.name), name_size, text_w, bold=True)
        name_h = fonts.text(shown, name_size, theme.IVORY, bold=True).get_height()
        lines = [] if player.thinking is not None else self.role_lines(rect, player, pad, scale)
        two_rows = player.thinking is not None and (player.preparing or player.limit is not None)
        rows = 2 if two_rows else max(1, len(lines))
        name_y = rect.y + (rect.h - name_h - rows * line_h - round(6 * scale)) // 2
        return _CardPlaces(shown, lines, text_x, text_w, name_y, name_y + name_h + round(1 * scale), line_h)

    def _text_column(self, rect: Rect, player: PlayerInfo, pad: int, scale: float) -> tuple[int, int]:
        """Left edge and width of a card's name and role: between the colour strip and the score
        (measured without the pulse, so the lines do not re-wrap while a score swells)."""
        text_x = rect.x + round(7 * scale) + max(3, round(4 * scale)) + round(10 * scale)
        score_w = self.fonts.width(str(player.score), 32 * scale, bold=True)
        return text_x, max(10, rect.right - pad - score_w - text_x - round(8 * scale))

    def role_lines(self, rect: Rect, player: PlayerInfo, pad: int, scale: float) -> list[str]:
        """The card's line under the name (whose turn, the role), wrapped: a level's description
        takes two lines at 1200x800 and three at 800x600, which the card has room for."""
        role = _("to move  ·  {role}").format(role=player.role) if player.to_move else player.role
        _unused, width = self._text_column(rect, player, pad, scale)
        return self.fonts.wrap(role, 14 * scale, width, max_lines=3)

    def _spinner(self, surface: pygame.Surface, centre: tuple[int, int], radius: float, now: float) -> None:
        """Eight dots chasing round: the solver is at work."""
        import math

        for index in range(8):
            angle = now * 6.0 - index * math.pi / 4
            fade = 1 - index / 8
            colour = theme.mix(theme.CARD_ACTIVE[:3], theme.GOLD_BRIGHT, fade)
            point = (centre[0] + math.cos(angle) * radius, centre[1] + math.sin(angle) * radius)
            pygame.draw.circle(surface, colour, point, max(1.0, radius * 0.22 * (0.6 + 0.4 * fade)))

    def _info(self, surface: pygame.Surface, panel: PanelLayout, info: PanelInfo, scale: float) -> None:
        fonts = self.fonts
        rect = panel.info
        size = 15 * scale
        rows = [
            (_("Points on the board"), str(info.points_left)),
            (_("Tiles left"), str(info.tiles_left)),
            (_("Pairs to take now"), _("game over") if info.game_over else str(info.pairs_available)),
        ]
        line = round(rect.h / len(rows)) if rows else 0
        line = max(line, round(17 * scale))
        for index, (label, value) in enumerate(rows):
            y = rect.y + index * line
            surface.blit(fonts.text(label, size, theme.IVORY_DIM), (rect.x, y))
            value_surface = fonts.text(value, size, theme.IVORY, bold=True)
            surface.blit(value_surface, value_surface.get_rect(topright=(rect.right, y)))

    def _par(self, surface: pygame.Surface, panel: PanelLayout, par: tuple[str, str], top: int, scale: float) -> None:
        """The par before move 1: the headline in gold, what it means under it (two lines at most)."""
        fonts = self.fonts
        width = panel.moves.w
        y = top + round(12 * scale)
        headline = fonts.text(fonts.fit(par[0], 16 * scale, width, bold=True), 16 * scale, theme.GOLD_BRIGHT, bold=True)
        surface.blit(headline, (panel.moves.x, y))
        y += headline.get_height() + round(2 * scale)
        for line in fonts.wrap(par[1], 13.5 * scale, width, max_lines=2):
            text = fonts.text(line, 13.5 * scale, theme.IVORY_DIM)
            if y + text.get_height() > panel.moves.bottom:
                break
            surface.blit(text, (panel.moves.x, y))
            y += text.get_height()

    def _moves(self, surface: pygame.Surface, panel: PanelLayout, info: PanelInfo, scale: float) -> None:
        fonts = self.fonts
        header = panel.moves_header
        pygame.draw.line(surface, theme.GOLD, (header.x, header.y), (header.right, header.y), 1)
        title = fonts.text(_("Moves"), 16 * scale, theme.GOLD, bold=True)
        surface.blit(title, (header.x, header.y + (header.h - title.get_height()) // 2 + round(2 * scale)))
        half = panel.moves.w // 2
        for column, name in enumerate(info.column_names):
            if not name:
                continue
            size = 13 * scale
            # the solver's column says "Solver": its level is on its card above, and "Solver (Anfänger)" fits no column
            heading = _("Solver") if solver_level(name) is not None else shown_name(name)
            room = half - round(70 * scale)
            if fonts.width(heading, size) > room:
                heading = _narrow_seat_label(heading)
            label = fonts.text(fonts.fit(heading, size, room), size, theme.IVORY_FAINT)
            x = panel.moves.x + column * half + half - label.get_width() - round(6 * scale)
            surface.blit(label, (x, header.y + (header.h - label.get_height()) // 2 + round(2 * scale)))

        if not info.moves:
            text = fonts.text(_("No moves yet"), 14 * scale, theme.IVORY_FAINT)
            surface.blit(text, (panel.moves.x, panel.moves.y + round(4 * scale)))
            if info.par is not None:
                self._par(surface, panel, info.par, panel.moves.y + round(4 * scale) + text.get_height(), scale)
            return
        size = 14.5 * scale
        number_w = fonts.width("888.", size)
        for index, (number, mover, notation, points) in enumerate(info.moves):
            entry = move_entry_rect(panel, index, info.first_row)
            if entry is None:
                continue
            shown = info.shown_ply is not None and info.shown_ply == number
            if shown or info.hover == index:
                alpha = 70 if shown else 26
                colour = theme.GOLD if shown else (255, 255, 255)
                surface.blit(theme.rounded_panel((entry.w - 4, entry.h - 2), (*colour, alpha), 4), (entry.x, entry.y))
            cy = entry.y + entry.h // 2
            theme.draw_player_mark(surface, mover, (entry.x + round(7 * scale), cy), max(2.5, 3.5 * scale))
            x = entry.x + round(14 * scale)
            num = fonts.text(f"{number}.", size, theme.IVORY_FAINT)
            surface.blit(num, num.get_rect(midright=(x + number_w, cy)))
            move_text = fonts.text(notation, size, theme.IVORY if not shown else theme.GOLD_BRIGHT)
            surface.blit(move_text, move_text.get_rect(midleft=(x + number_w + round(6 * scale), cy)))
            pts = fonts.text(f"({points})", size, theme.GOLD)
            surface.blit(pts, pts.get_rect(midright=(entry.right - round(8 * scale), cy)))

        rows = (len(info.moves) + 1) // 2
        if rows > panel.visible_rows:
            track = panel.moves
            bar_h = max(12, round(track.h * panel.visible_rows / rows))
            top = track.y + round((track.h - bar_h) * info.first_row / max(1, rows - panel.visible_rows))
            pygame.draw.rect(surface, theme.GOLD, (track.right - 2, top, 3, bar_h), border_radius=2)


def _still(info: PanelInfo) -> tuple:
    """Everything ``info`` shows but the clock, copied (a list the scene fills later must not change
    the kept key): equal for two frames exactly when the kept part of the panel looks the same. A
    thinking player's seconds are the clock's (``_thinking`` draws them every frame); that it thinks
    is not, as its card's lines give way to them."""
    players = tuple(
        tuple(
            (getattr(player, item.name) is not None) if item.name == "thinking" else getattr(player, item.name)
            for item in fields(player)
        )
        for player in info.players
    )
    shown = (getattr(info, item.name) for item in fields(info) if item.name not in ("now", "players"))
    return players, tuple(tuple(value) if isinstance(value, list) else value for value in shown)


@dataclass(frozen=True)
class _CardPlaces:
    """A card's name (as it fits) and the lines under it, and where they go."""

    name: str
    lines: list[str]
    text_x: int
    text_w: int
    name_y: int
    line_y: int
    line_h: int


def _score_size(player: PlayerInfo, scale: float) -> float:
    """A card's score at its size: it swells while it pulses."""
    return 32 * scale * (1 + 0.18 * player.pulse)


def _narrow_seat_label(heading: str) -> str:
    """A default name's short form for a narrow column ("Sp. 1" for "Spieler 1", which 800x600 would
    cut to "Spiel…" in both columns); any other heading as it is."""
    for player in (1, 2):
        if heading == _("Player {player}").format(player=player):
            return pgettext("narrow column", "P{player}").format(player=player)
    return heading
