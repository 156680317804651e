"""The end of a game: both scores, the margin, the winner, and what to do next.

An overlay on the finished game (which stays visible, dimmed, underneath), with
Rematch (same deal, sides swapped), New game, and Review (every move graded
against perfect play, in the review screen; Esc closes the card to browse the moves).
A game of a catalogued deal played to its end also shows the deal's par, and under
each score how far that player's result is from par (``par_words``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame
from pygame_gui.core import ObjectID

from battle.i18n import N_, _, ngettext
from battle.rules.wording import about, shown_name
from battle.ui.art import theme
from battle.ui.play.par_words import ParComparison, compare_with_par, par_phrase
from battle.ui.scene import Scene
from battle.ui.widgets.buttons import Button

if TYPE_CHECKING:
    from battle.atlas.catalogue import Par
    from battle.rules.game import Result
    from battle.ui.match import Match
    from battle.ui.scene import Host


class FinishedGame(Protocol):
    """What the result card reads of the finished game's screen (``play_scene.PlayScene``)."""

    @property
    def match(self) -> Match: ...

    def par(self) -> Par | None: ...

    def par_deal(self) -> int | None: ...


FADE_SECONDS = 0.25
"""The veil over the finished game darkens over this time."""
PAR_CHECK_SECONDS = 1.0
"""While the par is worked out, the card looks once a second at the least it can be."""
PAR_ROOM = 48
"""The card's extra height for par, at the design size: a line under each score and the par line."""


