"""The deal of the day and each browser's devices: the day's table of results against par, and
a browser's own games and statistics, filed under its device key.

- ``device_desk``: a browser's requests (``device_messages``): filing its games, the day's
  table, its statistics;
- ``device_games``: the games a browser played, filed under its device key;
- ``day_table``: the day's table: each result against par, best first, bounded, pure;
- ``daily_results``: the day's results, read from the game database for ``day_table``;
- ``wire_devices``: a device's answers, built from the facts the device desk reads;
- ``shared_days``: one day's table for every server group (``serve --group --shared``), in
  PostgreSQL.
"""
