"""The look: the tile faces, drawn in code, and the theme (colours, fonts, pygame_gui's theme)."""
