"""``companion screenshots OUTDIR``: every screen at the official sizes in every language.

The kiosk runs off-screen (SDL's dummy video driver) on a journal in a temporary folder.  Game
screens are reached by replaying seeded random games up to the first state of each step, so
the pictures show real positions.  Text that does not fit its box is collected in
``ui.OVERFLOWS`` and reported.  Every screen is also measured on the display
(``companion.kiosk.measure``): the smallest touch target, the smallest cap height and the lowest
text contrast of each size and language, against their limits.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Callable, Iterator
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING

from companion.kiosk.measure import ScreenMeasures, Summary

if TYPE_CHECKING:
    import pygame

    from companion.engine import Setup
    from companion.journal import Journal
    from companion.kiosk.app import App
    from companion.kiosk.context import Stage

SIZES = ((800, 480), (720, 1280))


def find_prefixes(
    game_name: str, steps: list[str], seeds: int = 400, players: int = 4
) -> dict[str, tuple[Setup, list[str]]]:
    """For each step, the set-up and actions of a seeded random game up to its first state
    (computed once per process for the same arguments)."""
    found = _find_prefixes(game_name, tuple(steps), seeds, players)
    return {k: (setup, list(actions)) for k, (setup, actions) in found.items()}


@cache
def _find_prefixes(
    game_name: str, steps: tuple[str, ...], seeds: int, players: int
) -> dict[str, tuple[Setup, tuple[str, ...]]]:
    from companion.engine import CHANCE, TERMINAL, get_game
    from companion.engine.simulate import sample

    game = get_game(game_name)
    found: dict[str, tuple[Setup, tuple[str, ...]]] = {}
    for seed in range(seeds):
        rng = random.Random(seed)
        setup = game.setup(players, start_player=seed % players)
        state = game.initial_state(setup)
        actions: list[str] = []
        while True:
            key = step_key(game_name, state)
            if key in steps and key not in found:
                found[key] = (setup, tuple(actions))
            who = game.current_player(state)
            if who == TERMINAL:
                if "over" in steps and "over" not in found:
                    found["over"] = (setup, tuple(actions))
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


def step_key(game_name: str, state: object) -> str:
    """The kind of screen ``state`` shows, by the game's scenes module (``key``); the
    current player for a game without one."""
    from companion.engine.registry import spec

    found = spec(game_name)
    load = found.scenes
    if load is None:
        return "over" if found.game().is_over(state) else "play"
    return str(load().key(state))


def _app(size: tuple[int, int], journal: Journal, language: str) -> App:
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
        config_path=journal.path.parent / "config.toml",  # the run's scratch folder
        seed=1,
    )


Scene = tuple[str, Callable[["Stage"], None]]
"""A screen of ``companion screenshots``: its name and the function that puts the app in it."""


def scenes(journal: Journal) -> Iterator[Scene]:
    """(name, set-up function) for every screen; the function puts the app in that screen."""
    from companion.engine.registry import specs

    yield from _home_and_setup()
    yield from _faults()
    first = specs()[0].name if specs() else None
    for spec in specs():
        if spec.scenes is not None and spec.name == first:
            yield from spec.scenes().scenes(journal)
    yield "home-resume", _home
    for spec in specs():
        if spec.scenes is not None and spec.name != first:
            yield from spec.scenes().scenes(journal)
    from .seats import screenshot_scenes

    yield from screenshot_scenes(journal)
    # Last: a message stays on show until it times out, over the scenes after it.
    yield "toast-good", partial(_toast, good=True)
    yield "toast-bad", partial(_toast, good=False)


def _home(app: Stage) -> None:
    from companion.kiosk.screens.home import HomeScreen

    app.show(HomeScreen(app))


def _home_and_setup() -> Iterator[Scene]:
    """Home, the set-up of every game (with every strength of the companion, with an option
    explained), the name screen, the settings and the history."""
    from companion.engine.registry import specs as game_specs
    from companion.kiosk.screens.history import GamesScreen
    from companion.kiosk.screens.settings import SettingsScreen

    yield "home", _home
    yield "setup", _setup_of
    for other in game_specs()[1:]:
        yield f"setup-{other.name}", partial(_setup_of, game=other.name)
    for spec in game_specs():
        # every strength on a seat: the longest words of the seats' rows
        yield f"setup-companions-{spec.name}", partial(_companions, game=spec.name)
    yield "setup-explained", _explained
    yield "name", _name
    yield "settings", lambda app: app.show(SettingsScreen(app))
    yield "history", lambda app: app.show(GamesScreen(app, unfinished=False))


def _companions(app: Stage, game: str) -> None:
    from companion.kiosk.screens.setup import SetupScreen

    s = SetupScreen(app, game=game)
    s.strengths = ["", "normal", "strong", "easy"]
    app.show(s)


def _explained(app: Stage) -> None:
    from companion.engine.registry import specs as game_specs
    from companion.kiosk.i18n import _
    from companion.kiosk.screens.setup import SetupScreen, who_help

    s = SetupScreen(app, game=game_specs()[-1].name)
    app.show(s)
    s.explain(_("Person or companion"), who_help())


def _name(app: Stage) -> None:
    from companion.kiosk.screens.setup import NameScreen, SetupScreen

    app.show(NameScreen(app, SetupScreen(app), 1))
    app.screen.text = "Aliena"  # type: ignore[attr-defined]


def _faults() -> Iterator[Scene]:
    """What the kiosk shows when something fails: a config it cannot read, a journal game it
    cannot resume, an unexpected fault, and the safe mode (after repeated failures, with a
    journal that could not be opened, or with its games)."""
    from companion.journal import JournalDataError
    from companion.kiosk.guard import FaultScreen
    from companion.kiosk.screens.home import ErrorScreen

    config_error = ("/home/pi/.config/companion/config.toml: kiosk.width must be int, not "
                    "str ('wide')")
    yield "error", lambda app: app.show(ErrorScreen(app, config_error))
    resume_error = JournalDataError(
        "game 12 cannot be resumed: its action 31 ('take nonsense') is refused by the rules: "
        "no such card")
    yield "fault-journal", lambda app: app.show(FaultScreen(app, resume_error))
    yield (
        "fault-unexpected",
        lambda app: app.show(FaultScreen(app, RuntimeError("list index out of range"))),
    )
    yield "safe-mode-journal", _safe_mode_unopened
    yield "safe-mode-games", _safe_mode_games


SAFE_MODE_ENDINGS = ((1, "sqlite3.OperationalError: disk I/O error"), (139, ""),
                     (1, "companion: the journal /home/pi/.local/share/companion/"
                         "journal.sqlite3 cannot be opened: disk I/O error"))
"""How the kiosk ended three times in a row, for the safe mode's scenes."""


