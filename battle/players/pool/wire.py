"""The solver pool service's wire: length-prefixed JSON frames, and the pool's own frozen dataclasses
(jobs, results, refusals, standings, budgets) as JSON values and back.

A frame is a 4-byte big-endian length and that many bytes of UTF-8 JSON, an object with an ``op``.
The bytes come from another process, so they are untrusted input: nothing is unpickled or
evaluated, a frame longer than ``MAX_FRAME`` is refused before it is read, and ``decode`` rebuilds a
dataclass field by field from its type hints (an ``int`` is an int and not a bool, a tuple has its
length, a ``Literal`` one of its values), then runs the class's own checks (a job's
``__post_init__``: a bad position or move is refused as it is when a server makes the job). Every
refusal is a ``WireError`` whose message is one line naming what is wrong.
"""

from __future__ import annotations

import dataclasses
import json
import math
import socket
import struct
import types
import typing
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints, is_typeddict

from battle.players.pool.jobs import Job, Result

MAX_FRAME = 4 * 1024 * 1024
"""The longest frame either side reads, in bytes: a job is under 2 KiB and a whole game's review
under 100 KiB, so a longer one is a broken or hostile peer."""
_LENGTH = struct.Struct(">I")

JOBS: dict[str, type[Job]] = {cls.__name__: cls for cls in get_args(Job)}
"""The jobs the wire carries, by class name: every one of the ``Job`` union, in its order."""
RESULTS: dict[str, type[Result]] = {cls.__name__: cls for cls in get_args(Result)}
"""The results the wire carries, by class name: every one of the ``Result`` union, in its order."""

T = TypeVar("T")


class WireError(ValueError):
    """A frame or a value that is not what the wire allows; the message is one line."""


# -- frames ----------------------------------------------------------------------------------------


def frame(message: dict[str, Any]) -> bytes:
    """``message`` as one frame's bytes."""
    body = json.dumps(message, separators=(",", ":"), allow_nan=False).encode()
    if len(body) > MAX_FRAME:
        raise WireError(f"a {message.get('op')!r} message of {len(body)} bytes is longer than {MAX_FRAME}")
    return _LENGTH.pack(len(body)) + body


def read_frame(sock: socket.socket) -> dict[str, Any] | None:
    """The next frame's message; None when the peer closed the connection between two frames.
    A ``WireError`` for a frame cut short, too long, or not a JSON object with an ``op``."""
    head = _read_exactly(sock, _LENGTH.size, at_start=True)
    if head is None:
        return None
    (length,) = _LENGTH.unpack(head)
    if length > MAX_FRAME:
        raise WireError(f"a frame of {length} bytes is longer than {MAX_FRAME}")
    body = _read_exactly(sock, length, at_start=False)
    assert body is not None
    return parse_frame(body)


