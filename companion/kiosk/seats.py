"""The companion at the table: the seats it plays, its decisions thought out off the main loop,
and the hint it gives a person who asks.

A seat is the companion's when the game's journal entry says so (``JournaledGame.companions``:
seat to strength).  When that seat is to decide, :class:`Companion` starts a worker (a process
by default, so the main loop keeps its core on a Pi; a thread where processes are not wanted)
that thaws the state onto the simulation path and asks the bot of that strength for one action.
The table is then told what to do in its own words, moves the pieces and confirms; the action
goes through ``App.play`` and the journal like a person's.  The companion never draws or
reveals: chance nodes stay the table's.

Same seed, same decision: the bot's generator is seeded from the game's id and the decision's
index (the number of actions in force before it), and the bots think for a number of
iterations, not for a time, so an undo followed by the same position gives the same decision
whatever the machine's load.
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, partial
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, runtime_checkable

from companion.bots import STRENGTHS as BOT_STRENGTHS
from companion.engine import CHANCE, Setup, get_game

from .i18n import _

if TYPE_CHECKING:
    from companion.journal import Journal, JournaledGame

    from .context import Kiosk

STRENGTHS: tuple[str, ...] = tuple(BOT_STRENGTHS)
"""The companion's strengths, weakest first (the set-up screen offers them in this order)."""

DEFAULT_STRENGTH = "normal"

HINT_CHOICES = 3
"""How many choices a hint shows."""

CACHE = 64
"""Decisions kept for the positions seen last (undo and back shows them at once)."""


def strength_name(strength: str) -> str:
    """A strength in the table's language."""
    return {"easy": _("Easy"), "normal": _("Normal"), "strong": _("Strong")}.get(
        strength, strength
    )


def decision_seed(game_id: int, index: int) -> str:
    """The seed of the companion's decision at ``index`` (the actions in force before it) of
    journal game ``game_id``: the same position of the same game, the same decision."""
    return f"companion {game_id}/{index}"


def hint_seed(game_id: int, index: int) -> str:
    return f"hint {game_id}/{index}"


# -- the work, in the worker ------------------------------------------------------------------


def decide(game_name: str, state: object, seat: int, strength: str, salt: str) -> str:
    """The companion's decision for ``seat`` in ``state``, in the game's notation (runs in the
    worker).  The bot sees the position as the seat does (it determinizes what is hidden) and
    is seeded from that view and ``salt`` (:func:`decision_seed`)."""
    from companion.bots import decide as bot_decide

    game = get_game(game_name)
    return game.format_action(bot_decide(game, state, seat, strength, salt))


RANK_CANDIDATES = 5
"""How many of the search's best choices the hint weighs again with equal playouts."""

RANK_BATCH = 128
"""Playouts per choice per round of the hint's ranking."""

RANK_PLAYOUTS = 1024
"""At most this many playouts per choice (about 0.1 s per choice on a PC, 0.5 s on a Pi 4)."""

Z = 1.96
"""The 95 % interval's half-width in standard errors."""


