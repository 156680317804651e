"""``python -m battle``: the same as the ``mahjong-battle`` command."""

from battle.cli import entry_point

entry_point()
