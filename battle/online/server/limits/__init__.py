"""What the server allows and what one client network may do: the bottom of the server, which
every other package reads and which reads none of them; no networking.

- ``server``: the server's defaults and limits, so the command line's help reads them without
  loading the server;
- ``address_guard``: what one client network may do, counted across its connections;
- ``guard_counts``: where the guard keeps its counts: in the process, or in a SQLite file every
  process of one server shares;
- ``token_bucket``: a token bucket, the pace behind every rate the server allows.
"""
