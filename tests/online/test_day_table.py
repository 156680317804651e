"""The day's table as a pure function: against par as the window's result card has it, the order,
the top's bound, the rows per network and the viewer's own rows below the top."""

from __future__ import annotations

from battle.online.server.day_table import FRIEND, ROWS_PER_NETWORK, TOP_ROWS, DayResult, against_par, day_table


def result(game: str, margin: int, network: str = "n", device: str | None = None, seat: int = 1) -> DayResult:
    scores = (50 + margin, 50) if seat == 1 else (50, 50 + margin)
    return DayResult(game, seat, f"P{game}", scores, 1, FRIEND, float(len(game)), network, device)


def test_against_par_is_the_margin_less_the_seats_par() -> None:
    assert against_par((60, 50), 4, 1, 1) == 6
    assert against_par((60, 50), 4, 1, 2) == -6
    assert against_par((60, 50), 4, 2, 1) == 14  # the par of the second player is the opposite


def test_the_best_against_par_first_and_a_network_holds_few_rows() -> None:
    results = [result(f"g{i}", i, network="crowd") for i in range(10)] + [result("solo", -5, network="other")]
    rows = day_table(results, 0, None)
    assert [row.name for row in rows] == ["Pg9", "Pg8", "Pg7", "Psolo"][: ROWS_PER_NETWORK + 1]
    assert [row.place for row in rows] == [1, 2, 3, 4]


def test_the_top_is_bounded_and_the_viewers_rows_follow_it() -> None:
    results = [result(f"g{i:02}", i, network=f"n{i}") for i in range(40)] + [result("mine", -30, "x", "d" * 32)]
    rows = day_table(results, 0, "d" * 32)
    assert len(rows) == TOP_ROWS + 1
    assert rows[-1].name == "Pmine" and rows[-1].yours and rows[-1].place == 41
    assert not any(row.yours for row in rows[:-1])
