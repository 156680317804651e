"""The game server (``serve``), in seven feature packages:

- ``shell``: what every connection passes through: the server's start, the dispatch of each
  message, the connections and their limits, the fan-out to a game's audience, plain HTTP and
  the page's files, the per-network guard and caps;
- ``rooms``: a game between two people: the pure ``Room``, the SQLite store that commits before
  anyone is told, the games held in memory, and the wire that words the server's facts as the
  messages it sends;
- ``solving``: games against the solver, the analysis board, reviews and pars, and the server's
  one way to the solver pool;
- ``lobby``: the lobby's list of open challenges, its followers, its rows and its messages, and
  the lobby every server group shares;
- ``puzzles``: the puzzles served one at a time to each connection and each browser's rating;
- ``days``: the deal of the day's table and each browser's own games and statistics, filed under
  its device key;
- ``processes``: one server as several processes behind one port (``serve --processes``), and
  server groups that share a directory and pars in PostgreSQL (``serve --group --shared``; the
  shared lobby and day's table lie in ``lobby`` and ``days``).

Each package's docstring names its modules. The pure parts (a room, the lobby's board, the
puzzle ledger, the day's table, the limits) import no network: ``lint-imports`` holds that
(``pyproject.toml``).
"""
