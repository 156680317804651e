"""The par of a deal no catalogue knows, worked out while it is played: the finder alone (found, kept,
equal to the solver's own exact value; nothing solved while paused), and in the window (the result
card says the par is being worked out, then shows it when it comes; the next run reads it from the
player's survey database).

A complete deal takes minutes, so the finder here solves a stand-in start of the same deal a few
tiles from its end (``start_position(deal, SMALL)``): the same code, in milliseconds.
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from battle.atlas.catalogue import Catalogue
from battle.atlas.par_finder import ParFinder
from battle.atlas.solve_deal import start_position
from battle.atlas.survey_db import SurveyDatabase, default_survey_path
from battle.players import Advisor
from battle.rules.board import Position, move_name
from battle.ui import app as app_module
from battle.ui.match import new_match
from battle.ui.play.result_scene import ResultScene
from battle.ui.review.review_scene import ReviewScene
from tests import ui_harness as ui

SMALL = 26
"""Tiles of the stand-in start the finder solves."""
WAIT = 120.0
"""The longest a test waits for the finder's answer (milliseconds of work on a quiet machine)."""


def small_start(number: int) -> Position:
    return start_position(number, SMALL)


def test_the_finder_finds_the_solvers_exact_value_and_keeps_it() -> None:
    kept, done = [], threading.Event()
    finder = ParFinder(
        lambda result: (kept.append(result), done.set()), start_of=small_start, megabytes=32, battery=MAINS
    )
    try:
        finder.want(3)
        assert done.wait(WAIT)
        expected = Advisor(megabytes=32).search(small_start(3))
        par = finder.found(3)
        assert expected.exact and par is not None and par.value == expected.value
        assert set(par.best_moves or ()) == {move_name(move) for move in expected.best_moves}
        assert [(result.deal, result.solved, result.value) for result in kept] == [(3, True, expected.value)]
        assert not finder.working_on(3) and not finder.working()
        finder.want(3)  # found already: nothing is solved again
        assert finder.solves == 1
    finally:
        assert finder.shutdown(WAIT)


def test_a_paused_finder_solves_nothing_until_it_is_let_go() -> None:
    done = threading.Event()
    finder = ParFinder(lambda result: done.set(), start_of=small_start, megabytes=32, battery=MAINS)
    try:
        finder.pause(True)  # the window's solver works for the player
        finder.want(7)
        assert finder.wait_waiting(WAIT)
        assert finder.solves == 0 and finder.working_on(7) and finder.found(7) is None
        finder.pause(False)
        assert done.wait(WAIT) and finder.found(7) is not None and finder.solves == 1
    finally:
        assert finder.shutdown(WAIT)


def test_on_battery_the_finder_stands_aside_and_on_mains_goes_on() -> None:
    done, battery = threading.Event(), threading.Event()
    battery.set()  # unplugged from the start
    finder = ParFinder(
        lambda result: done.set(), start_of=small_start, megabytes=32, battery=battery.is_set, power_every=0.05
    )
    try:
        finder.want(9)
        assert finder.on_battery and finder.wait_waiting(WAIT)  # looked at before the first solve
        assert finder.solves == 0 and finder.found(9) is None and finder.working_on(9)
        battery.clear()  # plugged in
        assert done.wait(WAIT) and finder.found(9) is not None and not finder.on_battery
    finally:
        assert finder.shutdown(WAIT)


UNPLUGGED = threading.Event()
"""Set: the window's finder (``held_finder``) is told the machine runs on its battery."""


def MAINS() -> bool:  # noqa: N802 - a constant of a test: the power supply's answer
    return False


