"""The puzzles on the server: the shipped set served one puzzle at a time to each connection,
and each browser's puzzle rating in the game database.

- ``desk``: the puzzles served, the attempts judged, the ratings kept;
- ``ledger``: a browser's puzzle rating, reckoned as the window reckons a player's: pure;
- ``wire``: the puzzles' messages, built from the facts the desk and its ledger hold.
"""
