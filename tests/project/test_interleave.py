"""The workers' order (``tests/interleave.py``): each folder spread over the run, each module whole."""

from __future__ import annotations

from pathlib import PurePath

from hypothesis import given
from hypothesis import strategies as st

from tests.interleave import interleaved


def _items(modules: list[tuple[str, int]]) -> list[str]:
    return [f"{module}::test_{n}" for module, count in modules for n in range(count)]


def module_of(item: str) -> PurePath:
    return PurePath(item.split("::")[0])


def test_each_folders_modules_spread_over_the_run_and_keep_their_order() -> None:
    items = _items(
        [("tests/cli/test_a.py", 2), ("tests/cli/test_b.py", 1), ("tests/ui/test_c.py", 3), ("tests/ui/test_d.py", 1)]
        + [("tests/web/test_e.py", 2), ("tests/web/test_f.py", 1), ("tests/web/test_g.py", 1)]
    )
    order = [module_of(item).name for item in interleaved(items, module_of)]
    # cli and ui at 1/4 and 3/4 of the run, web at 1/6, 3/6 and 5/6
    expected = ["e", "e", "a", "a", "c", "c", "c", "f", "b", "d", "g"]
    assert order == [f"test_{name}.py" for name in expected]


@given(st.lists(st.tuples(st.sampled_from(["cli", "ui", "web", "online", "solver"]), st.integers(1, 4)), max_size=12))
def test_every_test_stays_once_in_its_module_and_its_modules_order(modules: list[tuple[str, int]]) -> None:
    named = [(f"tests/{folder}/test_{k}.py", count) for k, (folder, count) in enumerate(modules)]
    items = _items(named)
    ordered = interleaved(items, module_of)
    assert sorted(ordered) == sorted(items)
    for item in items:  # the tests of a module are contiguous and in their order
        module = module_of(item)
        own = [other for other in ordered if module_of(other) == module]
        start = ordered.index(own[0])
        assert ordered[start : start + len(own)] == [other for other in items if module_of(other) == module]
