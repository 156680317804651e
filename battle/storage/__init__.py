"""The user's files: where they live, how they are written safely, the saved games.

Pure Python over the rules model, shared by the terminal and the window, so that
both keep games in one list and neither imports the other.
"""
