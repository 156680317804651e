"""One server group's side of the shared directory (``serve --group NAME --shared URL``): what the
dispatcher asks before it serves a request that picks a game or starts one.

- ``elsewhere``: a ``join``, ``watch`` or ``resume`` whose game this group does not hold is looked up
  in the directory; another group's game is answered ``elsewhere`` (``group_routes.route``). A typed
  code is looked up there only while the network may look codes up at all (``AddressGuard``), so the
  directory gives a guesser nothing the one machine would not; a code no group knows goes on to the
  local refusal, which counts it as wrong.
- ``fresh_game``: a create's or a rematch's id and codes, drawn until the directory takes the codes.
- ``seated`` and ``rematched``: the seat tokens and networks of a game, entered before the game is.
- ``held_elsewhere``: what a network's cap counts on the other groups; ``lobby_network``: the network
  a challenge counts under in every group's lobby.

A directory that does not answer refuses what needs it (``busy``, ``why: directory``); the games
a group holds play on without it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable

from battle.online.protocol.messages import ErrorCode, Join, ProtocolError, Resume, Watch
from battle.online.protocol.server_messages import Elsewhere
from battle.online.server.limits.address_guard import AddressGuard
from battle.online.server.processes.group_routes import (
    CLAIM_TRIES,
    DirectoryDown,
    KeyKind,
    directory_key,
    directory_refusal,
    route,
)
from battle.online.server.processes.shared_directory import SharedDirectory
from battle.online.server.rooms import wire
from battle.online.server.rooms.link_secrets import is_link_secret
from battle.online.server.rooms.store import GameStore

log = logging.getLogger("mahjong-battle.server")

FreshGame = tuple[str, str, str]
"""A new game's id, invite code and watch code."""


class GroupDesk:
    """The group ``directory.group``'s questions to the shared ``directory``, over its ``store``."""

    def __init__(self, directory: SharedDirectory, store: GameStore, guard: AddressGuard) -> None:
        self.directory = directory
        self.store = store
        self.guard = guard

    @property
    def group(self) -> str:
        return self.directory.group

    async def elsewhere(self, address: str, message: Join | Watch | Resume) -> Elsewhere | None:
        """``elsewhere`` when another group holds the game ``message`` picks; None to serve it here."""
        kind, key = directory_key(message)
        if self._here(kind, key):
            return None
        typed = isinstance(message, (Join, Watch)) and not is_link_secret(message.code)
        if typed and self.guard.code_refusal(address, time.monotonic(), look_up=False) is not None:
            return None  # the local look-up refuses it, in the same words as on one machine
        try:
            holder = await self.directory.holder(kind, key)
        except DirectoryDown as down:
            raise directory_refusal(down) from None
        group = route(self.group, holder)
        return None if group is None else wire.elsewhere(group, message.TYPE)

    def _here(self, kind: KeyKind, key: str) -> bool:
        if kind == "token":
            return self.store.seat_by_token(key) is not None
        lookup = self.store.game_by_invite if kind == "join" else self.store.game_by_watch
        return lookup(key) is not None

    async def fresh_game(self, draw: Callable[[], FreshGame]) -> FreshGame:
        """A game id and codes from ``draw`` (unused in this group's store) that the directory took."""
        try:
            for _ in range(CLAIM_TRIES):
                game, invite, watch = draw()
                if await self.directory.claim(game, invite, watch):
                    return game, invite, watch
        except DirectoryDown as down:
            raise directory_refusal(down) from None
        raise ProtocolError(ErrorCode.INTERNAL, "the server could not draw free codes for a game; try again")

    async def seated(self, game: str, token_hash: str, addresses: Iterable[str], *, solver: bool = False) -> None:
        """Enter a seat of ``game`` (its token's hash) and the networks of ``addresses`` that hold it."""
        try:
            await self.directory.add_seat(token_hash, game)
            networks = [await self.directory.network_tag(self.guard.network(address)) for address in addresses]
            await self.directory.hold(game, networks, solver=solver)
        except DirectoryDown as down:
            raise directory_refusal(down) from None

    async def rematched(self, old: str, new: str) -> None:
        """The rematch ``new`` holds the networks ``old`` held (its tokens are the same seats' tokens). The
        rematch is stored whatever the directory says: while it is down, the other groups count it not."""
        try:
            await self.directory.carry(old, new)
        except DirectoryDown as down:
            log.warning("%s; rematch %s is not counted on the other groups", down, new)

    def kept_games(self, games: list[str]) -> set[str]:
        """Which of ``games`` this group's database holds (the others' codes may leave the directory)."""
        if not games:
            return set()
        marks = ", ".join("?" * len(games))
        return {
            str(row[0]) for row in self.store.read_rows(f"SELECT id FROM games WHERE id IN ({marks})", tuple(games))
        }

    def kept_tokens(self, token_hashes: list[str]) -> set[str]:
        """Which of ``token_hashes`` hold a seat in this group's database."""
        return {token for token in token_hashes if self.store.seat_by_token(token) is not None}

    async def lobby_network(self, address: str, local: str) -> str:
        """The network a challenge from ``address`` is counted under on every group's lobby: the
        directory's hash; ``local`` (this group's own) while the directory is away, when the lobby
        lists this group's challenges alone."""
        try:
            return await self.directory.network_tag(self.guard.network(address))
        except DirectoryDown:
            return local

    async def held_elsewhere(self, address: str, *, solver: bool) -> int:
        """The unfinished games ``address``'s network holds a seat in on the other groups."""
        try:
            network = await self.directory.network_tag(self.guard.network(address))
            return await self.directory.held_elsewhere(network, solver=solver)
        except DirectoryDown as down:
            raise directory_refusal(down) from None