def suggest(game_name: str, state: object, seat: int, salt: str, top: int) -> list[Hint]:
    """The companion's ``top`` choices for ``seat`` in ``state``, best first, each with the
    estimated chance of winning after it and the half-width of its 95 % interval (runs in the
    worker; nothing hidden is used).

    The search (``companion.bots.hint``) picks the candidates; its estimates rest on very
    different numbers of playouts (it stops once its best choice cannot be overtaken), so
    the choices after the first are barely measured and often show the same number.  Each
    candidate is therefore weighed again on equal terms: judged playouts from fresh
    determinizations (``companion.bots.bots.judged``, what the bots' own estimates use), in
    rounds of :data:`RANK_BATCH` each, until the intervals of the first ``top`` no longer
    overlap or :data:`RANK_PLAYOUTS` are spent (the rounds on the cores, a few at once:
    ``companion.bots.seat.weigh``).  Choices whose intervals still overlap are
    shown as about equal (:func:`about_equal`).  Deterministic: the generator is seeded from
    the position as the seat sees it and ``salt``."""
    from companion.bots import hint, position_rng
    from companion.bots.seat import weigh
    from companion.engine.sim import simulator

    game = get_game(game_name)
    searched = hint(game, state, seat, top=max(top, RANK_CANDIDATES), salt=salt)
    if not searched:
        return []
    base = simulator(game).thaw(state)
    rng = position_rng(base, seat, f"{salt}\nrank")
    actions = [c.action for c in searched]
    sums = [0.0] * len(actions)
    squares = [0.0] * len(actions)
    n = 0
    # each round's playouts on the cores, a few rounds at once (companion.bots.seat.weigh)
    for rnd in weigh(base, seat, actions, rng, RANK_PLAYOUTS // RANK_BATCH, RANK_BATCH):
        for i, (total, square) in enumerate(rnd):
            sums[i] += total
            squares[i] += square
        n += RANK_BATCH
        ranked = _ranked(actions, sums, squares, n)
        if _told_apart(ranked[:top]):
            break
    return [
        Hint(game.format_action(action), mean, n, margin)
        for action, mean, margin in _ranked(actions, sums, squares, n)[:top]
    ]


def _ranked(
    actions: list[object], sums: list[float], squares: list[float], n: int
) -> list[tuple[object, float, float]]:
    """(action, mean, 95 % half-width) of each choice after ``n`` playouts, best first."""
    out = []
    for action, s, q in zip(actions, sums, squares, strict=True):
        mean = s / n
        var = max(0.0, q / n - mean * mean) * n / max(1, n - 1)
        out.append((action, mean, Z * (var / n) ** 0.5))
    out.sort(key=lambda item: -item[1])
    return out


def _told_apart(ranked: list[tuple[object, float, float]]) -> bool:
    """Whether each choice's interval lies wholly below the one before it."""
    return all(
        a[1] - a[2] > b[1] + b[2] for a, b in zip(ranked, ranked[1:], strict=False)
    )


def about_equal(a: Choice, b: Choice) -> bool:
    """Whether two of a hint's choices (action, chance, playouts, half-width) cannot be told
    apart: their 95 % intervals overlap."""
    return abs(a[1] - b[1]) <= a[3] + b[3]


Choice: TypeAlias = tuple[object, float, int, float]
"""One choice of a hint on the kiosk's side: (the action, its chance to win, the playouts,
the half-width of its interval); the action is the game's, parsed by its rules."""


@dataclass(frozen=True)
class Hint:
    """One choice of a hint, as it crosses from the worker: the action's notation, the
    estimated chance of winning after it (0 to 1), the playouts the estimate rests on and the
    half-width of its 95 % interval."""

    action: str
    win_chance: float
    visits: int
    margin: float = 0.0


def _run(work: Callable[..., Any], args: tuple[Any, ...], conn: Connection) -> None:
    """A worker process's body: do the work, send back ("ok", result) or ("error", why)."""
    try:
        result = work(*args)
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the kiosk
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    else:
        conn.send(("ok", result))
    finally:
        conn.close()


_CONTEXT: Any = None


def _context() -> Any:
    """The multiprocessing context: a fork server that has the rules and the bots imported
    (a fork of the kiosk itself would copy its threads and its display)."""
    global _CONTEXT
    if _CONTEXT is None:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["companion.bots", "companion.kiosk.seats"])
        _CONTEXT = ctx
    return _CONTEXT


_SERVER: threading.Thread | None = None
_SERVER_LOCK = threading.Lock()


