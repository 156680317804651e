"""The server on more than one process: game processes behind one port under a supervisor
(``serve --processes N``), and server groups on several machines that share a directory and
pars in PostgreSQL (``serve --group NAME --shared URL``). What each feature shares lies with it:
the shared lobby in ``lobby``, the shared table of the day in ``days``, the shared pars in
``solving``; which process holds a game lies with the games, in ``rooms.shards``.

- ``supervisor``: N game processes behind one port, each started again when it dies;
- ``link``: one game process's side: the connections the supervisor sends it, and
  ``/stats`` for every process;
- ``handoff``: the sockets the supervisor passes to the game processes;
- ``tuning``: settings of the whole Python process that suit one doing nothing but serve games;
- ``group_desk``: one server group's side of the shared directory: what the dispatcher asks
  before it serves a request that picks a game or starts one;
- ``group_routes``: which server group a request belongs to, pure;
- ``shared_directory``: the directory the server groups share, in PostgreSQL;
- ``shared_away``: whether a shared feature's PostgreSQL answered, its going away said once.
"""
