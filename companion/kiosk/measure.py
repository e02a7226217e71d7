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

from . import linebreak, theme
from .fonts import is_cjk


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
    breaks: tuple[str, ...] = ()
    """Each line break a reader trips on: inside a word, or between a number and its unit."""
    hidden: tuple[str, ...] = ()
    """Each text that does not fit and hides an amount (a digit) behind "…"."""

    def violations(self) -> list[str]:
        """Every reading under its limit, worded."""
        out = [f"{self.screen}: a list cut without '…': {c!r}" for c in self.cut]
        out += [f"{self.screen}: a line break {b}" for b in self.breaks]
        out += [f"{self.screen}: an amount hidden behind '…': {h}" for h in self.hidden]
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
    wrapped: Sequence[tuple[str, str, int, list[str]]] = (),
) -> ScreenMeasures:
    """The readings of a screen of ``size`` pixels: ``drawn`` is ``ui.DRAWN`` after it was
    drawn (the screen's texts only: an overlay's own are left out by the caller),
    ``buttons`` its touch targets (with ``rect`` and ``key``), ``overlays`` what was drawn
    over the screen (``(what, rect)``), ``wrapped`` every text wrapped into lines while it
    was drawn (``linebreak.RECORD``)."""
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
    hidden = tuple(f"{str(d)!r} hides {d.hidden!r}" for d in texts
                   if any(ch.isdigit() for ch in d.hidden))
    return ScreenMeasures(screen, tuple(targets), tuple(caps), tuple(contrasts), cut,
                          tuple(covered_texts(texts, overlays)),
                          tuple(line_break_problems(list(wrapped))), hidden)


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


# -- line breaks: where a reader trips ----------------------------------------------------------


def _boundaries(paragraph: str, lang: str) -> set[int]:
    """Where BudouX (called directly, not through ``linebreak.units``) ends a phrase."""
    found, at = set(), 0
    for phrase in linebreak.phrases(paragraph, lang):
        at += len(phrase)
        found.add(at)
    return found


def _word_char(ch: str) -> bool:
    return not ch.isspace() and not is_cjk(ch)


def break_problem(paragraph: str, i: int, lang: str) -> str | None:
    """What is wrong with a line break before ``paragraph[i]`` (not at a space), or None:
    after a digit (a number split from its unit), inside a Latin word, inside a BudouX
    phrase, or inside a catalogue term."""
    before, after = paragraph[i - 1], paragraph[i]
    where = f"{paragraph[:i]}|{paragraph[i:]}"
    if before.isdigit():
        return f"between a number and its unit: {where!r}"
    if before in linebreak.WORD_SEPARATORS:
        return None  # after the middle dot between two words of a katakana name
    if before in linebreak.CLAUSE_ENDS:
        return None  # after a full-width colon or comma: where CJK print breaks a line
    if before == "/" and i in linebreak.path_breaks(paragraph):
        return None  # after a slash of a file's path
    if _word_char(before) and _word_char(after):
        return f"inside a word: {where!r}"
    if i not in _boundaries(paragraph, lang):
        return f"inside a BudouX phrase: {where!r}"
    if any(paragraph.find(term, max(0, i - len(term) + 1), i + len(term) - 1) >= 0
           for term in linebreak.glossary(lang)):
        return f"inside a catalogue term: {where!r}"
    return None


def _space_problem(paragraph: str, i: int, end: int) -> str | None:
    """A break at the space at ``paragraph[i]``: wrong after a number alone (``6 | uses``)."""
    j = i
    while j < end and paragraph[j].isspace():
        j += 1
    last = paragraph[:i].split()[-1] if paragraph[:i].split() else ""
    if j < end and linebreak.NUMBER.match(last):
        return f"between a number and its unit: {paragraph[:i] + '|' + paragraph[j:]!r}"
    return None


def problems(text: str, lang: str, lines: list[str]) -> list[str]:
    """Each line break of ``lines`` (``text`` wrapped) a reader trips on: inside a word
    (between two characters of a Latin word, inside a BudouX phrase or a catalogue term) or
    between a number and its unit."""
    found: list[str] = []
    rows = iter(lines)
    for paragraph in text.split("\n") if text else []:
        i, end = 0, len(paragraph.rstrip())
        first = True
        while first or i < end:
            first = False
            row = next(rows, None)
            if row is None:
                return [*found, f"{text!r}: fewer lines than paragraphs"]
            while i < end and paragraph[i].isspace():
                i += 1
            for ch in row:
                if ch == " " and paragraph[i].isspace():
                    while paragraph[i].isspace():
                        i += 1
                    continue
                if paragraph[i] != ch:
                    return [*found, f"{text!r}: line {row!r} is not the text's"]
                i += 1
            if i >= end:
                continue  # the end of the paragraph
            problem = (_space_problem(paragraph, i, end) if paragraph[i].isspace()
                       else break_problem(paragraph, i, lang))
            if problem:
                found.append(problem)
    return found


def final_wraps(
    record: list[tuple[str, str, int, list[str]]],
) -> list[tuple[str, str, list[str]]]:
    """The lines each ``ui.draw_text`` call drew: its last ``wrap`` (``draw_text`` wraps a text
    again at each smaller size until it fits, all in a row)."""
    finals: list[tuple[str, str, list[str]]] = []
    previous: tuple[str, str, int] | None = None
    for text, lang, width, lines in record:
        if (text, lang, width) == previous:
            finals[-1] = (text, lang, lines)
        else:
            finals.append((text, lang, lines))
        previous = (text, lang, width)
    return finals


def line_break_problems(record: list[tuple[str, str, int, list[str]]]) -> list[str]:
    """Every break a reader trips on among the lines drawn (``linebreak.RECORD``)."""
    finals = final_wraps(record)
    return sorted({p for text, lang, lines in finals for p in problems(text, lang, lines)})


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


__all__ = [
    "Reading",
    "ScreenMeasures",
    "Summary",
    "final_wraps",
    "line_break_problems",
    "measure_screen",
    "problems",
]
