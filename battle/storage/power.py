"""Whether the machine runs on its battery, as the platform says: background work that no player
waits for (a deal's par) stands aside then, so it never drains a laptop.

Linux says it in ``/sys/class/power_supply``: a battery whose status is ``Discharging`` while no mains
supply is online. Elsewhere psutil's ``sensors_battery`` says it, when psutil is installed; a platform
that says nothing counts as on mains (a desktop, a server).
"""

from __future__ import annotations

from pathlib import Path

POWER_SUPPLIES = Path("/sys/class/power_supply")


def on_battery(supplies: Path = POWER_SUPPLIES) -> bool:
    """True when the platform says the machine runs on its battery now."""
    if supplies.is_dir():
        mains = discharging = False
        for supply in supplies.iterdir():
            kind = _read(supply / "type")
            if kind == "Mains" and _read(supply / "online") == "1":
                mains = True
            elif kind == "Battery" and _read(supply / "status") == "Discharging":
                discharging = True
        return discharging and not mains
    try:
        import psutil
    except ImportError:
        return False
    battery = psutil.sensors_battery()
    return battery is not None and not battery.power_plugged


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return ""
