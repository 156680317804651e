"""The program's files in one language, whole: what the game history, the survey's database and the
server's database say about a file that is not theirs, one set aside, salvaged, busy or claimed, or
one with rows no release writes; and a real survey on a local Dask cluster (its progress, its summary,
its reports), read from real processes under ``LANG=de_DE.UTF-8`` (or ``--lang en``) with no word of
the other language in them (``language_guard``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from battle import i18n
from battle.atlas.survey_db import DealResult, SurveyDatabase
from battle.history.store import History
from battle.storage import sqlite_store
from tests.history.test_history_hostile_rows import forty_games_one_page_damaged, hostile_file
from tests.history.test_history_store import entry, finished_game
from tests.i18n.language_guard import Screen, report
from tests.i18n.test_terminal_language import SUBCOMMANDS, driven

COLUMNS = frozenset(
    {"deal", "tiles", "solved", "value", "depth", "nodes", "seconds", "worker", "you", "record"} | {"results", "games"}
)
"""Tables and columns of the stores with a plain word for a name, which their messages name as they are."""
GARBAGE = b"this is not a database\n" * 200
SURVEY_TABLE = """
CREATE TABLE results (
    deal, tiles, solved, value, depth, best_moves, nodes, seconds, time_limit, solver_version, worker, stored_at,
    PRIMARY KEY (deal, tiles)
);
PRAGMA user_version = 2;
"""
"""A survey table of a release whose tables are not STRICT, so that a hand edit can store anything."""


def hostile_survey(path: Path) -> None:
    """A survey database with one good result at 12 tiles and two rows no survey writes."""
    with sqlite3.connect(path) as connection:
        connection.executescript(SURVEY_TABLE)
    with SurveyDatabase(path) as database:
        database.store(DealResult(1, 12, True, 3, 10, ("a1-b1",), 100, 0.5, None, "t", "w"), 1.0)
    with sqlite3.connect(path) as connection:
        connection.execute("INSERT INTO results VALUES ('abc', 12, 1, 0, 1, NULL, 1, 0.1, NULL, 't', 'w', 1.0)")
        connection.execute("INSERT INTO results VALUES (2, 12, 1, 'lots', 1, NULL, 1, 0.1, NULL, 't', 'w', 1.0)")


def store_files(home: Path) -> dict[str, Path]:
    """The files the commands are given, under ``home``, and the program's own files at their places
    in its data folder: a history that is not SQLite there (set aside on first use), a survey
    database that is not SQLite there (set aside when the survey starts)."""
    folder = home / "files"
    folder.mkdir(parents=True)
    paths = {
        name: folder / f"{name}.sqlite3" for name in ("garbage", "foreign", "hostile", "locked", "history", "survey")
    }
    paths["garbage"].write_bytes(GARBAGE)
    with sqlite3.connect(paths["foreign"]) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    hostile_file(paths["hostile"])
    for name in ("locked", "history"):
        with History(paths[name]) as history:
            history.add_game(entry(finished_game()))
    hostile_survey(paths["survey"])
    paths["claimed"] = folder / "claimed.sqlite3"
    data = home / "data" / "mahjong-battle"
    (data / "atlas").mkdir(parents=True)
    (data / "history.sqlite3").write_bytes(GARBAGE)
    (data / "atlas" / "survey.sqlite3").write_bytes(GARBAGE)
    return paths


def commands(paths: dict[str, Path]) -> list[list[str]]:
    """Each command with what it is expected to end with: 0, or 2 for a file refused."""
    garbage, foreign, hostile, locked, history, survey, claimed = (
        str(paths[key]) for key in ("garbage", "foreign", "hostile", "locked", "history", "survey", "claimed")
    )
    return [
        ["stats"],  # the history's own file is no database: set aside, a new one started
        ["stats", "--db", garbage],
        ["stats", "--db", foreign],
        ["stats", "--db", hostile],
        ["stats", "--db", locked],  # another copy holds it locked
        ["survey", "--report", "--db", garbage],
        ["survey", "--report", "--db", history],
        ["survey", "--report", "--db", survey, "--tiles", "12"],
        ["survey", "1-3", "--tiles", "12", "--workers", "1", "--db", claimed],
        ["survey", "1-3", "--tiles", "12", "--workers", "1"],  # a real run, its own file set aside first
        ["survey", "1-4", "--tiles", "12", "--workers", "1"],
        ["survey", "--report", "--tiles", "12"],
        ["survey", "--report"],
        ["survey", "--export", str(paths["garbage"].parent / "catalogue.tsv")],
    ]


EXPECTED_CODES = [0, 0, 0, 0, 0, 2, 2, 0, 2, 0, 0, 0, 0, 2]  # the export: only 12-tile deals, nothing to write, said


BUSY_READING_GAMES = {
    "de": "die Verlaufsdatenbank ist belegt (eine andere Kopie des Spiels schreibt): "
    "die Partien ließen sich nicht lesen",
    "en": "the history database is busy (another copy of the game is writing): could not read the games",
}
"""The history's notice when another copy holds it locked: a whole sentence, no verb glued in."""


def store_screens(home: Path, language: str) -> list[Screen]:
    paths = store_files(home)
    holder = sqlite3.connect(paths["locked"], isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")  # in WAL mode only this keeps readers out
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE games SET score1 = score1")
    claim = sqlite_store.claim(paths["claimed"])
    try:
        answers = driven(home, language, commands(paths))
    finally:
        claim.close()
        holder.execute("ROLLBACK")
        holder.close()
    assert [answer["code"] for answer in answers] == EXPECTED_CODES, answers
    texts = {" ".join(answer["argv"][2:]): answer["out"] + answer["err"] for answer in answers}
    busy = texts[f"stats --db {paths['locked']}"]
    assert busy.count("mahjong-battle: ") == 2 and BUSY_READING_GAMES[language] in busy, busy
    run = texts["survey 1-3 --tiles 12 --workers 1"]
    assert run.count("\n") == 7, run  # the summary, the set-aside notice, the dashboard, 4 progress lines
    salvaged = home / "salvaged"
    forty_games_one_page_damaged(salvaged / "data")
    [stats] = driven(salvaged, language, [["stats"]])
    assert stats["code"] == 0 and stats["err"].count("\n") == 1, stats
    texts["stats (a damaged page)"] = stats["out"] + stats["err"]
    return [Screen(name, text, literals=SUBCOMMANDS | COLUMNS) for name, text in texts.items()]


@pytest.mark.parametrize("language", ["de", "en"])
def test_what_the_stores_and_a_real_survey_say_is_in_one_language(language: str, tmp_path: Path) -> None:
    problems = report(store_screens(tmp_path, language), language)
    assert not problems, problems


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_servers_file_set_aside_is_said_in_one_language(
    language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from battle.online.server.rooms.store import GameStore, default_database_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    default_database_path().write_bytes(GARBAGE)
    i18n.set_language(language)
    try:
        store = GameStore()
        store.close()
    finally:
        i18n.set_language("en")
    assert store.notice is not None and "games.sqlite3.corrupt" in store.notice
    problems = report([Screen("serve", store.notice)], language)
    assert not problems, problems
