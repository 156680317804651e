"""What the server groups tell each other of their lobbies (``serve --group --shared``), pure.

Each group keeps its open challenges as rows of ``battle_challenges`` and tells every change on the
PostgreSQL channel ``LOBBY_CHANNEL`` as one ``LobbyNote``: challenges opened (each entry with its
challenger's network, the directory's keyed hash, so a network's challenges count on every group),
codes gone, or ``reload`` (read this group's rows afresh: it has just written them all again). A note
is JSON, at most ``NOTE_ITEMS`` challenges, so it stays far below PostgreSQL's 8,000-byte payload:
an entry is about 250 bytes with a 100-character name.

A challenge of another group is kept on the board under ``remote_key``, which no game id of this
group can be (ids are letters and digits), so the two never meet.

Pure: no sockets, no database.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from battle.online.protocol.lobby_messages import ChallengeEntry, challenge_json, read_challenge
from battle.online.protocol.messages import ProtocolError
from battle.online.protocol.reader import read_json

LOBBY_CHANNEL = "battle_lobby"
"""The PostgreSQL channel (``LISTEN``/``NOTIFY``) of the groups' lobby notes."""
NOTE_ITEMS = 16
"""Challenges opened or gone one note carries: 16 full entries are about 4,000 bytes."""
MAX_NOTE_BYTES = 8000
"""PostgreSQL's own bound on a ``NOTIFY`` payload: a longer note is not a group's."""


class BadNote(ValueError):
    """A note or a row that no group wrote; quotes what is wrong."""


@dataclass(frozen=True)
class SharedOffer:
    """Another group's open challenge: its entry and its challenger's network (the directory's hash)."""

    entry: ChallengeEntry
    network: str


@dataclass(frozen=True)
class LobbyNote:
    """One group's change to its open challenges."""

    group: str
    opened: tuple[SharedOffer, ...] = ()
    gone: tuple[str, ...] = ()
    """Invite codes of challenges no longer open (taken, withdrawn, expired)."""
    reload: bool = False
    """The group wrote all its rows again: read them instead of what was known of it."""


def remote_key(group: str, code: str) -> str:
    """The board's key of ``group``'s challenge ``code``: never a game id of this group."""
    return f"@{group}/{code}"


def offer_row(offer: SharedOffer) -> str:
    """A challenge as ``battle_challenges.entry`` holds it (the note's form of one offer)."""
    return json.dumps(_offer_json(offer), separators=(",", ":"))


def read_offer_row(text: str) -> SharedOffer:
    """A ``battle_challenges.entry`` as its offer; ``BadNote`` for anything else."""
    return _read_offer(_loads(text))


def notes(group: str, opened: Sequence[SharedOffer] = (), gone: Sequence[str] = ()) -> Iterator[str]:
    """The notes of ``group``'s opened and gone challenges, ``NOTE_ITEMS`` at most in each."""
    for start in range(0, max(len(opened), len(gone)), NOTE_ITEMS):
        note = {
            "grp": group,
            "open": [_offer_json(offer) for offer in opened[start : start + NOTE_ITEMS]],
            "gone": list(gone[start : start + NOTE_ITEMS]),
        }
        yield json.dumps(note, separators=(",", ":"))


def reload_note(group: str) -> str:
    """The note that tells the others to read ``group``'s rows afresh."""
    return json.dumps({"grp": group, "reload": True}, separators=(",", ":"))


def read_note(text: str) -> LobbyNote:
    """A payload of ``LOBBY_CHANNEL`` as its note; ``BadNote`` names what is wrong with anything else."""
    if len(text.encode("utf-8", "replace")) > MAX_NOTE_BYTES:
        raise BadNote(f"a lobby note of more than {MAX_NOTE_BYTES} bytes: {text[:40]!r}")
    data = _loads(text)
    group = data.get("grp")
    if not isinstance(group, str) or not group:
        raise BadNote(f"a lobby note names no group: {text[:60]!r}")
    if data.get("reload") is True:
        return LobbyNote(group, reload=True)
    opened, gone = data.get("open", []), data.get("gone", [])
    if not isinstance(opened, list) or not isinstance(gone, list) or not all(isinstance(code, str) for code in gone):
        raise BadNote(f'a lobby note\'s "open" and "gone" are not lists of challenges and codes: {text[:60]!r}')
    return LobbyNote(group, tuple(_read_offer(item) for item in opened), tuple(gone))


def _offer_json(offer: SharedOffer) -> dict[str, object]:
    return {"entry": challenge_json(offer.entry), "network": offer.network}


def _read_offer(data: object) -> SharedOffer:
    if not isinstance(data, dict) or not isinstance(data.get("network"), str):
        raise BadNote(f"a shared challenge is not an entry with its network: {str(data)[:60]!r}")
    try:
        return SharedOffer(read_challenge(data.get("entry")), data["network"])
    except ProtocolError as problem:
        raise BadNote(f"a shared challenge's entry: {problem}") from None


def _loads(text: str) -> dict[str, object]:
    try:
        data = read_json(text)
    except ProtocolError as problem:
        raise BadNote(f"{problem.reason}: {text[:40]!r}") from None
    if not isinstance(data, dict):
        raise BadNote(f"not a JSON object: {text[:40]!r}")
    return data
