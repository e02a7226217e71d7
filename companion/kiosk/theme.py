"""Colours and sizes of the kiosk, scaled to the window so one layout serves 800x480,
720x1280 and any laptop window."""

from __future__ import annotations

from dataclasses import dataclass

Colour = tuple[int, int, int]

BG: Colour = (26, 24, 30)
PANEL: Colour = (46, 42, 54)
PANEL_HI: Colour = (64, 58, 74)
TEXT: Colour = (242, 236, 224)
MUTED: Colour = (160, 152, 142)
DISABLED: Colour = (96, 90, 86)
ACCENT: Colour = (224, 180, 74)
GOOD: Colour = (92, 176, 96)
BAD: Colour = (206, 72, 60)
OUTLINE: Colour = (12, 10, 14)

PLAYER: dict[str, Colour] = {
    "red": (196, 52, 46),
    "blue": (48, 104, 204),
    "yellow": (226, 186, 40),
    "green": (58, 156, 72),
}
PLAYER_TEXT: dict[str, Colour] = {
    "red": TEXT,
    "blue": TEXT,
    "yellow": (30, 26, 20),
    "green": TEXT,
}
RESOURCE: dict[str, Colour] = {
    "stone": (150, 150, 158),
    "wood": (150, 96, 52),
    "sand": (230, 206, 140),
    "metal": (80, 130, 210),
    "knowledge": (120, 90, 200),
    "tile": (200, 90, 60),
}


@dataclass(frozen=True)
class Metrics:
    """Sizes for a window: ``u`` is one unit, 1 px at 480 px on the short side."""

    width: int
    height: int

    @property
    def u(self) -> float:
        return min(self.width, self.height) / 480

    @property
    def portrait(self) -> bool:
        return self.height > self.width

    def px(self, units: float) -> int:
        return max(1, round(units * self.u))

    @property
    def touch(self) -> int:
        """The smallest touch target: about 9 mm on both official displays."""
        return self.px(48)

    @property
    def gap(self) -> int:
        return self.px(6)

    @property
    def text(self) -> int:
        return self.px(20)

    @property
    def small(self) -> int:
        return self.px(16)

    @property
    def large(self) -> int:
        return self.px(28)

    @property
    def huge(self) -> int:
        return self.px(48)
