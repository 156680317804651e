"""benchmarks/cut_study.py must keep running against the solver's internals it uses.

The study calls ``Engine._encode`` and ``Engine._child_value`` and reads the kernel's
ordering constants, so a change there could break it without anything else noticing.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import naive

ROOT = Path(__file__).resolve().parent.parent


def load_study() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cut_study", ROOT / "benchmarks" / "cut_study.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cut_study"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_cut_study_costs_and_oracle_on_small_positions(capsys) -> None:  # noqa: ANN001 - pytest fixture
    study = load_study()
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
    study = load_study()
    for node in study.study(2, 14, 16, seed=7):
        expected = naive.move_values(node.position.copy())
        assert {facts.move: facts.value for facts in node.moves} == expected
