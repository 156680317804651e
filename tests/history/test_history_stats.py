"""Statistics over a few stored games and attempts: the counts, margins, curves, and the ``stats`` command."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from battle import i18n
from battle.history.stats import PEOPLE, compute_stats
from battle.history.stats_report import format_stats, sparkline
from battle.history.store import GameEntry, History, PuzzleAttempt
from battle.ratings.glicko2 import Rating
from tests.history.test_history_store import finished_game

ROOT = Path(__file__).resolve().parents[2]
DAY = 86400.0


def game(
    day: int,
    you: int | None,
    levels: tuple[str | None, str | None],
    scores: tuple[int, int],
    accuracy: tuple[float | None, float | None] = (None, None),
    game_id: int | None = None,
) -> GameEntry:
    return GameEntry(
        1.7e9 + day * DAY,
        "terminal",
        ("Ann", "Ben"),
        levels,
        you,
        day,
        "",
        scores,
        accuracy=accuracy,
        id=game_id or day,
    )


GAMES = [
    game(1, 1, (None, "club"), (150, 120), (80.0, None)),  # won by 30 against club
    game(2, 2, ("club", None), (140, 130), (None, 70.0)),  # lost by 10 against club
    game(3, 1, (None, "club"), (135, 135)),  # drawn against club
    game(4, 1, (None, "beginner"), (200, 70), (95.0, None)),  # won by 130 against beginner
    game(5, 2, (None, None), (100, 170)),  # online, won by 70 against a person
    game(6, None, (None, None), (140, 130)),  # two people at one machine: not yours
    game(7, None, ("club", "expert"), (120, 150)),  # two levels: not yours
]
ATTEMPTS = [
    PuzzleAttempt(1.7e9 + index, f"p{index}", solved, Rating(1500 + 10 * index, 300 - index, 0.06), Rating())
    for index, solved in enumerate([True, True, False, True, True, True, False, True])
]


def test_counts_per_opponent_level_and_margins() -> None:
    stats = compute_stats(list(reversed(GAMES)), ATTEMPTS)
    assert stats.games == 7 and stats.your_games == 5
    tallies = {tally.opponent: tally for tally in stats.tallies}
    assert list(tallies) == ["beginner", "club", PEOPLE]  # weakest first, people last
    club = tallies["club"]
    assert (club.wins, club.draws, club.losses, club.games) == (1, 1, 1, 3)
    assert club.average_margin == (30 - 10 + 0) / 3
    assert (tallies["beginner"].wins, tallies[PEOPLE].wins) == (1, 1)
    assert stats.average_margin == (30 - 10 + 0 + 130 + 70) / 5
    assert [when for when, _ in stats.accuracy] == sorted(when for when, _ in stats.accuracy)
    assert [percent for _, percent in stats.accuracy] == [80.0, 70.0, 95.0]
    assert [entry.id for entry in stats.best] == [4, 5, 1]
    assert [entry.id for entry in stats.worst] == [2, 3]
    assert stats.solver.games == 4  # the games against levels, people's not
    assert (stats.puzzles_tried, stats.puzzles_solved, stats.streak, stats.best_streak) == (8, 6, 1, 3)
    assert stats.puzzle_ratings[-1][1].rating == 1570


def test_a_game_resigned_or_lost_on_time_counts_by_its_winner_and_not_in_the_margins() -> None:
    ahead_but_resigned = GameEntry(
        1.7e9 + 8 * DAY, "online", ("Ann", "Ben"), (None, None), 1, 8, "", (60, 20), winner=2, id=8
    )
    behind_but_won_on_time = GameEntry(
        1.7e9 + 9 * DAY, "online", ("Ann", "Ben"), (None, None), 1, 9, "", (10, 30), winner=1, id=9
    )
    stats = compute_stats([*GAMES, ahead_but_resigned, behind_but_won_on_time], [])
    people = {tally.opponent: tally for tally in stats.tallies}[PEOPLE]
    assert (people.wins, people.draws, people.losses) == (2, 0, 1)
    assert people.average_margin == 70 and people.margin_games == 1  # the half-played games' scores say nothing
    assert stats.average_margin == (30 - 10 + 0 + 130 + 70) / 5
    assert 8 not in [entry.id for entry in stats.best + stats.worst]


def test_the_report_says_it_in_text() -> None:
    text = format_stats(compute_stats(GAMES, ATTEMPTS))
    assert "Games: 7 stored, 5 yours" in text
    assert "  club           3    1     1    1  +6.7" in text
    assert "average margin over your games: +44.0" in text
    assert "Rating against the solver:" in text and "-level solver" in text
    assert "Accuracy over time (3 reviewed games)" in text and "latest 95.0%, average 81.7%" in text
    assert "#4  " in text.split("Best games:")[1].splitlines()[1]
    assert "Puzzles: 8 tried, 6 solved; streak 1 (best 3)" in text
    empty = format_stats(compute_stats([], []))
    assert "Games: 0 stored, 0 yours" in empty and "no game against a level yet" in empty
    assert "none tried yet" in empty


def test_the_reports_accuracy_reads_in_german_with_its_tenths() -> None:
    try:
        i18n.set_language("de")
        text = format_stats(compute_stats(GAMES, ATTEMPTS))
    finally:
        i18n.set_language("en")
    assert "Genauigkeit über die Zeit (3 bewertete Partien)" in text, text
    assert "zuletzt 95,0 %, Mittel 81,7 %" in text, text


def test_sparkline() -> None:
    assert sparkline([1, 2, 3, 4, 5, 6, 7, 8]) == "▁▂▃▄▅▆▇█"
    assert sparkline([5, 5]) == "▁▁"
    assert sparkline([]) == ""
    assert len(sparkline(range(100))) == 40


def known_command(name: str) -> bool:
    """Whether ``mahjong-battle`` itself has the subcommand (else its module runs it alone)."""
    from battle.cli.command_line import build_parser

    return any(
        isinstance(action, argparse._SubParsersAction) and name in action.choices for action in build_parser()._actions
    )


def stats_command(*argv: str, home: Path) -> subprocess.CompletedProcess[str]:
    module = "battle" if known_command("stats") else "battle.cli.stats_command"
    return subprocess.run(
        [sys.executable, "-m", module, "stats", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(home)},
    )


def test_the_stats_command_reports_the_stored_games(tmp_path: Path) -> None:
    played = finished_game()
    with History(tmp_path / "mahjong-battle" / "history.sqlite3") as history:
        for day, level in enumerate(["club", "club", "expert"]):
            history.add_game(
                GameEntry.from_game(
                    played, front_end="terminal", levels=(None, level), you=1, finished_at=1.7e9 + day * DAY
                )
            )
    done = stats_command(home=tmp_path)
    assert done.returncode == 0, done.stderr
    margin = played.position.scores[0] - played.position.scores[1]
    outcome = "won" if margin > 0 else "lost"
    assert "Games: 3 stored, 3 yours" in done.stdout
    assert f"  club           2    {2 if outcome == 'won' else 0}" in done.stdout
    assert "Rating against the solver:" in done.stdout
    record = stats_command("--record", "2", home=tmp_path)
    assert record.returncode == 0 and record.stdout == played.to_text()
    missing = stats_command("--record", "9", home=tmp_path)
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr == "mahjong-battle: --record: no game #9 in the history\n"


def test_the_stats_command_sets_a_damaged_history_aside_and_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "mahjong-battle"
    folder.mkdir()
    (folder / "history.sqlite3").write_text("not a database" * 100)
    done = stats_command(home=tmp_path)
    assert done.returncode == 0
    assert "Games: 0 stored" in done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mahjong-battle: ")
    assert "history.sqlite3: not a usable game history (file is not a database)" in lines[0]
    assert "set aside as history.sqlite3.corrupt" in lines[0]
    assert (folder / "history.sqlite3.corrupt").exists()


@pytest.mark.parametrize(
    "command",
    [["stats"], ["puzzles", "play", "--count", "1"], ["survey", "1", "--tiles", "12"], ["survey", "--report"]],
)
def test_a_db_in_a_folder_that_does_not_exist_is_one_line_and_no_folder_is_made(
    tmp_path: Path, command: list[str]
) -> None:
    """As root, ``--db /nonexistent/history.sqlite3`` left a folder at the root and a new database in it."""
    wanted = tmp_path / "nonexistent" / "deeper" / "history.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "battle", *command, "--db", str(wanted)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data")},
    )
    assert done.returncode == 2 and done.stdout == "", done.stderr[-2000:]
    assert done.stderr == (
        f"mahjong-battle: --db {wanted}: there is no folder {wanted.parent} (a database is made only in a "
        "folder that exists)\n"
    )
    assert not (tmp_path / "nonexistent").exists()


def test_a_db_in_a_folder_that_exists_is_made_there(tmp_path: Path) -> None:
    done = stats_command("--db", str(tmp_path / "mine.sqlite3"), home=tmp_path / "data")
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    assert "Games: 0 stored" in done.stdout and (tmp_path / "mine.sqlite3").is_file()
