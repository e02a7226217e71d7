"""The ``companion`` command: ``simulate`` random games, ``replay`` game records, and list
(``games``) and ``export`` the games of the journal."""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.engine import Record, RecordError, RulesError, contract, get_game, replay
from companion.engine.registry import names as game_names
from companion.engine.registry import spec as game_spec
from companion.engine.sim import Mismatch, simulator, verified_game
from companion.text import clean, json_safe, json_text, terminal

if TYPE_CHECKING:
    from companion.journal import GameInfo, Journal
    from companion.kiosk.config import Config


def _simulate(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if args.players is None:  # the most the game's spec allows
        args.players = game_spec(args.game).max_players
    try:
        setup = game.setup(args.players)
    except RulesError as exc:
        print(f"companion simulate: {exc}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("companion simulate: --games must be 1 or more", file=sys.stderr)
        return 2
    records = Path(args.records) if args.records else None
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"companion simulate: cannot use {records} for records: {exc}", file=sys.stderr)
            return 2
    results: list[dict[str, Any]] = []
    total_actions = 0
    elapsed = 0.0
    path = simulator(game)  # the bots' simulation path; --verify checks it against the rules
    for k in range(args.games):
        seed = args.seed + k
        rng = random.Random(seed)
        t0 = time.perf_counter()
        if args.verify:
            try:
                state, actions = verified_game(game, setup, rng, sim=path)
            except Mismatch as exc:
                print(f"companion simulate: game {k + 1} (seed {seed}): {exc}", file=sys.stderr)
                return 1
        else:
            fast = path.start(setup)
            actions = fast.random_playout(rng)
            state = fast.freeze()
        elapsed += time.perf_counter() - t0
        total_actions += len(actions)
        scores = contract.scores(game, game.scores(state))
        winners = contract.winners(game, game.winners(state))
        results.append(
            {"seed": seed, "scores": scores, "winners": winners, "actions": len(actions)}
        )
        if records is not None:
            record = Record(setup, tuple(game.format_action(a) for a in actions), seed)
            record.save(records / f"{args.game}-{args.players}p-seed{seed}.json")
        if not args.json:
            table = ", ".join(f"{name} {pts}" for name, pts in scores.items())
            print(
                f"game {k + 1} (seed {seed}): {table}; won by {' and '.join(winners)}; "
                f"{len(actions)} actions"
            )
    timing = {
        "seconds": round(elapsed, 6),
        "games_per_second": round(args.games / elapsed, 2) if elapsed else None,
        "actions_per_second": round(total_actions / elapsed, 1) if elapsed else None,
    }
    if args.json:
        print(
            json_text(
                {
                    "game": args.game,
                    "players": args.players,
                    "seed": args.seed,
                    "games": results,
                    "timing": timing,
                }
            )
        )
    else:
        print(
            f"{args.games} games, {total_actions} actions in {elapsed:.3f} s: "
            f"{timing['games_per_second']} games/s, {timing['actions_per_second']} actions/s"
        )
    return 0


ARENA_EPILOG = """\
examples:
  companion arena pillars --bots strong,normal --games 40
  companion arena builders --players 3 --bots normal,easy,easy
  companion arena pillars --bots strong,normal --seed 100 --json

what each strength plays (docs/bots.md has how strong each is, and how it was measured):
{strengths}

research bots (bench/, docs/bots.md): heuristic, greedy, search@ITERATIONS with flags and an
evaluation, e.g. search@500, search@1000s4, search@4000nao+plan (the grammar is in
companion/bots/names.py)"""
"""The arena's help after its options; ``{strengths}`` is filled when the help is shown."""


class _ArenaHelp(argparse.RawDescriptionHelpFormatter):
    """The arena's help: the epilog's ``{strengths}`` filled from the games' specs only when
    the help is shown (the bots are not imported for every command)."""

    def add_text(self, text: str | None) -> None:
        if text is not None and "{strengths}" in text:
            from companion.bots.names import strengths_help

            text = text.replace("{strengths}", strengths_help(game_names()))
        super().add_text(text)


def _arena(args: argparse.Namespace) -> int:
    from companion.bots import arena

    game = get_game(args.game)
    if args.players is None:  # two, or the fewest the game's spec allows above two
        found = game_spec(args.game)
        args.players = min(max(2, found.min_players), found.max_players)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        print("companion arena: --bots names at least one bot", file=sys.stderr)
        return 2
    if args.games < 1:
        print("companion arena: --games must be 1 or more", file=sys.stderr)
        return 2
    try:
        result = arena(game, args.players, bots, args.games, args.seed).to_json()
    except (RulesError, ValueError) as exc:
        print(f"companion arena: {terminal(str(exc))}", file=sys.stderr)
        return 2
    except RuntimeError as exc:  # a game the bots never end (tournament.MAX_ACTIONS)
        print(f"companion arena: {terminal(str(exc))}", file=sys.stderr)
        return 1
    if args.json:
        print(json_text(result))
        return 0
    print(
        f"{result['game']}, {result['players']} players, {result['games']} games, "
        "seats rotated (a shared win split between its winners):"
    )
    for name, r in result["bots"].items():
        lo, hi = r["ci95"]
        who = f"{name} ({r['bot']})" if "bot" in r else name
        print(
            f"  {who}: {r['wins']:g} wins, {r['win_rate']:.1%} "
            f"(95% interval {lo:.1%} to {hi:.1%})"
        )
    return 0


def _replay(args: argparse.Namespace) -> int:
    game_id = _journal_game_id(args.record)
    if game_id is not None:
        return _replay_journal(args, game_id)
    if args.record.startswith(JOURNAL_PREFIX):
        print(
            f"companion replay: {terminal(args.record)}: not a game id; write journal:ID, "
            "e.g. journal:12",
            file=sys.stderr,
        )
        return 2
    try:
        record = _load_record(args.record)
        game = get_game(record.setup.game)
        state = replay(game, record)
    except (RecordError, RulesError) as exc:
        print(f"companion replay: {terminal(args.record)}: {terminal(str(exc))}",
              file=sys.stderr)
        return 1
    if args.log:
        sys.stdout.write(_log_text(game, record))
    elif args.json:
        out = contract.checked_summary(game, state).to_json()
        out["actions"] = len(record.actions)
        out["ledger"] = [entry.to_json() for entry in game.ledger(state)]
        print(json_text(out))
    else:
        print(terminal(game.describe(state)))
    return 0


def _log_text(game: Any, record: Record) -> str:
    """The game of ``record`` in plain words, oldest first, in the language of the
    environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext programs)."""
    from companion.kiosk import i18n
    from companion.kiosk.gamelog import language_from_environ, log_text

    i18n.set_language(language_from_environ(os.environ))
    return terminal(log_text(game, record))


MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record file read (a complete 4-player game is about 20 KB)."""


def _load_record(path: str) -> Record:
    """The record in the file ``path``; RecordError for anything else: a folder, a file too
    large, JSON nested too deeply or with a number too long to convert."""
    where = Path(path)
    try:
        info = where.stat()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not where.is_file():
        raise RecordError("not a file")
    if info.st_size > MAX_RECORD_BYTES:
        raise RecordError(
            f"the file is {info.st_size} bytes; a record is at most {MAX_RECORD_BYTES} bytes"
        )
    try:
        return Record.load(where)
    except RecordError:
        raise
    except RecursionError:
        raise RecordError("not a game record (JSON nested too deeply)") from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise RecordError(f"not valid JSON: {exc}") from None


# -- the journal --------------------------------------------------------------------------

JOURNAL_PREFIX = "journal:"
NO_SUCH_ID = 2**64
"""Stands for an id written with more digits than any journal id can have."""


def _journal_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal",
        metavar="PATH",
        help="the journal file (default: the one the settings name, as the kiosk uses it; "
        "else journal.sqlite3 in the user's data folder)",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        default=argparse.SUPPRESS,  # (also before the command: companion --config FILE games)
        help="the settings whose journal to read (default: the user's, "
        "~/.config/companion/config.toml)",
    )


def _read_settings(command: str, path: Path | None) -> Config | None:
    """The settings in ``path`` (None: the user's), read exactly as the kiosk reads them
    (``kiosk.config.load``: a FIFO, a device, a file too large, not UTF-8, not TOML or with a
    bad value is refused); None, with the file and what is wrong printed, when refused."""
    from companion.kiosk.config import ConfigError, load

    try:
        return load(path)
    except ConfigError as exc:
        print(f"companion {command}: the settings cannot be read: {terminal(str(exc))}",
              file=sys.stderr)
        return None


def _journal_path(command: str, args: argparse.Namespace) -> Path | None:
    """The journal a command reads: ``--journal``; else the one the settings name (the
    ``--config`` file, or the user's), as the kiosk opens it; else the default.  Unless
    ``--journal`` named it, which file and why is said on standard error.  None, the reason
    printed, when the settings cannot be read."""
    from companion.journal import default_path
    from companion.kiosk.config import default_path as default_config
    from companion.kiosk.config import journal_path

    if args.journal:
        return Path(args.journal)
    source = Path(args.config) if args.config else default_config()
    config = _read_settings(command, source)
    if config is None:
        return None
    named = journal_path(config)
    where = named or default_path()
    shown = terminal(str(source))
    why = (
        f"named by the settings {shown}" if named
        else f"the default: the settings {shown} name none" if os.path.lexists(source)
        else f"the default: there is no settings file {shown}"
    )
    print(f"companion {command}: the journal {terminal(str(where))} ({why})", file=sys.stderr)
    return where


def _journal_game_id(text: str) -> int | None:
    """The journal game id written ``12`` or ``journal:12``; None for anything else."""
    digits = text[len(JOURNAL_PREFIX) :] if text.startswith(JOURNAL_PREFIX) else text
    if digits.isascii() and digits.isdigit():
        # past 19 digits no SQLite integer is that large: any such id is simply not there
        return int(digits) if len(digits.lstrip("0")) <= 19 else NO_SUCH_ID
    return None


def _open_journal(command: str, where: Path | None) -> Journal | None:
    """The journal at ``where`` (see _journal_path), opened read-only: these commands never
    create, migrate or move a file.  None, with the message printed, if there is no journal
    there or the file is not one (or ``where`` is None: the settings were refused)."""
    from companion.journal import Journal, JournalError

    if where is None:
        return None
    try:
        return Journal.open(where, read_only=True)
    except JournalError as exc:
        print(f"companion {command}: {terminal(str(exc))}", file=sys.stderr)
        return None


def _replay_journal(args: argparse.Namespace, game_id: int) -> int:
    from companion.journal import JournalError

    journal = _open_journal("replay", _journal_path("replay", args))
    if journal is None:
        return 1
    where = f"{JOURNAL_PREFIX}{game_id}"
    try:
        with journal:
            record = journal.record(game_id)
        game = get_game(record.setup.game)
        state = replay(game, record)
    except (JournalError, RulesError) as exc:
        print(f"companion replay: {where}: {terminal(str(exc))}", file=sys.stderr)
        return 1
    if args.log:
        sys.stdout.write(_log_text(game, record))
    elif args.json:
        out = contract.checked_summary(game, state).to_json()
        out["actions"] = len(record.actions)
        out["ledger"] = [entry.to_json() for entry in game.ledger(state)]
        print(json_text(out))
    else:
        print(terminal(game.describe(state)))
    return 0


def _when(info: GameInfo) -> str:
    start = info.started.astimezone()
    text = start.strftime("%Y-%m-%d %H:%M")
    if info.ended is not None:
        end = info.ended.astimezone()
        same_day = end.date() == start.date()
        text += " to " + end.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M")
    else:
        text += ", last played " + info.updated.astimezone().strftime("%Y-%m-%d %H:%M")
    return text


def _game_json(info: GameInfo) -> dict[str, Any]:
    from companion.journal.names import is_default_name

    return {
        "id": info.id,
        "game": info.game,
        "status": info.status,
        "players": [
            {
                "name": p.name,
                "colour": p.colour,
                "score": info.scores.get(p.name),
                "winner": p.name in info.winners,
                "default_name": is_default_name(p.name, p.colour),
                "companion": info.companions.get(seat),
            }
            for seat, p in enumerate(info.setup.players)
        ],
        "scores": info.scores,
        "winners": info.winners,
        "actions": info.actions,
        "started": info.started.isoformat(),
        "updated": info.updated.isoformat(),
        "ended": info.ended.isoformat() if info.ended else None,
        "periods": [[period, scores] for period, scores in info.periods],
    }


GAMES_PAGE = 50
"""How many games ``companion games`` lists unless told otherwise."""


def _games(args: argparse.Namespace) -> int:
    from companion.journal import JournalError

    if args.limit < 1 or args.page < 1:
        print("companion games: --limit and --page must be 1 or more", file=sys.stderr)
        return 2
    where = _journal_path("games", args)
    if where is None:
        return 1
    if not where.exists():
        print("[]" if args.json else
              f"no games yet (there is no journal at {terminal(str(where))})")
        return 0
    journal = _open_journal("games", where)
    if journal is None:
        return 1
    status = 0
    infos = []
    try:
        with journal:
            if args.all:
                offset, total = 0, 1
                while offset < total:
                    page = journal.page(None, offset, 500)
                    infos += page.games
                    total, offset = page.total, offset + 500
                    for problem in page.problems:
                        print(f"companion games: {terminal(problem)}", file=sys.stderr)
                        status = 1
            else:
                offset = (args.page - 1) * args.limit
                page = journal.page(None, offset, args.limit)
                infos, total = page.games, page.total
                for problem in page.problems:
                    print(f"companion games: {terminal(problem)}", file=sys.stderr)
                    status = 1
    except JournalError as exc:
        print(f"companion games: {terminal(str(exc))}", file=sys.stderr)
        return 1
    if not args.all and total > offset + args.limit:
        print(
            f"companion games: games {offset + 1} to {offset + args.limit} of {total} "
            f"(unfinished first, then the most recent); --page {args.page + 1} for more, "
            "--all for every game",
            file=sys.stderr,
        )
    if args.json:
        print(json_text([_game_json(info) for info in infos]))
        return status
    if not total:
        print(f"no games yet in the journal {terminal(str(where))}")
    labels = _seat_labels()
    for info in infos:
        players = ", ".join(
            " ".join(
                [clean(label)]
                + ([f"{info.scores[p.name]}{'*' if p.name in info.winners else ''}"]
                   if p.name in info.scores else [])
            )
            for p, label in zip(info.setup.players, labels(info.setup, info.companions),
                                strict=True)
        )
        print(
            f"{info.id:>4}  {clean(info.game, 20):<8}  {clean(info.status, 20):<9}  {players}  "
            f"({info.actions} actions; {_when(info)})"
        )
    return status


def _seat_labels() -> Any:
    """``words.seat_labels`` in the language of the environment (as ``replay --log``): each
    seat's name as the table reads it (a seat left unnamed in that language), the companion's
    seats marked."""
    from companion.kiosk import i18n
    from companion.kiosk.gamelog import language_from_environ
    from companion.kiosk.words import seat_labels

    i18n.set_language(language_from_environ(os.environ))
    return seat_labels


def _export(args: argparse.Namespace) -> int:
    from companion.journal import JournalError

    game_id = _journal_game_id(args.game_id)
    if game_id is None:
        print(
            f"companion export: {args.game_id!r} is not a game id (see companion games)",
            file=sys.stderr,
        )
        return 2
    journal = _open_journal("export", _journal_path("export", args))
    if journal is None:
        return 1
    try:
        with journal:
            if args.format == "json":
                text = json_safe(journal.record(game_id).dumps())
            elif args.format == "text":
                record = journal.record(game_id)
                text = _log_text(get_game(record.setup.game), record)
            else:
                play = journal.bgstats(game_id)
                link = journal.bgstats_link(game_id)
                text = json_text(play, indent=2) + "\n" + link + "\n"
    except (JournalError, RulesError) as exc:
        print(f"companion export: {terminal(str(exc))}", file=sys.stderr)
        return 1
    if args.out:
        try:
            out = Path(args.out)
            if out.exists() and not out.is_file():  # a FIFO would wait for a reader forever
                raise OSError(f"{terminal(args.out)} is not a regular file")
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"companion export: cannot write {terminal(args.out)}: {exc}", file=sys.stderr)
            return 1
        print(f"companion export: game {game_id} written to {terminal(args.out)}",
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


MAX_GAMES = 100_000
"""The most games ``simulate`` and ``arena`` play in one run: about six minutes of ``simulate``
here (``--json`` keeps each game's result until the end, some 100 MB at most), hours of
``arena``.  More is refused before any game is played; run again with other seeds for more."""

MAX_PAGE = 999_999_999
"""The largest ``games --limit`` or ``--page`` (larger means nothing for a journal)."""


def _count_up_to(maximum: int) -> Callable[[str], int]:
    """The option type of a count: a whole number written in digits, at most ``maximum``
    (anything else is a usage error naming the maximum, before any work is done).  Counts
    under 1 are left to the command, which says what it needs."""

    def count(text: str) -> int:
        if not (text.isascii() and text.isdigit()):
            raise argparse.ArgumentTypeError(
                f"{terminal(text[:20])!r} is not a count (digits only, at most {maximum})"
            )
        if len(text.lstrip("0")) > len(str(maximum)) or int(text) > maximum:
            shown = text if len(text) <= 20 else f"{text[:12]}… ({len(text)} digits)"
            raise argparse.ArgumentTypeError(f"{shown} is over the maximum, {maximum}")
        return int(text)

    count.__name__ = "count"  # what argparse calls the type in its messages
    return count


_count = _count_up_to(MAX_PAGE)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 800x480") from None
    if not (320 <= w <= 7680 and 240 <= h <= 7680):
        raise argparse.ArgumentTypeError(f"{text!r} is out of range (320x240 to 7680x7680)")
    return w, h


def _kiosk(args: argparse.Namespace) -> int:
    try:
        import pygame  # noqa: F401 - only to say so now if it is missing

        from companion.main import run_kiosk
    except ImportError as exc:
        print(
            f"companion: the kiosk needs pygame ({exc}); install it with pip install -e '.[kiosk]'",
            file=sys.stderr,
        )
        return 2
    config = Path(args.config) if args.config else None
    if getattr(args, "safe_mode", False):
        from companion import session
        from companion.main import run_safe_mode

        logged = session.read_failures(session.failures_path())
        failures = session.recent_failures(logged, session.boot_id(), session.uptime())
        failures = failures or logged[-session.SAFE_MODE_AFTER:]
        return run_safe_mode(config, fullscreen=args.fullscreen, size=args.size,
                             endings=[(f.status, f.fault) for f in failures])
    try:
        return run_kiosk(config, fullscreen=args.fullscreen, size=args.size)
    except Exception as exc:
        # The kiosk's last words, for the session's log of failures and the safe mode; the
        # traceback still goes to standard error (the system journal).
        from companion import session

        session.note_fault(f"{type(exc).__name__}: {exc}")
        raise


def _session(args: argparse.Namespace) -> int:
    """Cage running the kiosk full screen (the systemd unit's command); the status is the
    kiosk's own, whatever Cage's is, and after repeated failures the kiosk starts in safe
    mode (see companion/session.py)."""
    from companion import session

    return session.run_session(args.cage, args.config)


def _screenshots(args: argparse.Namespace) -> int:
    try:
        from companion.kiosk import screenshots, ui  # noqa: F401 - (pygame there, or not)
    except ImportError as exc:
        print(f"companion screenshots: the kiosk needs pygame ({exc})", file=sys.stderr)
        return 2
    checking = ui.CHECK_GLYPHS
    ui.CHECK_GLYPHS = True  # (every text's glyphs checked: for this run only)
    try:
        return _take_screenshots(args)
    finally:
        ui.CHECK_GLYPHS = checking


def _take_screenshots(args: argparse.Namespace) -> int:
    from companion.kiosk import ui
    from companion.kiosk.screenshots import SIZES, report, take

    ui.OVERFLOWS.clear()  # this run's, not what an earlier one in the process left
    ui.MISSING_GLYPHS.clear()
    sizes = tuple(args.size) if args.size else SIZES
    languages = tuple(args.language) if args.language else ("en", "zh", "ja")
    only = (lambda name: any(name.startswith(p) for p in args.only)) if args.only else None
    summaries: list[Any] = []
    outdir = Path(args.outdir)
    shown = terminal(args.outdir)
    try:
        outdir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"companion screenshots: cannot make the folder {shown}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 1
    if not outdir.is_dir():
        print(f"companion screenshots: {shown} is not a folder", file=sys.stderr)
        return 1
    import pygame

    try:
        files = take(outdir, sizes, languages, only, summaries=summaries)
    except (OSError, pygame.error) as exc:
        print(f"companion screenshots: cannot write the pictures into {shown}: {exc}",
              file=sys.stderr)
        return 1
    print(f"{len(files)} screenshots in {shown}")
    problems = sorted(set(ui.OVERFLOWS)) + sorted(set(ui.MISSING_GLYPHS))
    for p in problems:
        print(f"  does not fit or has no glyph: {p}")
    lines, measured_ok = report(summaries)  # touch targets, cap heights, contrast
    print("\n".join(lines))
    return 1 if problems or not measured_ok else 0


def build_parser() -> argparse.ArgumentParser:
    from companion.doctor import register as register_doctor
    from companion.vision.commands import register as register_vision

    parser = argparse.ArgumentParser(
        prog="companion",
        description="A table companion for The Pillars of the Earth and The Builders: Middle Ages.",
    )
    _kiosk_options(parser)
    sub = parser.add_subparsers(dest="command")
    register_doctor(sub)
    register_vision(sub)
    kio = sub.add_parser("kiosk", help="open the kiosk (the default with no command)")
    _kiosk_options(kio, sub=True)
    kio.add_argument(
        "--safe-mode",
        action="store_true",
        help="what failed and the journal's games, read-only, with no panel or camera (the "
        "session starts it after repeated failures)",
    )
    kio.set_defaults(run=_kiosk)
    ses = sub.add_parser("session", help="the kiosk inside the Cage kiosk compositor (for "
                         "the systemd unit on the Pi)")
    ses.add_argument("--cage", default="cage", help="the Cage program (default: cage)")
    ses.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS,
                     help="the config file")
    ses.set_defaults(run=_session)
    shots = sub.add_parser("screenshots", help="write a PNG of every kiosk screen")
    shots.add_argument("outdir", help="the folder for the pictures")
    shots.add_argument(
        "--size",
        type=_size,
        action="append",
        help="a window size like 800x480 (repeatable; default 800x480 and 720x1280)",
    )
    shots.add_argument(
        "--language",
        choices=("en", "zh", "ja"),
        action="append",
        help="a language (repeatable; default all three)",
    )
    shots.add_argument(
        "--only",
        action="append",
        metavar="PREFIX",
        help="only the screens whose name starts with PREFIX (repeatable)",
    )
    shots.set_defaults(run=_screenshots)
    sim = sub.add_parser("simulate", help="play random games with seeded chance")
    sim.add_argument("game", choices=game_names())
    sim.add_argument("--players", type=int, default=None,
                     help="how many players (default: the most the game allows)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    sim.add_argument("--games", type=_count_up_to(MAX_GAMES), default=1,
                     help=f"how many games (default 1, at most {MAX_GAMES})")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--records", metavar="DIR", help="write each game's record into DIR")
    sim.add_argument(
        "--verify",
        action="store_true",
        help="compare every state of the simulation path with the rules engine (slower)",
    )
    sim.set_defaults(run=_simulate)
    are = sub.add_parser(
        "arena",
        help="the companion's strengths (and other bots) play each other; win rates with 95%% "
        "intervals",
        description="The companion's strengths play each other (or other bots), the seats\n"
        "rotated every game; each one's win rate with its 95% interval.  The strengths are\n"
        "the set-up screen's: easy (the move worth most at once), normal (a tree search of\n"
        "each decision) and strong (the stronger search each game declares).",
        epilog=ARENA_EPILOG,
        formatter_class=_ArenaHelp,
    )
    are.add_argument("game", choices=game_names(), help="the game")
    are.add_argument("--players", type=int, default=None, metavar="N",
                     help="seats at the table (default 2, within the game's range)")
    are.add_argument(
        "--bots",
        default="easy,random",
        metavar="WHO",
        help="who sits at the table, comma-separated, seated in turn (default easy,random): "
        "easy, normal, strong (the companion's strengths, as this game plays them with this "
        "many players), random (any legal move), or a research bot (below)",
    )
    are.add_argument("--games", type=_count_up_to(MAX_GAMES), default=100, metavar="N",
                     help=f"how many games (default 100, at most {MAX_GAMES})")
    are.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    are.add_argument("--json", action="store_true", help="print one JSON object")
    are.set_defaults(run=_arena)
    rep = sub.add_parser("replay", help="apply a game record and print the result")
    rep.add_argument(
        "record",
        help="a game record (JSON file), or a game of the journal: its id (12 or journal:12; "
        "write ./12 for a file called 12)",
    )
    shown = rep.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print one JSON object")
    shown.add_argument(
        "--log",
        action="store_true",
        help="print the game in plain words, round by round or turn by turn, in the language "
        "of LANGUAGE / LANG (English when unknown)",
    )
    _journal_option(rep)
    rep.set_defaults(run=_replay)
    gam = sub.add_parser("games", help="list the games of the journal (unfinished and history)")
    gam.add_argument("--json", action="store_true", help="print one JSON array")
    gam.add_argument(
        "--limit",
        type=_count,
        default=GAMES_PAGE,
        metavar="N",
        help=f"at most N games (default {GAMES_PAGE}); unfinished first, then the most recent",
    )
    gam.add_argument("--page", type=_count, default=1, metavar="P", help="the P-th N games")
    gam.add_argument("--all", action="store_true", help="every game, however many")
    _journal_option(gam)
    gam.set_defaults(run=_games)
    exp = sub.add_parser(
        "export", help="write a game of the journal as a record, a BG Stats play or text"
    )
    exp.add_argument(
        "game_id", metavar="ID", help="the game's id in the journal (12 or journal:12)"
    )
    exp.add_argument(
        "--format",
        choices=("json", "bgstats", "text"),
        default="json",
        help="json: the game record (default); bgstats: the BG Stats play and its link; "
        "text: the game in plain words in the language of LANGUAGE / LANG",
    )
    exp.add_argument("--out", metavar="FILE", help="write to FILE instead of printing")
    _journal_option(exp)
    exp.set_defaults(run=_export)
    return parser


def _kiosk_options(parser: argparse.ArgumentParser, *, sub: bool = False) -> None:
    """The kiosk's options, before any command or after ``kiosk``; after it (``sub``) an
    option not given leaves the one given before it as it was (``companion --config FILE
    kiosk`` uses FILE)."""
    unset: dict[str, Any] = {"default": argparse.SUPPRESS} if sub else {}
    parser.add_argument(
        "--fullscreen",
        action="store_true",
        help="full screen (the default on the Pi is set in the config)",
        **(unset or {"default": None}),
    )
    parser.add_argument(
        "--windowed",
        action="store_false",
        dest="fullscreen",
        help="a window, whatever the config says",
        **unset,
    )
    parser.add_argument("--size", type=_size, help="the window size, e.g. 720x1280", **unset)
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="the config file (default: the user's, ~/.config/companion/config.toml)",
        **unset,
    )


SETTINGS_SHOWN = ("kiosk", "session", "doctor")
"""The commands that show settings they cannot read themselves: the kiosk (and the session
running it) on its screen, ``doctor`` in its table."""


def say_broken_games() -> None:
    """Each game that could not be loaded, by name and why, on stderr (once, before the
    command; every other game works)."""
    from companion.engine.registry import problems
    from companion.text import terminal

    for name, why in sorted(problems().items()):
        print(f"companion: the game {name!r} could not be loaded and is left out: "
              f"{terminal(why)}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command != "doctor":  # (doctor says it in its table)
        say_broken_games()
    if args.command is None:
        return _kiosk(args)
    # A settings file named on the command line is read as the kiosk reads it, whatever the
    # command: one it cannot read is refused here, before anything is done.
    named = args.config is not None and args.command not in SETTINGS_SHOWN
    if named and _read_settings(args.command, Path(args.config)) is None:
        return 2
    if args.command in ("kiosk", "session"):  # the kiosk logs its own faults (kiosk/guard.py)
        return int(args.run(args))
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (| head): nothing more to say
        sys.stderr.close()
        return 141
    except Exception as exc:  # noqa: BLE001 - a last word instead of a traceback
        if os.environ.get("COMPANION_DEBUG"):
            raise
        game = failing_game(exc)
        whose = (f"the game {game!r} failed (report it to that game's authors)"
                 if game else "please report it")
        print(
            f"companion {args.command}: unexpected error: {type(exc).__name__}: "
            f"{terminal(str(exc))[:500]} (COMPANION_DEBUG=1 shows the traceback; {whose})",
            file=sys.stderr,
        )
        return 70


def failing_game(exc: BaseException) -> str:
    """The game installed from outside the project in whose code ``exc`` was raised ("" when
    it was raised in the companion's own): its package's folder holds the innermost frame; or
    the game that broke the game contract (``contract.ContractError``: what one of its methods
    returned, checked where it entered the companion)."""
    import traceback

    from companion.engine.contract import ContractError
    from companion.engine.registry import specs

    if isinstance(exc, ContractError):  # what a game returned, checked where it came in
        return exc.game
    own = Path(__file__).resolve().parent
    frames = traceback.extract_tb(exc.__traceback__)
    for spec in specs():
        module = sys.modules.get(type(spec.game()).__module__.split(".")[0])
        root = Path(getattr(module, "__file__", "") or "").resolve().parent
        if not module or root == own or own in root.parents:
            continue
        if frames and root in Path(frames[-1].filename).resolve().parents:
            return spec.name
    return ""


if __name__ == "__main__":
    sys.exit(main())
