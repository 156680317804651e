"""The lobby: the open challenges anyone may take and the games on show, the connections that
follow them, and the lobby every server group shares.

- ``board``: the lobby's list, pure: what each change does to the part shown;
- ``desk``: the lobby's shell: its followers, the challenges' games, the news to each;
- ``rows``: the open challenges as rows of the game database, so the lobby outlives its
  process;
- ``wire``: the lobby's messages, built from the facts the board and its desk hold;
- ``shared``: one lobby for every server group (``serve --group --shared``), in PostgreSQL;
- ``shared_notes``: what the server groups tell each other of their lobbies, pure.
"""
