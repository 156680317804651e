"""Online play: the pure model under the server and its clients.

- ``codes``: invite and watch codes people read aloud, seat tokens and their hashes;
- ``protocol``: the versioned JSON messages (``docs/protocol.md``), read strictly and built;
- ``room``: one game as a state machine with the time passed in, no I/O;
- ``store``: the SQLite file every change is committed to before anyone hears of it.

These modules import only the standard library, the rules model and ``battle.storage``;
the WebSocket server and the clients sit on top of them.
"""
