"""The browser's own figures in the online protocol: the deal of the day's table and a device's
statistics, as typed values both ways.

A page names itself with its device key (``battle/web/device.js``: 32 lowercase hex digits kept in
local storage, no account). It sends ``device`` once it holds a seat, which files that game under
the key; ``daily`` asks for the day's deal, its par and the table of the day's results against
par; ``my_stats`` asks for the statistics of the games filed under the key. The server answers
``daily_table`` and ``my_stats_result``. ``docs/protocol.md`` describes each with an example.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from battle.online.protocol.messages import ErrorCode, ProtocolError

DEVICE_KEY = re.compile(r"[0-9a-f]{32}")
"""A device key: 128 random bits as 32 lowercase hex digits, stored as given (a bearer token)."""


class Fields(Protocol):
    """One client frame's fields as ``reader`` reads them."""

    def get(self, name: str, required: bool) -> Any: ...

    def fail(self, name: str, expected: str, value: object) -> ProtocolError: ...


@dataclass(frozen=True)
class ClaimGame:
    """File the game of the connection's seat under ``device``: its results count in that browser's
    statistics and name it in the day's table."""

    TYPE: ClassVar[str] = "device"
    device: str


@dataclass(frozen=True)
class AskDaily:
    """The deal of the day, its par and the day's table; ``device`` (optional) adds the viewer's own rows."""

    TYPE: ClassVar[str] = "daily"
    device: str | None = None


@dataclass(frozen=True)
class AskStats:
    """The statistics of the games filed under ``device``."""

    TYPE: ClassVar[str] = "my_stats"
    device: str


DeviceRequest = ClaimGame | AskDaily | AskStats


def device_key(value: object) -> str:
    """``value`` as a device key; ``ProtocolError`` quoting what is wrong with anything else."""
    if isinstance(value, str) and DEVICE_KEY.fullmatch(value):
        return value
    shown = repr(value)[:40]
    raise ProtocolError(ErrorCode.BAD_MESSAGE, f'"device": expected 32 lowercase hex digits, got {shown}')


def _read_daily(fields: Fields) -> AskDaily:
    value = fields.get("device", False)
    return AskDaily(None if value is None else device_key(value))


def device_readers() -> dict[str, Any]:
    """The readers of the device's requests, by type, for ``reader``'s table."""
    return {
        ClaimGame.TYPE: lambda fields: ClaimGame(device_key(fields.get("device", True))),
        AskDaily.TYPE: _read_daily,
        AskStats.TYPE: lambda fields: AskStats(device_key(fields.get("device", True))),
    }
