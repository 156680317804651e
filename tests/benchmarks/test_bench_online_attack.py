"""``benchmarks/solver_attackers.py``'s tally of the victim's replies: a reply counts as measured on
time only when the victim's own process woke on time while it was pending, however long a stall
that overlaps it, since a late wake-up is the machine's and no server's."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.benchmark_scripts import BENCHMARKS, load_script


def test_a_reply_during_a_stall_of_the_victims_process_is_not_on_time() -> None:
    attackers = load_script("solver_attackers")
    tally = attackers.Tally(
        replies=[0.1, 0.2, 0.05, 0.04],
        spans=[(1.0, 1.1), (2.0, 2.2), (3.0, 3.05), (4.0, 4.04)],
        lags=[(1.05, 0.001), (2.1, 0.15), (3.6, 0.7), (4.5, 0.03)],
    )
    # the second reply saw a 0.15 s stall within it, the third one of 0.7 s that began before it
    # arrived and ended after; the last reply arrived before a stall began
    assert tally.on_time(0.02) == [0.1, 0.04]
    assert tally.on_time(1.0) == [0.1, 0.2, 0.05, 0.04]


@pytest.mark.slow
def test_the_caps_table_counts_each_network_alike_with_one_process_and_two() -> None:
    """``online_attack.py --caps``: a row a cap, a column a process count; where a cap counts a network
    across the processes (its starts, wrong codes, challenges and games, creates sent at once
    included), the columns are equal."""
    command = [sys.executable, str(BENCHMARKS / "network_caps.py"), "--alone", "--processes", "1,2"]
    printed = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True).stdout
    assert_the_caps_alike(printed)


def assert_the_caps_alike(printed: str) -> None:
    table = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in printed.splitlines()]
    rows = {cells[0]: cells[2:] for cells in table if len(cells) == 4}
    assert set(rows) >= {"starts", "wrong codes", "challenges", "games waiting", "games at once", "connections"}, (
        printed
    )
    assert rows["starts"] == ["20 (starts)"] * 2, printed
    assert rows["wrong codes"] == ["6 (rate_limited)"] * 2, printed
    assert rows["challenges"] == ["2 (challenges)"] * 2, printed
    assert rows["connections"] == ["62 (429)"] * 2, printed  # half of them in process 0, half at home
    assert rows["open puzzles"] == ["8 (puzzles_open)"] * 2, printed
    assert rows["new puzzle ratings"] == ["30 (new_devices)"] * 2, printed
    for games in ("games waiting", "games at once"):  # refused by the waiting cap or the games cap: both 5
        assert [cell.split()[0] for cell in rows[games]] == ["5", "5"], printed


@pytest.mark.slow
def test_the_neighbours_of_each_caps_attack_are_answered_and_a_stopped_process_0_holds_up_only_its_own() -> None:
    """``online_attack.py --caps``: the caps as above, and beside every attack both neighbours' pings
    and the solver player's moves answered (no error); with process 0 stopped 10 s, process 1's
    neighbour is still answered within a second, and a newcomer of process 0's home makes a game."""
    command = [sys.executable, str(BENCHMARKS / "online_attack.py"), "--caps", "--processes", "1,2"]
    printed = subprocess.run(command, capture_output=True, text=True, timeout=900, check=True).stdout
    assert_the_caps_alike(printed)
    table = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in printed.splitlines()]
    felt = {cells[0]: cells[1:] for cells in table if len(cells) == 3 and cells[1].startswith(("ping", "n/a"))}
    assert len(felt) == 9, printed  # eight caps and the stopped row
    for row, cells in felt.items():
        for cell in cells[: 1 if row.startswith("process 0 stopped") else 2]:
            assert "errors" not in cell and "no reply" not in cell, printed
    stopped = felt[next(row for row in felt if row.startswith("process 0 stopped"))]
    assert stopped[0].startswith("n/a"), printed
    home_1_ping = float(re.search(r"ping p99 [0-9.]+ / ([0-9.]+) ms", stopped[1]).group(1))  # type: ignore[union-attr]
    assert home_1_ping < 1000 and "a newcomer of home 0 made a game in" in stopped[1], printed


@pytest.mark.slow
def test_the_shared_rows_hold_puzzles_and_followers_to_eight_a_network() -> None:
    """``shared_tables.py`` (``online_attack.py --shared``), its two quick rows: 20 networks opening 16
    puzzles hold 160, 80 networks of 10 followers hold 640 and a visitor is let in."""
    command = [sys.executable, str(BENCHMARKS / "shared_tables.py"), "--rows", "puzzles,lobby", "--seconds", "2"]
    printed = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True).stdout
    assert "| open puzzles, 20 networks x 16 | 160 held | 160 refused (puzzles_open) |" in printed, printed
    assert "| lobby, 80 networks x 10 followers | 640 follow | visitor let in |" in printed, printed
    assert "real one listed 2 of 2 looks | taken at the end |" in printed, printed


def test_the_starved_review_table_refuses_a_row_it_does_not_have_in_one_line() -> None:
    command = [sys.executable, str(BENCHMARKS / "starved_review.py"), "--rows", "quiet,sunny"]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 2
    assert "--rows: no row 'sunny' (quiet, busy, starved)" in finished.stderr.splitlines()[-1]


@pytest.mark.slow
def test_a_short_games_review_is_done_beside_busy_loops_through_a_real_server() -> None:
    """``starved_review.py``'s busy row, one review: a 2-move game's review through ``serve`` beside two
    busy loops ends ``done`` (the starved row is the benchmark's: minutes)."""
    command = [sys.executable, str(BENCHMARKS / "starved_review.py"), "--rows", "busy", "--reviews", "1"]
    printed = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True).stdout
    assert "| beside two busy loops |" in printed and "| 1 of 1 done, 0 failed |" in printed, printed
