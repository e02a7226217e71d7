"""What a screen measures on the display: the smallest touch target and cap height in mm, and
the lowest text contrast (WCAG 2), against the limits of ``theme`` (9 mm, 2.5 mm, 4.5:1).

A screen is measured right after it is drawn with ``ui.DRAWN`` a list: the texts come from
there (with their boxes, sizes and colours, and the background sampled under each before it was
drawn), the touch targets from the screen's buttons and tap areas (``Screen.buttons``, which
``handle`` hit-tests).  Text drawn in ``theme.DISABLED`` belongs to a control that is off and is
left out of the contrast (WCAG 2 exempts inactive components).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import theme


@dataclass(frozen=True)
class Reading:
    """One measured value, the screen it comes from and what it was measured on."""

    value: float
    screen: str
    what: str


@dataclass(frozen=True)
class ScreenMeasures:
    """The readings of one screen: every touch target (short side in mm), every text (cap
    height in mm, contrast), and what a reader sees wrong: a list cut without "…"
    (``cut``) and a text drawn under another overlay (``covered``)."""

    screen: str
    targets: tuple[Reading, ...]
    caps: tuple[Reading, ...]
    contrasts: tuple[Reading, ...]
    cut: tuple[str, ...] = ()
    covered: tuple[str, ...] = ()

    def violations(self) -> list[str]:
        """Every reading under its limit, worded."""
        out = [f"{self.screen}: a list cut without '…': {c!r}" for c in self.cut]
        out += [f"{self.screen}: {c}" for c in self.covered]
        out += [
            f"{self.screen}: touch target {r.what} is {r.value:.1f} mm (< {theme.TARGET_MM} mm)"
            for r in self.targets
            if r.value < theme.TARGET_MM
        ]
        out += [
            f"{self.screen}: text {r.what} has a cap height of {r.value:.2f} mm "
            f"(< {theme.CAP_MM} mm)"
            for r in self.caps
            if r.value < theme.CAP_MM
        ]
        out += [
            f"{self.screen}: text {r.what} has a contrast of {r.value:.2f}:1 "
            f"(< {theme.CONTRAST}:1)"
            for r in self.contrasts
            if r.value < theme.CONTRAST
        ]
        return out


def measure_screen(
    screen: str,
    size: tuple[int, int],
    drawn: Sequence[str],
    buttons: Iterable[Any],
    overlays: Sequence[tuple[str, Any]] = (),
) -> ScreenMeasures:
    """The readings of a screen of ``size`` pixels: ``drawn`` is ``ui.DRAWN`` after it was
    drawn (the screen's texts only: an overlay's own are left out by the caller),
    ``buttons`` its touch targets (with ``rect`` and ``key``), ``overlays`` what was drawn
    over the screen (``(what, rect)``)."""
    from .ui import Drawn

    mm_x, mm_y = theme.mm_per_px(size)
    targets: list[Reading] = []
    for b in buttons:
        r = b.rect
        short = min(r.width * mm_x, r.height * mm_y)
        targets.append(Reading(short, screen, f"{b.key or b.label!r} {r.width}x{r.height} px"))
    caps: list[Reading] = []
    contrasts: list[Reading] = []
    for d in drawn:
        if not isinstance(d, Drawn) or not d.strip():
            continue
        caps.append(Reading(d.cap * mm_y, screen, f"{str(d)[:40]!r} at {d.size} px"))
        if not d.inactive:
            ratio = theme.contrast(d.colour, d.background)
            contrasts.append(
                Reading(ratio, screen, f"{str(d)[:40]!r} {d.colour} on {d.background}")
            )
    texts = [d for d in drawn if isinstance(d, Drawn) and d.strip()]
    cut = tuple(str(d) for d in texts if cut_list(str(d)))
    return ScreenMeasures(screen, tuple(targets), tuple(caps), tuple(contrasts), cut,
                          tuple(covered_texts(texts, overlays)))


LIST_SEPARATORS = (",", "、", "，", ";", "；")
"""What a list's items are joined with: a text that ends with one was cut (a colon is not
one: it ends a heading, "Then, by the rules:")."""


def cut_list(text: str) -> bool:
    """Whether ``text`` is a list cut short without saying so: it ends with a separator
    (``Woodworker (start): 4 uses left,``) instead of its last item or "…"."""
    return text.rstrip().endswith(LIST_SEPARATORS)


def covered_texts(texts: Sequence[Any], overlays: Sequence[tuple[str, Any]]) -> list[str]:
    """Each text of ``texts`` (drawn before the overlays) that an overlay (``(what, rect)``,
    drawn over the screen: a message, a device's notice) covers, worded."""
    out = []
    for what, rect in overlays:
        for d in texts:
            if rect.colliderect(d.rect):
                out.append(f"{str(d)[:40]!r} is under {what} at {tuple(rect)}")
    return out


@dataclass
class Summary:
    """The worst readings over the screens of one size and language."""

    size: tuple[int, int]
    language: str
    screens: list[ScreenMeasures] = field(default_factory=list)

    def add(self, measures: ScreenMeasures) -> None:
        self.screens.append(measures)

    def smallest_target(self) -> Reading | None:
        return min((r for s in self.screens for r in s.targets), key=_value, default=None)

    def smallest_cap(self) -> Reading | None:
        return min((r for s in self.screens for r in s.caps), key=_value, default=None)

    def lowest_contrast(self) -> Reading | None:
        return min((r for s in self.screens for r in s.contrasts), key=_value, default=None)

    def violations(self) -> list[str]:
        return [v for s in self.screens for v in s.violations()]

    def lines(self) -> list[str]:
        """The report: the three worst readings, each with its screen and limit."""
        w, h = self.size
        out = [f"{w}x{h} {self.language}:"]
        for label, reading, unit, limit in (
            ("smallest touch target", self.smallest_target(), " mm", theme.TARGET_MM),
            ("smallest cap height", self.smallest_cap(), " mm", theme.CAP_MM),
            ("lowest text contrast", self.lowest_contrast(), ":1", theme.CONTRAST),
        ):
            if reading is None:
                out.append(f"  {label}: none drawn")
                continue
            mark = "ok" if reading.value >= limit else "UNDER THE LIMIT"
            out.append(
                f"  {label}: {reading.value:.2f}{unit} on {reading.screen} ({reading.what}); "
                f"limit {limit}{unit}: {mark}"
            )
        return out


def _value(r: Reading) -> float:
    return r.value


__all__ = ["Reading", "ScreenMeasures", "Summary", "measure_screen"]
