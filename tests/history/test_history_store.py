"""The history database on real files: games and attempts kept, a kill -9 mid-write survived,
damage set aside and a lock waited out, each told in one line and none stopping the caller."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from battle.history.store import GameEntry, History, PuzzleAttempt, default_history_path
from battle.ratings.glicko2 import Rating
from battle.rules.game import Game
from tests.history.old_schemas import SCHEMA_1, SCHEMA_2

ROOT = Path(__file__).resolve().parents[2]


def finished_game(deal: int = 5) -> Game:
    """A whole game, each side taking the first legal pair."""
    game = Game.new(deal, "You", "Solver (club)")
    while not game.is_over():
        game.play(game.position.legal_moves()[0])
    return game


def entry(game: Game, when: float = 1000.0, key: str | None = None) -> GameEntry:
    return GameEntry.from_game(
        game, front_end="terminal", levels=(None, "club"), you=1, par=4, game_key=key, finished_at=when
    )


def test_games_and_attempts_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    game = finished_game()
    with History(path) as history:
        first = history.add_game(entry(game, key="20261126-1"))
        assert first is not None
        assert history.add_game(entry(game, key="20261126-1")) == first  # reported twice, stored once
        second = history.add_game(entry(game, 2000.0))
        assert second is not None
        assert history.set_accuracy(first, 82.5, None)
        assert not history.set_accuracy(999, 1.0, 1.0)
        history.add_attempt(PuzzleAttempt(10.0, "abc", True, Rating(1600, 300, 0.06), Rating(1700, 140, 0.06)))
        history.add_attempt(PuzzleAttempt(20.0, "abc", False, Rating(1550, 280, 0.06), Rating(1720, 138, 0.06)))
        assert history.take_notices() == []
    with History(path) as again:
        games = again.games()
        assert [stored.id for stored in games] == [first, second]
        stored = games[0]
        assert stored.accuracy == (82.5, None) and stored.par == 4 and stored.levels == (None, "club")
        assert stored.scores == tuple(game.position.scores) and stored.deal == 5
        assert Game.from_text(stored.record).moves == game.moves
        assert [attempt.solved for attempt in again.attempts()] == [True, False]
        assert again.puzzle_rating("abc") == Rating(1720, 138, 0.06)
        assert again.puzzle_rating("other") is None
        assert again.game(second) == games[1] and again.game(12345) is None
        assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def damaged_files(tmp_path: Path) -> dict[str, Path]:
    """A file that is not SQLite, an SQLite file of someone else's, and a history with its pages overwritten."""
    garbage = tmp_path / "garbage" / "history.sqlite3"
    garbage.parent.mkdir()
    garbage.write_bytes(b"this is not a database\n" * 200)
    foreign = tmp_path / "foreign" / "history.sqlite3"
    foreign.parent.mkdir()
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    overwritten = tmp_path / "overwritten" / "history.sqlite3"
    overwritten.parent.mkdir()
    with History(overwritten) as history:
        for number in range(30):
            history.add_game(entry(finished_game(), float(number)))
    with sqlite3.connect(overwritten) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(overwritten.read_bytes())
    data[4096:] = bytes((index * 7 + 3) % 256 for index in range(len(data) - 4096))
    overwritten.write_bytes(bytes(data))
    return {"garbage": garbage, "foreign": foreign, "overwritten": overwritten}