class ResultScene(Scene):
    overlay = True
    choices: tuple[tuple[str, str, str], ...] = (
        ("rematch", N_("Rematch"), N_("Same deal, sides swapped (Enter)")),
        ("new", N_("New game"), N_("Choose players and a deal (N)")),
        ("review", N_("Review"), N_("Grade every move against perfect play (V)")),
    )
    """The card's buttons, left to right: the command each sends, its label, its tool tip."""

    def __init__(self, app: Host, play: FinishedGame) -> None:
        super().__init__(app)
        self.play = play
        self.clock = 0.0
        self.buttons: dict[str, Button] = {}
        self._par_shown: bool | None = None
        """Whether the card drew the par's lines (None before its first frame)."""

    def card_rect(self) -> pygame.Rect:
        layout = self.app.layout
        scale = layout.scale
        width = min(round(500 * scale), layout.window[0] - 20)
        # the par's room is kept while it is worked out, so that the card does not grow when it comes
        par_room = PAR_ROOM if self.par_comparison() or self.par_pending() else 0
        height = round((330 + par_room) * scale) + self._more_detail_lines(width) * round(20 * scale)
        height = min(height, layout.window[1] - 20)
        rect = pygame.Rect(0, 0, max(100, width), max(100, height))
        rect.center = layout.mat.center
        return rect

    def _more_detail_lines(self, width: int) -> int:
        """Lines the sentence under the scores takes beyond its first (a game that left tiles, in German:
        two at 800x600), each given its room so that the par's line stays clear of the buttons."""
        details = self.card_text()[1]
        size = 15 * self.app.layout.scale
        return max(0, len(self.app.fonts.wrap(details, size, width - 40, max_lines=2)) - 1) if details else 0

    def build_ui(self) -> None:
        rect = self.card_rect()
        scale = self.app.layout.scale
        pad = round(22 * scale)
        gap = round(10 * scale)
        height = max(20, round(40 * scale))
        width = max(20, (rect.w - 2 * pad - 2 * gap) // 3)
        y = rect.bottom - pad - height
        self.buttons = {}
        for index, (key, label, tip) in enumerate(self.choices):
            object_id = ObjectID(object_id="#primary") if key == "rematch" else None
            button = Button(
                pygame.Rect(rect.x + pad + index * (width + gap), y, width, height),
                _(label),
                self.app.manager,
                tool_tip_text=_(tip),
                object_id=object_id,
            )
            self.buttons[key] = button
            self.elements.append(button)

    def controls(self) -> dict[str, Button]:
        return self.buttons

    def command(self, name: str) -> None:
        self.choose(name)

    def handle_input(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.choose("rematch")
            elif event.key == pygame.K_n:
                self.choose("new")
            elif event.key in (pygame.K_v, pygame.K_ESCAPE):
                self.choose("review" if event.key == pygame.K_v else "close")

    def choose(self, what: str) -> None:
        if what == "rematch":
            self.app.start_match(self.play.match.rematch(), _("Rematch: the same deal with the sides swapped."), "good")
        elif what == "new":
            self.app.show_title()
        elif what == "review":
            self.app.open_review(self.play.match.game)
        elif what == "close":
            self.app.stack.pop()

    def update(self, dt: float) -> None:
        self.clock += dt
        known = self.par_comparison() is not None
        if self._par_shown is not None and known != self._par_shown:  # the par came while the card was up
            self.on_resize()  # its lines take their room
        self._par_shown = known

    def next_frame_in(self) -> float | None:
        if self.clock < FADE_SECONDS:
            return 0.0  # the veil fades in, then nothing moves
        if self._par_shown is not None and (self.par_comparison() is not None) != self._par_shown:
            return 0.0  # the par came after this frame's update: the next frame shows it, not the next input
        return PAR_CHECK_SECONDS if self.par_pending() is not None else None

    def result(self) -> Result | None:
        """The result the card shows: the finished game's."""
        return self.play.match.game.result()

    def card_text(self) -> tuple[str, str]:
        """The card's headline and the line under the scores, as the player reads them."""
        game = self.play.match.game
        result = self.result()
        if result is None:
            return "", ""
        return result_headline(result, game.names), result_details(result, game.position.tiles_left())

    def par_comparison(self) -> ParComparison | None:
        """Each player's result against the deal's par, when the deal is catalogued and the game was
        played to its end (a resigned game has no result to compare)."""
        game = self.play.match.game
        par = self.play.par()
        result = self.result()
        if par is None or result is None or not game.position.is_over():
            return None
        first = game.start.to_move
        return compare_with_par(result.scores, par.value, first, game.names[first - 1])

    def par_pending(self) -> str | None:
        """The card's par line while the par is worked out in the background (with the least it can
        be, once known); None when the par is known or nobody works it out."""
        finder = self.app.par_finder
        number = self.play.par_deal()
        game = self.play.match.game
        if finder is None or number is None or self.play.par() is not None or not finder.working_on(number):
            return None
        if not game.position.is_over():
            return None
        if finder.on_battery:
            return _("Par: waits for mains power (the computer runs on its battery).")
        bound = finder.lower_bound(number)
        if bound is None:
            return _("Par: being worked out in the background...")
        first = game.names[game.start.to_move - 1]
        return _("Par: being worked out; at least {par_phrase}.").format(par_phrase=par_phrase(bound, first))

    def draw(self, surface: pygame.Surface) -> None:
        fonts = self.app.fonts
        scale = self.app.layout.scale
        game = self.play.match.game
        result = self.result()
        fade = min(1.0, self.clock / FADE_SECONDS)
        theme.draw_veil(surface, round(120 * fade))
        rect = self.card_rect()
        theme.draw_overlay_card(surface, rect, scale, shadow=True)
        if result is None:
            return
        cx = rect.centerx
        y = rect.y + round(22 * scale)
        label = fonts.text(_("GAME OVER"), 14 * scale, theme.GOLD, bold=True)
        surface.blit(label, label.get_rect(midtop=(cx, y)))
        y += label.get_height() + round(6 * scale)
        headline, details = self.card_text()
        title = fonts.text(fonts.fit(headline, 32 * scale, rect.w - 40, bold=True), 32 * scale, theme.IVORY, bold=True)
        surface.blit(title, title.get_rect(midtop=(cx, y)))
        y += title.get_height() + round(16 * scale)

        compared = self.par_comparison()
        column = rect.w // 4
        for player in (1, 2):
            x = cx + (-1 if player == 1 else 1) * column
            colour = theme.PLAYER_COLOURS[player - 1]
            shown = shown_name(game.names[player - 1])
            name = fonts.text(fonts.fit(shown, 16 * scale, column * 2 - 30), 16 * scale, colour)
            surface.blit(name, name.get_rect(midtop=(x, y)))
            won = result.winner == player
            score = fonts.text(
                str(result.scores[player - 1]), 44 * scale, theme.GOLD_BRIGHT if won else theme.IVORY, bold=True
            )
            score_rect = surface.blit(score, score.get_rect(midtop=(x, y + name.get_height() + round(2 * scale))))
            if compared is not None:
                difference = compared.differences[player - 1]
                colour = theme.GOLD_BRIGHT if difference > 0 else theme.IVORY_DIM if difference < 0 else theme.IVORY
                words = compared.words[player - 1]
                line = fonts.text(fonts.fit(words, 14 * scale, column * 2 - 20), 14 * scale, colour)
                surface.blit(line, line.get_rect(midtop=(x, score_rect.bottom)))
        dash = fonts.text("-", 36 * scale, theme.IVORY_FAINT, bold=True)
        surface.blit(dash, dash.get_rect(center=(cx, score_rect.centery)))
        y += round((100 + (PAR_ROOM // 2 if compared is not None else 0)) * scale)

        for words in fonts.wrap(details, 15 * scale, rect.w - 40, max_lines=2):  # a called-off game's sentence is long
            text = fonts.text(words, 15 * scale, theme.IVORY_DIM)
            surface.blit(text, text.get_rect(midtop=(cx, y)))
            y += text.get_height()
        pending = None if compared is not None else self.par_pending()
        if compared is not None or pending is not None:
            y += round(4 * scale)
            sentence = compared.sentence if compared is not None else pending
            colour = theme.GOLD if compared is not None else theme.IVORY_DIM
            line = fonts.text(fonts.fit(sentence or "", 15 * scale, rect.w - 40), 15 * scale, colour)
            surface.blit(line, line.get_rect(midtop=(cx, y)))


def result_headline(result: Result, names: tuple[str, str]) -> str:
    """The card's title: "A draw!", "Alice wins!", "You win!"."""
    if result.winner is None:
        return _("A draw!")
    return about(names[result.winner - 1], _("You win!"), _("{name} wins!"))


def result_details(result: Result, tiles_left: int) -> str:
    """The line under the scores: the margin, and why tiles stayed on the board."""
    if result.winner is None:
        count = result.scores[0]
        text = ngettext("Both took {count} point.", "Both took {count} points.", count).format(count=count)
    else:
        count = result.margin
        text = ngettext("Won by {count} point.", "Won by {count} points.", count).format(count=count)
    if not tiles_left:
        return text
    left = ngettext(
        "{count} tile stayed on the board: no free pair was left.",
        "{count} tiles stayed on the board: no free pair was left.",
        tiles_left,
    ).format(count=tiles_left)
    return f"{text} {left}"  # two whole sentences