def start_fork_server() -> threading.Thread | None:
    """Start the companion's fork server now, in a thread of its own, so that the first
    decision finds the rules and the bots imported (the fork server's start cost the first
    decision after a start 2.3 to 2.7 s more on a Pi 4: ``docs/notes/pi-lab.md``).  The
    kiosk's loop and its first frame do not wait for it.  Once a process: the thread if this
    call started it, else None."""
    global _SERVER
    with _SERVER_LOCK:
        if _SERVER is not None:
            return None
        thread = _SERVER = threading.Thread(target=_run_fork_server, name="fork server",
                                            daemon=True)
    thread.start()
    return thread


def _run_fork_server() -> None:
    from multiprocessing import forkserver

    try:
        _context()  # the preload: the rules and the bots
        forkserver.ensure_running()
    except Exception as exc:  # noqa: BLE001 - the first decision starts it (and says why not)
        print(f"companion: the fork server did not start early ({exc})", file=sys.stderr)


def start_for_journal(journal: Journal, mode: str = "process") -> threading.Thread | None:
    """``start_fork_server`` when the game the kiosk offers to resume (the journal's latest
    unfinished game) has a companion seat; None when not (or the journal cannot say)."""
    if mode != "process":
        return None
    try:
        page = journal.page("playing", 0, 1)
    except Exception:  # noqa: BLE001 - the home screen shows the journal's fault
        return None
    if page.games and page.games[0].companions:
        return start_fork_server()
    return None


