"""benchmarks/cut_study.py must keep running against the solver's internals it uses.

The study calls ``Engine._encode`` and ``Engine._child_value`` and reads the kernel's
ordering constants, so a change there could break it without anything else noticing.
"""

from __future__ import annotations

from tests import naive
from tests.benchmark_scripts import load_script


def test_cut_study_costs_and_oracle_on_small_positions(capsys) -> None:  # noqa: ANN001 - pytest fixture
    study = load_script("cut_study")
    nodes = study.study(3, 18, 22, seed=5)
    assert len(nodes) == 3 * len(study.MARGINS)
    for node in nodes:
        position_values = [facts.value for facts in node.moves]
        # beta lies the margin below the best move's exact value, so the best move cuts.
        assert max(position_values) - node.margin == node.beta
        assert all(facts.cost >= 1 for facts in node.moves)
        oracle = node.oracle()
        assert oracle == min(facts.cost for facts in node.moves if facts.value >= node.beta)
        for make_key in study.ORDERINGS.values():
            assert node.cost(make_key(len(node.moves))) >= oracle
    study.report(nodes)
    table = capsys.readouterr().out
    assert all(f"| {name} |" in table for name in study.ORDERINGS)


def test_cut_study_values_are_exact() -> None:
    study = load_script("cut_study")
    for node in study.study(2, 14, 16, seed=7):
        expected = naive.move_values(node.position.copy())
        assert {facts.move: facts.value for facts in node.moves} == expected
