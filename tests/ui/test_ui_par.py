"""A deal's par in the window, headless: the title's fair deal and deal of the day, the par in the panel
before move 1, the result card against par, and the review's exact first move.

Each app gets its catalogue from a small file written to the test's folder (``App(catalogue=...)``),
or, where the default loading is the point, from a survey database in the private data folder.
"""

from __future__ import annotations

import datetime
import random
from pathlib import Path

import pygame
import pytest

from battle.atlas.catalogue import Catalogue
from battle.atlas.survey_db import DealResult, SurveyDatabase, default_survey_path
from battle.rules.board import move_name, parse_move
from battle.rules.game import Game
from battle.ui.app import App
from battle.ui.art import theme
from battle.ui.match import Match
from battle.ui.play.result_scene import ResultScene
from battle.ui.review.review_scene import ReviewScene
from battle.ui.title import deal_choice
from battle.ui.title.title_scene import TitleScene
from tests import ui_harness as ui

PARS = {3: 0, 5: 2, 8: -1, 9: 6}
"""The test catalogue: one even deal, two within 2, one far from even (values made up for the window)."""


def catalogue_at(tmp_path: Path, pars: dict[int, int] = PARS) -> Catalogue:
    """A catalogue file with ``pars`` written to ``tmp_path``, read as the window reads the shipped one."""
    path = tmp_path / "catalogue.tsv"
    rows = "".join(f"{deal}\t{value}\t-\t1\t1.0\ttest\n" for deal, value in pars.items())
    path.write_text(f"# a test catalogue\ndeal\tvalue\tbest_moves\tnodes\tseconds\tsolver_version\n{rows}")
    catalogue = Catalogue.load(path, tmp_path / "no-survey.sqlite3")
    assert catalogue.problems == [] and len(catalogue) == len(pars)
    return catalogue


def title_of(app: App) -> TitleScene:
    title = app.stack.top
    assert isinstance(title, TitleScene)
    return title


def choose(app: App, title: TitleScene, name: str, label: str) -> None:
    """Pick ``label`` in the list ``name`` from the keyboard: Tab to it, Enter opens, arrows, Enter takes."""
    for _ in range(len(title.focus_order()) + 1):
        if title.focus == name:
            break
        ui.key(app, pygame.K_TAB)
    assert title.focus == name
    menu = title.widgets[name]
    options = [option[0] if isinstance(option, tuple) else option for option in menu.options_list]
    ui.key(app, pygame.K_RETURN)
    assert menu.current_state is menu.menu_states["expanded"]
    for _ in range((options.index(label) - title.ring.menu_choice) % len(options)):
        ui.key(app, pygame.K_DOWN)
    ui.key(app, pygame.K_RETURN)


def gold_pixels(app: App, rect: pygame.Rect) -> int:
    """How many pixels of ``rect`` on screen are the par headline's gold."""
    surface = pygame.display.get_surface()
    return sum(
        1
        for x in range(rect.left, rect.right)
        for y in range(rect.top, rect.bottom)
        if tuple(surface.get_at((x, y))[:3]) == theme.GOLD_BRIGHT
    )


# -- the title ---------------------------------------------------------------------------------------


def test_a_fair_deal_chosen_from_the_keyboard_is_one_of_the_catalogues(tmp_path, monkeypatch) -> None:
    catalogue = catalogue_at(tmp_path)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), catalogue=catalogue)
        title = title_of(app)
        choose(app, title, "deal_kind", "Fair deal")
        assert title.form.deal_kind == "fair" and "deal" not in title.widgets and title.focus == "deal_kind"
        assert title.status.text == "1 of the 4 catalogued deals is even."
        choose(app, title, "fairness", "within 2")
        assert title.status.text == "3 of the 4 catalogued deals are within 2 points of even."
        ui.key(app, pygame.K_ESCAPE)  # the ring goes; Enter starts the game
        ui.key(app, pygame.K_RETURN)
        scene = ui.play_scene(app)
        game = scene.match.game
        assert game.deal_number in catalogue.fair_deals(margin=2) and game.ply == 0
        assert scene.status.text == f"Fair deal (within 2 points of even): deal {game.deal_number}."
        # the choice is remembered for the next window
        app.show_title()
        app.step([], ui.DT)
        again = title_of(new_app((1200, 800), catalogue=catalogue))
        assert (again.form.deal_kind, again.form.fairness.key) == ("fair", "within2") and "fairness" in again.widgets


def test_the_deal_of_the_day_comes_from_the_date(tmp_path, monkeypatch) -> None:
    catalogue = catalogue_at(tmp_path)
    day = datetime.date(2031, 3, 9)
    monkeypatch.setattr(deal_choice, "today", lambda: day)
    expected = catalogue.daily_deal(day)
    assert expected is not None
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((800, 600), catalogue=catalogue)
        title = title_of(app)
        choose(app, title, "deal_kind", "Deal of the day")
        assert title.status.text == f"Deal of the day: deal {expected}, the same for everyone today."
        ui.click_button(app, title.widgets["start"])
        scene = ui.play_scene(app)
        assert scene.match.game.deal_number == expected
        assert scene.status.text == f"Deal of the day for 9 March: deal {expected}, the same for everyone."


