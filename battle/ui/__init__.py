"""The pygame window. Importing any part of it first quiets pygame's start-up banner.

The variable must be set before pygame is imported, and every module here imports
this package before its own imports run, so it is set once, here, for all of them.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
