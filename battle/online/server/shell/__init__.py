"""What every connection passes through: the server's start, the dispatch of each message, the
connections and what each may hold, the fan-out to a game's audience, plain HTTP on the game
port, and the limits per client network.

- ``game_server``: the server's start (``running_server``): one asyncio process, the
  ``websockets`` library, every game in SQLite, its parts put together;
- ``dispatch``: the handler websockets runs for every connection: what the server does with
  each message;
- ``connections``: who may connect, for how long, how fast they may talk, and what the server
  holds for each;
- ``fan_out``: the connections attached to each game and the messages that go to all of them;
- ``http_front``: plain HTTP on the game port, looked at before anything else is done with it;
- ``web_files``: the browser client's files, answered from ``battle/web``;
- ``served_hosts``: the host names the server answers to, read from the ``Host`` header;
- ``address_guard``: what one client network may do, counted across its connections;
- ``guard_counts``: where the guard keeps its counts: in the process, or in a SQLite file every
  process of one server shares;
- ``network_caps``: what one client network may start: a game between people, a game against
  the solver, a rematch;
- ``token_bucket``: a token bucket, the pace behind every rate the server allows;
- ``server_limits``: the server's defaults and limits, with no networking, so the command
  line's help reads them without loading the server.
"""
