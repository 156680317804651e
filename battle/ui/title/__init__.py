"""The title screen and the new-game form, with the unfinished games to resume."""
