"""The sounds made from code, without an audio device: short, soft, faded, and a bigger pair higher."""

from __future__ import annotations

import numpy as np
import pytest

from battle.ui.sound import synth
from battle.ui.sound.events import VALUED, Event, end_event, presence_event, sound_key
from battle.ui.sound.player import clamp_volume
from battle.ui.sound.voices import all_sounds

RATE = 44100
PER_MOVE = (Event.SELECT, Event.PAIR_TAKEN, Event.OPPONENT_MOVED, Event.REFUSED, Event.HINT)


def dominant_hz(samples: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(samples))
    return float(np.fft.rfftfreq(len(samples), 1 / RATE)[int(np.argmax(spectrum))])


@pytest.fixture(scope="module")
def sounds() -> dict:
    return all_sounds(RATE)


def test_every_event_has_its_sounds_and_pairs_one_per_tile_value(sounds) -> None:
    assert {event for event, _ in sounds} == set(Event)
    for event in VALUED:
        assert sorted(value for key, value in sounds if key is event) == list(range(1, 10))
    assert sound_key(Event.PAIR_TAKEN, 12) == (Event.PAIR_TAKEN, 9) and sound_key(Event.HINT, 7) == (Event.HINT, 0)


def test_sounds_are_short_soft_and_start_and_end_in_silence(sounds) -> None:
    for (event, value), samples in sounds.items():
        seconds = len(samples) / RATE
        assert seconds < (0.4 if event in PER_MOVE else 1.3), (event, value, seconds)
        peak_db = 20 * np.log10(np.max(np.abs(samples)))
        assert -19.0 < peak_db <= -12.0 + 1e-9, (event, value, peak_db)
        assert abs(samples[0]) < 1e-3 and abs(samples[-1]) < 1e-3, (event, value)
    per_move = max(np.max(np.abs(sounds[sound_key(event, 5)])) for event in PER_MOVE)
    assert per_move < synth.BELL_PEAK  # what comes every move is quieter than the game's end


def test_a_bigger_pair_sounds_higher_and_the_opponents_lower() -> None:
    heights = [dominant_hz(synth.pair_taken(RATE, value)) for value in range(1, 10)]
    assert heights == sorted(heights) and heights[-1] > heights[0] * 1.4
    assert dominant_hz(synth.pair_taken(RATE, 5, opponent=True)) < heights[4]


def test_the_same_sound_every_start_and_pcm_per_channel() -> None:
    assert np.array_equal(synth.pair_taken(RATE, 3), synth.pair_taken(RATE, 3))
    mono = synth.to_pcm(synth.select(RATE))
    assert len(synth.to_pcm(synth.select(RATE), 2)) == 2 * len(mono) == 4 * len(synth.select(RATE))


def test_who_hears_what() -> None:
    assert end_event(None, 1) is Event.GAME_DRAWN
    assert end_event(1, 1) is Event.GAME_WON and end_event(2, 1) is Event.GAME_LOST
    assert end_event(2, None) is Event.GAME_WON  # hot seat: somebody won
    assert presence_event("open", "connected") is Event.OPPONENT_ARRIVED
    assert presence_event("away", "connected") is Event.OPPONENT_ARRIVED
    assert presence_event("connected", "away") is Event.OPPONENT_LEFT
    assert presence_event("away", "away") is None and presence_event("connected", "connected") is None
    assert clamp_volume(1.3) == 1.0 and clamp_volume(-0.1) == 0.0 and clamp_volume(0.1 + 0.2) == 0.3


def test_a_volume_or_mute_of_the_wrong_kind_in_the_settings_is_reset_and_said(tmp_path) -> None:
    from battle.ui.files.settings import load_settings

    path = tmp_path / "settings.json"
    path.write_text('{"volume": 0.4, "muted": true}', encoding="utf-8")
    settings, problem = load_settings(path)
    assert (settings.volume, settings.muted, problem) == (0.4, True, None)
    path.write_text('{"volume": 3, "muted": "yes"}', encoding="utf-8")
    settings, problem = load_settings(path)
    assert (settings.volume, settings.muted) == (0.7, False)
    assert problem is not None and "volume" in problem and "muted" in problem
