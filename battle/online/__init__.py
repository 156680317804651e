"""Online play, in three packages:

- ``protocol``: what both sides share: the versioned JSON messages (``docs/protocol.md``) as
  typed values both ways with their readers and writers, the error codes, and the invite and
  watch codes people read aloud;
- ``server``: the WebSocket server (``serve``): the pure ``Room`` of one game, the SQLite
  store that commits before anyone is told, the limits per address, the page's files;
- ``client``: the installed clients' side (the window's and the terminal's): the session that
  reconnects and resends, the seats kept on disk, and the client's words for what the server
  states.

Beside them, ``game_terms``: what both the protocol and the room read (how a game may start,
until when it can be aborted, a move id's form), so that the room imports no protocol.

The page (``battle/web``) is a third client, in JavaScript, of the same protocol.
"""