@pytest.mark.parametrize("kind", ["garbage", "foreign", "overwritten"])
def test_a_damaged_database_is_set_aside_and_a_new_one_started(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = default_history_path()  # the game's own file: whatever is there that is not a history goes aside
    damaged_files(tmp_path)[kind].replace(path)
    original = path.read_bytes()
    history = History()
    assert history.add_game(entry(finished_game())) is not None  # the game is still stored
    notices = history.take_notices()
    assert len(notices) == 1 and "\n" not in notices[0]
    assert "damaged" in notices[0] and "set aside as history.sqlite3.corrupt" in notices[0]
    assert (path.parent / "history.sqlite3.corrupt").read_bytes() == original
    assert len(history.games()) == 1 and history.take_notices() == []
    history.close()


@pytest.mark.parametrize("kind", ["garbage", "foreign"])
def test_a_file_named_that_is_no_history_is_left_as_it_is(tmp_path: Path, kind: str) -> None:
    path = damaged_files(tmp_path)[kind]  # stats --db FILE with a mistyped name
    original = path.read_bytes()
    history = History(path)
    assert history.add_game(entry(finished_game())) is None and history.games() == []
    notices = history.take_notices()
    assert len(notices) == 1 and "is not a game history" in notices[0] and "left as it is" in notices[0]
    assert path.read_bytes() == original and not (path.parent / "history.sqlite3.corrupt").exists()
    history.close()


def test_a_locked_database_skips_the_write_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    History(path).add_game(entry(finished_game()))
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        history = History(path, busy_seconds=0.2)
        started = time.monotonic()
        assert history.add_game(entry(finished_game(), 2000.0)) is None
        assert time.monotonic() - started < 5
        notices = history.take_notices()
        assert len(notices) == 1 and "busy" in notices[0]
        assert not (tmp_path / "history.sqlite3.corrupt").exists()  # a healthy file stays where it is
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert history.add_game(entry(finished_game(), 3000.0)) is not None
    assert len(history.games()) == 2


def test_an_unusable_folder_turns_the_history_off_quietly(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    os.chmod(tmp_path, 0o500)
    try:
        history = History(blocker / "deeper" / "history.sqlite3")
        assert history.add_game(entry(finished_game())) is None
        assert history.games() == []
        notices = history.take_notices()
    finally:
        os.chmod(tmp_path, 0o700)
    assert len(notices) == 1 and "no game history this time" in notices[0]


WRITER = """
import sys
from battle.history.store import GameEntry, History
from battle.rules.game import Game

game = Game.new(5, "You", "Solver (club)")
while not game.is_over():
    game.play(game.position.legal_moves()[0])
history = History(sys.argv[1])
number = 0
while True:
    entry = GameEntry.from_game(game, front_end="terminal", levels=(None, "club"), you=1, game_key=f"game-{number}")
    if history.add_game(entry) is None:
        print("failed", history.take_notices(), flush=True)
        break
    print(number, flush=True)
    number += 1
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_a_kill_9_during_writes_leaves_a_consistent_database(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    committed = -1
    try:
        assert writer.stdout is not None
        deadline = time.monotonic() + 60
        while committed < 40 and time.monotonic() < deadline:
            line = writer.stdout.readline()
            assert line and not line.startswith("failed"), line
            committed = int(line)
        os.kill(writer.pid, signal.SIGKILL)  # in the middle of the next write, as likely as not
        assert writer.wait(timeout=30) == -signal.SIGKILL
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait(timeout=30)
    assert committed >= 40
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    check.close()
    with History(path) as history:
        games = history.games()
        assert history.take_notices() == []
    assert len(games) >= committed + 1  # every write reported done is there
    keys = [stored.game_key for stored in games]
    assert keys == [f"game-{number}" for number in range(len(games))]  # and nothing half-written
    expected = finished_game().moves
    assert all(Game.from_text(stored.record).moves == expected for stored in games)


def test_an_early_ended_game_keeps_its_winner(tmp_path: Path) -> None:
    game = Game.new(5, "You", "Bob")
    for _ in range(6):
        game.play(game.position.legal_moves()[0])
    history = History(tmp_path / "history.sqlite3")
    resigned = GameEntry.from_game(game, front_end="online", you=1, game_key="online ws://x g1", winner=2)
    history.add_game(resigned)
    [kept] = history.games()
    assert kept.winner == 2 and not kept.played_out and kept.result_for(1) == -1 and kept.result_for(2) == 1


def test_a_schema_1_history_is_brought_up_to_date_with_its_games(tmp_path: Path) -> None:
    from battle.history import store

    path = tmp_path / "history.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(SCHEMA_1 + "PRAGMA user_version = 1;")
    old.execute(
        "INSERT INTO games (finished_at, front_end, player1, player2, you, record, score1, score2) "
        "VALUES (1.0, 'terminal', 'You', 'Solver (club)', 1, ?, 150, 120)",
        (finished_game().to_text(),),
    )
    old.commit()
    old.close()
    history = History(path)
    [kept] = history.games()
    assert kept.scores == (150, 120) and kept.winner is None and kept.result_for(1) == 1
    assert history.add_game(entry(finished_game(), when=2.0)) is not None and history.take_notices() == []
    history.close()
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION
    assert "winner" in [row[1] for row in check.execute("PRAGMA table_info(games)")]
    check.close()


def test_a_newer_versions_history_is_left_alone(tmp_path: Path) -> None:
    from battle.history import store

    path = tmp_path / "history.sqlite3"
    newer = sqlite3.connect(path)
    newer.executescript(SCHEMA_2 + f"PRAGMA user_version = {store.SCHEMA_VERSION + 1};")
    newer.close()
    before = path.read_bytes()
    history = History(path)
    assert history.add_game(entry(finished_game())) is None and history.games() == []
    [notice] = history.take_notices()
    assert "newer version of the game" in notice and "no game history this time" in notice
    history.close()
    assert path.read_bytes() == before and not (tmp_path / "history.sqlite3.corrupt").exists()
