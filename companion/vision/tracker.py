"""Which cards a camera's frames show: the pure tracker, with no clock, no thread, no OpenCV.

``CardTracker.step`` is fed the marker ids of each frame (with the frame's time, and where each
marker is) and says what to report:

* a card counts as shown once it is found in ``show_frames`` analyses in a row (a frame not
  analysed, because the view did not change there, neither adds to the count nor breaks it),
  and as gone once it has been missing ``gone_frames`` frames in a row *and* ``gone_seconds``;
* a card shown on its own is reported, once, however many cards lie in view: the cards that
  have lain still for a moment (``settle_frames`` and ``settle_seconds`` without moving) are
  the background;
* cards that arrive together (within ``TOGETHER_FRAMES`` / ``TOGETHER_SECONDS`` of each
  other) are not reported: one "several" notice, and they wait; when all but one have gone,
  the one left is reported; once they lie still they join the background, silently;
* the cards in view when the tracker starts (the table as the camera finds it) are the
  background as soon as they lie still, without a notice, unless there is only one;
* a card reported and still in view is not reported again until it has gone; a card gone and
  shown again is reported again, with ``again`` when it is the card reported last (the kiosk
  stays silent if the engine refuses it);
* one id on two stickers, a marker on no card, the table's corners in reading mode: said once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from companion.events import Card

from .markers import REGISTRY, MarkerEntry

Place = tuple[float, float, float]
"""Where a marker is in a frame: its centre's x and y and its side, in pixels."""
Moment = tuple[int, float | None]
"""A frame's number (the tracker counts them) and its time in seconds (None: not given)."""

TOGETHER_FRAMES = 9
"""Cards whose first frames are at most this many frames apart arrived together..."""
TOGETHER_SECONDS = 0.3
"""... and at most this many seconds apart, when the frames carry a time."""
STILL_SHARE = 0.1
"""A card whose marker moved by more than this share of its side (or ``STILL_PX``) moved."""
STILL_PX = 1.5


@dataclass(frozen=True, slots=True)
class Reading:
    """What one frame changed: the card to hand to the engine (at most one; ``again`` when it is
    the card reported last, read again after it left the view: the kiosk says nothing if the
    engine refuses it), the cards that appeared together (a notice is due), the cards that went
    out of view, marker ids seen twice at once (``duplicates``: two stickers with one id, a
    notice; the card waits until one of them is gone, as with two cards), and markers that
    are on no card or are the table's corners in reading mode (``strays``: said once while
    they stay in view).  In reading mode, ``hold_still`` asks the table to hold the card
    still (the view has been moving and blurred for a while with no card read) and ``glare``
    to tilt it (a sticker-shaped shape with saturated cells, unread); each is said once until
    a card is read or the view has settled."""

    card: MarkerEntry | None = None
    several: tuple[MarkerEntry, ...] = ()
    gone: tuple[MarkerEntry, ...] = ()
    again: bool = False
    duplicates: tuple[int, ...] = ()
    strays: tuple[int, ...] = ()
    hold_still: bool = False
    glare: bool = False

    def inputs(self) -> list[Card]:
        """The events for this reading: ``[Card(game, card, again)]`` or nothing."""
        return [] if self.card is None else [Card(self.card.game, self.card.card, self.again)]

    def __bool__(self) -> bool:
        return (self.card is not None or bool(self.several) or bool(self.gone)
                or bool(self.duplicates) or bool(self.strays) or self.hold_still or self.glare)


NOTHING = Reading()


@dataclass(slots=True)
class _InView:
    """What the tracker knows of one card marker in view (seen, not yet gone)."""

    arrived: Moment  # the first frame of this stay in view
    still: Moment  # since when it has not moved
    place: Place | None  # where it was then
    missing: tuple[int, float | None] | None = None  # frames missed in a row, and since when


