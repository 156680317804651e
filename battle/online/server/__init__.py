"""The game server (``serve``), in nine packages that lie in layers: each imports only the ones
under it, so a newcomer reads it from the bottom up, and one package at a time.

- ``shell``: the top: the server's start, which puts every feature together, the dispatch of each
  message to the feature that serves it, plain HTTP on the game port and the page's files;
- ``lobby``, ``puzzles``, ``days``: the features at the edge, none of which imports another: the
  lobby's open challenges and its followers; the puzzles served one at a time and each browser's
  rating; the deal of the day's table and each browser's games and statistics, filed under its
  device key. What each shares among server groups lies with it;
- ``solving``: games against the solver, the analysis board, reviews and pars (shared among server
  groups too), the solver's news on the wire, and the server's one way to the solver pool;
- ``processes``: one server as several processes behind one port (``serve --processes``), and
  server groups that share a directory in PostgreSQL (``serve --group --shared``);
- ``peers``: the connections: who may connect and what the server holds for each, and the
  fan-out of a game's news to all its connections;
- ``rooms``: a game between two people: the pure ``Room``, the SQLite store that commits before
  anyone is told, the games held in memory and which process holds each, the caps on the games a
  network holds, and the wire that words a room's facts as the messages the server sends;
- ``limits``: the bottom: what the server allows, and what one client network may do, counted
  across its connections and processes.

Each package's docstring names its modules. The layers are checked, not only described:
``lint-imports`` holds them (``pyproject.toml``, a ``layers`` contract), and the pure parts (a
room, the lobby's board, the puzzle ledger, the day's table, the limits) import no network.
"""
