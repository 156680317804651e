"""The window's rules outside the window: undo against the solver, rematch, settings files."""

from __future__ import annotations

import json

from battle.rules.game import Game
from battle.ui.files.settings import Settings, load_settings, save_settings
from battle.ui.match import Match, new_match


def play_first(match: Match, count: int) -> None:
    for _ in range(count):
        match.game.play(match.position.legal_moves()[0])


def test_hot_seat_undo_takes_back_one_move() -> None:
    match = new_match(1, "hotseat", ("A", "B"))
    assert match.undo_count() == 0
    play_first(match, 3)
    assert match.undo_count() == 1
    assert len(match.undo()) == 1 and match.game.ply == 2
    assert match.redo_count() == 1


def test_undo_against_the_solver_returns_to_the_humans_turn() -> None:
    match = new_match(1, "solver", ("Me", "Me"), "club", human_first=True)
    play_first(match, 1)  # the human's move; the solver has not answered
    assert match.undo_count() == 1
    play_first(match, 1)  # the solver's reply
    assert match.undo_count() == 2
    taken = match.undo()
    assert len(taken) == 2 and match.game.ply == 0 and match.human_to_move()
    assert match.redo_count() == 2
    match.redo()
    assert match.game.ply == 2 and match.human_to_move()


def test_when_the_solver_starts_its_first_move_is_not_taken_back() -> None:
    match = new_match(1, "solver", ("Me", "Me"), "club", human_first=False)
    assert match.solver_side == 1 and match.solver_to_move()
    play_first(match, 1)
    assert match.undo_count() == 0
    play_first(match, 2)
    assert match.undo_count() == 2
    match.undo()
    assert match.game.ply == 1 and match.human_to_move()


def test_rematch_swaps_the_sides_on_the_same_deal() -> None:
    match = new_match(77, "solver", ("Me", "Me"), "expert", human_first=True)
    play_first(match, 4)
    again = match.rematch()
    assert again.game.deal_number == 77 and again.game.ply == 0
    assert again.solver_side == 1 and again.level == "expert"
    assert again.game.names == (match.game.player2, match.game.player1)
    hotseat = new_match(5, "hotseat", ("A", "B")).rematch()
    assert hotseat.game.names == ("B", "A") and hotseat.solver_side is None
    # a default name names a seat, not a person: it stays with its seat, a typed one changes seats
    assert new_match(5, "hotseat", ("Player 1", "Player 2")).rematch().game.names == ("Player 1", "Player 2")
    assert new_match(5, "hotseat", ("Ann", "Player 2")).rematch().game.names == ("Player 1", "Ann")


def test_a_composed_start_survives_a_rematch() -> None:
    game = Game.new(3)
    play_first(Match(game), 5)
    composed = Game(game.position)
    again = Match(composed).rematch()
    assert again.game.start == composed.start and again.game.deal_number is None


def test_settings_round_trip_and_wrong_types_are_ignored(tmp_path) -> None:
    path = tmp_path / "settings.json"
    settings = Settings(player1="Ana", level="expert", mode="solver", human_first=False, window_size=(1400, 900))
    assert save_settings(settings, path) is None
    loaded, problem = load_settings(path)
    assert problem is None and loaded == settings
    path.write_text(json.dumps({"player1": 5, "mode": "chess", "window_size": [10, "x"], "player2": "Bo"}))
    loaded, problem = load_settings(path)
    assert problem is not None and "player1, mode, window_size" in problem  # said once, then set aside
    assert loaded.player1 == "Player 1" and loaded.mode == "hotseat" and loaded.player2 == "Bo"
    assert (tmp_path / "settings.json.corrupt").exists() and load_settings(path)[1] is None


def test_unreadable_settings_are_set_aside(tmp_path) -> None:
    path = tmp_path / "settings.json"
    for text in ("{", "[1, 2]", "\ufeff{}"):
        path.write_text(text)
        loaded, problem = load_settings(path)
        assert problem is not None and "could not be read" in problem
        assert loaded == Settings()
        assert not path.exists()
    # each bad file is kept under a name of its own: a later one never overwrites an earlier one
    assert sorted(p.name for p in tmp_path.glob("*.corrupt")) == [
        "settings.json.2.corrupt",
        "settings.json.3.corrupt",
        "settings.json.corrupt",
    ]
    loaded, problem = load_settings(path)
    assert problem is None
