"""What the walk tools share (tools/pillars_handout_walk.py, tools/builders_handout_walk.py): a
kiosk on SDL's dummy driver with a journal in a temporary folder, events sent as SDL events
through ``App.handle_event``, a picture of every hand-out step, and the tally of what a table
saw."""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from companion.engine import Setup, get_game, replay  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.kiosk import ui  # noqa: E402
from companion.kiosk.app import App  # noqa: E402
from companion.kiosk.config import Config  # noqa: E402
from companion.kiosk.handout import HandOut  # noqa: E402
from companion.kiosk.inputs import KEYMAP, listen  # noqa: E402
from companion.kiosk.screens.end import EndScreen  # noqa: E402

SIZES = {"800x480": (800, 480), "720x1280": (720, 1280)}


@dataclass
class Tally:
    """What one walk saw: hand-out steps by kind, the companion's instructions and their
    confirmations, the pictures kept, and the problems a table would trip on."""

    kinds: Counter[str] = field(default_factory=Counter)
    instructions: int = 0
    confirmations: int = 0
    shots: int = 0
    taught: int = 0
    undone: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self, label: str, seconds: float) -> str:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items()))
        return (f"{label}: {sum(self.kinds.values())} hand-out steps ({kinds}); "
                f"{self.instructions} companion instructions, {self.confirmations} "
                f"confirmations; {self.undone} undone and given back; {self.taught} teaching "
                f"cards read; {self.shots} pictures; {seconds:.0f} s")


UNDO_ODDS = 0.08
"""How often the table takes back the companion's move it just carried out (then puts the
pieces back as the give-back step says, and the companion moves again)."""


def take_back(app: App, rng: random.Random, tally: Tally) -> None:
    """Now and then, UNDO on the move the table just carried out for the companion: a
    give-back step must come (it is handed out next, pictured and measured like any step)."""
    session = app.session
    if session is None or rng.random() >= UNDO_ODDS or not session.can_undo():
        return
    before = len(session.playthrough.actions)
    states, game = session.playthrough.states, session.game
    # (the points a game's end scores are a step of their own, handed out after the move:
    # taken back before it was, nothing of them reached the table)
    changed = (len(game.ledger(states[-1])) > len(game.ledger(states[-2]))
               and not game.is_over(states[-1]))
    press(app, "undo")
    if len(session.playthrough.actions) == before:
        return  # (undo stops at a reveal: nothing taken back)
    tally.undone += 1
    step = getattr(app.screen, "handouts", None)
    if changed and (step is None or step.current is None or step.current.key != "back"):
        tally.problems.append("an undone move of the companion gave nothing back")


def read_help(app: App, tally: Tally) -> bool:
    """The help on show (teach mode opened it on a new kind of step): read page by page, then
    closed with CONFIRM, as a table learning the game does; False when none is open."""
    screen = app.screen
    if not getattr(screen, "help_open", False):
        return False
    teacher = getattr(screen, "teacher", None)
    if teacher is not None and teacher.teaching:
        tally.taught += 1
    for _k in range(10):
        press(app, "confirm")
        if not getattr(screen, "help_open", False):
            return True
    tally.problems.append(f"the help would not close on {type(screen).__name__}")
    return True


def press(app: App, role: str) -> None:
    """A button of the panel (or its key) pressed: ``confirm``, ``draw``, ``roll``..."""
    key = next(k for k, r in KEYMAP.items() if r == role)
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    app.render()


def tap(app: App, key: str) -> None:
    """A finger on the button ``key`` of the screen on show; RuntimeError if there is none."""
    button = next((b for b in app.screen.buttons if b.key == key), None)
    if button is None:
        raise RuntimeError(f"no button {key!r}: {[b.key for b in app.screen.buttons]}")
    x, y = button.rect.center
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1,
                                        touch=False))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1,
                                        touch=False))
    app.render()


def open_table(tmp: Path, language: str, size: tuple[int, int], virtual: bool, seed: int,
               setup: Setup, companions: dict[int, str]) -> App:
    """A kiosk on a new journal in ``tmp`` with a new game of ``setup`` on its screen."""
    pygame.init()
    journal = Journal.open(tmp / "journal.sqlite3")
    cfg = Config(language=language, sound=False, width=size[0], height=size[1],
                 virtual_deck=virtual, setup_guide=False, teach="first")
    app = App(cfg, size=size, fullscreen=False, journal=journal,
              config_path=tmp / "config.toml", seed=seed)
    listen()
    ui.CHECK_GLYPHS = True  # a character the bundled fonts lack is a problem too
    app.session = journal.start(setup, seed=seed, companions=companions, handing_out=True)
    app.open_game()
    app.render(force=True)
    ui.OVERFLOWS.clear()
    return app


