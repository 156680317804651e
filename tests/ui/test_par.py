"""A deal's par in the game: which games have one, the words for it, results against it, and the
title's deal choices (fair, of the day) as pure functions. The window's side is in ``test_ui_par``."""

from __future__ import annotations

import datetime
import random
from pathlib import Path

import pytest

from battle.atlas.catalogue import Catalogue, CatalogueError, Par, read_catalogue
from battle.rules.board import parse_move
from battle.rules.deal import deal
from battle.rules.errors import BattleError
from battle.rules.game import Game
from battle.ui.files.settings import FAIRNESS_KEYS, Settings, load_settings, save_settings
from battle.ui.play.par_words import against_par, compare_with_par, par_headline, par_meaning, par_sentence
from battle.ui.title import deal_choice
from battle.ui.title.deal_choice import FAIRNESS, FAIRNESS_BY_KEY, NoCataloguedDeal, availability, pick_deal


def catalogue_of(values: dict[int, int]) -> Catalogue:
    return Catalogue({number: Par(number, value, None) for number, value in values.items()})


# -- which games have a par ------------------------------------------------------------------------


def test_a_game_has_par_only_from_its_deals_start() -> None:
    catalogue = Catalogue({1: Par(1, 4, ("a1-i9",))})
    game = Game.new(1, "Alice", "Bob")
    assert catalogue.par_at_start(1, game.start) == catalogue.par(1)
    rematch = Game(game.start, "Bob", "Alice", 1)  # the same start with the sides swapped: the same par
    assert catalogue.par_at_start(rematch.deal_number, rematch.start) is not None
    game.play(game.position.legal_moves()[0])
    assert catalogue.par_at_start(1, game.position) is None  # a game begun later in the deal
    assert catalogue.par_at_start(None, deal(1)) is None  # a composed position
    assert catalogue.par_at_start(2, deal(2)) is None  # not catalogued
    assert catalogue.par_at_start(1, deal(2)) is None  # a record whose deal number and start disagree
    record = Game.from_text(Game.new(1, "Alice", "Bob").to_text())  # a game loaded from a record keeps its deal
    assert catalogue.par_at_start(record.deal_number, record.start) is not None


def test_par_gives_a_reviews_known_start() -> None:
    assert Par(1, 4, ("a1-i9", "c1-h1")).known_start() == (4, (parse_move("a1-i9"), parse_move("c1-h1")))
    assert Par(1, -2, None).known_start() == (-2, ())
    catalogue = Catalogue({1: Par(1, 4, ("a1-i9",))})
    assert catalogue.known_start(1, deal(1)) == (4, (parse_move("a1-i9"),))
    assert catalogue.known_start(1, deal(2)) is None and catalogue.known_start(None, deal(1)) is None


def test_a_catalogue_with_a_bad_move_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "catalogue.tsv"
    path.write_text("1\t4\ta1-z9\t1\t1.0\tt\n")
    with pytest.raises(CatalogueError, match="line 1: 'z9' is not a cell"):
        read_catalogue(path)


# -- the words ---------------------------------------------------------------------------------------


def test_par_in_words() -> None:
    assert par_headline(4, "Alice") == "Par: +4 for Alice" and par_headline(-3, "You") == "Par: -3 for you"
    assert par_headline(0, "Alice") == "Par: even"
    assert par_meaning(4, "Alice") == "Alice's final margin if both play perfectly"
    assert par_meaning(4, "You") == "Your final margin if both play perfectly"
    assert par_sentence(0, "Bob") == "Par: even (a draw under perfect play)."


