"""The window's sound player: one ``Sounds`` per window, ``sounds.play(Event.PAIR_TAKEN, value=7)``.

Sound is a nicety, never a reason to stop or slow the game. The mixer is opened once,
lazily, on a thread of its own after the first frame is drawn (``prepare``), and the sounds
are made there too. pygame holds Python's lock while SDL opens the device (6 ms with the
dummy driver), so a device that is slow to refuse can still hold up a few frames, once; the
thread keeps that and the 0.1 s of making the sounds off the first frame. Until the mixer is
open, and for good once it has failed, ``play`` returns at once and plays nothing; a failure
is remembered (the mixer is not tried again) and said once on the status line. The sounds
are made from code (``voices.all_sounds``) at the rate the mixer opened with, so no sound
files ship with the game (``synth`` says why).

Every sound that really starts on a mixer channel is written to ``played``, the player's own
log: the tests read it to see which events sounded.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from battle.i18n import _, format_percent
from battle.ui.sound.events import Event, SoundKey, sound_key

if TYPE_CHECKING:
    from battle.ui.files.settings import Settings

MIXER_RATE = 44100
MIXER_BUFFER = 512
"""Samples per mixer callback: 12 ms at 44.1 kHz, so a click's sound follows the click."""
CHANNELS = 8
"""Sounds at once: a pair taken rings 0.2 s, the longest bell 1.2 s; eight never run short, and
when they do the oldest sound gives way (``find_channel(True)``)."""
VOLUME_STEP = 0.1
LOG_LIMIT = 1000
"""The log keeps the latest plays: enough for any test, bounded for a window open all day."""


class Sounds:
    """The window's effects: a lazily opened mixer, the volume and mute the settings keep, and a log."""

    def __init__(self, settings: Settings, save: Callable[[], None]) -> None:
        self.settings = settings
        self._save = save
        self.state = "idle"
        """``idle`` (not tried yet), ``starting`` (the mixer opens on its thread), ``ready`` or ``failed``."""
        self.problem: str | None = None
        """Why there is no sound, once the mixer failed."""
        self.played: list[SoundKey] = []
        """Every sound started on a mixer channel, oldest first (the latest ``LOG_LIMIT``)."""
        self._sounds: dict[SoundKey, pygame.mixer.Sound] = {}
        self._thread: threading.Thread | None = None
        self._told = False

    # -- opening the mixer -------------------------------------------------------------------

    def prepare(self) -> None:
        """Start opening the mixer on its own thread, the first time only."""
        if self.state != "idle":
            return
        self.state = "starting"
        self._thread = threading.Thread(target=self._open, name="sound", daemon=True)
        self._thread.start()

    def wait_ready(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the mixer to open or fail; True once it is open."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.state == "ready"

    def _open(self) -> None:
        try:
            from battle.ui.sound.alsa_errors import quiet_alsa_errors
            from battle.ui.sound.synth import to_pcm
            from battle.ui.sound.voices import all_sounds

            quiet_alsa_errors()  # a machine without a sound card: our "No sound" line, not ALSA's eight
            pygame.mixer.init(MIXER_RATE, -16, 1, MIXER_BUFFER)
            opened = pygame.mixer.get_init()
            if not opened:
                raise pygame.error(_("the mixer did not open"))
            rate, size, channels = opened
            if size != -16:
                raise pygame.error(_("the device plays {bits}-bit samples only").format(bits=abs(size)))
            pygame.mixer.set_num_channels(CHANNELS)
            self._sounds = {
                key: pygame.mixer.Sound(buffer=to_pcm(samples, channels)) for key, samples in all_sounds(rate).items()
            }
        # no device, a busy or broken one (pygame.error), or not enough memory for 0.5 MB of
        # samples: the window plays on silently either way
        except (pygame.error, OSError, MemoryError) as error:
            self.problem = str(error) or type(error).__name__
            self.state = "failed"
            return
        self.state = "ready"

    def take_notice(self) -> str | None:
        """What to say of the sound, once: that there is none and why (None while all is well)."""
        if self.state != "failed" or self._told:
            return None
        self._told = True
        return _("No sound ({problem}): the game plays on silently.").format(problem=self.problem)

    # -- playing -----------------------------------------------------------------------------

    @property
    def volume(self) -> float:
        return self.settings.volume

    @property
    def muted(self) -> bool:
        return self.settings.muted

    def play(self, event: Event, value: int = 0) -> bool:
        """Play ``event``'s sound (a pair's with its tile ``value``); False when nothing sounded (muted,
        no mixer yet or none at all). Never raises and never waits."""
        if self.muted or self.volume <= 0 or self.state != "ready":
            return False
        key = sound_key(event, value)
        sound = self._sounds[key]
        try:
            channel = pygame.mixer.find_channel(True)
            if channel is None:
                return False
            sound.set_volume(self.volume)
            channel.play(sound)
        except pygame.error as error:  # the device went away under the game: silence from here on
            self.problem = str(error)
            self.state = "failed"
            return False
        self.played.append(key)
        del self.played[:-LOG_LIMIT]
        return True

    def stop(self) -> None:
        """Silence what is playing (muting cuts a long bell short too)."""
        if self.state == "ready":
            with contextlib.suppress(pygame.error):  # a device that is gone plays nothing anyway
                pygame.mixer.stop()

    # -- the player's choices (kept in the settings) -------------------------------------------

    def toggle_mute(self) -> str:
        """Sound off or on again; what the status line says of it."""
        self.settings.muted = not self.settings.muted
        self._save()
        if self.settings.muted:
            self.stop()
            return _("Sound off (M turns it on again).")
        return _("Sound on, volume {volume} (+ and - change it).").format(volume=self.volume_text())

    def change_volume(self, steps: int) -> str:
        """The volume ``steps`` tenths up or down (0 to 100%); unmutes. What the status line says."""
        self.settings.volume = clamp_volume(self.settings.volume + steps * VOLUME_STEP)
        self.settings.muted = False
        self._save()
        return _("Sound volume {volume} (+ and - change it, M mutes).").format(volume=self.volume_text())

    def set_volume(self, volume: float) -> None:
        """The volume from a slider (0..1), kept."""
        self.settings.volume = clamp_volume(volume)
        self._save()

    def volume_text(self) -> str:
        """The volume as a whole percentage the language's way ("50 %" in German)."""
        return format_percent(self.volume * 100, 0)

    def describe(self) -> str:
        """The sound's state in a few words, for a tool tip or the settings."""
        if self.state == "failed":
            return _("no sound ({problem})").format(problem=self.problem)
        return _("muted") if self.muted else _("volume {volume}").format(volume=self.volume_text())


def clamp_volume(volume: float) -> float:
    """A volume within 0..1, to a tenth (steps of 0.1 add up without drift)."""
    return round(max(0.0, min(1.0, volume)), 1)
