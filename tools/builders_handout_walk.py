"""Play whole games of The Builders: Middle Ages with a companion seat, as a new table would,
through the kiosk's input layer, and keep a picture of every hand-out step.

Each game has two players, the second the companion's seat (strength ``easy``), the first a
person deciding at random with the screen's buttons (a card of the rows tapped, or the
screen's own way to take the action: a preview confirmed): the table does what the
companion's whole turn says and confirms with CONFIRM (page by page), taps in the cards it
turns over from the picker (or lets the virtual deck deal them), and confirms each hand-out
step after a picture of it.  Every event goes in as an SDL event through
``App.handle_event``, on SDL's dummy video driver.

    .venv/bin/python tools/builders_handout_walk.py [--out /tmp/builders-walk] [--seed 3]
        [--run en:800x480 --run zh:720x1280 ...]

Prints, per run, the hand-out steps seen by kind, the companion's turns and their
confirmations, and checks that the journal replays to the end screen's scores; exits 1 on a
failure (a stuck table, an overflow drawn, a score that does not replay).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import walk_common  # noqa: E402
from walk_common import Tally, hand_out, press, read_help, take_back, tap  # noqa: E402

from companion.builders.actions import Action  # noqa: E402
from companion.builders.kiosk.screen import BuildersScreen  # noqa: E402
from companion.builders.state import BuildersState  # noqa: E402
from companion.engine import CHANCE, get_game  # noqa: E402
from companion.engine.simulate import sample  # noqa: E402
from companion.kiosk.app import App  # noqa: E402

RUNS = {"en": ("800x480", True), "zh": ("720x1280", False), "ja": ("720x1280", True)}
"""Each language's default size, and whether the virtual deck deals (Chinese taps the cards
in, as a table with the physical deck does)."""

END_TURN_WEIGHT = 0.15
"""How often the person ends the turn when other actions are legal (random play otherwise
spends every AP on coins and the game runs for a hundred rounds)."""


def person(app: App, screen: BuildersScreen, state: BuildersState, rng: random.Random) -> None:
    """The person's decision, at random: a card of the rows or a button with the action's
    name tapped, else the action taken the screen's own way (its preview, if any)."""
    legal: list[Action] = list(get_game("builders").legal_actions(state))
    useful = [a for a in legal if str(a) != "end turn" and not str(a).startswith("coins")]
    if useful and rng.random() > END_TURN_WEIGHT:
        action = rng.choice(useful)
    else:
        action = rng.choice(legal)
    keys = {b.key for b in screen.buttons if b.enabled}
    if str(action) in keys:
        tap(app, str(action))
    else:
        screen.act(action)
        app.render()


def chance(app: App, screen: BuildersScreen, state: BuildersState, rng: random.Random) -> None:
    """The table turns a card over and taps it in from the picker (a page on if it is not
    on this one)."""
    outcome = sample(get_game("builders").chance_outcomes(state), rng)
    for _k in range(12):
        keys = {b.key for b in screen.buttons if b.enabled}
        if str(outcome) in keys:
            tap(app, str(outcome))
            return
        if "more cards" not in keys:
            break
        tap(app, "more cards")
    screen.propose(outcome)
    app.render()


def advance(app: App, out: Path, label: str, rng: random.Random, tally: Tally) -> bool:
    """One thing the table does on the screen on show; False when the walk must stop."""
    game = get_game("builders")
    screen = app.screen
    assert isinstance(screen, BuildersScreen), type(screen)
    assert app.session is not None
    app.tick(1 / 30)
    app.render()
    state = screen.state
    if screen.celebration.now is not None:
        for _k in range(60):
            app.tick(1 / 30)
    elif read_help(app, tally):
        pass
    elif screen.preview is not None:
        press(app, "confirm")
    elif (step := screen.handouts.current) is not None:
        hand_out(app, step, out, label, (state.turn - 1) // len(state.players) + 1, tally)
    elif game.current_player(state) == CHANCE:
        chance(app, screen, state, rng)
    elif screen.companion_turn.due():
        return companion(app, screen, tally, rng)
    else:
        person(app, screen, state, rng)
    return True


def companion(app: App, screen: BuildersScreen, tally: Tally, rng: random.Random) -> bool:
    """The companion's turn: CONFIRM page by page once it is all thought out; False if it
    failed."""
    panel = screen.companion_turn
    plan = panel.plan
    if plan is not None and plan.complete:
        before = len(screen.session.playthrough.actions)
        if panel.view.last:
            tally.instructions += 1
        press(app, "confirm")
        if len(screen.session.playthrough.actions) != before:
            tally.confirmations += 1
            take_back(app, rng, tally)
        return True
    decision = app.companion.decision
    if decision is not None and decision.error is not None:
        tally.problems.append(f"the companion failed: {decision.error}")
        return False
    time.sleep(0.005)  # the companion thinks
    return True


def walk(language: str, size: str, out: Path, seed: int, steps: int | None = None) -> Tally:
    """One game of two players, the second the companion's, in ``language`` at ``size``."""
    setup = get_game("builders").setup(2, start_player=0)
    return walk_common.walk("builders", language, size, out, seed, setup, {1: "easy"},
                            RUNS[language][1], advance, steps)


if __name__ == "__main__":
    sys.exit(walk_common.main(None, (__doc__ or "").splitlines()[0], "/tmp/builders-walk",
                              RUNS, walk))
