"""The window's sound effects: ``Sounds.play(Event...)``, made from code (``synth``), M and +/- (``sound_keys``)."""

from battle.ui.sound.events import Event
from battle.ui.sound.player import Sounds

__all__ = ["Event", "Sounds"]