@pytest.mark.parametrize(
    ("scores", "par", "first", "differences", "words"),
    [
        ((140, 130), 4, 1, (6, -6), ("6 points better than par", "6 points worse than par")),
        ((130, 140), 4, 1, (-14, 14), ("14 points worse than par", "14 points better than par")),
        ((135, 135), 4, 1, (-4, 4), ("4 points worse than par", "4 points better than par")),  # a draw
        ((137, 133), 4, 1, (0, 0), ("on par", "on par")),
        ((136, 134), 3, 2, (5, -5), ("5 points better than par", "5 points worse than par")),  # player 2 first
        ((135, 135), 0, 1, (0, 0), ("on par", "on par")),
        ((136, 134), 1, 1, (1, -1), ("1 point better than par", "1 point worse than par")),
    ],
)
def test_each_result_is_compared_with_its_par(
    scores: tuple[int, int], par: int, first: int, differences: tuple[int, int], words: tuple[str, str]
) -> None:
    assert against_par(scores, par, first) == differences
    compared = compare_with_par(scores, par, first, "Alice")
    assert compared.differences == differences and compared.words == words


# -- the title's deal choices --------------------------------------------------------------------------


def test_the_fairness_choices_are_the_settings_keys(tmp_path: Path) -> None:
    assert tuple(fairness.key for fairness in FAIRNESS) == FAIRNESS_KEYS
    path = tmp_path / "settings.json"
    assert save_settings(Settings(deal_kind="daily", fairness="within5"), path) is None
    assert load_settings(path) == (Settings(deal_kind="daily", fairness="within5"), None)
    path.write_text('{"deal_kind": "lucky", "fairness": "within9"}')
    settings, problem = load_settings(path)
    assert (settings.deal_kind, settings.fairness) == ("number", "even") and "deal_kind, fairness" in str(problem)


def test_a_fair_deal_is_within_the_margin_or_the_handicap() -> None:
    catalogue = catalogue_of({3: 0, 5: 2, 8: -1, 9: 6, 12: 3})
    rng = random.Random(1)
    assert {deal_choice.fair_deal(catalogue, FAIRNESS_BY_KEY["even"], rng) for _ in range(20)} == {3}
    assert {deal_choice.fair_deal(catalogue, FAIRNESS_BY_KEY["within2"], rng) for _ in range(40)} == {3, 5, 8}
    assert {deal_choice.fair_deal(catalogue, FAIRNESS_BY_KEY["first+3"], rng) for _ in range(20)} == {12}
    pick = pick_deal("fair", "", FAIRNESS_BY_KEY["even"], catalogue)
    assert pick.number == 3 and pick.notice == "Fair deal (even): deal 3."
    assert availability(catalogue, "fair", FAIRNESS_BY_KEY["within5"]) == (
        "4 of the 5 catalogued deals are within 5 points of even.",
        "info",
    )


def test_the_deal_of_the_day_follows_the_date(monkeypatch: pytest.MonkeyPatch) -> None:
    catalogue = catalogue_of({3: 0, 5: 2, 8: -1, 9: 6})
    day = datetime.date(2031, 3, 9)
    monkeypatch.setattr(deal_choice, "today", lambda: day)
    pick = pick_deal("daily", "17", FAIRNESS[0], catalogue)  # the number field does not count
    assert pick.number == catalogue.daily_deal(day)
    assert pick.notice == f"Deal of the day for 9 March: deal {pick.number}, the same for everyone."


def test_a_number_or_random_deal_needs_no_catalogue() -> None:
    assert pick_deal("number", " 42 ", FAIRNESS[0]).number == 42
    assert pick_deal("number", "", FAIRNESS[0]).number is None
    with pytest.raises(BattleError):
        pick_deal("number", "forty", FAIRNESS[0])


def test_no_matching_deal_is_said_in_one_line_with_the_count() -> None:
    some = catalogue_of({5: 2, 9: 6})
    with pytest.raises(NoCataloguedDeal, match=r"^No catalogued deal is even \(2 deals catalogued\)"):
        pick_deal("fair", "", FAIRNESS_BY_KEY["even"], some)
    empty = Catalogue({})
    for kind in ("fair", "daily"):
        with pytest.raises(NoCataloguedDeal, match="no deal is catalogued yet") as caught:
            pick_deal(kind, "", FAIRNESS[0], empty)
        assert "\n" not in str(caught.value)
    broken = Catalogue({}, ["catalogue.tsv, line 3: 2 fields, expected 6"])
    assert "did not load (catalogue.tsv, line 3" in availability(broken, "daily", FAIRNESS[0])[0]
