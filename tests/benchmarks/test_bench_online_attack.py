"""``benchmarks/solver_attackers.py``'s tally of the victim's replies: a reply counts as measured on
time only when the victim's own process woke on time while it was pending, however long a stall
that overlaps it, since a late wake-up is the machine's and no server's."""

from __future__ import annotations

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


def test_the_caps_table_counts_each_network_alike_with_one_process_and_two() -> None:
    """``online_attack.py --caps``: a row a cap, a column a process count; where a cap counts a network
    across the processes (its starts, wrong codes, challenges and games, creates sent at once
    included), the columns are equal."""
    command = [sys.executable, str(BENCHMARKS / "online_attack.py"), "--caps", "--processes", "1,2"]
    printed = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True).stdout
    table = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in printed.splitlines()]
    rows = {cells[0]: cells[2:] for cells in table if len(cells) == 4}
    assert set(rows) >= {"starts", "wrong codes", "challenges", "games waiting", "games at once"}, printed
    assert rows["starts"] == ["20 (starts)"] * 2, printed
    assert rows["wrong codes"] == ["6 (rate_limited)"] * 2, printed
    assert rows["challenges"] == ["2 (challenges)"] * 2, printed
    for games in ("games waiting", "games at once"):  # refused by the waiting cap or the games cap: both 5
        assert [cell.split()[0] for cell in rows[games]] == ["5", "5"], printed


@pytest.mark.slow
def test_the_shared_rows_hold_puzzles_and_followers_to_eight_a_network() -> None:
    """``shared_tables.py`` (``online_attack.py --shared``), its two quick rows: 20 networks opening 16
    puzzles hold 160, 80 networks of 10 followers hold 640 and a visitor is let in."""
    command = [sys.executable, str(BENCHMARKS / "shared_tables.py"), "--rows", "puzzles,lobby", "--seconds", "2"]
    printed = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True).stdout
    assert "| open puzzles, 20 networks x 16 | 160 held | 160 refused (puzzles_open) |" in printed, printed
    assert "| lobby, 80 networks x 10 followers | 640 follow | visitor let in |" in printed, printed
    assert "real one listed 2 of 2 looks | taken at the end |" in printed, printed