@pytest.mark.parametrize(
    ("pars", "kind", "phrase"),
    [
        ({}, "Fair deal", "No catalogued deal is even: no deal is catalogued yet"),
        ({}, "Deal of the day", "No deal of the day: no deal is catalogued yet"),
        ({9: 6}, "Fair deal", "No catalogued deal is even (1 deal catalogued)"),
    ],
)
def test_no_catalogued_deal_is_said_in_one_line_and_starts_nothing(tmp_path, monkeypatch, pars, kind, phrase) -> None:
    catalogue = catalogue_at(tmp_path, pars)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), catalogue=catalogue)
        title = title_of(app)
        choose(app, title, "deal_kind", kind)
        ui.click_button(app, title.widgets["start"])
        assert app.stack.top is title
        assert title.status.text.startswith(phrase) and "\n" not in title.status.text
        assert title.status.kind == "warn"


def test_the_window_reads_the_players_own_survey(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        survey = default_survey_path()
        survey.parent.mkdir(parents=True)
        with SurveyDatabase(survey) as database:
            database.store(DealResult(11, 108, True, 0, 127, None, 1, 1.0, None, "t", "w"), 1.0)
        app = new_app((1200, 800))
        assert app.catalogue.par(11) is not None and app.catalogue.par(1) is not None  # the shipped one too
        title = title_of(app)
        choose(app, title, "deal_kind", "Fair deal")
        ui.key(app, pygame.K_ESCAPE)
        ui.key(app, pygame.K_RETURN)
        assert ui.play_scene(app).match.game.deal_number in app.catalogue.fair_deals()


# -- the game screen -------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(1200, 800), (800, 600)])
def test_the_panel_shows_par_before_move_1(tmp_path, monkeypatch, size) -> None:
    catalogue = catalogue_at(tmp_path)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size, catalogue=catalogue)
        scene = app.start_match(Match(Game.new(5, "Alice", "Bob")))
        app.step([], ui.DT)
        info = scene.panel_info()
        assert info.par == ("Par: +2 for Alice", "Alice's final margin if both play perfectly")
        assert "par +2 for Alice" in info.start_label
        moves = app.layout.panel.moves
        assert gold_pixels(app, pygame.Rect(moves.x, moves.y, moves.w, min(moves.h, round(90 * app.layout.scale)))) > 20
        ui.play_move(app, scene.match.game.position.legal_moves()[0])
        assert "par +2 for Alice" in scene.panel_info().start_label  # kept, small, in the header

        # a deal that is not catalogued, and a game begun past a deal's start, have no par
        for game in (Game.new(4, "Alice", "Bob"), Game(scene.match.game.position, "Alice", "Bob", 5)):
            other = app.start_match(Match(game))
            app.step([], ui.DT)
            assert other.panel_info().par is None and "par" not in other.panel_info().start_label
            assert gold_pixels(app, pygame.Rect(moves.x, moves.y, moves.w, round(90 * app.layout.scale))) == 0


def test_a_game_loaded_from_a_record_keeps_its_par(tmp_path, monkeypatch) -> None:
    catalogue = catalogue_at(tmp_path)
    record = Game.new(8, "Ann", "Ben").to_text()
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), catalogue=catalogue)
        scene = app.start_match(Match(Game.from_text(record)))
        assert scene.panel_info().par == ("Par: -1 for Ann", "Ann's final margin if both play perfectly")


# -- the result card ------------------------------------------------------------------------------------


def test_the_result_card_compares_each_player_with_par(tmp_path, monkeypatch) -> None:
    catalogue = catalogue_at(tmp_path)
    rng = random.Random(8)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), catalogue=catalogue)
        title = title_of(app)
        choose(app, title, "deal_kind", "Fair deal")  # even: deal 3
        ui.key(app, pygame.K_ESCAPE)
        ui.key(app, pygame.K_RETURN)
        scene = ui.play_scene(app)
        game = scene.match.game
        assert game.deal_number == 3
        while not game.is_over():
            ui.play_move(app, rng.choice(game.position.legal_moves()))
        ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=5)
        card = app.stack.top
        margin = game.position.scores[0] - game.position.scores[1]
        compared = card.par_comparison()
        assert compared is not None and compared.sentence == "Par: even (a draw under perfect play)."
        assert compared.differences == (margin, -margin)
        better = f"{abs(margin)} points better than par"
        worse = f"{abs(margin)} points worse than par"
        assert compared.words == (
            (better, worse) if margin > 0 else (worse, better) if margin < 0 else ("on par", "on par")
        )
        app.step([], ui.DT)
        assert card.card_rect().bottom < app.layout.window[1]

        # the rematch swaps the sides; the par stays the first player's, now the other name's
        ui.click_button(app, card.buttons["rematch"])
        rematch = ui.play_scene(app)
        assert rematch.panel_info().par == ("Par: even", "a draw if both play perfectly")


# -- the review -----------------------------------------------------------------------------------------------


def test_the_review_grades_a_catalogued_first_move_exactly(tmp_path, monkeypatch) -> None:
    best = parse_move("a1-i9")  # the shipped catalogue's one best first move of deal 1, par +4
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        scene = app.start_match(Match(Game.new(1, "Alice", "Bob")))
        assert scene.panel_info().par is not None
        ui.play_move(app, best)
        ui.play_move(app, scene.match.game.position.legal_moves()[0])
        ui.settle(app)
        review_scene = app.open_review(scene.match.game, time_per_move=0.05)
        assert isinstance(review_scene, ReviewScene)
        ui.reviewed(app, review_scene)
        first = review_scene.graded.moves[0]
        assert (first.move, first.exact, first.loss, first.best_value) == (move_name(best), True, 0, 4)
        assert review_scene.graded.eval_start_exact and not review_scene.graded.moves[1].exact
