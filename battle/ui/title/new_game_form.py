"""The title's new-game form: hot seat or against the solver, the names, the level, who moves first,
and which deal (a random or numbered one, a fair one, the deal of the day: ``deal_choice``).

The form keeps its values across rebuilds (a resize, switching the mode or the kind of deal);
the chosen names, level, mode and kind of deal go into the settings when a game starts. The
title screen (``title_scene``) places the form's rows on its card among its own buttons, hands
it the lists' new choices and asks it for the new game's match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
from pygame_gui.core import UIElement
from pygame_gui.elements import UILabel, UITextEntryLine

from battle.i18n import N_, _
from battle.rules.errors import BattleError
from battle.rules.wording import level_word
from battle.ui.match import Match, new_match
from battle.ui.title.deal_choice import (
    FAIRNESS,
    FAIRNESS_BY_KEY,
    KIND_LABELS,
    NoCataloguedDeal,
    availability,
    pick_deal,
)
from battle.ui.widgets.form_rows import FormRows
from battle.ui.widgets.hud import StatusLine

if TYPE_CHECKING:
    from battle.atlas.catalogue import Catalogue
    from battle.ui.scene import Host

MODE_LABELS = {"hotseat": N_("Two players, one screen"), "solver": N_("Against the solver")}
FIRST_LABELS = {True: N_("You move first"), False: N_("The solver moves first")}
"""The lists' choices in English, shown (and read back) through the catalogue: ``_(label)``."""
ENTRIES = ("player1", "player2", "human_name", "deal")
"""The form's text fields, by widget name."""


@dataclass(frozen=True)
class FormChange:
    """What a list's new choice asks of the title: rebuild the form's rows, count the fitting deals."""

    rebuild: bool = False
    recount: bool = False


@dataclass(frozen=True)
class NewGame:
    """The match the form asks for, and the note about its deal (a fair deal's figures), if any."""

    match: Match
    notice: str | None


