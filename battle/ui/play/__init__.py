"""The game screen: a match (hot seat or against the solver), its input, its drawing, its
modes (playing here; studying in ``battle.ui.analysis``), its autosave and files, and the
result card.
"""