def hand_out(app: App, step: HandOut, out: Path, label: str, period: int,
             tally: Tally) -> None:
    """A picture of the hand-out step on show, then CONFIRM (the table handed it out)."""
    app.render(force=True)
    tally.shots += 1
    name = f"{label}-{tally.shots:03d}-r{period}-{step.key or 'step'}.png"
    pygame.image.save(app.surface, str(out / name))
    tally.kinds[step.key] += 1
    press(app, "confirm")


def measure(app: App, label: str, tally: Tally) -> None:
    """The screen on show measured as ``companion screenshots`` measures its scenes (a text
    cut, an amount hidden behind "…", a line break a reader trips on, a touch target, a cap
    height, a contrast); each problem noted once.  What a message covers for a moment is left
    out: the messages come and go."""
    from companion.kiosk.screenshots import _measured

    found = _measured(app, f"{label} {type(app.screen).__name__}", app.size)
    seen = set(tally.problems)
    for problem in found.violations():
        if " is under " in problem:
            continue
        text = problem.split(": ", 1)[1]
        if text not in seen and not any(text in p for p in seen):
            tally.problems.append(problem)
            seen.add(problem)


def close_table(app: App, tally: Tally, out: Path, label: str) -> None:
    """The end screen pictured and its scores checked against the journal replayed, what was
    drawn too wide noted; the kiosk closed."""
    assert app.journal is not None and app.session is not None
    game = get_game(app.session.game.name)
    end = app.screen
    if isinstance(end, EndScreen):
        app.render(force=True)
        pygame.image.save(app.surface, str(out / f"{label}-end.png"))
        final = replay(game, app.journal.record(app.session.id))
        if dict(end.summary.scores) != dict(game.summary(final).scores):
            tally.problems.append("the end screen's scores do not replay")
    tally.problems += [f"missing glyph: {g}" for g in dict.fromkeys(ui.MISSING_GLYPHS)]
    tally.problems += [f"overflow: {o}" for o in dict.fromkeys(ui.OVERFLOWS)]
    app.companion.close()
    app.journal.close()
    pygame.display.quit()


def runs(asked: list[str] | None,
         defaults: dict[str, tuple[str, bool]]) -> list[tuple[str, str]]:
    """The (language, size) of each game to walk: ``LANGUAGE:SIZE`` each (a language alone:
    its default size), or every language of ``defaults`` at its size."""
    if not asked:
        return [(lang, size) for lang, (size, _v) in defaults.items()]
    out = []
    for run in asked:
        lang, _sep, size = run.partition(":")
        if lang not in defaults or (size or defaults[lang][0]) not in SIZES:
            raise SystemExit(f"--run {run!r}: give LANGUAGE:SIZE, a language of "
                             f"{sorted(defaults)} and a size of {sorted(SIZES)}")
        out.append((lang, size or defaults[lang][0]))
    return out


Advance = Callable[[App, Path, str, random.Random, Tally], bool]
"""One thing the table does on the screen on show; False when the walk must stop."""


def walk(game: str, language: str, size: str, out: Path, seed: int, setup: Setup,
         companions: dict[int, str], virtual: bool, advance: Advance,
         steps: int | None = None) -> Tally:
    """One game of ``setup`` (``companions``: the companion's seats and strengths) in
    ``language`` at ``size``, the table's steps by ``advance``, to its end screen (15 minutes
    at most), or its first ``steps`` steps."""
    tally = Tally()
    rng = random.Random(seed)
    label = f"{game}-{language}-{size}"
    with tempfile.TemporaryDirectory() as tmp:
        app = open_table(Path(tmp), language, SIZES[size], virtual, seed, setup, companions)
        deadline = time.monotonic() + 900
        taken = 0
        while not isinstance(app.screen, EndScreen) and (steps is None or taken < steps):
            taken += 1
            if time.monotonic() > deadline:
                tally.problems.append("the game did not end in 15 minutes")
                break
            if not advance(app, out, label, rng, tally):
                break
            measure(app, label, tally)
        close_table(app, tally, out, label)
    return tally


def main(argv: list[str] | None, description: str, out_default: str,
         defaults: dict[str, tuple[str, bool]],
         walk_one: Callable[[str, str, Path, int], Tally]) -> int:
    """A walk tool's command line: ``--out``, ``--seed``, ``--run LANGUAGE:SIZE``; each run's
    tally and problems printed; 1 when any run had a problem."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", default=out_default, help="the folder for the pictures")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--run", action="append", help="LANGUAGE:SIZE (en:800x480)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    failed = False
    for language, size in runs(args.run, defaults):
        started = time.monotonic()
        tally = walk_one(language, size, out, args.seed)
        print(tally.line(f"{language} {size}", time.monotonic() - started))
        for p in tally.problems:
            print(f"  problem: {p}")
        failed = failed or bool(tally.problems)
    print(f"pictures in {out}")
    return 1 if failed else 0


__all__ = ["SIZES", "Advance", "Tally", "close_table", "hand_out", "main", "measure",
           "open_table", "press", "read_help", "runs", "take_back", "tap", "walk"]
