"""The day's table as a pure function: against par as the window's result card has it, what counts,
the order, the top's bound, one row a network, the viewer's own best below the top, and the tag
that tells two rows of one name apart."""

from __future__ import annotations

import random

from battle.online.server.days.table import (
    FRIEND,
    TOP_ROWS,
    DayBoard,
    DayResult,
    against_par,
    counts,
    day_table,
    folded,
)


def result(
    game: str,
    margin: int,
    network: str = "n",
    device: str | None = None,
    seat: int = 1,
    opponent: str = "beginner",
    other: str = "",
    name: str | None = None,
) -> DayResult:
    scores = (50 + margin, 50) if seat == 1 else (50, 50 + margin)
    return DayResult(
        game, seat, name or f"P{game}", scores, 1, opponent, float(len(game)), network, device, other_network=other
    )


def test_against_par_is_the_margin_less_the_seats_par() -> None:
    assert against_par((60, 50), 4, 1, 1) == 6
    assert against_par((60, 50), 4, 1, 2) == -6
    assert against_par((60, 50), 4, 2, 1) == 14  # the par of the second player is the opposite


def test_a_game_against_the_solver_counts_and_a_friends_game_only_between_two_networks() -> None:
    assert counts(result("g", 0, opponent="perfect"))
    assert counts(result("g", 0, "a", opponent=FRIEND, other="b"))
    assert not counts(result("g", 0, "a", opponent=FRIEND, other="a"))  # both seats from one address
    assert not counts(result("g", 0, "a", opponent=FRIEND, other=""))  # the other seat's network unknown
    assert not counts(result("g", 0, "", opponent=FRIEND, other="b"))
    self_played = [result(f"f{i}", 100, f"crowd{i % 7}", opponent=FRIEND, other=f"crowd{i % 7}") for i in range(21)]
    real = result("real", 2, "home", "d" * 32, name="Maria")
    assert [row.name for row in day_table([*self_played, real], 0, None)] == ["Maria"]


def test_the_best_against_par_first_and_a_network_holds_one_row() -> None:
    results = [result(f"g{i}", i, network="crowd") for i in range(10)] + [result("solo", -5, network="other")]
    rows = day_table(results, 0, None)
    assert [row.name for row in rows] == ["Pg9", "Psolo"]
    assert [row.place for row in rows] == [1, 2]


def test_the_top_is_bounded_and_the_viewers_best_follows_it() -> None:
    results = [result(f"g{i:02}", i, network=f"n{i}") for i in range(40)]
    mine = [result("mine", -30, "x", "d" * 32), result("mine2", -20, "x", "d" * 32)]
    rows = day_table([*results, *mine], 0, "d" * 32)
    assert len(rows) == TOP_ROWS + 1
    assert rows[-1].name == "Pmine2" and rows[-1].yours and rows[-1].place == 41
    assert not any(row.yours for row in rows[:-1])


def test_a_devices_best_that_is_not_its_networks_best_still_shows_to_it() -> None:
    """A family behind one address: the child's best is below the parent's, who holds the network's row."""
    parent = result("parent", 9, "home", "p" * 32)
    child = result("child", 1, "home", "c" * 32)
    other = result("other", 5, "away")
    rows = day_table([parent, child, other], 0, "c" * 32)
    assert [(row.name, row.place, row.yours) for row in rows] == [
        ("Pparent", 1, False),
        ("Pother", 2, False),
        ("Pchild", 3, True),  # below both networks' bests: third among them
    ]


def test_two_rows_of_one_name_are_told_apart_by_their_devices_tags() -> None:
    real = result("real", 3, "home", "r" * 32, name="Maria")
    fakes = [result(f"fake{i}", 10 + i, f"n{i}", f"{i}" * 32, name=name) for i, name in enumerate(["maria", "MARIA "])]
    other = result("other", 1, "away", name="Ben")
    rows = day_table([real, *fakes, other], 0, "r" * 32)
    tags = {row.name: row.tag for row in rows}
    assert tags["Ben"] is None
    marias = [row for row in rows if folded(row.name) == "maria"]
    assert len(marias) == 3 and len({row.tag for row in marias}) == 3
    assert all(row.tag is not None and len(row.tag) == 4 for row in marias)
    assert [row.yours for row in marias] == [False, False, True]  # the real one is marked on her own device
    assert folded("Ｍａｒｉａ") == folded(" m a r i a ")  # full-width and spaced forms read alike


def test_folding_results_in_any_order_and_any_number_gives_one_table() -> None:
    picker = random.Random(5)
    results = [
        result(f"g{i}", picker.randint(-40, 40), f"n{picker.randint(0, 30)}", f"d{picker.randint(0, 50)}")
        for i in range(400)
    ]
    expected = day_table(results, 3, "d7")
    for _ in range(5):
        picker.shuffle(results)
        board = DayBoard(3)
        for one in results:
            board.add(one)
        assert board.table("d7") == expected
    assert len(DayBoard(3).by_network) == 0
