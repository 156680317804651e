"""Online play in the window: the setup screen, the waiting room, and the game screen for a game on a server."""
