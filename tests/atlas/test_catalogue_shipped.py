"""The shipped deal catalogue (``assets/atlas/catalogue.tsv``) holds what an exact solve finds:
on every run, each par's moves are legal first moves of its deal; with ``pytest -m slow``, the
deals that took the fewest nodes are solved again from move 1 and must give the same value and
the same set of best first moves.

The sample is the cheapest deals by the catalogue's own node counts, which do not depend on
the machine: deals 49 and 67 (53 M and 152 M nodes, 18 s and 50 s on two threads), so the
slow check takes about a minute and a half.
"""

from __future__ import annotations

import pytest

from battle.atlas.catalogue import CATALOGUE_NAME, HEADER, read_catalogue
from battle.resources import asset_path
from battle.rules.board import move_name
from battle.rules.deal import deal

SAMPLE = 2
MIN_SHIPPED = 30


def shipped_rows() -> list[dict[str, str]]:
    """The catalogue's data lines as columns by name."""
    names = HEADER.split("\t")
    lines = asset_path("atlas", CATALOGUE_NAME).read_text(encoding="utf-8").splitlines()
    return [
        dict(zip(names, line.split("\t"), strict=True))
        for line in lines
        if line and not line.startswith("#") and line != HEADER
    ]


def test_every_par_names_legal_first_moves_of_its_deal() -> None:
    pars = read_catalogue(asset_path("atlas", CATALOGUE_NAME))
    assert len(pars) >= MIN_SHIPPED
    for number, par in pars.items():
        start = deal(number)
        legal = {move_name(move) for move in start.legal_moves()}
        assert par.best_moves and set(par.best_moves) <= legal, (number, par.best_moves)
        assert len(set(par.best_moves)) == len(par.best_moves), number
        assert -270 < par.value < 270, (number, par.value)


@pytest.mark.slow
@pytest.mark.parametrize(
    "row", sorted(shipped_rows(), key=lambda row: int(row["nodes"]))[:SAMPLE], ids=lambda row: f"deal-{row['deal']}"
)
def test_a_cheap_catalogued_deal_solves_again_to_its_par(row: dict[str, str]) -> None:
    from battle.atlas.solve_deal import solve_deal

    result = solve_deal(int(row["deal"]), threads=2)
    assert result.solved
    assert result.value == int(row["value"])
    assert result.best_moves is not None and sorted(result.best_moves) == sorted(row["best_moves"].split())
