"""The window's files: the settings, and loading and saving records and positions."""