def _safe_mode_unopened(app: Stage) -> None:
    """The safe mode after three failures, the journal unreadable (no game to list)."""
    from companion.kiosk.safemode import Ending, SafeModeScreen

    problem = ("cannot read the journal /home/pi/.local/share/companion/journal.sqlite3: "
               "disk I/O error")
    app.show(SafeModeScreen(app, [Ending(*e) for e in SAFE_MODE_ENDINGS], [], [problem]))


def _safe_mode_games(app: Stage) -> None:
    """The safe mode listing the journal's games (read from the journal, as it does)."""
    from companion.kiosk.safemode import Ending, SafeModeScreen

    games = app.journal.page(None, 0, 5).games if app.journal else []  # as main's safe mode
    app.show(SafeModeScreen(app, [Ending(*e) for e in SAFE_MODE_ENDINGS[:2]], games, []))


def _toast(app: Stage, good: bool) -> None:
    """The home screen with a message: a good one (an undo) or a refusal."""
    from companion.kiosk.i18n import _
    from companion.kiosk.screens.home import HomeScreen

    app.show(HomeScreen(app))
    app.toast(_("Undone: {action}", action="take 2"), good=True, now=True)
    if not good:
        app.refuse(_("Nothing to undo since the last draw, roll or reveal"))


def _setup_of(app: Stage, game: str | None = None) -> None:
    from companion.kiosk.screens.setup import SetupScreen

    app.show(SetupScreen(app, game=game))


