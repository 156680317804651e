"""The history in the window, headless: games stored when they end, the statistics screen's counts,
a best game opened in review (its accuracy then stored), and a damaged history file set aside
while the game goes on.

Games are short composed ones (``ui_harness.short_game``), so a review takes a second or two.
"""

from __future__ import annotations

import random
import re

import pygame
import pytest

from battle.history.stats import COMPOSED, PEOPLE
from battle.history.store import GameEntry, History, default_history_path, online_entry
from battle.rules.game import Game
from battle.ui.app import App
from battle.ui.files.game_history import local_entry, store_accuracy
from battle.ui.files.settings import MIN_SIZE
from battle.ui.match import Match
from battle.ui.play.result_scene import ResultScene
from battle.ui.puzzles.puzzle_scene import PuzzleScene
from battle.ui.review.review_scene import ReviewScene
from battle.ui.stats.stats_scene import EMPTY_HISTORY, StatsScene
from battle.ui.title.title_scene import TitleScene
from tests import ui_harness as ui
from tests.ui.drawn_text import record_texts
from tests.ui.test_ui_labels import assert_labels_fit

DAY = 86400.0


def finish_against_the_solver(app: App, seed: int) -> Game:
    """A short game against the solver (club) whose last move, the human's, is clicked in the window."""
    game = ui.short_game(seed=seed)
    last = game.undo()
    human = game.position.to_move
    app.start_match(Match(game, 3 - human, "club"))
    ui.play_move(app, last)
    ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=10)
    return game


def open_stats(app: App) -> StatsScene:
    title = app.stack.top
    assert isinstance(title, TitleScene)
    ui.click_button(app, title.widgets["stats"])
    scene = app.stack.top
    assert isinstance(scene, StatsScene)
    return scene


def whole_deal(number: int, seed: int) -> Game:
    """Deal ``number`` played from its start to the end by seeded random moves: a game that counts
    toward the rating against the levels (a composed start does not)."""
    rng = random.Random(seed)
    game = Game.new(number, "Ann", "Ben")
    while not game.is_over():
        game.play(rng.choice(game.position.legal_moves()))
    return game


def store_games(history: History) -> list[GameEntry]:
    """Four games stored as the terminal or another window would: three against levels from numbered
    deals, one online."""
    entries = []
    for index, (level, you) in enumerate((("beginner", 1), ("club", 2), ("club", 1))):
        game = whole_deal(40 + index, seed=100 + index)
        levels = (None, level) if you == 1 else (level, None)
        entry = GameEntry.from_game(
            game, front_end="terminal", levels=levels, you=you, game_key=f"t{index}", finished_at=1.7e9 + index * DAY
        )
        entries.append(entry)
        history.add_game(entry)
    online = GameEntry.from_game(
        ui.short_game(seed=200), front_end="online", you=2, game_key="o1", finished_at=1.7e9 + 5 * DAY
    )
    entries.append(online)
    history.add_game(online)
    return entries


