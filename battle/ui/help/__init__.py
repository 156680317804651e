"""The rules and every shortcut, over any screen (F1)."""
