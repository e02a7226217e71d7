"""The ledger: every change of points and holdings with its cause, derived from the record.

Random games of both games (2 to 4 players, and the Builders' solo variant) check at every
state that each player's entries add up to the state's VP, gold or coins, cubes and workers,
that the ledger only grows, that every entry's cause is documented with its fields, and that
replaying the record gives the identical ledger.  Unit tests check single causes from the
rulebook: a Priory's +2 and a Conflict's -2 are two entries, tax, a Builders completion, the
end's coin conversion.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.builders import BuildersGame
from companion.builders.causes import CAUSES as BUILDERS_CAUSES
from companion.builders.constants import AUTOMA
from companion.builders.position import keywords
from companion.cli import main
from companion.engine import CHANCE, TERMINAL, Game, Record, replay
from companion.engine.ledger import (
    Cause,
    Entry,
    Ledger,
    Notes,
    docs_table,
    mismatches,
    reconcile,
    totals,
)
from companion.engine.simulate import sample
from companion.pillars import data as D
from companion.pillars.causes import CAUSES as PILLARS_CAUSES
from tests.pillars_helpers import GAME as PILLARS
from tests.pillars_helpers import phase3, play, seat
from tests.sweeps import sampled

BUILDERS = BuildersGame()
DOCS = Path(__file__).resolve().parents[1] / "docs"
CAUSES: dict[str, dict[str, Cause]] = {"pillars": PILLARS_CAUSES, "builders": BUILDERS_CAUSES}


def new_entries(game: Game[Any, Any], before: Any, after: Any) -> tuple[Entry, ...]:
    old, new = game.ledger(before), game.ledger(after)
    assert new[: len(old)] == old, "the ledger is append-only"
    return new[len(old) :]


def check_entry(game: Game[Any, Any], e: Entry, seats: int, periods: set[int]) -> None:
    cause = CAUSES[game.name].get(e.cause)
    assert cause is not None, f"undocumented cause {e.cause!r}: {e}"
    assert e.what in cause.whats, f"{e.cause} does not change {e.what}: {e}"
    keys = {k for k, _ in e.detail}
    assert set(cause.fields) <= keys <= set(cause.fields) | set(cause.optional), e
    assert all(isinstance(v, int | str) for _, v in e.detail), e
    assert 0 <= e.player < seats, e
    assert e.period in periods, f"{e} is not in period {sorted(periods)}"
    assert e.amount != 0 or e.get("capped"), e


def play_checked(
    game: Game[Any, Any], players: int, seed: int, options: dict[str, Any] | None = None
) -> tuple[Any, list[str]]:
    """A random game, the ledger checked at every state; the final state and the notation."""
    rng = random.Random(seed)
    setup = game.setup(players, options=options or {})
    state = game.initial_state(setup)
    seats = players + (players == 1)  # the solo Automa is the seat after the last
    for e in game.ledger(state):
        check_entry(game, e, seats, {game.period_of(state).number})
    actions: list[str] = []
    while (who := game.current_player(state)) != TERMINAL:
        if who == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            action = rng.choice(game.legal_actions(state))
        after = game.apply(state, action)
        for e in new_entries(game, state, after):
            periods = {game.period_of(state).number, game.period_of(after).number}
            check_entry(game, e, seats, periods)
        assert mismatches(game.ledger(after), game.holdings(after)) == [], str(action)
        state = after
        actions.append(str(action))
    return state, actions


GAMES = [("pillars", n, seed, None) for n in (2, 3, 4) for seed in range(4)]
GAMES += [("builders", n, seed, None) for n in (1, 2, 3, 4) for seed in range(4)]
GAMES += [("builders", n, 10, {"coins": "cumulative"}) for n in (1, 3)]


FIRST_SEEDS = [k for k, (name, n, _seed, options) in enumerate(GAMES)
               if (name, n, repr(options)) not in {(g[0], g[1], repr(g[3])) for g in GAMES[:k]}]
"""The default run's sample: each game at each table size and options on its first seed
(every seed under ``-m full``)."""


@pytest.mark.parametrize(("name", "players", "seed", "options"), sampled(GAMES, keep=FIRST_SEEDS))
def test_random_games_add_up_and_replay_to_the_same_ledger(
    name: str, players: int, seed: int, options: dict[str, Any] | None
) -> None:
    game: Game[Any, Any] = PILLARS if name == "pillars" else BUILDERS
    state, actions = play_checked(game, players, seed, options)
    ledger = game.ledger(state)
    sums = totals(ledger)
    names = [p.name for p in game.setup_of(state).players]
    scores = game.scores(state)
    for i, player in enumerate(names):
        # Each player's VP entries, the starting VP included, sum to the final score.
        assert sums.get((i, "vp"), 0) == scores[player]
        money = "gold" if name == "pillars" else "coins"
        held = state.seats[i].gold if name == "pillars" else state.players[i].coins
        assert sums[i, money] == held
        assert [e for e in ledger if e.player == i and e.cause == "start"], "starting amounts"
    if name == "builders" and players == 1:
        assert sums.get((1, "vp"), 0) == scores[AUTOMA]
    # The record (as text, through its JSON form) replays to the identical ledger.
    record = Record.loads(Record(game.setup_of(state), tuple(actions), seed).dumps())
    again = replay(game, record)
    assert game.ledger(again) == ledger
    assert again.ledger == state.ledger


def test_every_cause_shows_up_in_random_games() -> None:
    """Each documented cause (but ``position``) happens in a few random games: the table holds
    no tag the engine never writes."""
    for game, counts in ((PILLARS, (2, 3, 4) * 3), (BUILDERS, (1, 1, 2, 3, 4, 4))):
        seen: set[str] = set()
        for seed, n in enumerate(counts):
            state, _ = play_checked(game, n, 100 + seed)
            seen |= {e.cause for e in game.ledger(state)}
        assert seen == set(CAUSES[game.name]) - {"position"}


@pytest.mark.parametrize("name", ["pillars", "builders"])
def test_the_docs_list_every_cause_with_its_fields(name: str) -> None:
    text = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    assert docs_table(CAUSES[name]) in text.split("## The ledger", 1)[1]


# -- the shared type -----------------------------------------------------------------------


def test_entries_merge_within_one_apply_and_zero_changes_vanish() -> None:
    notes = Notes(3)
    notes.add(3, 0, "stone", -2, "cathedral", (("card", "mason1"),))
    notes.add(3, 0, "vp", 2, "cathedral", (("card", "mason1"),))
    notes.add(3, 0, "stone", -2, "cathedral", (("card", "mason1"),))
    notes.add(3, 1, "gold", 0, "wool", (("workers", 0),))
    notes.add(3, 1, "gold", 0, "wool", (("capped", 4), ("workers", 4)))
    notes.add(3, 1, "vp", 2, "priory", (("space", "priory1"),))
    notes.add(3, 1, "vp", -2, "event", (("card", "konflikt"),))
    assert notes.entries() == (
        Entry(3, 0, "stone", -4, "cathedral", (("card", "mason1"),)),
        Entry(3, 0, "vp", 2, "cathedral", (("card", "mason1"),)),
        Entry(3, 1, "gold", 0, "wool", (("capped", 4), ("workers", 4))),
        Entry(3, 1, "vp", 2, "priory", (("space", "priory1"),)),
        Entry(3, 1, "vp", -2, "event", (("card", "konflikt"),)),
    )
    ledger = Ledger()
    for k in range(100):
        ledger = ledger.append((Entry(k, 0, "vp", 1, "start"),))
    assert len(ledger.head) >= 64 and len(ledger.tail) < 64
    assert [e.period for e in ledger.entries()] == list(range(100))
    assert Entry(1, 0, "gold", 3, "wool", (("workers", 3),)).to_json() == {
        "period": 1,
        "player": 0,
        "what": "gold",
        "amount": 3,
        "cause": "wool",
        "detail": {"workers": 3},
    }
    fixed = reconcile((Entry(1, 0, "vp", 2, "start"),), {(0, "vp"): 5, (1, "gold"): 3}, 2)
    assert fixed[1:] == (Entry(2, 0, "vp", 3, "position"), Entry(2, 1, "gold", 3, "position"))
    assert mismatches(fixed, {(0, "vp"): 5, (1, "gold"): 3}) == []
    assert mismatches(fixed, {(0, "vp"): 4}) == [
        "seat 0 vp: the ledger adds up to 5, the state has 4",
        "seat 1 gold: the ledger adds up to 3, the state has 0",
    ]


# -- Pillars: causes from the rulebook --------------------------------------------------------


def entries(game: Game[Any, Any], before: Any, after: Any, **match: Any) -> list[Entry]:
    """The entries ``after`` added, those matching every field given (``detail`` by name)."""
    out = []
    for e in new_entries(game, before, after):
        fields = {"player": e.player, "what": e.what, "cause": e.cause, **dict(e.detail)}
        if all(fields.get(k) == v for k, v in match.items()):
            out.append(e)
    return out


def test_pillars_start_with_two_vp_their_gold_and_twelve_workers() -> None:
    state = PILLARS.initial_state(PILLARS.setup(3, start_player=1))
    assert [(e.player, e.what, e.amount, e.cause) for e in PILLARS.ledger(state)] == [
        (0, "vp", 2, "start"),
        (0, "gold", 22, "start"),
        (0, "workers", 12, "start"),
        (1, "vp", 2, "start"),
        (1, "gold", 20, "start"),
        (1, "workers", 12, "start"),
        (2, "vp", 2, "start"),
        (2, "gold", 21, "start"),
        (2, "workers", 12, "start"),
    ]


def test_a_priory_plus_two_and_a_conflict_minus_two_are_two_entries() -> None:
    s = phase3(2, {"priory1": 0})
    after = play(s, "event konflikt")
    assert after.seats[0].vp == s.seats[0].vp  # a net 0 ...
    vp = entries(PILLARS, s, after, player=0, what="vp")
    assert [(e.period, e.amount, e.cause, dict(e.detail)) for e in vp] == [
        (1, -2, "event", {"card": "konflikt"}),  # ... from two causes
        (1, 2, "priory", {"space": "priory1"}),
    ]
    # Without VP to lose, the Conflict takes none: an entry of 0 that says what the floor kept.
    poor = play(seat(s, 1, vp=1), "event konflikt")
    [hit] = entries(PILLARS, seat(s, 1, vp=1), poor, player=1, what="vp")
    assert (hit.amount, hit.get("capped")) == (-1, -1)


def test_pillars_tax_paid_and_unpayable_tax_costs_vp() -> None:
    s = phase3(3, {"court1": 2})
    s = seat(s, 1, gold=0, wool=0)
    s = play(seat(s, 0, gold=0, wool=3), "event koenig")  # Red 8 gold, Blue 5
    paid = play(s, "roll 5")
    assert [(e.player, e.what, e.amount, dict(e.detail)) for e in entries(PILLARS, s, paid)] == [
        (2, "metal", 1, {"space": "court1"}),
        (0, "gold", -5, {"roll": 5, "due": 5}),
        (1, "gold", -5, {"roll": 5, "due": 5}),
    ]
    short = seat(s, 1, gold=2)
    after = play(short, "roll 5")
    blue = entries(PILLARS, short, after, player=1)
    assert [(e.what, e.amount, dict(e.detail)) for e in blue] == [
        ("gold", -2, {"roll": 5, "due": 5}),
        ("vp", -1, {"short": 3, "roll": 5, "due": 5}),
    ]


def test_pillars_wool_mill_gold_limit_privileges_and_production() -> None:
    s = PILLARS.position(
        phase3(3, {"kingsbridge1": 0, "priory1": 1, "priory2": 1}), kingsbridge=("madonna", "otto")
    )
    s = seat(s, 1, privileges=("priorphilip",))
    wool = 12 - D.RESOURCE_CARDS["stone3"].workers
    s = seat(s, 2, privileges=("tom",), cards=("stone3",), wool=wool)
    after = play(s, "event koenig")
    made = {(e.player, e.what, e.cause, e.amount, e.detail) for e in entries(PILLARS, s, after)}
    assert (0, "vp", "privilege", 3, (("card", "madonna"),)) in made
    assert (1, "vp", "priory", 2, (("space", "priory1"),)) in made
    assert (1, "vp", "priory", 1, (("space", "priory2"),)) in made
    assert (1, "vp", "privilege", 2, (("card", "priorphilip"),)) not in made  # one per space
    assert (1, "vp", "privilege", 1, (("card", "priorphilip"), ("space", "priory1"))) in made
    assert (1, "vp", "privilege", 1, (("card", "priorphilip"), ("space", "priory2"))) in made
    assert (2, "stone", "production", 3, ()) in made
    assert (2, "stone", "privilege", 1, (("card", "tom"),)) in made
    # Blue and Yellow: 20-22 gold + 5 (King) + the wool mill, at most 30 (P2).
    paid = entries(PILLARS, s, after, player=2, cause="wool")
    assert [(e.amount, dict(e.detail)) for e in paid] == [
        (3, {"workers": wool, "capped": wool - 3})
    ]


def test_pillars_market_cathedral_and_return() -> None:
    s = play(phase3(2, {"market1": 0}), "event koenig", "roll 2")
    s = seat(s, 0, gold=20)
    bought = play(s, "buy stone 3")
    assert [(e.what, e.amount, e.cause) for e in entries(PILLARS, s, bought)] == [
        ("gold", -12, "market.buy"),
        ("stone", 3, "market.buy"),
    ]
    s = play(bought, "pass")
    assert s.step == "cathedral"
    s = seat(s, 0, res=(5, 0, 7, 0))
    used = play(s, "convert stonecutter0rx2 mortar0rx2")
    red = [(e.what, e.amount, e.get("card")) for e in entries(PILLARS, s, used, player=0)]
    assert sorted(red) == [  # two uses of one craftsman: one entry per what
        ("sand", -6, "mortar0r"),
        ("stone", -4, "stonecutter0r"),
        ("vp", 2, "mortar0r"),
        ("vp", 2, "stonecutter0r"),
    ]
    s = seat(play(phase3(2), "event koenig", "roll 2"), 0, res=(3, 3, 0, 1))
    back = play(s, "done", "return stone 1 wood 1")
    assert [(e.what, e.amount, e.cause) for e in entries(PILLARS, s, back, player=0)] == [
        ("stone", -1, "return"),
        ("wood", -1, "return"),
    ]


def test_pillars_castle_gray_workers_come_and_go() -> None:
    start = phase3(2, {"castle": 1})
    s = play(start, "event koenig", "roll 2")
    [got] = entries(PILLARS, start, s, cause="castle")
    assert (got.player, got.what, got.amount, got.period) == (1, "workers", 2, 1)
    s = _to_round(s, 2)  # the gray workers work for Blue in round 2 ...
    assert s.seats[1].gray == 2
    before = s
    s = _to_round(s, 3)  # ... and go back at its end
    [back] = entries(PILLARS, before, s, cause="castle.return")
    assert (back.player, back.amount, back.period) == (1, -2, 2)
    assert mismatches(PILLARS.ledger(s), PILLARS.holdings(s)) == []


def _to_round(state: Any, round_: int) -> Any:
    """Play on to the start of round ``round_``, every player passing or declining where he
    can (chance drawn with a fixed seed)."""
    rng = random.Random(0)
    while state.round < round_:
        if PILLARS.current_player(state) == CHANCE:
            a = sample(PILLARS.chance_outcomes(state), rng)
        else:
            legal = PILLARS.legal_actions(state)
            a = next((x for x in legal if x.verb in ("pass", "keep", "done")), legal[0])
        state = PILLARS.apply(state, a)
    return state


def test_a_pillars_position_starts_its_ledger_where_it_stands() -> None:
    s = seat(phase3(2), 0, gold=6, vp=9, res=(1, 0, 2, 0))
    assert mismatches(PILLARS.ledger(s), PILLARS.holdings(s)) == []
    changed = {(e.what, e.amount) for e in PILLARS.ledger(s) if e.cause == "position"}
    assert changed == {("gold", 6 - 20), ("vp", 7), ("stone", 1), ("sand", 2)}
    assert replace(s, ledger=Ledger()) == s  # the ledger is history: not part of ==


# -- Builders: causes from the rulebook -------------------------------------------------------

NAMES = ["Ann", "Bob", "Cid"]
DEAL = (
    *[f"reveal building {b}" for b in ("tonnelle", "pont-couvert", "grue-1", "abbaye", "lavoir")],
    "next building cabane",
    *[f"deal apprentice {a}" for a in ("apprenti-1001", "apprenti-0110", "apprenti-0011")],
    *[
        f"reveal worker {w}"
        for w in (
            "maitre-3200",
            "compagnon-1111",
            "compagnon-1111",
            "manoeuvre-0120",
            "apprenti-1010",
        )
    ],
)


def builders_play(state: Any, *moves: str) -> Any:
    for m in moves:
        state = BUILDERS.apply_text(state, m)
    return state


def dealt() -> Any:
    return builders_play(BUILDERS.initial_state(BUILDERS.setup(NAMES)), *DEAL)


def test_builders_start_coins_and_apprentices() -> None:
    state = dealt()
    made = [(e.player, e.what, e.amount, e.cause, e.get("card")) for e in BUILDERS.ledger(state)]
    assert made == [
        (0, "coins", 10, "start", None),
        (1, "coins", 10, "start", None),
        (2, "coins", 10, "start", None),
        (0, "workers", 1, "apprentice", "apprenti-1001"),
        (1, "workers", 1, "apprentice", "apprenti-0110"),
        (2, "workers", 1, "apprentice", "apprenti-0011"),
    ]


def test_a_builders_completion_pays_coins_and_vp() -> None:
    s = builders_play(dealt(), "start pont-couvert", "next building cathedrale")
    s = builders_play(s, "recruit manoeuvre-0120", "reveal worker apprenti-1100")
    after = builders_play(s, "send manoeuvre-0120 to pont-couvert")
    made = [(e.what, e.amount, e.cause, dict(e.detail)) for e in entries(BUILDERS, s, after)]
    assert made == [
        ("coins", -3, "send.wage", {"card": "manoeuvre-0120", "site": "pont-couvert"}),
        ("coins", 6, "complete.building", {"card": "pont-couvert"}),
        ("vp", 1, "complete.building", {"card": "pont-couvert"}),
    ]
    assert all(e.period == 1 and e.player == 0 for e in entries(BUILDERS, s, after))


def test_a_builders_machine_joins_the_workers() -> None:
    s = builders_play(dealt(), "start grue-1", "next building cathedrale")
    s = builders_play(s, "recruit compagnon-1111", "reveal worker apprenti-1100")
    after = builders_play(s, "send compagnon-1111 to grue-1")
    made = [(e.what, e.amount, e.cause) for e in entries(BUILDERS, s, after)]
    assert made == [
        ("coins", -4, "send.wage"),
        ("vp", 1, "complete.machine"),
        ("workers", 1, "complete.machine"),
    ]


def test_builders_coins_taken_and_an_action_bought() -> None:
    s = dealt()
    after = builders_play(s, "coins 3ap", "buy action", "coins 1ap")
    made = [(e.what, e.amount, e.cause, dict(e.detail)) for e in entries(BUILDERS, s, after)]
    assert made == [
        ("coins", 6, "coins.take", {"ap": 3}),
        ("coins", -5, "action.buy", {}),
        ("coins", 1, "coins.take", {"ap": 1}),
    ]


def test_the_end_converts_coins_to_vp() -> None:
    table = keywords(dealt())
    table["players"][0]["coins"] = 27
    s = BUILDERS.position(BUILDERS.setup(NAMES), **{**table, "end": "test", "turn_player": 2})
    over = builders_play(s, "end turn")
    assert BUILDERS.is_over(over)
    made = [(e.player, e.what, e.amount, dict(e.detail)) for e in entries(BUILDERS, s, over)]
    assert made == [
        (0, "vp", 2, {"coins": 27}),
        (1, "vp", 1, {"coins": 10}),
        (2, "vp", 1, {"coins": 10}),
    ]
    sums = totals(BUILDERS.ledger(over))
    assert {n: sums.get((i, "vp"), 0) for i, n in enumerate(NAMES)} == BUILDERS.scores(over)
    assert sums[0, "coins"] == 27  # the coins are kept for the tie-break


def test_the_solo_automa_has_its_own_entries() -> None:
    rng = random.Random(3)
    state = BUILDERS.initial_state(BUILDERS.setup(["Ann"]))
    while BUILDERS.current_player(state) == CHANCE:
        state = BUILDERS.apply(state, sample(BUILDERS.chance_outcomes(state), rng))
    automa = [e for e in BUILDERS.ledger(state) if e.player == 1]
    assert [(e.what, e.amount, e.cause) for e in automa] == [("workers", 1, "apprentice")]
    after = builders_play(state, "end turn")
    [took] = entries(BUILDERS, state, after, player=1)
    assert (took.what, took.amount, took.cause, took.period) == ("workers", 1, "automa.recruit", 1)


# -- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), [("pillars", 3), ("builders", 2)])
def test_replay_json_has_the_ledger(
    name: str, players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game: Game[Any, Any] = PILLARS if name == "pillars" else BUILDERS
    state, actions = play_checked(game, players, 5)
    path = tmp_path / "game.json"
    path.write_text(Record(game.setup_of(state), tuple(actions), 5).dumps(), encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ledger"] == [e.to_json() for e in game.ledger(state)]
    names = [p["name"] for p in game.setup_of(state).to_json()["players"]]
    for i, player in enumerate(names):
        vp = sum(e["amount"] for e in out["ledger"] if e["player"] == i and e["what"] == "vp")
        assert vp == out["scores"][player]
    assert {
        key for e in out["ledger"] for key in e
    } == {"period", "player", "what", "amount", "cause", "detail"}
