"""The short codes people read aloud and the long secrets their programs keep.

- An **invite code** (to take the second seat) and a **watch code** (to follow a game
  read-only) are 8 characters of Crockford's base 32: 40 bits, so guessing one of the
  20,000 games a server keeps waiting at most takes 2^40 / 20,000 = 55 million tries on
  average, which the server's limits on wrong codes per address and in all turn into years
  and months (``address_guard``; the figures are in docs/online.md). The alphabet has no I, L, O or U,
  and reading tolerates what people type instead: lower case, spaces, dashes, ``I``/``L``
  for ``1`` and ``O`` for ``0``.
- A **link secret** is a code followed by 24 more characters of the same alphabet (32 in all):
  what the invite and watch links carry. The 24 are a MAC the server makes of the code with a
  key of its own, so a link cannot be guessed (120 bits) and a look-up by one is never held
  back by strangers' wrong codes; the code inside it stays the one people read aloud.
- A **seat token** is 24 random bytes (192 bits) in URL-safe base 64, 32 characters: the
  only proof of holding a seat. The server keeps just its SHA-256, so a copy of the
  database seats nobody.
"""

from __future__ import annotations

import hashlib
import secrets
from urllib.parse import urlsplit

from battle.rules.errors import quote

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: digits and the upper-case letters without I, L, O and U."""
CODE_LENGTH = 8
"""Characters of an invite or watch code: 8 x 5 = 40 bits."""
LINK_SECRET_LENGTH = 32
"""Characters of a link secret: the code, then 24 of its MAC (120 bits)."""
TOKEN_BYTES = 24
"""Random bytes of a seat token (192 bits; 32 characters of URL-safe base 64)."""
GAME_ID_BYTES = 8
"""Random bytes of a game id (16 hex digits); an id names a game but admits to nothing."""

_TYPED_ALIASES = str.maketrans({"I": "1", "L": "1", "O": "0"})
_SEPARATORS = " -\t"


def new_code() -> str:
    """A fresh 8-character code from the system's secure random source."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def new_invite_code() -> str:
    """A fresh invite code: whoever types it takes the open seat of a game."""
    return new_code()


def new_watch_code() -> str:
    """A fresh watch code: whoever types it follows a game without a seat."""
    return new_code()


def normalise_code(typed: str) -> str:
    """The code a person typed, in canonical form (``"abcd-efgh"`` gives ``"ABCDEFGH"``), or a
    link's secret (32 characters) in the same form.

    Upper-cases, drops spaces and dashes, and reads ``I``/``L`` as ``1`` and ``O`` as ``0``
    (the letters Crockford's alphabet leaves out because they look like those digits).
    Raises ``ValueError`` with a one-line reason for a wrong length or a character
    outside the alphabet.
    """
    if not isinstance(typed, str):
        raise ValueError(f"a code is text, not {type(typed).__name__}")
    # upper-case ASCII only: str.upper maps some letters to two ("ß" to "SS")
    kept = "".join(ch.upper() if ch.isascii() else ch for ch in typed if ch not in _SEPARATORS)
    code = kept.translate(_TYPED_ALIASES)
    wrong = next((ch for ch in code if ch not in ALPHABET), None)
    if wrong is not None:
        raise ValueError(f"{quote(typed, 40)} is not a code: {quote(wrong)} is not one of {ALPHABET}")
    if len(code) not in (CODE_LENGTH, LINK_SECRET_LENGTH):
        link = f" (or {LINK_SECRET_LENGTH} from a link)" if len(code) > CODE_LENGTH else ""
        raise ValueError(f"{quote(typed, 40)} is not a code: expected {CODE_LENGTH} characters{link}, got {len(code)}")
    return code


def format_code(code: str) -> str:
    """A code for display in two halves: ``"ABCDEFGH"`` gives ``"ABCD-EFGH"``; a link secret shows
    its code so, then the rest: ``"ABCD-EFGH-"`` and 24 characters."""
    half = CODE_LENGTH // 2
    shown = f"{code[:half]}-{code[half:CODE_LENGTH]}"
    return shown if len(code) <= CODE_LENGTH else f"{shown}-{code[CODE_LENGTH:]}"


def invite_link(server_url: str, code: str, purpose: str = "join") -> str:
    """The link that opens the game in a browser: ``ws://host:8765`` and ``4KQ7M2XD`` give
    ``http://host:8765/join/4KQ7-M2XD`` (``wss://`` gives ``https://``); ``purpose`` is
    ``join`` for an invite code (or its link secret), ``watch`` for a watch code. The server
    serves the page there."""
    parts = urlsplit(server_url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme.lower(), parts.scheme.lower() or "http")
    return f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}/{purpose}/{format_code(code)}"


def new_token() -> str:
    """A fresh seat token (32 URL-safe characters); sent once to its holder, never stored."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The SHA-256 of a token as 64 hex digits: what the server stores and looks seats up by."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_game_id() -> str:
    """A fresh game id, 16 hex digits."""
    return secrets.token_hex(GAME_ID_BYTES)
