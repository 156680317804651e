"""What the command line checks a solver flag against, known without loading the solver: numba's
import alone takes 0.4 s on a quiet machine and tens of seconds on a busy one, and a typo is
refused before it (``tests/cli/test_refused_before_solver.py`` checks these figures against
``battle.players``, where the solver states them).
"""

from __future__ import annotations

LEVEL_NAMES = ("beginner", "casual", "club", "expert", "master", "perfect")
"""The solver's levels, weakest first: ``play --vs``'s choices (``battle.players.LEVELS``)."""
MOST_SEARCH_NODES = 1 << 62
"""The largest ``--nodes`` (``battle.players.MOST_SEARCH_NODES``)."""
MOST_SEARCH_THREADS = 64
"""The largest ``--threads`` (``battle.players.MOST_SEARCH_THREADS``)."""
SMALLEST_TABLE_MEGABYTES = 32
"""The smallest ``--hash`` (``battle.players.SMALLEST_TABLE_MEGABYTES``)."""
