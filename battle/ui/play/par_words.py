"""A deal's par in words, and each player's result against it, the way bridge compares scores across tables.

Par is the final margin of the player who moves first when both play perfectly (the deal
catalogue's value). A player's result against par is their own final margin less their par:
with par +4 for Alice, Alice winning by 10 is 6 points better than par and Bob, losing by 10,
6 worse; a draw is 4 worse for Alice and 4 better for Bob. No pygame here.
"""

from __future__ import annotations

from dataclasses import dataclass

from battle.i18n import _, ngettext, pgettext
from battle.rules.wording import about


def par_phrase(value: int, first: str) -> str:
    """``+4 for Alice`` (``+4 for you``), or ``even``."""
    if value == 0:
        return pgettext("par", "even")
    return about(first, _("{value:+d} for you"), _("{value:+d} for {name}"), value=value)


def par_headline(value: int, first: str) -> str:
    """The panel's line before move 1: ``Par: +4 for Alice``."""
    return _("Par: {par_phrase}").format(par_phrase=par_phrase(value, first))


def par_meaning(value: int, first: str) -> str:
    """What par means, under the headline."""
    if value == 0:
        return _("a draw if both play perfectly")
    return about(
        first, _("Your final margin if both play perfectly"), _("{name}'s final margin if both play perfectly")
    )


def par_sentence(value: int, first: str) -> str:
    """The result card's line: ``Par: +4 for Alice under perfect play.``"""
    if value == 0:
        return _("Par: even (a draw under perfect play).")
    return _("Par: {par_phrase} under perfect play.").format(par_phrase=par_phrase(value, first))


def against_par(scores: tuple[int, int], par: int, first: int) -> tuple[int, int]:
    """Each player's final margin less their par, player 1 first: above 0 is better than par.

    ``par`` is the margin of ``first`` (the player who moved first, 1 or 2); the other player's par
    is its opposite, so the two differences are opposites too.
    """
    margin = scores[0] - scores[1]
    difference = margin - (par if first == 1 else -par)
    return difference, -difference


def against_par_words(difference: int) -> str:
    """``6 points better than par``, ``1 point worse than par``, ``on par``."""
    if difference == 0:
        return _("on par")
    points = abs(difference)
    if difference > 0:
        return ngettext("{count} point better than par", "{count} points better than par", points).format(count=points)
    return ngettext("{count} point worse than par", "{count} points worse than par", points).format(count=points)


@dataclass(frozen=True)
class ParComparison:
    """A finished game against its deal's par, as the result card shows it."""

    sentence: str
    """``Par: +4 for Alice under perfect play.``"""
    differences: tuple[int, int]
    """Each player's final margin less their par, player 1 first."""

    @property
    def words(self) -> tuple[str, str]:
        """What the card says under each score: ``6 points better than par``, ``on par``."""
        return against_par_words(self.differences[0]), against_par_words(self.differences[1])


def compare_with_par(scores: tuple[int, int], par: int, first: int, first_name: str) -> ParComparison:
    """The final ``scores`` against ``par``, the margin of player ``first`` (named ``first_name``)."""
    return ParComparison(par_sentence(par, first_name), against_par(scores, par, first))