class CardTracker:
    """Debounce, background and ambiguity of card readings, frame by frame (see the module
    docstring).  Markers on no card, and the table's corner markers unless ``table`` (the
    overhead camera expects them), are reported once as ``strays`` while they stay in view,
    never as cards."""

    def __init__(self, show_frames: int = 3, gone_frames: int = 2, *,
                 gone_seconds: float = 0.0, table: bool = False, settle_frames: int = 12,
                 settle_seconds: float = 1.0) -> None:
        if show_frames < 1 or gone_frames < 1 or settle_frames < 1:
            raise ValueError("show_frames, gone_frames and settle_frames must be 1 or more")
        if not 0.0 <= gone_seconds <= 600.0 or not 0.0 <= settle_seconds <= 600.0:
            raise ValueError("gone_seconds and settle_seconds must be between 0 and 600")
        self.show_frames = show_frames
        self.gone_frames = gone_frames
        self.gone_seconds = gone_seconds
        self.settle_frames = settle_frames
        self.settle_seconds = settle_seconds
        self.table = table
        self.last: int | None = None  # the marker of the card reported last
        self._frame = 0
        self.reset()

    def reset(self) -> None:
        """Forget what is in view (the camera came back after a break): the cards then in view
        are the table as found.  The last card read is kept, so reading it again is
        ``again``."""
        self._run: dict[int, int] = {}  # analysed frames in a row each marker has been found
        self._in_view: dict[int, _InView] = {}
        self.shown: set[int] = set()  # markers that count as shown
        self._handled: set[int] = set()  # reported, or part of the background
        self._posted: set[int] = set()  # reported as a card during their stay
        self._noticed: frozenset[int] = frozenset()  # the cards of the last "several" notice
        self._doubled: frozenset[int] = frozenset()  # the last duplicates reported
        self._strays: dict[int, tuple[int, float | None]] = {}  # strays said, and when missed
        self._started = False
        self._first: Moment | None = None  # the first frame since the reset, if it had cards
        self._calm = False  # nothing waits, nothing is missing: a like frame changes nothing
        self._seen: tuple[int, ...] = ()

    # -- one frame -------------------------------------------------------------------------

    def step(self, seen: Iterable[int], now: float | None = None, *,
             found: Collection[int] | None = None,
             places: Mapping[int, Place] | None = None) -> Reading:
        """Feed the marker ids in view in one frame (an id twice when two stickers carry it),
        the frame's time in seconds (any clock) for ``gone_seconds`` and ``settle_seconds``,
        the ids found anew by this frame's analysis (``found``; None: all of ``seen``; empty:
        the frame was not analysed, the markers of the last analysis stand for it) and where
        each marker is (for ``settle``: without places, a card in view counts as still)."""
        self._frame += 1
        seen = tuple(seen)
        if found is not None and not found and self._calm and seen == self._seen:
            return NOTHING  # a still view, all of it background: nothing can change
        self._seen = seen
        counts = Counter(seen)
        moment: Moment = (self._frame, now)
        ids = {m for m in counts if self._is_card(m)}
        if not self._started:
            self._started = True
            self._first = moment if ids else None  # None: it started on an empty table
        for m in [m for m in self._run if m not in ids]:
            del self._run[m]
        for m in ids:
            if found is None or m in found:
                self._run[m] = self._run.get(m, 0) + 1
        self._look(ids, moment, places or {})
        gone = self._gone_now(ids, moment)
        doubled = frozenset(m for m, n in counts.items() if n > 1)
        for m in doubled & ids:  # two stickers: shown only after frames with one of them
            self._run[m] = 0
            if m not in self._handled:
                self.shown.discard(m)
        self.shown.update(m for m, run in self._run.items() if run >= self.show_frames)
        self._settle(moment)
        card, several = self._decide(ids)
        again = False
        if card is not None:
            again = card.marker == self.last
            self.last = card.marker
        duplicates = tuple(sorted(doubled - self._doubled))
        self._doubled = doubled
        strays = self._stray(counts, now)
        self._calm = (self._handled >= set(self._in_view) and not self._strays_missing()
                      and all(v.missing is None for v in self._in_view.values()))
        return Reading(card, several, gone, again, duplicates, strays)

    def unconfirmed(self) -> set[int]:
        """The cards in view found fewer than ``show_frames`` times in a row, not yet shown (the
        pipeline looks at them again)."""
        return {m for m, run in self._run.items() if run < self.show_frames
                and m not in self.shown and m not in self._handled}

    def _is_card(self, m: int) -> bool:
        e = REGISTRY.get(m)
        return e is not None and e.game != "table"

    def _look(self, ids: set[int], moment: Moment, places: Mapping[int, Place]) -> None:
        """Note the cards in view and whether they moved."""
        for m in ids:
            place = places.get(m)
            v = self._in_view.get(m)
            if v is None:
                self._in_view[m] = _InView(moment, moment, place)
                continue
            v.missing = None
            if place is None:
                continue
            if v.place is None or _moved(v.place, place):
                v.still, v.place = moment, place

    def _gone_now(self, ids: set[int], moment: Moment) -> tuple[MarkerEntry, ...]:
        """Cards missing long enough: out of view (reported if they were shown)."""
        gone = []
        frame, now = moment
        for m in sorted(set(self._in_view) - ids):
            v = self._in_view[m]
            frames, since = v.missing or (0, now)
            v.missing = (frames + 1, since)
            if not self._gone(v.missing, now):
                continue
            del self._in_view[m]
            self._run.pop(m, None)
            if m in self.shown:
                gone.append(REGISTRY[m])
            self.shown.discard(m)
            self._handled.discard(m)
            self._posted.discard(m)
        return tuple(gone)

    def _gone(self, missed: tuple[int, float | None], now: float | None) -> bool:
        frames, since = missed
        if frames < self.gone_frames:
            return False
        return now is None or since is None or now - since >= self.gone_seconds

    def _settle(self, moment: Moment) -> None:
        """Cards not reported that have lain still for a moment join the background."""
        for m, v in self._in_view.items():
            if m not in self._handled and _since(v.still, moment, self.settle_frames,
                                                 self.settle_seconds):
                self._handled.add(m)

    def _decide(self, ids: set[int]) -> tuple[MarkerEntry | None, tuple[MarkerEntry, ...]]:
        """The card to report now, if any, and the cards of a "several" notice, if one is
        due."""
        waiting = sorted(self.shown - self._handled, key=lambda m: self._in_view[m].arrived)
        pending = {m for m in ids if m not in self.shown and m not in self._handled}
        group: set[int] = set()  # cards waiting for a companion, and their companions
        card = None
        for m in waiting:
            with_m = self._companions(m, set(waiting) | pending)
            if with_m:
                group |= with_m | {m}
            elif card is None:
                self._handled.add(m)
                self._posted.add(m)
                card = REGISTRY[m]
        group &= set(waiting) | pending
        several: tuple[MarkerEntry, ...] = ()
        if not group:
            self._noticed = frozenset()
        elif not group <= self._noticed:
            self._noticed = self._noticed | group
            if not all(self._as_found(m) for m in group):
                several = tuple(REGISTRY[m] for m in sorted(group))
        return card, several

    def _companions(self, m: int, unreported: set[int]) -> set[int]:
        """The cards that arrived together with ``m`` and were not reported on their own: ones
        waiting or on their way in (``unreported``), or ones that joined the background
        with it."""
        arrived = self._in_view[m].arrived
        return {o for o, v in self._in_view.items()
                if o != m and o not in self._posted and (o in unreported or o in self._handled)
                and _near(v.arrived, arrived, TOGETHER_FRAMES, TOGETHER_SECONDS)}

    def _as_found(self, m: int) -> bool:
        """Whether ``m`` was in view when the tracker started (the table as found: the first
        frame, and the few after it that find what it missed)."""
        return self._first is not None and _near(self._in_view[m].arrived, self._first,
                                                 TOGETHER_FRAMES, TOGETHER_SECONDS)

    def _stray(self, counts: Counter[int], now: float | None) -> tuple[int, ...]:
        """Markers on no card (and corners in reading mode) newly in view; one that has been out
        of view as long as a card takes to be gone may be said again."""
        strays = {m for m in counts if m not in REGISTRY
                  or (REGISTRY[m].game == "table" and not self.table)}
        for m in [m for m in self._strays if m not in strays]:
            frames, since = self._strays[m]
            self._strays[m] = (frames + 1, now if since is None else since)
            if self._gone(self._strays[m], now):
                del self._strays[m]
        new = tuple(sorted(m for m in strays if m not in self._strays))
        for m in strays:
            self._strays[m] = (0, None)
        return new

    def _strays_missing(self) -> bool:
        return any(frames for frames, _since in self._strays.values())


def _moved(before: Place, now: Place) -> bool:
    dx, dy = now[0] - before[0], now[1] - before[1]
    return dx * dx + dy * dy > max(STILL_PX, STILL_SHARE * now[2]) ** 2


def _near(a: Moment, b: Moment, frames: int, seconds: float) -> bool:
    """Whether two moments are at most ``frames`` frames and ``seconds`` apart."""
    if abs(a[0] - b[0]) > frames:
        return False
    return a[1] is None or b[1] is None or abs(a[1] - b[1]) <= seconds


def _since(start: Moment, now: Moment, frames: int, seconds: float) -> bool:
    """Whether at least ``frames`` frames and ``seconds`` have passed since ``start``."""
    if now[0] - start[0] < frames:
        return False
    return start[1] is None or now[1] is None or now[1] - start[1] >= seconds
