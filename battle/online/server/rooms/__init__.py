"""A game between two people: the pure room of one game, its store on disk, the games held in
memory, and the wire that words the server's facts as the messages it sends.

- ``room``: one online game as a pure state machine: its seats, moves, offers and clock;
- ``refusals``: what a room refuses, as facts a client words;
- ``game_ends``: when a game ends though no player ends it, by the server's limits;
- ``store``: the games in one SQLite file, every change committed before anyone is told;
- ``group_commit``: the store's writes to disk, in groups on a writer thread or one by one;
- ``live_games``: the games the server holds in memory, and their way to disk;
- ``shards``: which of the server's processes holds a game, and which one a client's connections
  reach first (``serve --processes N``), pure;
- ``old_games``: finished games kept ``serve --keep-days``, then deleted;
- ``seat_networks``: the client network each seat came from, for the caps per network;
- ``network_caps``: what one client network may start: a game between people, a game against
  the solver, a rematch;
- ``link_secrets``: the secrets invite and watch links carry;
- ``share_address``: the address a friend reaches this server at, for the links clients hand out;
- ``wire``: the messages that answer a connection and carry a room's facts, built from them (the
  ``wire`` of ``solving``, ``lobby``, ``puzzles`` and ``days`` builds each feature's own).
"""
