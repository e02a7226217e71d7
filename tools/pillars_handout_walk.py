"""Play whole games of The Pillars of the Earth with two companion seats, as a new table
would, through the kiosk's input layer, and keep a picture of every hand-out step.

Each game has three players, two of them the companion's seats (strength ``easy``), the third
a person deciding at random with the screen's buttons: the table does what each of the
companion's instructions says and confirms with CONFIRM, draws with DRAW, rolls with ROLL,
taps in the cards it reveals (or lets the virtual deck deal them), and confirms each
hand-out step after a picture of it.  English at 800x480 (virtual deck), Chinese and
Japanese at 720x1280 (Chinese with the physical deck: the cards tapped in from the picker).
Every event goes in as an SDL event through ``App.handle_event``, on SDL's dummy video
driver.

    .venv/bin/python tools/pillars_handout_walk.py [--out /tmp/pillars-walk] [--seed 3]
        [--run en:800x480 --run zh:720x1280 ...]

(``--run LANGUAGE:SIZE``, as often as wanted; the default is the three above.)

Prints, per language, the hand-out steps seen by kind, the companion's instructions and
their confirmations, and checks that the journal replays to the end screen's scores; exits 1
on a failure (a stuck table, an overflow drawn, a score that does not replay).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import walk_common  # noqa: E402
from walk_common import Tally, hand_out, press, read_help, take_back, tap  # noqa: E402

from companion.engine import CHANCE, get_game  # noqa: E402
from companion.engine.simulate import sample  # noqa: E402
from companion.kiosk.app import App  # noqa: E402
from companion.pillars.kiosk import PillarsScreen  # noqa: E402
from companion.pillars.state import PillarsState  # noqa: E402

RUNS = {"en": ("800x480", True), "zh": ("720x1280", False), "ja": ("720x1280", True)}
"""Each language's default size, and whether the virtual deck deals (Chinese taps the cards
in from the picker, as a table with the physical deck does)."""


def person(app: App, state: PillarsState, rng: random.Random) -> None:
    """The person's decision, at random, with the screen's own buttons."""
    game = get_game("pillars")
    keys = [b.key for b in app.screen.buttons if b.enabled]
    legal = game.legal_actions(state)
    step = state.step
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


def chance(app: App, screen: PillarsScreen, state: PillarsState, rng: random.Random) -> None:
    """The table draws, rolls, or taps in the card it turned over."""
    game = get_game("pillars")
    if state.step == "draw":
        press(app, "draw")
    elif state.step == "roll":
        press(app, "roll")
    else:
        if state.step == "peek" and "private" in [b.key for b in screen.buttons]:
            tap(app, "private")
        tap(app, str(sample(game.chance_outcomes(state), rng)))


def advance(app: App, out: Path, label: str, rng: random.Random, tally: Tally) -> bool:
    """One thing the table does on the screen on show (a hand-out step pictured and
    confirmed, a result or preview confirmed, a draw, the companion's instruction carried out,
    the person's decision); False when the walk must stop."""
    game = get_game("pillars")
    screen = app.screen
    assert isinstance(screen, PillarsScreen), type(screen)
    assert app.session is not None
    app.tick(1 / 30)
    app.render()
    state = app.session.state
    if screen.anim is not None:
        for _k in range(45):
            app.tick(1 / 30)
    elif read_help(app, tally):
        pass
    elif (step := screen.handouts.current) is not None:
        hand_out(app, step, out, label, state.round, tally)
    elif screen.result is not None or screen.preview is not None:
        press(app, "confirm")
    elif game.current_player(state) == CHANCE:
        chance(app, screen, state, rng)
    elif screen.visit_ready():
        if "companion more" in {b.key for b in screen.buttons}:
            press(app, "confirm")  # the instruction's next page: read on
            return True
        tally.instructions += 1
        before = len(app.session.playthrough.actions)
        press(app, "confirm")
        tally.confirmations += 1
        if len(app.session.playthrough.actions) == before:
            tally.problems.append(f"CONFIRM took nothing at {state.step}")
        else:
            take_back(app, rng, tally)
    elif game.current_player(state) not in app.session.companions:
        person(app, state, rng)
    else:
        decision = app.companion.decision
        if decision is not None and decision.error is not None:
            tally.problems.append(f"the companion failed: {decision.error}")
            return False
        time.sleep(0.005)  # the companion thinks
    return True


def walk(language: str, size: str, out: Path, seed: int, steps: int | None = None) -> Tally:
    """One game of three players, two of them the companion's, in ``language`` at ``size``."""
    setup = get_game("pillars").setup(3)
    return walk_common.walk("pillars", language, size, out, seed, setup, {0: "easy", 2: "easy"},
                            RUNS[language][1], advance, steps)


if __name__ == "__main__":
    sys.exit(walk_common.main(None, (__doc__ or "").splitlines()[0], "/tmp/pillars-walk",
                              RUNS, walk))
