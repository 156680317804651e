"""The deal of the day and each browser's devices: the day's table of results against par, and
a browser's own games and statistics, filed under its device key.

- ``desk``: a browser's requests (``device_messages``): filing its games, the day's table, its
  statistics;
- ``device_games``: the games a browser played, filed under its device key;
- ``table``: the day's table: each result against par, best first, bounded, pure;
- ``results``: the day's results, read from the game database for ``table``;
- ``wire``: a device's answers, built from the facts the desk reads;
- ``shared``: one day's table for every server group (``serve --group --shared``), in
  PostgreSQL.
"""