@pytest.fixture
def held_finder(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The window's finder solves the stand-in start once the returned event is set; it looks at the
    power (``UNPLUGGED``) every 50 ms."""
    release = threading.Event()

    def held_start(number: int) -> Position:
        assert release.wait(WAIT)
        return small_start(number)

    finder = functools.partial(ParFinder, start_of=held_start, megabytes=32, battery=UNPLUGGED.is_set, power_every=0.05)
    monkeypatch.setattr(app_module, "ParFinder", finder)
    UNPLUGGED.clear()
    yield release
    UNPLUGGED.clear()


def test_the_result_card_says_the_par_is_worked_out_then_shows_it(tmp_path: Path, monkeypatch, held_finder) -> None:  # noqa: ANN001
    empty = Catalogue({})  # no deal known: the game's deal needs its par worked out
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), catalogue=empty, background_par=True)
        scene = app.start_match(new_match(7, "hotseat", ("Ann", "Bob")))
        game, rng = scene.match.game, random.Random(7)
        ui.run_until(app, lambda: app.par_finder is not None and app.par_finder.working_on(7), timeout=WAIT)
        while not game.is_over():
            ui.play_move(app, rng.choice(game.position.legal_moves()))
        ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=WAIT)
        card = app.stack.top
        assert isinstance(card, ResultScene)
        assert card.par_comparison() is None
        assert card.par_pending() == "Par: being worked out in the background..."
        waiting_rect = card.card_rect()
        assert card.next_frame_in() is not None  # the card looks again for the par, without input
        held_finder.set()
        ui.run_until(app, lambda: card.par_comparison() is not None, timeout=WAIT)
        expected = Advisor(megabytes=32).search(small_start(7))
        compared = card.par_comparison()
        assert compared is not None and scene.par() is not None and scene.par().value == expected.value
        assert card.card_rect() == waiting_rect  # the par's room was kept: the card does not jump
        assert card.par_pending() is None
        ui.run_until(app, lambda: card.next_frame_in() is None, timeout=WAIT)  # asleep once the veil is in
        ui.click_button(app, card.buttons["review"])  # the review grades move 1 on the par found, and says it
        ui.run_until(app, lambda: isinstance(app.stack.top, ReviewScene), timeout=WAIT)
        review = app.stack.top
        assert isinstance(review, ReviewScene)
        first = game.names[game.start.to_move - 1]
        assert review.par_line == (f"Par: {expected.value:+d} for {first}" if expected.value else "Par: even")
        assert review.job.known_start is not None and review.job.known_start[0] == expected.value
    # kept for the next run (a complete deal's start under its own size, which the catalogue reads)
    with SurveyDatabase(default_survey_path(), read_only=True) as database:
        assert [(result.deal, result.value) for result in database.results(SMALL)] == [(7, expected.value)]


def test_on_battery_the_result_card_says_the_par_waits_for_mains(tmp_path: Path, monkeypatch, held_finder) -> None:  # noqa: ANN001
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), catalogue=Catalogue({}), background_par=True)
        scene = app.start_match(new_match(7, "hotseat", ("Ann", "Bob")))
        game, rng = scene.match.game, random.Random(7)
        ui.run_until(app, lambda: app.par_finder is not None and app.par_finder.working_on(7), timeout=WAIT)
        UNPLUGGED.set()
        ui.run_until(app, lambda: app.par_finder is not None and app.par_finder.on_battery, timeout=WAIT)
        held_finder.set()  # the start is ready, and the solve waits for mains
        while not game.is_over():
            ui.play_move(app, rng.choice(game.position.legal_moves()))
        ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=WAIT)
        card = app.stack.top
        assert isinstance(card, ResultScene)
        said = "Par: waits for mains power (the computer runs on its battery)."
        ui.run_until(app, lambda: card.par_pending() == said, timeout=WAIT, shown=card.par_pending)
        UNPLUGGED.clear()  # plugged in: the solve goes on and the par comes
        ui.run_until(app, lambda: card.par_comparison() is not None, timeout=WAIT, shown=card.par_pending)


def test_the_setting_turns_the_finder_off(tmp_path: Path, monkeypatch, held_finder) -> None:  # noqa: ANN001
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), catalogue=Catalogue({}))
        app.start_match(new_match(7, "hotseat", ("Ann", "Bob")))
        app.step([], ui.DT)
        assert not app.settings.background_par and app.par_finder is None


def test_the_rules_card_turns_the_par_off_and_on_by_its_button(tmp_path: Path, monkeypatch, held_finder) -> None:  # noqa: ANN001
    from battle.ui.files.settings import load_settings
    from battle.ui.help.help_scene import HelpScene

    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((800, 600), catalogue=Catalogue({}), background_par=True)
        scene = app.start_match(new_match(7, "hotseat", ("Ann", "Bob")))
        ui.run_until(app, lambda: app.par_finder is not None and app.par_finder.working_on(7), timeout=WAIT)
        stopped = app.par_finder
        ui.key(app, pygame.K_F1)
        card = app.stack.top
        assert isinstance(card, HelpScene) and card.buttons["par"].text == "Work out pars: on"
        ui.click_button(app, card.buttons["par"])
        assert card.buttons["par"].text == "Work out pars: off"
        assert app.par_finder is None and load_settings()[0].background_par is False  # kept for the next run
        ui.click_button(app, card.buttons["par"])  # on again: the game on screen asks for its par anew
        assert card.buttons["par"].text == "Work out pars: on" and load_settings()[0].background_par is True
        ui.click_button(app, card.buttons["close"])
        ui.run_until(app, lambda: app.par_finder is not None and app.par_finder.working_on(7), timeout=WAIT)
        held_finder.set()
        ui.run_until(app, lambda: scene.par() is not None, timeout=WAIT)
        assert stopped is not None and stopped.shutdown(WAIT) and stopped.found(7) is None  # it ended unsolved
