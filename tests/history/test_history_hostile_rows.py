"""A well-formed history file with hostile values, or with one damaged page, through ``stats`` and
``puzzles play`` as the user runs them: the bad rows are skipped and said once, the rest stays in view."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from battle.history.store import GameEntry, History, PuzzleAttempt
from battle.ratings.glicko2 import Rating
from tests.history.old_schemas import SCHEMA_2
from tests.history.test_history_stats import stats_command
from tests.history.test_history_store import finished_game
from tests.puzzles.test_puzzles_cli import puzzles, two_puzzles


def history_path(home: Path) -> Path:
    path = home / "mahjong-battle" / "history.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def fill(path: Path, games: int, attempts: int) -> None:
    with History(path) as history:
        for number in range(games):
            history.add_game(
                GameEntry.from_game(
                    finished_game(), front_end="terminal", levels=(None, "club"), you=1, finished_at=1.7e9 + number
                )
            )
        for number in range(attempts):
            history.add_attempt(
                PuzzleAttempt(
                    1.7e9 + number,
                    f"p{number % 3}",
                    number % 2 == 0,
                    Rating(1500 + number, 200, 0.06),
                    Rating(1600, 150, 0.06),
                )
            )
        assert history.take_notices() == []


def hostile_file(path: Path) -> None:
    """A history made by an earlier release (tables not STRICT) with three good games and two good
    attempts, then one game and three attempts no release writes."""
    with sqlite3.connect(path) as old:
        old.executescript(SCHEMA_2 + "PRAGMA user_version = 2;")
    fill(path, 3, 2)
    record = finished_game().to_text()
    with sqlite3.connect(path) as connection:
        connection.execute(
            "INSERT INTO games (finished_at, front_end, player1, player2, level2, you, record, score1, "
            "score2) VALUES (1.8e9, 'terminal', 'You', 'Solver', 'club', 1, ?, 'abc', 3)",
            (record,),
        )
        for rating, deviation in (("x", 200), (1500, 0), (1e308, 200)):
            connection.execute(
                "INSERT INTO puzzle_attempts (attempted_at, puzzle_id, solved, player_rating, player_deviation, "
                "player_volatility, puzzle_rating, puzzle_deviation, puzzle_volatility) "
                "VALUES (1.8e9, 'p1', 1, ?, ?, 0.06, ?, ?, 0.06)",
                (rating, deviation, rating, deviation),
            )


def test_hostile_values_are_skipped_and_said_once_by_stats_and_puzzles(tmp_path: Path) -> None:
    hostile_file(history_path(tmp_path))
    done = stats_command(home=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Games: 3 stored, 3 yours" in done.stdout and "Puzzles: 2 tried" in done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 2, done.stderr
    assert "1 unreadable row in the game history's games skipped (game #4: score1 'abc'" in lines[0]
    assert "3 unreadable rows in the game history's puzzle attempts skipped" in lines[1]
    played = puzzles(
        "play",
        "--file",
        str(two_puzzles(tmp_path)),
        "--seed",
        "1",
        "--count",
        "2",
        home=tmp_path,
        stdin="solution\nsolution\n",
    )
    assert played.returncode == 0, played.stderr[-2000:]
    assert "Your puzzle rating: " in played.stdout and "Traceback" not in played.stderr
    assert played.stderr.count("unreadable rows in the game history's puzzle attempts") == 1, played.stderr


def test_a_new_history_refuses_hostile_values(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    fill(path, 1, 1)
    with sqlite3.connect(path) as connection:
        for column, value in (("score1", "'abc'"), ("score1", "-5"), ("accuracy1", "140.0")):
            with pytest.raises(sqlite3.IntegrityError):
                connection.execute(f"UPDATE games SET {column} = {value}")
        for column, value in (("player_rating", "'x'"), ("player_deviation", "0"), ("puzzle_rating", "1e308")):
            with pytest.raises(sqlite3.IntegrityError):
                connection.execute(f"UPDATE puzzle_attempts SET {column} = {value}")


def test_one_damaged_page_keeps_every_readable_game_and_attempt(tmp_path: Path) -> None:
    path = history_path(tmp_path)
    fill(path, 6, 20)
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        [root] = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'puzzle_attempts_by_puzzle'")
    data = bytearray(path.read_bytes())
    start = (root[0] - 1) * page_size
    data[start : start + page_size] = b"\xa5" * page_size  # the index's page: the rows themselves are whole
    path.write_bytes(bytes(data))
    done = stats_command(home=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Games: 6 stored, 6 yours" in done.stdout and "Puzzles: 20 tried, 10 solved" in done.stdout
    [line] = done.stderr.splitlines()
    assert "history.sqlite3: the game history is damaged (" in line, line
    assert "26 rows kept in a new file, 0 lost; the damaged file set aside as history.sqlite3.corrupt" in line
    assert (path.parent / "history.sqlite3.corrupt").read_bytes()[:page_size] == bytes(data[:page_size])
    again = stats_command(home=tmp_path)
    assert again.returncode == 0 and again.stderr == "" and "Games: 6 stored" in again.stdout


def forty_games_one_page_damaged(home: Path, index_too: bool = False) -> Path:
    """A history of 40 games (players "Player 00" to "Player 39") with the page holding "Player 20"
    overwritten, and with ``index_too`` the root page of the index on ``game_key`` as well."""
    path = history_path(home)
    with History(path) as history:
        for number in range(40):
            game = GameEntry.from_game(
                finished_game(), front_end="terminal", levels=(None, "club"), you=1, finished_at=1.7e9 + number
            )
            history.add_game(GameEntry(**{**game.__dict__, "players": (f"Player {number:02d}", "Solver (club)")}))
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        [[index_root]] = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_games_1'"
        )
    data = bytearray(path.read_bytes())
    pages = [data.index(b"Player 20") // page_size] + ([index_root - 1] if index_too else [])
    for page in pages:
        data[page * page_size : (page + 1) * page_size] = b"\x00" * 8 + b"\xa5" * (page_size - 8)
    path.write_bytes(bytes(data))
    return path


def test_a_damaged_page_of_games_costs_only_the_games_on_it_and_says_how_many(tmp_path: Path) -> None:
    path = forty_games_one_page_damaged(tmp_path)
    done = stats_command(home=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    kept = int(done.stdout.split("Games: ")[1].split()[0])
    assert 30 <= kept < 40, done.stdout  # a page holds a few of these games
    [line] = done.stderr.splitlines()
    assert f"{kept} rows kept in a new file, {40 - kept} lost; the damaged file set aside" in line, line
    with History(path) as history:
        names = [game.players[0] for game in history.games()]
    assert "Player 00" in names and "Player 39" in names and "Player 20" not in names


def test_a_salvage_that_cannot_count_its_losses_does_not_say_none_were_lost(tmp_path: Path) -> None:
    """The games' page and their only index both damaged: nothing tells how many rows the page held."""
    forty_games_one_page_damaged(tmp_path, index_too=True)
    done = stats_command(home=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    kept = int(done.stdout.split("Games: ")[1].split()[0])
    [line] = done.stderr.splitlines()
    assert f"{kept} rows kept in a new file, those on its damaged pages lost (no index counts them)" in line, line
