"""How long the solver thinks for a person, one figure per task: the door to the solver
(``battle.players``) takes them as its defaults, and the window and the terminal, which must not
import the solver to read them (numba loads with it), show and set the same figures, and a game
server's solver pool, which runs no search itself, charges them.
"""

from __future__ import annotations

HINT_QUICK_DEPTH = 10
"""A hint's first search goes this many moves deep: an answer within about a second on a full board."""
HINT_QUICK_SECONDS = 1.0
"""The longest that first search takes."""
HINT_SECONDS = 3.0
"""The longest a hint or an evaluation thinks: exact from the middle game on, an estimate (said to be
one) on a full board."""
HINT_SECONDS_MOST = 600.0
"""The longest a player may ask a hint or an evaluation to think (the terminal's ``--hint-seconds``):
ten minutes, as the window's review per move."""
REFUTE_SECONDS = 2.0
"""A puzzle's refutation: a puzzle has at most 60 tiles, solved exactly in milliseconds; this bounds
the rare slow one."""
REVIEW_SECONDS = 1.0
"""A review's search per move: a second grades the middle and end game exactly and leaves the
opening's values as marked estimates, within about a minute for a whole game (the window's
``review_seconds`` setting starts here)."""
REVIEW_NODES_PER_SECOND = 1_000_000
"""Nodes a review's search gets for each second of its budget: about what one search thread
visits in a second on the 2-core benchmark machine, where the million-node searches of a played-out
deal took 0.7-2.2 s each with the machine shared (``benchmarks/review_repeat.py``)."""
