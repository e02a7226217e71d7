"""Play whole games of The Pillars of the Earth with two companion seats, as a new table
would, through the kiosk's input layer, and keep a picture of every hand-out step.

Each game has three players, two of them the companion's seats (strength ``easy``), the third
a person deciding at random with the screen's buttons: the table does what each of the
companion's instructions says and confirms with CONFIRM, draws with DRAW, rolls with ROLL, taps in the
cards it reveals (or lets the virtual deck deal them), and confirms each hand-out step after a
picture of it.  English at 800x480 (virtual deck), Chinese and Japanese at 720x1280 (Chinese
with the physical deck: the cards tapped in from the picker).  Every event goes in as an SDL
event through ``App.handle_event``, on SDL's dummy video driver.

    .venv/bin/python tools/pillars_handout_walk.py [--out /tmp/pillars-walk] [--seed 3]
        [--language en --language zh ...]

Prints, per language, the hand-out steps seen by kind, the companion's instructions and
their confirmations, and checks that the journal replays to the end screen's scores; exits 1
on a failure (a stuck table, an overflow drawn, a score that does not replay).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from companion.engine import CHANCE, get_game, replay  # noqa: E402
from companion.engine.simulate import sample  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.kiosk import ui  # noqa: E402
from companion.kiosk.app import App  # noqa: E402
from companion.kiosk.config import Config  # noqa: E402
from companion.kiosk.inputs import KEYMAP, listen  # noqa: E402
from companion.kiosk.screens.end import EndScreen  # noqa: E402
from companion.pillars.kiosk import PillarsScreen  # noqa: E402

RUNS = {"en": ((800, 480), True), "zh": ((720, 1280), False), "ja": ((720, 1280), True)}


def press(app: App, role: str) -> None:
    key = next(k for k, r in KEYMAP.items() if r == role)
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    app.render()


def tap(app: App, key: str) -> None:
    button = next((b for b in app.screen.buttons if b.key == key), None)
    if button is None:
        raise RuntimeError(f"no button {key!r}: {[b.key for b in app.screen.buttons]}")
    x, y = button.rect.center
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1,
                                        touch=False))
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1,
                                        touch=False))
    app.render()


def person(app: App, state: object, rng: random.Random) -> None:
    """The person's decision, at random, with the screen's own buttons."""
    game = get_game("pillars")
    keys = [b.key for b in app.screen.buttons if b.enabled]
    legal = game.legal_actions(state)
    step = getattr(state, "step", "")
    if step == "return":
        action = legal[0]
        for name, n in zip(action.args[::2], action.args[1::2], strict=True):
            for _k in range(int(n)):
                tap(app, f"more {name}")
        tap(app, "confirm")
        return
    if step == "cathedral":
        tap(app, "confirm")  # the best conversion, filled in
        return
    shown = [a for a in legal if str(a) in keys and a.verb != "redraw"]
    if shown:
        tap(app, str(rng.choice(shown)))
    elif "pass" in keys:
        tap(app, "pass")
    else:
        raise RuntimeError(f"no way to decide at {step}: {keys}")


def walk(language: str, out: Path, seed: int) -> tuple[Counter[str], int, int, list[str]]:
    """One game in ``language``; (hand-out steps by kind, instructions, confirmations,
    problems)."""
    size, virtual = RUNS[language]
    problems: list[str] = []
    kinds: Counter[str] = Counter()
    instructions = confirmations = 0
    game = get_game("pillars")
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        pygame.init()
        journal = Journal.open(Path(tmp) / "journal.sqlite3")
        cfg = Config(language=language, sound=False, width=size[0], height=size[1],
                     virtual_deck=virtual)
        app = App(cfg, size=size, fullscreen=False, journal=journal,
                  config_path=Path(tmp) / "config.toml", seed=seed)
        listen()
        app.session = journal.start(game.setup(3), seed=seed,
                                     companions={0: "easy", 2: "easy"})
        game_id = app.session.id
        app.open_game()
        app.render(force=True)
        ui.OVERFLOWS.clear()
        shot = 0
        deadline = time.monotonic() + 900
        while not isinstance(app.screen, EndScreen):
            if time.monotonic() > deadline:
                problems.append("the game did not end in 15 minutes")
                break
            screen = app.screen
            assert isinstance(screen, PillarsScreen), type(screen)
            app.tick(1 / 30)
            app.render()
            state = app.session.state
            if screen.anim is not None:
                for _k in range(45):
                    app.tick(1 / 30)
                continue
            step = screen.handouts.current
            if step is not None:
                app.render(force=True)
                shot += 1
                name = f"{language}-{shot:03d}-r{state.round}-{step.key or 'step'}.png"
                pygame.image.save(app.surface, str(out / name))
                kinds[step.key] += 1
                press(app, "confirm")
                continue
            if screen.result is not None or screen.preview is not None:
                press(app, "confirm")
                continue
            if game.current_player(state) == CHANCE:
                if state.step == "draw":
                    press(app, "draw")
                elif state.step == "roll":
                    press(app, "roll")
                else:
                    if state.step == "peek" and "private" in [b.key for b in screen.buttons]:
                        tap(app, "private")
                    tap(app, str(sample(game.chance_outcomes(state), rng)))
                continue
            if screen.visit_ready():
                instructions += 1
                before = len(app.session.playthrough.actions)
                press(app, "confirm")
                confirmations += 1
                if len(app.session.playthrough.actions) == before:
                    problems.append(f"CONFIRM took nothing at {state.step}")
                continue
            if game.current_player(state) not in app.session.companions:
                person(app, state, rng)
                continue
            decision = app.companion.decision
            if decision is not None and decision.error is not None:
                problems.append(f"the companion failed: {decision.error}")
                break
            time.sleep(0.005)  # the companion thinks
        end = app.screen
        if isinstance(end, EndScreen):
            record = journal.record(game_id)
            final = replay(game, record)
            if end.summary["scores"] != game.scores(final):
                problems.append("the end screen's scores do not replay")
        problems += [f"overflow: {o}" for o in ui.OVERFLOWS]
        app.companion.close()
        journal.close()
        pygame.display.quit()
    return kinds, instructions, confirmations, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/pillars-walk", help="the folder for the pictures")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--language", action="append", choices=list(RUNS))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    failed = False
    for language in args.language or list(RUNS):
        started = time.monotonic()
        kinds, instructions, confirmations, problems = walk(language, out, args.seed)
        size = "x".join(map(str, RUNS[language][0]))
        print(f"{language} {size}: {sum(kinds.values())} hand-out steps "
              f"({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}); "
              f"{instructions} companion instructions, {confirmations} confirmations; "
              f"{time.monotonic() - started:.0f} s")
        for p in problems:
            print(f"  problem: {p}")
        failed = failed or bool(problems)
    print(f"pictures in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