class NewGameForm:
    """The form's values (see the module docstring), its rows of widgets and the match they make."""

    def __init__(self, app: Host) -> None:
        self.app = app
        settings = app.settings
        self.mode = settings.mode
        self.values = {
            # the default names (the settings' English) in the player's language; a chosen name as it is
            "player1": _("Player 1") if settings.player1 == "Player 1" else settings.player1,
            "player2": _("Player 2") if settings.player2 == "Player 2" else settings.player2,
            "human_name": settings.human_name,
            "deal": "",
        }
        self.level = settings.level if settings.level in app.level_names else app.default_level
        self.human_first = settings.human_first
        self.deal_kind = settings.deal_kind
        self.fairness = FAIRNESS_BY_KEY.get(settings.fairness, FAIRNESS[0])

    def rows(self) -> int:
        """How many rows the form takes on the card: the game, the players or the solver's two, the deal."""
        return 4 if self.mode == "hotseat" else 5

    def build(self, rows: FormRows, y: int, gap: int, wide: bool) -> int:
        """Add the form's rows from ``y`` down (with ``wide``, the level's description beside its list);
        returns the top of what follows."""
        row_h = rows.row_h
        rows.label(_("Game"), y)
        rows.menu("mode", rows.field_rect(y), [_(label) for label in MODE_LABELS.values()], _(MODE_LABELS[self.mode]))
        y += row_h + gap
        if self.mode == "hotseat":
            for key, text in (("player1", _("Player 1")), ("player2", _("Player 2"))):
                rows.field(key, text, y, self.values[key], text, 40)
                y += row_h + gap
        else:
            rows.field("human_name", _("Your name"), y, self.values["human_name"], _("You"), 40)
            y += row_h + gap
            rows.label(_("Solver"), y)
            level_w = round(rows.field_w * 0.42) if wide else rows.field_w
            levels = [level_word(level) for level in self.app.level_names]
            rows.menu("level", rows.field_rect(y, level_w), levels, level_word(self.level))
            if wide:
                beside = pygame.Rect(rows.field_x + level_w + 10, y, rows.field_w - level_w - 10, row_h)
                rows.note("level_help", beside, self.app.level_description(self.level))
            y += row_h + gap
            rows.label(_("Order"), y)
            firsts = [_(label) for label in FIRST_LABELS.values()]
            rows.menu("first", rows.field_rect(y), firsts, _(FIRST_LABELS[self.human_first]))
            y += row_h + gap

        rows.label(_("Deal"), y)
        self._deal_row(rows, y)
        return y + row_h + gap + round(8 * self.app.layout.scale)

    def _deal_row(self, rows: FormRows, y: int) -> None:
        """The deal's list (any, fair, of the day) and, beside it, what that kind asks: a number
        (empty: random), how fair, or nothing (the deal of the day is everyone's)."""
        x, width = rows.field_x, rows.field_w
        # "Deal of the day" and the list's arrow take about 130 px at scale 1: half the field at 800x600
        kind_w = max(round(width * 0.42), min(width // 2, round(150 * self.app.layout.scale)))
        kinds = [_(label) for label in KIND_LABELS.values()]
        rows.menu("deal_kind", rows.field_rect(y, kind_w), kinds, _(KIND_LABELS[self.deal_kind]))
        side = pygame.Rect(x + kind_w + 10, y, width - kind_w - 10, rows.row_h)
        if self.deal_kind == "number":
            rows.entry("deal", side, self.values["deal"], _("(random)"), 19)
        elif self.deal_kind == "fair":
            rows.menu("fairness", side, [_(fairness.label) for fairness in FAIRNESS], _(self.fairness.label))
        else:
            rows.note("deal_help", side, _("the same for everyone"))

    def read(self, widgets: Mapping[str, UIElement]) -> None:
        """Keep what the text fields hold (before they are rebuilt, or a game starts)."""
        for key in ENTRIES:
            entry = widgets.get(key)
            if isinstance(entry, UITextEntryLine):
                self.values[key] = entry.get_text()

    def choose(self, widgets: Mapping[str, UIElement], menu: object, text: str) -> FormChange:
        """A list's new choice (picked with the mouse or the keyboard)."""
        if menu is widgets.get("mode"):
            self.mode = next(key for key, label in MODE_LABELS.items() if _(label) == text)
            return FormChange(rebuild=True)
        if menu is widgets.get("level"):
            self.level = next((level for level in self.app.level_names if level_word(level) == text), self.level)
            help_label = widgets.get("level_help")
            if isinstance(help_label, UILabel):
                help_label.set_text(self.app.level_description(self.level))
        elif menu is widgets.get("first"):
            self.human_first = text == _(FIRST_LABELS[True])
        elif menu is widgets.get("deal_kind"):
            self.deal_kind = next(key for key, label in KIND_LABELS.items() if _(label) == text)
            return FormChange(rebuild=True, recount=True)  # the row beside the list changes with it
        elif menu is widgets.get("fairness"):
            self.fairness = next(fairness for fairness in FAIRNESS if _(fairness.label) == text)
            return FormChange(recount=True)
        return FormChange()

    def availability(self, catalogue: Callable[[], Catalogue]) -> StatusLine | None:
        """How many catalogued deals fit the choice (a fair deal, the deal of the day), or that none does."""
        if self.deal_kind == "number":
            return None
        return StatusLine(*availability(catalogue(), self.deal_kind, self.fairness))

    def solver_side(self) -> int | None:
        """The solver's side in a game the form starts (None: hot seat)."""
        if self.mode != "solver":
            return None
        return 2 if self.human_first else 1

    def new_game(self, catalogue: Callable[[], Catalogue]) -> NewGame | StatusLine:
        """The chosen game, its choices kept in the settings; or why the deal cannot be had."""
        try:
            pick = pick_deal(
                self.deal_kind, self.values["deal"], self.fairness, None if self.deal_kind == "number" else catalogue()
            )
        except BattleError as error:
            return StatusLine(_("Deal number: {error}").format(error=error), "error")
        except NoCataloguedDeal as none:
            return StatusLine(str(none), "warn")
        settings = self.app.settings
        settings.mode = self.mode
        settings.level = self.level
        settings.human_first = self.human_first
        settings.deal_kind = self.deal_kind
        settings.fairness = self.fairness.key
        if self.mode == "hotseat":
            settings.player1 = self.values["player1"].strip() or _("Player 1")
            settings.player2 = self.values["player2"].strip() or _("Player 2")
            names = (settings.player1, settings.player2)
        else:
            settings.human_name = self.values["human_name"].strip() or "You"
            names = (settings.human_name, settings.human_name)
        self.app.save_settings()
        return NewGame(new_match(pick.number, self.mode, names, self.level, self.human_first), pick.notice)
