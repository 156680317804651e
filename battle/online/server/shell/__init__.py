"""The top of the server: its start, which puts every feature together, the dispatch of each
message to the feature that serves it, and plain HTTP on the game port. Nothing below imports it.

- ``game_server``: the server's start (``running_server``): one asyncio process, the
  ``websockets`` library, every game in SQLite, its parts put together;
- ``dispatch``: the handler websockets runs for every connection: what the server does with
  each message;
- ``http_front``: plain HTTP on the game port, looked at before anything else is done with it;
- ``web_files``: the browser client's files, answered from ``battle/web``;
- ``served_hosts``: the host names the server answers to, read from the ``Host`` header.
"""
