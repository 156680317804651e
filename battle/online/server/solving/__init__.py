"""The server's solver work: games against the solver, the analysis board, reviews of finished
games and the par of every deal, all reaching the solver pool through ``work``, the server's one
way to it.

- ``games``: games against the solver: the seat it holds, its moves, the player's hints;
- ``work``: the solver pool (``battle.players.pool``) seen from the event loop;
- ``outcomes``: what solver work can come to besides its answer, and how ``serve`` asks
  for a solver, without loading the pool;
- ``solver_time``: the solver time an address gets by default (``serve``'s help reads it);
- ``rows``: the solver's seats and the reviews as rows of the game database;
- ``analysis_boards``: the analysis board: every legal move's value, deepened step by step;
- ``reviews``: reviews of finished games: queued in the background, kept, shown, shared;
- ``pars``: the par of every game's deal: from a catalogue, from pars found before, or found now;
- ``par_rows``: the pars the server's solver found, as rows of the game database;
- ``shared_pars``: every server group's pars for every group (``serve --group --shared``), in
  PostgreSQL;
- ``wire``: the solver's news, built from the facts of the modules that serve it.
"""
