"""What JSON costs a move on the server, and what msgspec would save of it, as a Markdown table.

    python benchmarks/move_codec.py            # 200,000 moves each way, best of 5

A move costs the server's event loop one client frame read (``reader.parse_client_message`` of a
``move``) and two frames written (``moved`` to every connection of the game, ``ack`` to the mover:
``writer.server_frame``). The ``msgspec`` rows do the same work with msgspec's JSON decoder and
encoder (``pip install msgspec``; left out when it is not installed): the ``move`` frame decoded
into a typed struct that refuses unknown fields, then the same notation check as the server's
reader; ``moved`` and ``ack`` built as the same JSON objects, encoded by msgspec. The table
compares these microseconds with the server's CPU a move that ``online_load.py`` measures.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from battle.online.protocol import reader  # noqa: E402
from battle.online.protocol.messages import PlayMove  # noqa: E402
from battle.online.protocol.server_messages import Ack, Moved  # noqa: E402
from battle.online.protocol.writer import server_frame, server_json  # noqa: E402
from battle.rules.board import move_name, parse_move  # noqa: E402

MOVE_FRAME = b'{"type":"move","move":"c1-c9","id":"m-17-4f2a"}'
MOVED = Moved(
    game="AbCdEfGh12",
    ply=17,
    seat=1,
    move="c1-c9",
    points=4,
    scores=(38, 31),
    to_move=2,
    status="playing",
    result=None,
    deadline=1764300123.25,
)
ACK = Ack("m-17-4f2a", 17, "c1-c9", False)


def stdlib_move() -> None:
    """A move's JSON as the server does it."""
    reader.parse_client_message(MOVE_FRAME)
    server_frame(MOVED).encode()
    server_frame(ACK).encode()


def msgspec_move() -> Callable[[], None] | None:
    """The same work with msgspec's codec, or None when msgspec is not installed."""
    try:
        import msgspec
    except ImportError:
        return None

    class MoveFrame(msgspec.Struct, forbid_unknown_fields=True):
        type: str
        move: str
        id: str

    decoder = msgspec.json.Decoder(MoveFrame)
    encoder = msgspec.json.Encoder()

    def move() -> None:
        frame = decoder.decode(MOVE_FRAME)
        PlayMove(move=move_name(parse_move(frame.move)), id=frame.id)
        encoder.encode(server_json(MOVED))
        encoder.encode(server_json(ACK))

    return move


def microseconds(work: Callable[[], None], moves: int, repeats: int) -> float:
    """The best of ``repeats`` runs of ``moves`` calls, in microseconds a call."""
    return min(timeit.repeat(work, number=moves, repeat=repeats)) / moves * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=200_000, help="moves a run (default 200,000)")
    parser.add_argument("--repeats", type=int, default=5, help="runs; the best counts (default 5)")
    parser.add_argument(
        "--move-ms", type=float, default=0.5, help="the server's CPU a move to compare with, in ms (default 0.5)"
    )
    args = parser.parse_args()
    if args.moves < 1 or args.repeats < 1 or args.move_ms <= 0:
        parser.error("--moves and --repeats must be at least 1, --move-ms above 0")
    print(f"A move's JSON on the server: best of {args.repeats} x {args.moves:,} moves\n")
    print(f"| codec | us a move | share of {args.move_ms:g} ms a move |")
    print("|---|---:|---:|")
    rows = [("json (the server's)", stdlib_move)]
    fast = msgspec_move()
    if fast is not None:
        rows.append(("msgspec", fast))
    for name, work in rows:
        spent = microseconds(work, args.moves, args.repeats)
        print(f"| {name} | {spent:.1f} | {spent / (10 * args.move_ms):.1f}% |")
    if fast is None:
        print("\nmsgspec is not installed: pip install msgspec for its row.")


if __name__ == "__main__":
    main()
