"""The pars every server group found, shared through PostgreSQL: the codec reads another group's row
as a stranger's message (a margin within the points in play, some of the start's own legal moves,
nothing else), and two real ``serve --group`` on a real PostgreSQL: a par group a's pool worked out is
known at once on group b, which runs no solver, and a row no group could have written is one line in
b's log while b goes on without it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battle.online.server.solving.par_rows import ParRow
from battle.online.server.solving.shared_pars import BadSharedPar, read_shared_par, shared_par_text
from battle.rules.board import move_name
from battle.rules.notation import parse_position
from tests.online.test_online_groups import psycopg_installed
from tests.online.test_online_pars import endgame, final_news, hosted
from tests.online_server import ServerProcess
from tests.postgres_server import RunningPostgres, postgres

START = endgame(11, 26)


def legal_names(text: str) -> list[str]:
    return [move_name(move) for move in parse_position(text).legal_moves()]


@given(value=st.integers(-270, 270), count=st.integers(1, 3), found_at=st.floats(0, 2e9))
def test_a_par_written_by_a_group_reads_back_whole(value: int, count: int, found_at: float) -> None:
    row = ParRow(START, "found", value, tuple(legal_names(START)[:count]), found_at)
    assert read_shared_par(START, parse_position(START), shared_par_text(row)) == row


@pytest.mark.parametrize(
    "text",
    [
        '{"value": Infinity, "best": ["a1-a9"], "found_at": 0}',
        "[" * 5000 + "]" * 5000,
        '{"value": 271, "best": ["%s"], "found_at": 0}',
        '{"value": true, "best": ["%s"], "found_at": 0}',
        '{"value": 4.5, "best": ["%s"], "found_at": 0}',
        '{"value": 4, "best": [], "found_at": 0}',
        '{"value": 4, "best": "%s", "found_at": 0}',
        '{"value": 4, "best": ["%s", "%s"], "found_at": 0}',
        '{"value": 4, "best": ["%s", 7], "found_at": 0}',
        '{"value": 4, "best": ["a1-l9"], "found_at": 0}',
        '{"value": 4, "best": ["%s"]}',
        '{"value": 4, "best": ["%s"], "found_at": "soon"}',
        '"a par"',
    ],
)
def test_a_row_no_group_writes_is_refused_in_words(text: str) -> None:
    legal = legal_names(START)[0]
    text = text.replace("%s", legal)
    with pytest.raises(BadSharedPar) as refused:
        read_shared_par(START, parse_position(START), text)
    assert str(refused.value).count("\n") == 0 and ("par" in str(refused.value) or "legal" in str(refused.value))


@pytest.fixture
def database() -> Iterator[RunningPostgres]:
    psycopg_installed()
    with postgres() as running:
        yield running


def group(folder: Path, name: str, database: RunningPostgres, *flags: str) -> ServerProcess:
    return ServerProcess(folder / name, "--group", name, "--shared", database.url, *flags)


def test_a_par_found_on_one_group_is_known_on_the_other(tmp_path: Path, database: RunningPostgres) -> None:
    import psycopg

    a = group(tmp_path, "a", database, "--solver-workers", "1")
    b = group(tmp_path, "b", database)  # no solver: it can know a new deal's par only from the others
    with a, b:
        host, _ = hosted(a.url, {"position": START})
        host.send({"type": "par"})
        found = final_news(host)
        assert found["status"] == "known"
        host.close()

        guest, created = hosted(b.url, {"position": START})
        guest.send({"type": "par"})
        news = guest.expect("par_result")
        assert (news["game"], news["status"], news["value"]) == (created["game"], "known", found["value"])
        assert news["best_moves"] == found["best_moves"]
        guest.close()

        other = endgame(12, 20)  # a row no group wrote: left out, and b (no solver) has no par for it
        with psycopg.connect(database.url, autocommit=True) as connection:
            bad: dict[str, Any] = {"value": 999, "best": legal_names(other)[:1], "found_at": 0}
            connection.execute("INSERT INTO battle_pars (start, par) VALUES (%s, %s)", (other, json.dumps(bad)))
        lost, _ = hosted(b.url, {"position": other})
        lost.send({"type": "par"})
        assert lost.expect("par_result")["status"] == "none"
        lost.close()
    said = [line for line in b.log_lines() if "left out a shared par" in line]
    assert len(said) == 1 and "999" in said[0]
    assert not [line for line in b.log_lines() if "Traceback" in line]