def test_the_statistics_count_stored_games_and_one_finished_in_the_window(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        stored = store_games(History())
        app = new_app((1200, 800))
        played = finish_against_the_solver(app, seed=12)
        window_games = [entry for entry in History().games() if entry.front_end == "window"]
        assert len(window_games) == 1
        entry = window_games[0]
        assert entry.record == played.to_text() and entry.game_key == ui.play_scene(app).match.game_id
        assert entry.opponent_level() == "club" and entry.you == 3 - ui.play_scene(app).match.solver_side
        # the same game reported again (an undo and a replay of its last move) is not stored twice
        ui.play_scene(app).remember_in_history()
        assert len(History().games()) == len(stored) + 1

        ui.click_button(app, app.stack.top.buttons["new"])
        scene = open_stats(app)
        stats = scene.stats
        everything = [*stored, entry]
        assert stats.games == stats.your_games == 5
        expected: dict[str, list[int]] = {}
        for game in everything:
            margin = game.margin_for(game.you)
            row = PEOPLE if game.opponent_level() is None else game.opponent_level() if game.deal else COMPOSED
            tally = expected.setdefault(row, [0, 0, 0])
            tally[0 if margin > 0 else 1 if margin == 0 else 2] += 1
        assert {tally.opponent: [tally.wins, tally.draws, tally.losses] for tally in stats.tallies} == expected
        assert [tally.opponent for tally in stats.tallies] == ["beginner", "club", COMPOSED, PEOPLE]
        assert stats.average_margin == sum(game.margin_for(game.you) for game in everything) / 5
        # the three from numbered deals are rated; the window's, from a composed start, is not
        assert stats.solver.games == 3 and stats.solver.plays_like() is not None and stats.unrated == 1
        assert stats.best[0].margin_for(stats.best[0].you) == max(game.margin_for(game.you) for game in everything)
        assert set(scene.games) == {f"best:{index}" for index in range(3)} | {"worst:0", "worst:1"}
        app.step([], ui.DT)
        app.resize((800, 600))  # laid out again, buttons rebuilt, the curves drawn at the new size
        app.step([], ui.DT)
        assert scene.widgets["best:0"].rect.right <= 800 and scene.widgets["worst:1"].rect.bottom <= 600
        ui.key(app, pygame.K_ESCAPE)
        assert isinstance(app.stack.top, TitleScene)


def test_a_best_game_opens_in_review_and_its_accuracy_is_kept(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        store_games(History())
        app = new_app((1200, 800))
        scene = open_stats(app)
        assert scene.stats.accuracy == ()
        best = scene.games["best:0"]
        ui.click_button(app, scene.widgets["best:0"])
        review = app.stack.top
        assert isinstance(review, ReviewScene) and review.game.to_text() == best.record
        ui.reviewed(app, review)
        assert review.history_notice is None
        summary = review.review.summary()
        ui.click_button(app, review.buttons["back"])
        assert app.stack.top is scene
        assert scene.stats.accuracy == ((best.finished_at, summary[best.you - 1].accuracy),)
        stored = next(entry for entry in History().games() if entry.game_key == best.game_key)
        assert stored.accuracy == (summary[0].accuracy, summary[1].accuracy)
        app.step([], ui.DT)  # the accuracy curve draws


def test_an_empty_history_says_so(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((800, 600))
        ui.key(app, pygame.K_s)
        scene = app.stack.top
        assert isinstance(scene, StatsScene) and scene.empty and set(scene.widgets) == {"back"}
        assert EMPTY_HISTORY.startswith("No games or puzzles yet")
        app.step([], ui.DT)
        ui.click_button(app, scene.widgets["back"])
        assert isinstance(app.stack.top, TitleScene)


def test_the_german_statistics_name_the_buttons_as_they_read(tmp_path, monkeypatch) -> None:
    """The empty curves say where to go: »Bewertung« on a finished game's card, »Aufgaben« on the title,
    each word as the button itself reads (it once said »Bewerten« for the button "Bewertung")."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), language="de")
        finish_against_the_solver(app, seed=12)
        card = app.stack.top
        assert isinstance(card, ResultScene)
        labels = {button.text for button in card.buttons.values()}
        ui.click_button(app, card.buttons["new"])
        title = app.stack.top
        assert isinstance(title, TitleScene)
        labels |= {widget.text for widget in title.widgets.values() if hasattr(widget, "text")}
        scene = open_stats(app)
        drawn = " ".join(record_texts(app, monkeypatch).texts())
    assert not scene.stats.accuracy and not scene.stats.puzzle_ratings  # both curves empty: both sentences
    quoted = re.findall(r"»([^«]*)«", drawn)
    assert "Bewertung" in quoted and "Aufgaben" in quoted, drawn
    assert set(quoted) <= labels, (quoted, labels)


def test_a_damaged_history_is_set_aside_the_player_told_and_the_game_kept(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        path = default_history_path()
        path.write_bytes(b"this is not a database" * 100)
        app = new_app((1200, 800))
        played = finish_against_the_solver(app, seed=13)
        scene = ui.play_scene(app)
        assert (
            "not a usable game history" in scene.status.text
            and "set aside as history.sqlite3.corrupt" in scene.status.text
        )
        assert scene.status.kind == "warn"
        assert path.with_name("history.sqlite3.corrupt").read_bytes().startswith(b"this is not a database")
        assert [entry.record for entry in History().games()] == [played.to_text()]  # the new file has it
        assert app.history.take_notices() == []  # told once: the status line took it
        app.step([], ui.DT)


@pytest.mark.parametrize("size", [MIN_SIZE, (1200, 800)])
def test_the_puzzle_and_statistics_buttons_fit(tmp_path, monkeypatch, size) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        store_games(History())
        app = new_app(size)
        full = size == (1200, 800)
        ui.key(app, pygame.K_p)
        assert isinstance(app.stack.top, PuzzleScene)
        assert_labels_fit(app, "puzzles", full)
        ui.key(app, pygame.K_ESCAPE)
        scene = open_stats(app)
        assert len(scene.games) == 4
        assert_labels_fit(app, "statistics", full)


def test_the_window_stores_what_each_kind_of_game_is() -> None:
    game = ui.short_game(seed=5)
    local = local_entry(game, 1, "expert", "abc", 4)
    assert (local.front_end, local.levels, local.you, local.par, local.game_key) == (
        "window",
        ("expert", None),
        2,
        4,
        "abc",
    )
    hot_seat = local_entry(game, None, "club", "def", None)
    assert hot_seat.levels == (None, None) and hot_seat.you is None
    online = online_entry(game, 1, "ws://example.org:8765", "g42")
    assert (online.front_end, online.you, online.levels, online.game_key) == (
        "online",
        1,
        (None, None),
        "online ws://example.org:8765 g42",
    )


def test_a_review_finds_its_stored_game_by_the_record(tmp_path) -> None:
    history = History(tmp_path / "history.sqlite3")
    games = [ui.short_game(seed=seed) for seed in (1, 2)]
    for number, game in enumerate(games):
        history.add_game(local_entry(game, 2, "club", f"k{number}", None))
    assert store_accuracy(history, games[1], (75.0, 50.0)) is None
    assert [entry.accuracy for entry in history.games()] == [(None, None), (75.0, 50.0)]
    unknown = ui.short_game(seed=random.Random(3).randrange(1000, 2000))
    assert store_accuracy(history, unknown, (10.0, 10.0)) is None
    assert [entry.accuracy for entry in history.games()] == [(None, None), (75.0, 50.0)]


def test_a_game_from_a_composed_position_is_said_to_be_unrated(tmp_path, monkeypatch) -> None:
    """A win against a level from the editor's position is kept, and the rating card says why it
    does not count instead of "no game against a level yet"."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        played = finish_against_the_solver(app, seed=12)  # a composed start, as the editor's
        assert played.deal_number is None
        ui.click_button(app, app.stack.top.buttons["new"])
        scene = open_stats(app)
        assert (scene.stats.your_games, scene.stats.solver.games, scene.stats.unrated) == (1, 0, 1)
        # the results table keeps it out of the level's row, as the rating does: a row of its own
        assert [(tally.opponent, tally.games) for tally in scene.stats.tallies] == [(COMPOSED, 1)]
        app.step([], ui.DT)  # the rating card draws its "not rated" line, the table its "composed" row


def test_a_hostile_row_is_skipped_and_said_in_the_statistics_status_line(tmp_path, monkeypatch) -> None:
    import sqlite3

    from tests.history.old_schemas import SCHEMA_2

    with ui.session(tmp_path, monkeypatch) as new_app:
        path = default_history_path()
        with sqlite3.connect(path) as old:  # a file of a release whose tables are not STRICT
            old.executescript(SCHEMA_2 + "PRAGMA user_version = 2;")
        with History(path) as history:
            history.add_game(
                GameEntry.from_game(
                    ui.short_game(seed=3), front_end="window", levels=(None, "club"), you=1, finished_at=1.7e9
                )
            )
        with sqlite3.connect(path) as connection:
            connection.execute("UPDATE games SET score1 = 'abc' WHERE id = 1")
            connection.execute(
                "INSERT INTO games (finished_at, front_end, player1, player2, you, record, score1, "
                "score2) SELECT finished_at + 1, front_end, player1, player2, you, record, 5, 3 "
                "FROM games"
            )
        app = new_app((1200, 800))
        ui.key(app, pygame.K_s)
        scene = app.stack.top
        assert isinstance(scene, StatsScene) and scene.stats.games == 1
        assert scene.message is not None and scene.message.kind == "warn"
        assert "1 unreadable row in the game history's games skipped (game #1: score1 'abc'" in scene.message.text
        app.step([], ui.DT)