def enter_position(app: Stage, journal: Journal, setup: Setup, actions: list[str],
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


def seeded_move(game_name: str, players: int, seed: int,
                pick: Callable[[object, int, list[object]], object | None]
                ) -> tuple[Setup, list[str], int, str]:
    """The first decision of a seeded random game that ``pick(state, seat, legal)`` names
    (None: a random one is played): the set-up, the actions before it, its seat and it."""
    from companion.engine import CHANCE, get_game
    from companion.engine.simulate import sample

    game = get_game(game_name)
    rng = random.Random(seed)
    setup = game.setup(players)
    state = game.initial_state(setup)
    done: list[str] = []
    while not game.is_over(state):
        who = game.current_player(state)
        if who == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            legal = list(game.legal_actions(state))
            found = pick(state, who, legal)
            if found is not None:
                return setup, done, who, str(found)
            action = rng.choice(legal)
        state = game.apply(state, action)
        done.append(str(action))
    raise AssertionError(f"no seeded {game_name} game makes the move asked for")


def enter_start(app: Stage, journal: Journal, setup: Setup) -> None:
    """A new game as the set-up screen begins it: its first hand-out step (each seat's
    starting pieces) on show."""
    from companion.kiosk.screens.game import open_game

    app.session = journal.start(setup, seed=0, handing_out=True)
    app.config = app.config.with_(virtual_deck=False)
    open_game(app)


def enter_guide(app: Stage, journal: Journal, setup: Setup, page: int) -> None:
    """A new game's set-up guide at step ``page`` (from 0)."""
    from companion.kiosk.screens.guide import GuideScreen

    enter_start(app, journal, setup)
    screen = app.go("guide", previous=app.screen)
    assert isinstance(screen, GuideScreen)
    screen.page = page


def guide_scenes(game: str, journal: Journal, setup: Setup
                 ) -> Iterator[tuple[str, Callable[[Stage], None]]]:
    """``setup-guide-<game>-<k>``: every step of the game's set-up guide."""
    from companion.kiosk.guide import guide_for

    guide = guide_for(game)
    if guide is None:
        return
    for k in range(len(guide(setup, False))):
        yield f"setup-guide-{game}-{k + 1}", partial(enter_guide, journal=journal, setup=setup,
                                                     page=k)


def enter_teaching(app: Stage, journal: Journal, setup: Setup, actions: list[str]) -> None:
    """Teach mode on a step seen for the first time: its help opened by itself, "New: ..."."""
    from companion.kiosk.screens.base import GameScreen
    from companion.kiosk.screens.game import open_game

    app.session = session = journal.start(setup, seed=0)
    for a in actions:
        session.play(a)
    session.all_handed_out()
    app.config = app.config.with_(virtual_deck=False, teach="on")
    open_game(app)
    screen = app.screen
    assert isinstance(screen, GameScreen), type(screen)
    screen.handouts.clear()
    screen.teacher.update()
    app.config = app.config.with_(teach="first")


def first_game_scenes(game: str, journal: Journal, setup: Setup, actions: list[str],
                      undone: tuple[Setup, list[str], int, str]
                      ) -> Iterator[tuple[str, Callable[[Stage], None]]]:
    """A first game from the box: each seat's starting pieces handed out
    (``<game>-handout-start``), every step of the set-up guide, a teaching card at
    ``actions`` (``<game>-teach``) and the give-back of a companion's move undone
    (``<game>-undo-handout``: ``undone`` is its set-up, actions, seat and move)."""
    yield f"{game}-handout-start", partial(enter_start, journal=journal, setup=setup)
    yield from guide_scenes(game, journal, setup)
    yield f"{game}-teach", partial(enter_teaching, journal=journal, setup=setup,
                                   actions=actions)
    before, done, seat, move = undone
    yield f"{game}-undo-handout", partial(enter_undone, journal=journal, setup=before,
                                          actions=done, seat=seat, action=move)


def enter_undone(app: Stage, journal: Journal, setup: Setup, actions: list[str], seat: int,
                 action: str) -> None:
    """A companion's move carried out by the table (seat ``seat``'s ``action`` after
    ``actions``), then undone: what the table puts back on show."""
    from companion.kiosk.screens.base import GameScreen
    from companion.kiosk.screens.game import open_game

    app.session = session = journal.start(setup, seed=0, companions={seat: "easy"},
                                          handing_out=True)
    for a in actions:
        session.play(a)
    session.all_handed_out()
    app.config = app.config.with_(virtual_deck=False)
    open_game(app)
    screen = app.screen
    assert isinstance(screen, GameScreen), type(screen)
    screen.handouts.clear()
    screen.commit_companion(session.game.parse_action(action))
    while screen.handouts.current is not None:
        screen.confirm_handout()
    screen.undo()
    app.tick(5.0)  # the toast of the undo gone: the step alone


def take(
    outdir: Path,
    sizes: tuple[tuple[int, int], ...] = SIZES,
    languages: tuple[str, ...] = ("en", "zh", "ja"),
    only: Callable[[str], bool] | None = None,
    save: bool = True,
    summaries: list[Summary] | None = None,
    scratch: Path | None = None,
) -> list[Path]:
    """Write a PNG of every screen for each size and language; the files written.  With
    ``save`` False every screen is drawn (its overflow and glyph checks run) but no file is
    encoded: the paths it would have written are returned.  With ``summaries`` a list, every
    screen is measured too, and a ``Summary`` per size and language is appended to it.  The
    scenes' journal and settings go to a temporary folder, made in ``scratch`` if given
    (the system's place for them otherwise), removed at the end."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from companion.journal import Journal

    outdir.mkdir(parents=True, exist_ok=True)
    pygame.init()
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="companion-screenshots-", dir=scratch) as tmp:
        journal = Journal.open(Path(tmp) / "journal.sqlite3")
        _history(journal)
        scene_list = list(scenes(journal))
        for size in sizes:
            for lang in languages:
                app = _app(size, journal, lang)
                summary = Summary(size, lang)
                for name, enter in scene_list:
                    if only is not None and not only(name):
                        continue
                    enter(app)
                    if summaries is None:
                        app.render(force=True)
                    else:
                        summary.add(_measured(app, name, size))
                    path = outdir / f"{name}-{size[0]}x{size[1]}-{lang}.png"
                    if save:
                        pygame.image.save(app.surface, str(path))
                    written.append(path)
                if summaries is not None:
                    summaries.append(summary)
        journal.close()
    return written


def _measured(app: App, name: str, size: tuple[int, int]) -> ScreenMeasures:
    """The screen drawn and measured: its texts, touch targets, what is drawn over it, and
    every line break of its texts (kept in ``linebreak.RECORD`` too when a caller records)."""
    from companion.kiosk import linebreak, ui
    from companion.kiosk.measure import measure_screen

    drawn, ui.DRAWN = ui.DRAWN, []
    recorded, linebreak.RECORD = linebreak.RECORD, []
    try:
        app.render(force=True)
        texts, overlays = _under_overlays(app, ui.DRAWN or [])
        wrapped = list(linebreak.RECORD)
    finally:
        ui.DRAWN = drawn
        linebreak.RECORD = recorded
    if recorded is not None:
        recorded.extend(wrapped)
    return measure_screen(name, size, texts, app.screen.buttons, overlays, wrapped)


def _under_overlays(app: App, drawn: list[str]
                    ) -> tuple[list[str], list[tuple[str, pygame.Rect]]]:
    """The texts of a drawing (``ui.DRAWN``) that belong to the screen, and what was drawn over
    it (the message on show, as ``(what, rect)``); the message's own text is left out."""
    message = app.toast_text
    if not message:
        return drawn, []
    at = next((k for k, d in enumerate(drawn) if str(d) == message), len(drawn))
    return drawn[:at], [("the message", app._toast_rect())]


def report(summaries: list[Summary]) -> tuple[list[str], bool]:
    """The lines ``companion screenshots`` prints for the measurements, and whether every
    reading is within its limit."""
    lines: list[str] = []
    ok = True
    for summary in summaries:
        lines += summary.lines()
        problems = summary.violations()
        ok = ok and not problems
        lines += [f"  under the limit: {p}" for p in problems[:12]]
        if len(problems) > 12:
            lines.append(f"  … and {len(problems) - 12} more")
    return lines, ok


def _history(journal: Journal) -> None:
    """Two finished games in the journal, for the history and end screens."""
    from companion.engine.registry import specs
    from companion.engine.simulate import random_game

    for k, spec in enumerate(specs()):
        game = spec.game()
        seed = 3 + k
        n = max(spec.min_players, min(spec.max_players, 3 - k % 2))
        setup = game.setup(["Ann", "Bob", "Chen", "Dai"][:n])
        _state, actions = random_game(game, setup, random.Random(seed))
        jg = journal.start(setup, seed=seed)
        for a in actions:
            jg.play(a)
