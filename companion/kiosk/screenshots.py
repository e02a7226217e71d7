"""``companion screenshots OUTDIR``: every screen at the official sizes in every language.

The kiosk runs off-screen (SDL's dummy video driver) on a journal in a temporary folder.  Game
screens are reached by replaying seeded random games up to the first state of each step, so
the pictures show real positions.  Text that does not fit its box is collected in
``ui.OVERFLOWS`` and reported.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

SIZES = ((800, 480), (720, 1280))


def find_prefixes(
    game_name: str, steps: list[str], seeds: int = 400, players: int = 4
) -> dict[str, tuple[Any, list[str]]]:
    """For each step, the set-up and actions of a seeded random game up to its first state."""
    from companion.engine import CHANCE, TERMINAL, get_game
    from companion.engine.simulate import sample

    game = get_game(game_name)
    found: dict[str, tuple[Any, list[str]]] = {}
    for seed in range(seeds):
        rng = random.Random(seed)
        setup = game.setup(players, start_player=seed % players)
        state = game.initial_state(setup)
        actions: list[str] = []
        while True:
            key = step_key(game_name, state)
            if key in steps and key not in found:
                found[key] = (setup, list(actions))
            who = game.current_player(state)
            if who == TERMINAL:
                if "over" in steps and "over" not in found:
                    found["over"] = (setup, list(actions))
                break
            if who == CHANCE:
                action = sample(game.chance_outcomes(state), rng)
            else:
                action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action)
            actions.append(str(action))
        if all(s in found for s in steps):
            break
    return found


def step_key(game_name: str, state: Any) -> str:
    if game_name == "pillars":
        return str(state.step)
    from companion.kiosk.screens.builders import screen_key

    return screen_key(state)


def _app(size: tuple[int, int], journal: Any, language: str) -> Any:
    import pygame

    from companion.kiosk.app import App
    from companion.kiosk.config import Config

    pygame.display.quit()
    pygame.display.init()
    cfg = Config(language=language, sound=False, width=size[0], height=size[1])
    return App(
        cfg,
        size=size,
        fullscreen=False,
        journal=journal,
        config_path=Path(tempfile.mkdtemp()) / "config.toml",
        seed=1,
    )


def scenes(journal: Any) -> Iterator[tuple[str, Callable[[Any], None]]]:
    """(name, set-up function) for every screen; the function puts the app in that screen."""
    from companion.kiosk.screens.history import GamesScreen
    from companion.kiosk.screens.home import ErrorScreen, HomeScreen
    from companion.kiosk.screens.settings import SettingsScreen
    from companion.kiosk.screens.setup import NameScreen, SetupScreen

    yield "home", lambda app: app.show(HomeScreen(app))
    yield "setup", lambda app: app.show(SetupScreen(app))

    def builders_setup(app: Any) -> None:
        app.show(SetupScreen(app, game="builders"))

    yield "setup-builders", builders_setup

    def name(app: Any) -> None:
        s = SetupScreen(app)
        app.show(NameScreen(app, s, 1))
        app.screen.text = "Aliena"

    yield "name", name
    yield "settings", lambda app: app.show(SettingsScreen(app))
    yield "history", lambda app: app.show(GamesScreen(app, unfinished=False))
    yield (
        "error",
        lambda app: app.show(
            ErrorScreen(
                app,
                "/home/pi/.config/companion/config.toml: kiosk.width must be int, not str ('wide')",
            )
        ),
    )
    steps = [s for s, who, _h in _pillars_steps() if s != "over"] + ["over"]
    prefixes = find_prefixes("pillars", steps)
    for step in steps:
        if step not in prefixes:
            continue
        setup, actions = prefixes[step]

        enter = partial(enter_position, journal=journal, setup=setup, actions=actions)

        yield f"pillars-{step}", enter
        if step == "cathedral":

            def help_open(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.screen.help_open = True

            yield "pillars-help", help_open
        if step == "roll":

            def rolled(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.screen.roll_die()
                app.tick(5.0)

            yield "pillars-tax-result", rolled
        if step == "resource":

            def preview(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.render(force=True)
                from companion.kiosk.ui import Button

                first = next(
                    b
                    for b in app.screen.buttons
                    if isinstance(b, Button) and b.key.startswith("resource ")
                )
                first.on_tap()

            yield "pillars-preview", preview
        if step == "draw":

            def drawing(app: Any, enter: Any = enter) -> None:
                enter(app)
                app.screen.draw_builder()
                app.tick(0.2)

            yield "pillars-drawing", drawing
    yield "home-resume", lambda app: app.show(HomeScreen(app))
    yield from _builders_scenes(journal)


def enter_position(app: Any, journal: Any, setup: Any, actions: list[str],
                   virtual_deck: bool | None = None) -> None:
    """A new game in the journal played up to ``actions``, on its screen (or its end)."""
    from companion.kiosk.screens.end import EndScreen
    from companion.kiosk.screens.game import open_game

    app.session = journal.start(setup, seed=0)
    for a in actions:
        app.session.play(a)
    if virtual_deck is not None:
        app.config = app.config.with_(virtual_deck=virtual_deck)
    if app.session.game.is_over(app.session.state):
        app.show(EndScreen(app, app.session.id))
    else:
        open_game(app)


def _pillars_steps() -> tuple[tuple[str, str, str], ...]:
    from companion.pillars.rules import STEPS

    return STEPS


def _builders_scenes(journal: Any) -> Iterator[tuple[str, Callable[[Any], None]]]:
    from companion.kiosk.screens import builders as screen_mod

    yield from screen_mod.scenes(journal)


def take(
    outdir: Path,
    sizes: tuple[tuple[int, int], ...] = SIZES,
    languages: tuple[str, ...] = ("en", "zh", "ja"),
    only: Callable[[str], bool] | None = None,
) -> list[Path]:
    """Write a PNG of every screen for each size and language; the files written."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from companion.journal import Journal

    outdir.mkdir(parents=True, exist_ok=True)
    pygame.init()
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal.open(Path(tmp) / "journal.sqlite3")
        _history(journal)
        scene_list = list(scenes(journal))
        for size in sizes:
            for lang in languages:
                app = _app(size, journal, lang)
                for name, enter in scene_list:
                    if only is not None and not only(name):
                        continue
                    enter(app)
                    app.render(force=True)
                    path = outdir / f"{name}-{size[0]}x{size[1]}-{lang}.png"
                    pygame.image.save(app.surface, str(path))
                    written.append(path)
        journal.close()
    return written


def _history(journal: Any) -> None:
    """Two finished games in the journal, for the history and end screens."""
    from companion.engine import get_game
    from companion.engine.simulate import random_game

    for name, seed in (("pillars", 3), ("builders", 4)):
        game = get_game(name)
        setup = game.setup(["Ann", "Bob", "Chen", "Dai"][: 3 if name == "pillars" else 2])
        _state, actions = random_game(game, setup, random.Random(seed))
        jg = journal.start(setup, seed=seed)
        for a in actions:
            jg.play(a)
