"""The secrets invite and watch links carry: a game's code, then a MAC of it under the server's key.

A link secret is the 8-character code followed by 24 characters of the same alphabet: the first
120 bits of HMAC-SHA256(key, purpose and code). The server keeps no list of them: it checks a
secret by making it again, so every code it ever handed out has its secret, a rematch's
included, and only the holder of the key (the database) can make one. A look-up by a secret
that checks can never be a guess, so the limits on wrong codes (``AddressGuard``) never hold it
back; one that does not check counts against its sender's network like a wrong code.

Pure: no sockets, no clock; the key comes from the store.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Literal

from battle.online.protocol.codes import ALPHABET, CODE_LENGTH, LINK_SECRET_LENGTH

Purpose = Literal["join", "watch"]
"""What a link does: take the open seat (an invite code's) or follow the game (a watch code's)."""

MAC_CHARACTERS = LINK_SECRET_LENGTH - CODE_LENGTH
"""24 characters of 5 bits: 120 bits of the MAC."""


class LinkSecrets:
    """Makes and checks link secrets under one key."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError(f"a link key needs at least 16 bytes, not {len(key)}")
        self._key = key

    def make(self, purpose: Purpose, code: str) -> str:
        """The secret of ``code`` (canonical, 8 characters) for links that ``purpose``."""
        return code + self._mac(purpose, code)

    def code_of(self, purpose: Purpose, secret: str) -> str | None:
        """The code inside ``secret`` (canonical, 32 characters) if this key made it for ``purpose``; else None."""
        code, mac = secret[:CODE_LENGTH], secret[CODE_LENGTH:]
        if len(secret) != LINK_SECRET_LENGTH or not hmac.compare_digest(mac, self._mac(purpose, code)):
            return None
        return code

    def _mac(self, purpose: Purpose, code: str) -> str:
        digest = hmac.new(self._key, f"{purpose}:{code}".encode("ascii", "replace"), hashlib.sha256).digest()
        bits = int.from_bytes(digest[:15], "big")  # 120 bits, 24 characters of 5
        return "".join(ALPHABET[(bits >> (5 * place)) & 31] for place in reversed(range(MAC_CHARACTERS)))


def is_link_secret(code: str) -> bool:
    """Whether a canonical code is a link's secret rather than a code people type."""
    return len(code) == LINK_SECRET_LENGTH