class Worker:
    """One piece of work off the main loop, in a process (``mode`` "process") or a thread
    ("thread").  A thread of its own starts the process and waits for its answer, so the main
    loop never waits, not even for the fork server's first start.  ``poll`` never blocks;
    ``cancel`` stops a process at once (a thread is left to finish and its result dropped)."""

    def __init__(self, work: Callable[..., Any], args: tuple[Any, ...], mode: str) -> None:
        if mode not in ("process", "thread"):
            raise ValueError(f"unknown mode {mode!r}: process or thread")
        self.outcome: tuple[str, Any] | None = None
        self._process: Any = None
        self._cancelled = False
        self._lock = threading.Lock()
        body = self._in_process if mode == "process" else self._in_thread
        threading.Thread(target=body, args=(work, args), name="companion", daemon=True).start()

    def _in_thread(self, work: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            outcome: tuple[str, Any] = ("ok", work(*args))
        except Exception as exc:  # noqa: BLE001 - every failure goes back to the kiosk
            outcome = ("error", f"{type(exc).__name__}: {exc}")
        if not self._cancelled:
            self.outcome = outcome

    def _in_process(self, work: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            ctx = _context()
            here, there = ctx.Pipe(duplex=False)
            process = ctx.Process(target=_run, args=(work, args, there), daemon=True)
            process.start()
            there.close()
        except Exception as exc:  # noqa: BLE001 - no process here: think in this thread
            print(f"companion: no worker process ({exc}); thinking in a thread", file=sys.stderr)
            self._in_thread(work, args)
            return
        with self._lock:
            self._process = process
            cancelled = self._cancelled
        if cancelled:
            process.terminate()
        try:
            outcome = here.recv()
        except (EOFError, OSError):
            process.join(timeout=5.0)
            outcome = ("error", f"the companion's process ended (exit status {process.exitcode})")
        finally:
            here.close()
        process.join(timeout=5.0)
        if not self._cancelled:
            self.outcome = outcome

    def poll(self) -> tuple[str, Any] | None:
        """("ok", result) or ("error", why) once the work is done; None while it runs."""
        return self.outcome

    def cancel(self) -> None:
        """Drop the work: its result is never reported; a process is stopped at once."""
        with self._lock:
            self._cancelled = True
            process = self._process
        if process is not None and self.outcome is None:
            process.terminate()


@dataclass
class Thought:
    """The companion's work on one position: a decision for its seat, or a hint for a person.
    ``result`` is the action (a decision) or the choices (a hint) once ready; ``error`` says
    why there is none."""

    kind: str
    game_id: int
    index: int
    state: object
    seat: int
    started: float
    worker: Worker | None = None
    result: object = None
    error: str | None = None

    @property
    def thinking(self) -> bool:
        return self.result is None and self.error is None

    def choices(self) -> list[Choice]:
        """A hint's choices, best first (none while it is worked out, or for a decision)."""
        if self.kind != "hint" or not isinstance(self.result, list):
            return []
        return list(self.result)

    def about(self, session: JournaledGame) -> bool:
        """True if this thought is about the session's current position."""
        return (
            self.game_id == session.id
            and self.index == len(session.playthrough.actions)
            and (self.state is session.state or self.state == session.state)
        )


class Companion:
    """The companion's seats of the game being played: what it is thinking about, what it
    decided, and the hint it is working out.  ``update`` (every frame) starts and collects the
    work; it never waits."""

    def __init__(self, mode: str = "process") -> None:
        self.mode = mode
        self.decision: Thought | None = None
        self.hint: Thought | None = None
        self._by_hand: tuple[int, int, object] | None = None  # the position a person decides
        self._known: dict[tuple[int, int], tuple[object, object]] = {}

    # -- whose decision ---------------------------------------------------------------------
    @staticmethod
    def seat_to_decide(session: JournaledGame | None) -> int | None:
        """The companion's seat that decides now, or None (a person decides, the table reveals
        or draws, or the game is over)."""
        if session is None or not session.companions:
            return None
        who = session.game.current_player(session.state)
        return who if who >= 0 and who in session.companions else None

    @staticmethod
    def person_decides(session: JournaledGame | None, state: object = None) -> bool:
        """True when a person (not the companion, not chance) decides now (or in ``state``,
        a state of that game: a frame drawn ahead)."""
        if session is None:
            return False
        state = session.state if state is None else state
        if session.game.is_over(state):
            return False
        who = session.game.current_player(state)
        return who >= 0 and who not in session.companions and who != CHANCE

    # -- the work ---------------------------------------------------------------------------
    def update(self, session: JournaledGame | None, now: float) -> bool:
        """Start the companion's decision when its seat is to decide, collect finished work,
        and drop work about a position no longer on the table.  True when what the screen
        shows of the companion changed (not the thinking indicator: see ``GameScreen``)."""
        changed = False
        if _SERVER is None and self.mode == "process" and session is not None and (
            session.companions
        ):
            start_fork_server()  # a game with a companion seat: its first decision is near
        for attr in ("decision", "hint"):
            thought: Thought | None = getattr(self, attr)
            if thought is None:
                continue
            if session is None or not thought.about(session):
                if thought.worker is not None:
                    thought.worker.cancel()
                setattr(self, attr, None)
                changed = True
            elif thought.worker is not None and (outcome := thought.worker.poll()) is not None:
                thought.worker = None
                self._finish(session, thought, outcome)
                changed = True
        seat = self.seat_to_decide(session)
        if (session is not None and seat is not None and self.decision is None
                and not self.by_hand(session)):
            self.decision = self._start_decision(session, seat, now)
            changed = True
        return changed

    @property
    def thinking(self) -> bool:
        return any(t is not None and t.thinking for t in (self.decision, self.hint))

    def _start_decision(self, session: JournaledGame, seat: int, now: float) -> Thought:
        index = len(session.playthrough.actions)
        state = session.state
        thought = Thought("decide", session.id, index, state, seat, now)
        known = self._known.get((session.id, index))
        if known is not None and (known[0] is state or known[0] == state):
            thought.result = known[1]
            return thought
        strength = session.companions[seat]
        args = (session.game.name, state, seat, strength, decision_seed(session.id, index))
        thought.worker = Worker(decide, args, self.mode)
        return thought

    def _finish(
        self, session: JournaledGame, thought: Thought, outcome: tuple[str, object]
    ) -> None:
        kind, value = outcome
        if kind != "ok":
            thought.error = str(value)
            return
        game = session.game
        if thought.kind == "decide":
            try:
                action = game.parse_action(str(value))
                game.apply(thought.state, action)  # the rules check the companion too
            except Exception as exc:  # noqa: BLE001 - shown, and the table can try again
                thought.error = f"{value}: {exc}"
                return
            thought.result = action
            self._known[(thought.game_id, thought.index)] = (thought.state, action)
            while len(self._known) > CACHE:
                self._known.pop(next(iter(self._known)))
        else:
            hints = value if isinstance(value, list) else []
            thought.result = [
                (game.parse_action(c.action), c.win_chance, c.visits, c.margin) for c in hints
            ]

    def decide_by_hand(self, session: JournaledGame) -> None:
        """The companion could not decide: a person makes this one decision for its seat (the
        table is never stuck); the next decision is the companion's again."""
        self._by_hand = (session.id, len(session.playthrough.actions), session.state)
        self.decision = None

    def by_hand(self, session: JournaledGame | None) -> bool:
        """True when a person makes the companion's decision on the table now."""
        if self._by_hand is None or session is None:
            return False
        game_id, index, state = self._by_hand
        return (
            game_id == session.id
            and index == len(session.playthrough.actions)
            and (state is session.state or state == session.state)
        )

    def retry(self, session: JournaledGame, now: float) -> None:
        """Think again about a decision that failed."""
        if self.decision is not None and self.decision.error is not None:
            self.decision = None
        self.update(session, now)

    def ready(self, session: JournaledGame | None) -> object | None:
        """The companion's decision for the position on the table, once thought out."""
        d = self.decision
        if d is None or d.result is None or session is None or not d.about(session):
            return None
        return d.result

    def taken(self) -> None:
        """The table confirmed the decision (it is in the journal now)."""
        self.decision = None

    def ask_hint(self, session: JournaledGame, now: float) -> None:
        """Start working out the hint for the person deciding now (again only if the position
        changed)."""
        if not self.person_decides(session):
            return
        if self.hint is not None and self.hint.about(session):
            return
        if self.hint is not None and self.hint.worker is not None:
            self.hint.worker.cancel()
        seat = session.game.current_player(session.state)
        index = len(session.playthrough.actions)
        thought = Thought("hint", session.id, index, session.state, seat, now)
        args = (session.game.name, session.state, seat, hint_seed(session.id, index),
                HINT_CHOICES)
        thought.worker = Worker(suggest, args, self.mode)
        self.hint = thought

    def settle(
        self,
        session: JournaledGame,
        decision: object = None,
        hint: list[Choice] | None = None,
        error: str | None = None,
    ) -> None:
        """Take ``decision`` (an action) or ``hint`` (the choices, as a hint's ``result``) as
        already thought out for the position on the table, or the decision as failed with
        ``error`` (the screenshots' scenes)."""
        index = len(session.playthrough.actions)
        who = session.game.current_player(session.state)
        if decision is not None or error is not None:
            self.decision = Thought("decide", session.id, index, session.state, who, 0.0,
                                    result=decision, error=error)
        if hint is not None:
            self.hint = Thought("hint", session.id, index, session.state, who, 0.0, result=hint)

    def close_hint(self) -> None:
        if self.hint is not None and self.hint.worker is not None:
            self.hint.worker.cancel()
        self.hint = None

    def forget(self) -> None:
        """Forget the decisions kept for the positions seen last (the next one is thought out
        again: a benchmark, a test of the seed)."""
        self._known.clear()

    def close(self) -> None:
        """Stop all work (leaving the game, closing the kiosk)."""
        for thought in (self.decision, self.hint):
            if thought is not None and thought.worker is not None:
                thought.worker.cancel()
        self.decision = None
        self.hint = None


def _scene_position(
    name: str, decisions: int, choices: int = HINT_CHOICES
) -> tuple[Setup, list[str], int]:
    """A position of game ``name`` (three players where it can) after ``decisions`` random
    decisions, where a person has at least ``choices`` to choose from: its set-up, the actions
    to it, and the seat deciding."""
    from companion.engine.simulate import sample

    game = get_game(name)
    rng = random.Random(7)
    setup = game.setup(max(game.min_players, min(3, game.max_players)))
    state = game.initial_state(setup)
    actions: list[str] = []
    made = 0
    while True:
        who = game.current_player(state)
        if game.is_over(state):  # never that many choices: a decision with fewer
            return _scene_position(name, decisions, choices - 1)
        if who == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        elif made >= decisions and len(game.legal_actions(state)) >= choices:
            return setup, actions, who
        else:
            action = rng.choice(game.legal_actions(state))
            made += 1
        state = game.apply(state, action)
        actions.append(game.format_action(action))


@cache
def _worked_out(name: str) -> tuple[Setup, list[str], int, str, list[Hint]]:
    """The screenshots' position of game ``name`` with the companion's decision and hint
    there, worked out once."""
    setup, actions, seat = _scene_position(name, 1)
    game = get_game(name)
    state = game.initial_state(setup)
    for a in actions:
        state = game.apply_text(state, a)
    action = decide(name, state, seat, DEFAULT_STRENGTH, "screenshots")
    choices = suggest(name, state, seat, "screenshots", HINT_CHOICES)
    return setup, actions, seat, action, choices


class _Plans(Protocol):
    def plan(self) -> bool: ...


@runtime_checkable
class PlansVisits(Protocol):
    """A screen that works out the companion's visit (a table screen's ``CompanionPanel``)."""

    companion_view: _Plans


@runtime_checkable
class HintShown(Protocol):
    """A screen that shows the companion's hint (a table screen: ``GameScreen.hint_open``)."""

    hint_open: bool


def _enter_scene(journal: Journal, app: Kiosk, name: str, what: str) -> None:
    """Show the companion's ``what`` (thinking, instruction, failed, hint) in game ``name``."""
    from .screens.game import open_game

    setup, actions, seat, action, choices = _worked_out(name)
    companions = {seat if what != "hint" else (seat + 1) % len(setup.players): "normal"}
    session = app.session = journal.start(setup, seed=0, companions=companions)
    for a in actions:
        session.play(a)
    app.config = app.config.with_(virtual_deck=False, hint=what == "hint")
    app.companion.close()
    open_game(app)
    game = session.game
    if what == "instruction":
        app.companion.settle(session, decision=game.parse_action(action))
        if isinstance(app.screen, PlansVisits):  # the visit worked out: the instruction
            app.screen.companion_view.plan()
    elif what == "failed":
        app.companion.settle(session, error="OSError: [Errno 12] Cannot allocate memory")
    elif what == "hint":
        result: list[Choice] = [
            (game.parse_action(c.action), c.win_chance, c.visits, c.margin) for c in choices
        ]
        app.companion.settle(session, hint=result)
        if isinstance(app.screen, HintShown):
            app.screen.hint_open = True


def screenshot_scenes(journal: Journal) -> Iterator[tuple[str, Callable[[Kiosk], None]]]:
    """The companion's screens for ``companion screenshots``, for every game: its seat thinking,
    its instruction to the table, and the hint for a person (worked out once, here)."""
    from companion.engine.registry import specs

    for spec in specs():
        for what in ("thinking", "instruction", "failed", "hint"):
            yield (f"companion-{spec.name}-{what}",
                   partial(_enter_scene, journal, name=spec.name, what=what))


def instruction(game_name: str, state: object, action: object) -> str:
    """What the table does with the pieces for ``action`` (``state`` before it), in the
    table's language: the game's words (``GameWords.instruction``)."""
    from .words import words_for

    return words_for(game_name).instruction(state, action)


__all__ = [
    "DEFAULT_STRENGTH",
    "STRENGTHS",
    "Companion",
    "Hint",
    "Thought",
    "Worker",
    "about_equal",
    "decide",
    "decision_seed",
    "instruction",
    "strength_name",
    "suggest",
]
