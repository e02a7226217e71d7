"""Short sound cues (draw, die, score, refusal) synthesised at start-up: no sound files needed.

Silent where there is no audio device: every failure of the mixer turns sound off quietly.
"""

from __future__ import annotations

import math
import struct
import sys

import pygame

RATE = 22050


def _tone(freqs: list[tuple[float, float]], volume: float = 0.35) -> bytes:
    """16-bit mono PCM of notes (frequency Hz, seconds) with a short fade in and out."""
    out = bytearray()
    for freq, seconds in freqs:
        n = int(RATE * seconds)
        fade = max(1, int(RATE * 0.01))
        for i in range(n):
            env = min(1.0, i / fade, (n - i) / fade)
            sample = volume * env * math.sin(2 * math.pi * freq * i / RATE)
            out += struct.pack("<h", int(sample * 32767))
    return bytes(out)


CUES = {
    "draw": [(523.0, 0.08), (784.0, 0.12)],
    "roll": [(330.0, 0.05), (392.0, 0.05), (440.0, 0.05), (494.0, 0.1)],
    "score": [(523.0, 0.1), (659.0, 0.1), (784.0, 0.18)],
    "refuse": [(220.0, 0.12), (196.0, 0.16)],
}


def has_sound_card() -> bool:
    """False where Linux reports no sound card (then the mixer is not even tried, which
    keeps ALSA's complaints out of the log); True elsewhere."""
    try:
        with open("/proc/asound/cards", encoding="utf-8") as f:
            return "no soundcards" not in f.read()
    except OSError:
        return not sys.platform.startswith("linux")


class Sounds:
    """Plays cues by name; does nothing when disabled or when no audio device exists."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        if not enabled or not has_sound_card():
            return
        try:
            pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            self._sounds = {
                name: pygame.mixer.Sound(buffer=_tone(notes)) for name, notes in CUES.items()
            }
            self.enabled = True
        except pygame.error:
            self._sounds = {}

    def play(self, name: str) -> None:
        if self.enabled and name in self._sounds:
            try:
                self._sounds[name].play()
            except pygame.error:
                self.enabled = False
