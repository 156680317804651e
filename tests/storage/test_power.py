"""Whether the machine runs on its battery, read from a power-supply tree laid out as Linux's
``/sys/class/power_supply`` is: a battery discharging with no mains online, and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from battle.storage.power import on_battery


def supplies(root: Path, **kinds: dict[str, str]) -> Path:
    for name, files in kinds.items():
        (root / name).mkdir(parents=True)
        for file, text in files.items():
            (root / name / file).write_text(text + "\n", encoding="ascii")
    return root


@pytest.mark.parametrize(
    ("tree", "expected"),
    [
        ({"AC": {"type": "Mains", "online": "0"}, "BAT0": {"type": "Battery", "status": "Discharging"}}, True),
        ({"AC": {"type": "Mains", "online": "1"}, "BAT0": {"type": "Battery", "status": "Charging"}}, False),
        ({"AC": {"type": "Mains", "online": "1"}, "BAT0": {"type": "Battery", "status": "Discharging"}}, False),
        ({"BAT1": {"type": "Battery", "status": "Full"}}, False),
        ({"hidpp_battery_0": {"type": "Battery"}}, False),  # a mouse's battery says no status: not the machine's
        ({}, False),  # a desktop or a server: no supply but the mains it never lists
    ],
    ids=["unplugged", "charging", "plugged-in-draining", "full", "no-status", "none"],
)
def test_only_a_discharging_battery_without_mains_is_on_battery(
    tmp_path: Path, tree: dict[str, dict[str, str]], expected: bool
) -> None:
    assert on_battery(supplies(tmp_path / "power_supply", **tree) if tree else _empty(tmp_path)) is expected


def _empty(tmp_path: Path) -> Path:
    (tmp_path / "power_supply").mkdir()
    return tmp_path / "power_supply"