def parse_frame(body: bytes) -> dict[str, Any]:
    """A frame's body as a message (a ``WireError`` quotes the start of what is not one)."""
    try:
        message = json.loads(body.decode(), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise WireError(f"a frame is not JSON: {body[:40]!r}") from None
    if not isinstance(message, dict) or not isinstance(message.get("op"), str):
        raise WireError(f"a frame is not an object with an 'op': {body[:40]!r}")
    return message


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number the wire carries")


def _read_exactly(sock: socket.socket, count: int, *, at_start: bool) -> bytes | None:
    parts: list[bytes] = []
    left = count
    while left:
        part = sock.recv(min(left, 65536))
        if not part:
            if at_start and left == count:
                return None
            raise WireError(f"the connection closed {count - left} bytes into a {count}-byte read")
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


# -- values ----------------------------------------------------------------------------------------


def encode(value: Any) -> Any:
    """A dataclass, tuple or plain value as a JSON value (tuples as lists, dataclasses as objects)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: encode(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [encode(item) for item in value]
    return value


def encode_tagged(value: Job | Result) -> dict[str, Any]:
    """A job or a result with its class's name, for ``decode_job`` and ``decode_result``."""
    return {"type": type(value).__name__, "value": encode(value)}


def decode_job(data: Any) -> Job:
    return _decode_tagged(data, JOBS, "job")


def decode_result(data: Any) -> Result:
    return _decode_tagged(data, RESULTS, "result")


def _decode_tagged(data: Any, classes: dict[str, type[T]], what: str) -> T:
    if not isinstance(data, dict) or set(data) != {"type", "value"}:
        raise WireError(f"a {what} is an object with a 'type' and a 'value', not {_short(data)}")
    cls = classes.get(data["type"]) if isinstance(data["type"], str) else None
    if cls is None:
        raise WireError(f"unknown {what} type {_short(data['type'])}: expected one of {', '.join(classes)}")
    return decode(cls, data["value"])


def decode(cls: type[T], data: Any) -> T:
    """A ``cls`` (a dataclass, or a type its fields use) rebuilt from ``encode``'s JSON value."""
    return typing.cast(T, _decode(cls, data, cls.__name__))


def decode_optional(cls: type[T], data: Any) -> T | None:
    return None if data is None else decode(cls, data)


def _decode(hint: Any, data: Any, where: str) -> Any:
    origin = get_origin(hint)
    if hint is Any:
        return data
    if hint is type(None):
        if data is not None:
            raise WireError(f"{where}: expected null, not {_short(data)}")
        return None
    if origin in (Union, types.UnionType):
        for option in get_args(hint):
            try:
                return _decode(option, data, where)
            except WireError:
                continue
        raise WireError(f"{where}: {_short(data)} is none of {hint}")
    if origin is Literal:
        if data not in get_args(hint) or isinstance(data, bool):
            raise WireError(f"{where}: expected one of {get_args(hint)}, not {_short(data)}")
        return data
    if origin is tuple:
        return _decode_tuple(get_args(hint), data, where)
    if hint is bool:
        if not isinstance(data, bool):
            raise WireError(f"{where}: expected true or false, not {_short(data)}")
        return data
    if hint is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise WireError(f"{where}: expected an integer, not {_short(data)}")
        return data
    if hint is float:
        if not isinstance(data, (int, float)) or isinstance(data, bool) or not math.isfinite(data):
            raise WireError(f"{where}: expected a number, not {_short(data)}")
        return float(data)
    if hint is str:
        if not isinstance(data, str):
            raise WireError(f"{where}: expected a string, not {_short(data)}")
        return data
    if is_typeddict(hint) or hint is dict or origin is dict:
        if not isinstance(data, dict):
            raise WireError(f"{where}: expected an object, not {_short(data)}")
        return data  # JSON made by ``to_json`` that is sent on as it is
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _decode_dataclass(hint, data, where)
    raise WireError(f"{where}: the wire carries no {hint!r}")


def _decode_tuple(items: tuple[Any, ...], data: Any, where: str) -> tuple[Any, ...]:
    if not isinstance(data, list):
        raise WireError(f"{where}: expected a list, not {_short(data)}")
    if len(items) == 2 and items[1] is Ellipsis:
        return tuple(_decode(items[0], item, f"{where}[{index}]") for index, item in enumerate(data))
    if len(data) != len(items):
        raise WireError(f"{where}: expected {len(items)} items, not {len(data)}")
    return tuple(
        _decode(hint, item, f"{where}[{index}]") for index, (hint, item) in enumerate(zip(items, data, strict=True))
    )


def _decode_dataclass(cls: type[Any], data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise WireError(f"{where}: expected an object, not {_short(data)}")
    fields = {field.name: field for field in dataclasses.fields(cls) if field.init}
    unknown = set(data) - set(fields)
    if unknown:
        raise WireError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    hints = get_type_hints(cls)
    values = {name: _decode(hints[name], data[name], f"{where}.{name}") for name in fields if name in data}
    try:
        return cls(**values)
    except (TypeError, ValueError) as error:  # a missing field, or the class's own check
        raise WireError(f"{where}: {str(error).splitlines()[0] if str(error) else type(error).__name__}") from None


def _short(data: Any) -> str:
    text = repr(data)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = [
    "JOBS",
    "MAX_FRAME",
    "RESULTS",
    "WireError",
    "decode",
    "decode_job",
    "decode_optional",
    "decode_result",
    "encode",
    "encode_tagged",
    "frame",
    "parse_frame",
    "read_frame",
]
