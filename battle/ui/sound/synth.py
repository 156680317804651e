"""The game's sounds, made from code: numpy arrays of samples in [-1, 1], one function per effect.

Made at start-up, not shipped as files: all 28 sounds (nine pairs each for the player and the
opponent, ten others) take about 0.1 s of numpy at 44.1 kHz, on the mixer's own thread after
the first frame, so there is nothing to ship, to license or to keep in step with this code,
and each sound is made at the rate the mixer opened with. Every effect here
is pure (no pygame), so its length, level and fades are tested without an audio device.

The palette is quiet on purpose, for a game of 70 moves played many times over:

- a tile is a soft wooden *clack*: a 2 ms burst of band-passed noise (the knock) over three
  inharmonic, quickly decaying partials (a wood block's 1 : 2.76 : 5.4), under 120 ms;
- a pair taken is two clacks 60 ms apart, tuned up one semitone per tile value 1..9;
  the opponent's pair is the same, a fifth lower and duller, so a glance is not needed;
- a refusal is a low muted blip (a sine gliding 190 -> 150 Hz, 110 ms), never a buzzer;
- the hint, a game's end, a puzzle and an opponent's arrival are soft bells (sines with a
  quiet octave partial) in short chords and arpeggios, 0.3 to 1.2 s.

Peaks are at -12 dBFS (a quarter of full scale) for the bells and quieter for the per-move
sounds (-15 to -18 dBFS); every sound fades in over 3 ms and out over 15 ms, so none clicks.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Samples = NDArray[np.float64]

BELL_PEAK = 10 ** (-12 / 20)
"""-12 dBFS: the loudest any effect gets."""
MOVE_PEAK = 10 ** (-15 / 20)
"""A pair taken: a little under the bells, it comes 70 times a game."""
TICK_PEAK = 10 ** (-18 / 20)
"""Selecting a tile: the quietest, it comes twice a move."""
FADE_IN = 0.003
FADE_OUT = 0.015
PAIR_BASE_HZ = 520.0
"""The clack's body for a pair of 1s; each value above adds a semitone (9s: 8 semitones higher)."""
SEMITONE = 2 ** (1 / 12)
WOOD_PARTIALS = ((1.0, 1.0, 28.0), (2.76, 0.45, 45.0), (5.4, 0.2, 70.0))
"""A wood block's modes: (frequency ratio, level, decay per second)."""
_SEED = 47
"""The noise is seeded: the same sound every start."""


def _times(rate: int, seconds: float) -> Samples:
    return np.arange(round(rate * seconds), dtype=np.float64) / rate


def finish(samples: Samples, rate: int, peak: float) -> Samples:
    """Fade in and out (no click at either end) and scale to ``peak`` of full scale."""
    out = samples.astype(np.float64, copy=True)
    fade_in = min(len(out), max(1, round(rate * FADE_IN)))
    fade_out = min(len(out), max(1, round(rate * FADE_OUT)))
    out[:fade_in] *= np.linspace(0.0, 1.0, fade_in)
    out[len(out) - fade_out :] *= np.linspace(1.0, 0.0, fade_out)
    top = float(np.max(np.abs(out))) if len(out) else 0.0
    return out * (peak / top) if top > 0 else out


def _band_noise(rate: int, seconds: float, low: float, high: float, seed: int) -> Samples:
    """White noise kept between ``low`` and ``high`` Hz (by zeroing the rest of its spectrum)."""
    count = round(rate * seconds)
    noise = np.random.default_rng(seed).standard_normal(count)
    spectrum = np.fft.rfft(noise)
    freqs = np.fft.rfftfreq(count, 1 / rate)
    spectrum[(freqs < low) | (freqs > high)] = 0
    return np.fft.irfft(spectrum, count)


def clack(rate: int, body_hz: float, brightness: float = 1.0, seconds: float = 0.12) -> Samples:
    """One tile set down: a knock of filtered noise over decaying wooden partials (unscaled)."""
    t = _times(rate, seconds)
    tone = np.zeros_like(t)
    for ratio, level, decay in WOOD_PARTIALS:
        freq = body_hz * ratio
        if freq < rate / 2:
            tone += level * brightness ** (ratio - 1) * np.sin(2 * np.pi * freq * t) * np.exp(-decay * t)
    knock = _band_noise(rate, seconds, 1500 * brightness, 4500 * brightness, _SEED) * np.exp(-t / 0.002)
    return tone + 0.6 * knock


