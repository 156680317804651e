"""The order pytest-xdist's workers take the tests in: every folder's modules spread evenly over the
run, so that what one worker waits for, another computes.

pytest collects folder by folder, and the folders differ in what they spend: the browser tests
(``tests/web``) waited for 602 worker-seconds of wall time and spent 232 CPU s, the window's tests
(``tests/ui``) kept a core busy (150 CPU s in 243 worker-seconds). In collection order a default
run on two cores with three workers spent its last 210 s on browser tests alone, with 0.6-1.0 of the
two cores busy (``tools/suite_cpu.py``), after the window's and the solver's tests had kept both full.
A module's tests stay together, so a module's fixtures start once in a worker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import PurePath
from typing import TypeVar

Item = TypeVar("Item")


def interleaved(items: Sequence[Item], module_of: Callable[[Item], PurePath]) -> list[Item]:
    """``items`` with each folder's modules spread evenly over the run (``module_of``: an item's module file).

    The k-th of a folder's n modules goes to (k + 1/2) / n of the run; the order of a folder's modules,
    and of the tests within a module, is kept."""
    modules: dict[PurePath, list[Item]] = {}
    for item in items:
        modules.setdefault(module_of(item), []).append(item)
    folders: dict[PurePath, list[PurePath]] = {}
    for module in modules:
        folders.setdefault(module.parent, []).append(module)
    placed = [
        ((k + 0.5) / len(members), str(module), module)
        for members in folders.values()
        for k, module in enumerate(members)
    ]
    return [item for _, _, module in sorted(placed) for item in modules[module]]
