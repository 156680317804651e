"""Which deal a new game gets: a random or numbered one, a fair one from the catalogue, or the deal of the day.

A fair deal is a catalogued deal whose par (its value under perfect play for the player who moves
first) is even, within a margin of even, or a handicap: "first player +3" gives the weaker player
the first move and a 3-point start. The deal of the day comes from the date, so everyone playing
that day gets the same one. No pygame here: the title shows the choices and their answers.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from battle.atlas.catalogue import Catalogue
from battle.i18n import N_, _, format_date, ngettext
from battle.rules.deal import parse_deal_number
from battle.rules.wording import plural
from battle.ui.files.settings import DEAL_KINDS

KIND_LABELS: dict[str, str] = dict(
    zip(DEAL_KINDS, (N_("Any deal"), N_("Fair deal"), N_("Deal of the day")), strict=True)
)
"""The title's deal list: each kind's key (kept in the settings) and its label."""


@dataclass(frozen=True)
class Fairness:
    """How close to even a fair deal's par must be."""

    key: str
    """Kept in the settings (one of ``settings.FAIRNESS_KEYS``)."""
    label: str
    """In the title's list."""
    words: str
    """In a sentence: "no catalogued deal is {words}"."""
    margin: int
    handicap: int = 0
    """The first player's points of par (the weaker player moves first)."""


FAIRNESS: tuple[Fairness, ...] = (
    Fairness("even", N_("even"), N_("even"), 0),
    Fairness("within2", N_("within 2"), N_("within 2 points of even"), 2),
    Fairness("within5", N_("within 5"), N_("within 5 points of even"), 5),
    Fairness("first+3", N_("first player +3"), N_("+3 for the first player"), 0, 3),
)
FAIRNESS_BY_KEY: dict[str, Fairness] = {fairness.key: fairness for fairness in FAIRNESS}


class NoCataloguedDeal(LookupError):
    """No catalogued deal fits the choice; the message says so in one line, with how many are catalogued."""


def today() -> datetime.date:
    """The date the deal of the day is picked for (tests put another day here)."""
    return datetime.date.today()


@dataclass(frozen=True)
class DealPick:
    """The deal a new game starts from, and what the game screen says about it first."""

    number: int | None
    """None: a random deal."""
    notice: str | None = None


def pick_deal(kind: str, number_text: str, fairness: Fairness, catalogue: Catalogue | None = None) -> DealPick:
    """The deal of the title's choice: ``number_text`` (empty: random) for "number", else from ``catalogue``.

    Raises ``BattleError`` for a number that is not a deal's, ``NoCataloguedDeal`` when no deal fits.
    """
    if kind == "number":
        return DealPick(parse_deal_number(number_text.strip()) if number_text.strip() else None)
    assert catalogue is not None, "a fair deal and the deal of the day come from the catalogue"
    if kind == "daily":
        day = today()
        number = daily_deal(catalogue, day)
        return DealPick(
            number,
            _("Deal of the day for {date}: deal {number}, the same for everyone.").format(
                # TRANSLATORS: a Babel date pattern (d: the day, MMMM: the month's name)
                date=format_date(day, _("d MMMM")),
                number=number,
            ),
        )
    number = fair_deal(catalogue, fairness)
    return DealPick(number, _("Fair deal ({words}): deal {number}.").format(words=_(fairness.words), number=number))


def fair_deal(catalogue: Catalogue, fairness: Fairness, rng: random.Random | None = None) -> int:
    """A catalogued deal as fair as ``fairness`` asks, picked at random among those that are."""
    deals = catalogue.fair_deals(fairness.margin, fairness.handicap)
    if not deals:
        raise NoCataloguedDeal(
            _none_found(catalogue, _("No catalogued deal is {words}").format(words=_(fairness.words)))
        )
    return (rng or random).choice(deals)


def daily_deal(catalogue: Catalogue, day: datetime.date) -> int:
    """The deal of ``day``: the same for everyone that day (see ``Catalogue.daily_deal``)."""
    number = catalogue.daily_deal(day)
    if number is None:
        raise NoCataloguedDeal(_none_found(catalogue, _("No deal of the day")))
    return number


def availability(catalogue: Catalogue, kind: str, fairness: Fairness) -> tuple[str, str]:
    """The title's line (and its status kind) after a catalogue choice: how many deals fit."""
    if kind == "daily":
        try:
            number = daily_deal(catalogue, today())
        except NoCataloguedDeal as error:
            return str(error), "warn"
        return _("Deal of the day: deal {number}, the same for everyone today.").format(number=number), "info"
    count = len(catalogue.fair_deals(fairness.margin, fairness.handicap))
    if not count:
        return _none_found(catalogue, _("No catalogued deal is {words}").format(words=_(fairness.words))), "warn"
    total = plural(len(catalogue), "catalogued deal")
    return ngettext("{count} of the {total} is {words}.", "{count} of the {total} are {words}.", count).format(
        count=count, total=total, words=_(fairness.words)
    ), "info"


def _none_found(catalogue: Catalogue, opening: str) -> str:
    if catalogue.problems and not len(catalogue):
        return _("{opening}: the catalogue did not load ({problems}).").format(
            opening=opening, problems=catalogue.problems[0]
        )
    if not len(catalogue):
        return _("{opening}: no deal is catalogued yet ('mahjong-battle survey' solves some).").format(opening=opening)
    return _("{opening} ({plural} catalogued): choose another margin.").format(
        opening=opening, plural=plural(len(catalogue), "deal")
    )