def pair_taken(rate: int, value: int, opponent: bool = False) -> Samples:
    """Two tiles lifted together, higher for a bigger pair (``value`` 1..9); the opponent's a fifth lower."""
    value = min(9, max(1, value))
    body = PAIR_BASE_HZ * SEMITONE ** (value - 1) * (2 / 3 if opponent else 1.0)
    brightness = 0.75 if opponent else 1.0
    gap = round(rate * 0.06)
    first = clack(rate, body, brightness)
    second = clack(rate, body * SEMITONE**2, brightness)  # the second tile, a tone above
    out = np.zeros(gap + len(second))
    out[: len(first)] += first
    out[gap:] += 0.8 * second
    return finish(out, rate, MOVE_PEAK * (0.85 if opponent else 1.0))


def select(rate: int) -> Samples:
    """A tile picked up: one short, light tick."""
    return finish(clack(rate, 900.0, 1.1, seconds=0.07), rate, TICK_PEAK)


def refused(rate: int) -> Samples:
    """A move refused: a low muted blip, gliding down."""
    t = _times(rate, 0.11)
    freq = np.linspace(190.0, 150.0, len(t))
    phase = 2 * np.pi * np.cumsum(freq) / rate
    blip = (np.sin(phase) + 0.15 * np.sin(2 * phase)) * np.exp(-t / 0.05)
    return finish(blip, rate, MOVE_PEAK)


def bell(rate: int, freq: float, seconds: float, decay: float = 5.0) -> Samples:
    """A soft bell: a sine with a quiet octave and twelfth, decaying (unscaled)."""
    t = _times(rate, seconds)
    tone = np.sin(2 * np.pi * freq * t) + 0.25 * np.sin(4 * np.pi * freq * t) * np.exp(-2 * decay * t)
    tone += 0.08 * np.sin(6 * np.pi * freq * t) * np.exp(-3 * decay * t)
    attack = 1 - np.exp(-t / 0.004)
    return tone * attack * np.exp(-decay * t)


def notes(
    rate: int, pitches: tuple[float, ...], spacing: float, ring: float, decay: float = 5.0, peak: float = BELL_PEAK
) -> Samples:
    """Bells at ``pitches`` (Hz), one every ``spacing`` seconds, each ringing ``ring`` seconds."""
    step = round(rate * spacing)
    length = step * (len(pitches) - 1) + round(rate * ring)
    out = np.zeros(length)
    for index, pitch in enumerate(pitches):
        tone = bell(rate, pitch, ring, decay)
        out[index * step : index * step + len(tone)] += tone
    return finish(out, rate, peak)


# Pitches of the bells: C major around C5, with its minor and suspended relatives.
C5, D5, E5, F5, G5, A5, C6 = 523.25, 587.33, 659.26, 698.46, 783.99, 880.0, 1046.5
EB5, AB4, G4, F4 = 622.25, 415.3, 392.0, 349.23


def hint(rate: int) -> Samples:
    """A hint found: two quiet bells a fifth apart."""
    return notes(rate, (G5, D5 * 2), 0.08, 0.3, decay=9.0, peak=MOVE_PEAK)


def game_won(rate: int) -> Samples:
    return notes(rate, (C5, E5, G5, C6), 0.12, 0.8, decay=3.5)


def game_lost(rate: int) -> Samples:
    return notes(rate, (G5, EB5, C5, G4), 0.16, 0.7, decay=4.0)


def game_drawn(rate: int) -> Samples:
    return notes(rate, (F5, C5, F5), 0.14, 0.7, decay=4.0)


def puzzle_solved(rate: int) -> Samples:
    return notes(rate, (E5, A5), 0.1, 0.5, decay=5.0)


def puzzle_missed(rate: int) -> Samples:
    return notes(rate, (AB4, G4), 0.14, 0.4, decay=6.0, peak=MOVE_PEAK)


def opponent_arrived(rate: int) -> Samples:
    return notes(rate, (C5, G5), 0.09, 0.35, decay=7.0, peak=MOVE_PEAK)


def opponent_left(rate: int) -> Samples:
    return notes(rate, (G5, C5), 0.09, 0.35, decay=7.0, peak=MOVE_PEAK)


def to_pcm(samples: Samples, channels: int = 1) -> bytes:
    """Signed 16-bit little-endian PCM, the samples repeated on each of ``channels``."""
    pcm = np.round(np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
    if channels > 1:
        pcm = np.repeat(pcm, channels)
    return pcm.tobytes()
