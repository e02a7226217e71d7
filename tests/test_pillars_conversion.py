"""The best cathedral conversion (companion/pillars/conversion.py) against exhaustive search.

The exhaustive search goes through the engine: every vector of use counts is played as a
``convert`` action with ``PillarsGame.apply`` on a hand-built state at the cathedral step, and
what the seat holds afterwards is scored.  So the test checks the rules as played, not a second
copy of the conversion arithmetic.  The rulebook's own examples (pillars.md §7.1) and ruling P2
(gold limit 30) are unit tests at the end.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import product

import pytest

from companion.engine import IllegalAction
from companion.pillars import Conversion, PillarsGame, PillarsState, Seat, best_conversion
from companion.pillars import data as D
from companion.pillars.actions import DONE, Action, convert_action

from .sweeps import sampled

GAME = PillarsGame()
BASE = GAME.initial_state(GAME.setup(2))  # seat 0 is red, seat 1 blue; start player 0

RED_START = tuple(c.id for c in D.start_cards("red"))
ROUND_IDS = tuple(c.id for rnd in D.ROUND_CRAFTSMEN for c in rnd)
AUTO_IDS = tuple(c for c in ROUND_IDS if D.CRAFTSMEN[c].spec.auto)
# The cards a hand-built red seat may hold; the auto kinds fire only when a cathedral turn
# starts, so the hand-built states leave them out (see test_auto_craftsmen_played_into_step).
POOL = tuple(c for c in RED_START + ROUND_IDS if c not in AUTO_IDS)

Key = tuple[int, int, int]


# -- building states ------------------------------------------------------------------------


def with_seat(state: PillarsState, i: int, **changes: object) -> PillarsState:
    seats = list(state.seats)
    seats[i] = replace(seats[i], **changes)  # type: ignore[arg-type]
    return replace(state, seats=tuple(seats))


def at_cathedral(
    craftsmen: tuple[str, ...],
    res: tuple[int, int, int, int] = (0, 0, 0, 0),
    gold: int = 0,
    *,
    boost: str = "",
    uses: tuple[tuple[str, int], ...] = (),
    vp: int = 10,
    last: bool = False,
) -> PillarsState:
    """Seat 0 (red) deciding at the cathedral; seat 1 still to come unless ``last``."""
    state = replace(BASE, step="cathedral", turn=0, queue=() if last else (1,))
    return with_seat(
        state,
        0,
        craftsmen=tuple(craftsmen),
        res=tuple(res),
        gold=gold,
        vp=vp,
        boost=boost,
        uses=tuple(uses),
        privileges=("jack",) if len(craftsmen) == 6 else (),
    )


def capacity(seat: Seat, card: str) -> int:
    """Uses left this round, from the card data (not from the engine)."""
    c = D.CRAFTSMEN[card]
    done = dict(seat.uses).get(card, 0)
    return c.capacity + (seat.boost == card) - done


def achieved(before: Seat, after: Seat) -> Key:
    """The conversion key of what the seat got: VP gained, gold, resources kept (at most 5).

    Read right after ``convert``: if more than 5 resources remain the engine either waits at
    the "return" step (res still includes the excess) or has returned cubes itself (res is 5);
    min(5, ...) is the same in both cases."""
    return (after.vp - before.vp, after.gold, min(5, sum(after.res)))


def convert(uses: dict[str, int]) -> Action:
    return convert_action(uses) if any(uses.values()) else DONE


# -- exhaustive search through the engine ------------------------------------------------


def box(state: PillarsState) -> list[tuple[str, int, int]]:
    """(card, remaining capacity, search bound) for each non-auto craftsman of the seat.

    Resources are never produced at the cathedral and gold only by the Master Woodworker, so a
    card cannot work more often than its own inputs allow; the bound leaves out only vectors
    that the engine must refuse (``test_pruned_vectors_are_refused`` checks a sample)."""
    seat = state.seats[state.turn]
    earn = sum(capacity(seat, c) for c in seat.craftsmen if D.CRAFTSMEN[c].kind == "woodworker!")
    out = []
    for c in seat.craftsmen:
        spec = D.CRAFTSMEN[c].spec
        if spec.auto:
            continue
        left = capacity(seat, c)
        bound = left
        for r in range(4):
            if spec.inputs[r]:
                bound = min(bound, seat.res[r] // spec.inputs[r])
        if spec.inputs[4]:
            bound = min(bound, (seat.gold + 4 * earn) // spec.inputs[4])
        out.append((c, left, max(bound, 0)))
    return out


def vectors(state: PillarsState) -> list[dict[str, int]]:
    cards = box(state)
    return [
        dict(zip([c for c, _, _ in cards], counts, strict=True))
        for counts in product(*(range(b + 1) for _, _, b in cards))
    ]


def play_key(state: PillarsState, action: Action) -> Key:
    before = state.seats[state.turn]
    after = GAME.apply(state, action).seats[state.turn]
    return achieved(before, after)


def exhaustive(state: PillarsState) -> tuple[Key, int]:
    """The best key over every use vector the engine accepts, and how many it accepted."""
    best: Key | None = None
    feasible = 0
    for uses in vectors(state):
        try:
            key = play_key(state, convert(uses))
        except IllegalAction:
            continue
        feasible += 1
        if best is None or key > best:
            best = key
    assert best is not None, "doing nothing at the cathedral must always be allowed"
    return best, feasible


def search_by_craft(state: PillarsState) -> Key:
    """The best key over every sequence of single ``craft`` actions the engine lists as legal
    (any order, any stopping point): catches a ``convert`` order that loses gold to the cap."""
    i = state.turn
    before = state.seats[i]
    seen: set[object] = set()
    best = achieved(before, before)
    stack = [state]
    while stack:
        st = stack.pop()
        seat = st.seats[i]
        mark = (seat.res, seat.gold, seat.vp, tuple(sorted(seat.uses)))
        if mark in seen:
            continue
        seen.add(mark)
        best = max(best, achieved(before, seat))
        for action in GAME.legal_actions(st):
            if action.verb == "craft":
                stack.append(GAME.apply(st, action))
    return best


# -- random cases ---------------------------------------------------------------------------

BOX_LIMIT = 4000  # vectors per case, so the file runs in seconds


def random_case(rng: random.Random, pool: tuple[str, ...] = POOL) -> PillarsState:
    while True:
        cards = tuple(rng.sample(pool, rng.randint(1, 6)))
        big = rng.random() < 0.3
        res = (
            rng.randint(0, 12 if big else 7),
            rng.randint(0, 12 if big else 7),
            rng.randint(0, 12 if big else 7),
            rng.randint(0, 5),
        )
        gold = rng.choice([0, 1, 2, 3, 29, 30]) if rng.random() < 0.3 else rng.randint(0, 30)
        boostable = [c for c in cards if D.CRAFTSMEN[c].kind not in D.NO_BOOST_KINDS]
        boost = rng.choice(boostable) if boostable and rng.random() < 0.3 else ""
        uses: tuple[tuple[str, int], ...] = ()
        if rng.random() < 0.15:  # some uses already made this round, by single crafts
            c = rng.choice(cards)
            cap = D.CRAFTSMEN[c].capacity + (boost == c)
            uses = ((c, rng.randint(0, cap)),)
        state = at_cathedral(
            cards,
            res,
            gold,
            boost=boost,
            uses=uses,
            vp=rng.randint(0, 40),
            last=rng.random() < 0.2,
        )
        size = 1
        for _, _, b in box(state):
            size *= b + 1
        if size <= BOX_LIMIT:
            return state


def describe(state: PillarsState) -> str:
    s = state.seats[state.turn]
    return f"craftsmen={s.craftsmen} res={s.res} gold={s.gold} boost={s.boost!r} uses={s.uses}"


def check_optimal(state: PillarsState) -> Conversion:
    best = GAME.best_conversion(state)
    want, feasible = exhaustive(state)
    assert feasible >= 1
    assert best.key == want, f"{describe(state)}: best_conversion {best}, exhaustive {want}"
    action = GAME.best_convert_action(state)
    got = play_key(state, action)
    assert got == want, f"{describe(state)}: {action} achieves {got}, exhaustive {want}"
    return best


CASES = 480


@pytest.mark.parametrize(("chunk", "cases"), sampled(
    [(0, CASES // 24)] + [(k, CASES // 8) for k in range(8)], keep=[0]))  # a third of the first
# chunk by default; all 8 whole under -m full
def test_best_conversion_is_optimal(chunk: int, cases: int) -> None:
    rng = random.Random(20_061_000 + chunk)
    for _ in range(cases):
        check_optimal(random_case(rng))


def test_best_conversion_reports_what_the_engine_does() -> None:
    """The Conversion's uses, VP, gold and resources left are what its action produces."""
    rng = random.Random(7)
    checked = 0
    for _ in range(120):
        state = random_case(rng)
        seat = state.seats[0]
        best = GAME.best_conversion(state)
        after_state = GAME.apply(state, GAME.best_convert_action(state))
        after = after_state.seats[0]
        assert best.vp == after.vp - seat.vp, describe(state)
        assert best.gold == after.gold, describe(state)
        if after_state.step == "return" or sum(best.left) <= 5:
            assert after.res == best.left, describe(state)
        if state.queue:  # the round did not end, so this round's uses are still on the seat
            made = dict(after.uses)
            for c, k in seat.uses:
                made[c] -= k
            assert {c: k for c, k in made.items() if k} == best.uses, describe(state)
            checked += 1
        for c, k in best.uses.items():
            assert 1 <= k <= capacity(seat, c), describe(state)
    assert checked > 50


def test_convert_order_loses_nothing_to_single_crafts() -> None:
    """No sequence of single crafts, in any order, beats the best conversion."""
    rng = random.Random(11)
    small = tuple(c for c in POOL if D.CRAFTSMEN[c].capacity <= 4 or c.startswith("goldsmith"))
    for _ in range(40):
        state = random_case(rng, small)
        assert search_by_craft(state) == GAME.best_conversion(state).key, describe(state)


def test_pruned_vectors_are_refused() -> None:
    """The search bound of ``box`` leaves out only vectors the engine refuses."""
    rng = random.Random(3)
    tried = 0
    for _ in range(150):
        state = random_case(rng)
        cards = box(state)
        for card, left, bound in cards:
            if bound >= left:
                continue
            uses = {c: rng.randint(0, b) for c, _, b in cards}
            uses[card] = rng.randint(bound + 1, left)
            with pytest.raises(IllegalAction):
                GAME.apply(state, convert(uses))
            tried += 1
    assert tried > 100


def test_auto_craftsmen_played_into_step() -> None:
    """Tool Maker and Architect fire when the cathedral turn starts (played from the market);
    the best conversion is then optimal over the remaining craftsmen."""
    rng = random.Random(5)
    market1 = D.SPACE_INDEX["market1"]
    for n in range(40):
        autos = AUTO_IDS if n % 3 == 0 else (rng.choice(AUTO_IDS),)
        rest = rng.sample(POOL, rng.randint(0, 4))
        cards = tuple(autos) + tuple(rest)
        res = (rng.randint(0, 5), rng.randint(0, 5), rng.randint(0, 5), rng.randint(0, 2))
        gold = rng.choice([0, 27, 29, 30, rng.randint(0, 30)])
        boost = rng.choice(cards) if n % 4 == 0 else ""
        if boost and D.CRAFTSMEN[boost].kind in D.NO_BOOST_KINDS:
            boost = ""
        vp = rng.randint(0, 20)
        spaces = list(BASE.spaces)
        spaces[market1] = 0
        market = replace(
            BASE,
            step="market",
            turn=0,
            queue=(),
            market_live=(market1,),
            market_slot=market1,
            spaces=tuple(spaces),
        )
        market = with_seat(
            market,
            0,
            craftsmen=cards,
            res=res,
            gold=gold,
            vp=vp,
            boost=boost,
            uses=(),
            privileges=("jack",) if len(cards) == 6 else (),
        )
        state = GAME.apply(market, Action("pass"))
        assert state.step == "cathedral" and state.turn == 0
        seat = state.seats[0]
        gold_want, vp_want = gold, vp
        for c in autos:
            times = 1 + (boost == c)
            if c.startswith("toolmaker") and res[D.METAL]:
                gold_want = min(D.GOLD_LIMIT, gold_want + 2 * times)
            if c.startswith("architect"):
                vp_want += times
        assert (seat.gold, seat.vp, seat.res) == (gold_want, vp_want, res)
        for c in autos:
            with pytest.raises(IllegalAction, match="works by itself"):
                GAME.apply(state, Action("craft", (c,)))
            assert Action("craft", (c,)) not in GAME.legal_actions(state)
        check_optimal(state)


def test_worst_realistic_hand_runs() -> None:
    """Six craftsmen with every shared input, 5 of each resource, 30 gold: the largest search
    a real table meets.  (Its speed is measured by the benchmark, not asserted here.)"""
    hand = ("bellmaker6", "glassblower5", "organbuilder6", "woodworker1", "goldsmith6", "mason4")
    state = at_cathedral(hand, (5, 5, 5, 5), 30)
    best = best_conversion(
        [(D.CRAFTSMEN[c], D.CRAFTSMEN[c].capacity) for c in hand], (5, 5, 5, 5), 30, False
    )
    assert best == GAME.best_conversion(state)
    # Bellmaker 2x4 + Glassblower 2x3 + Organ Builder 1x6 need 5 metal; Goldsmith 8x1 from
    # 30 + 8 gold; the Mason has no Mortar Mixer.
    assert best.key == (28, 14, 5)
    assert best.key == exhaustive(state)[0]


def test_best_conversion_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    hand = ("bellmaker6", "glassblower5", "organbuilder6", "woodworker1", "goldsmith6", "mason4")
    GAME.best_conversion(at_cathedral(hand, (5, 5, 5, 5), 30))
    assert capsys.readouterr() == ("", "")


# -- the rulebook's examples ----------------------------------------------------------------


def play(state: PillarsState, *texts: str) -> PillarsState:
    for text in texts:
        state = GAME.apply_text(state, text)
    return state


def test_master_woodworker_twice_per_round() -> None:
    """1 wood -> 4 gold, at most twice per round: with 5 wood, 2 uses and 8 gold."""
    state = at_cathedral(("woodworker1",), (0, 5, 0, 0), 0)
    assert D.CRAFTSMEN["woodworker1"].kind == "woodworker!"
    best = GAME.best_conversion(state)
    assert best.uses == {"woodworker1": 2}
    assert (best.vp, best.gold, best.left) == (0, 8, (0, 3, 0, 0))
    after = play(state, "craft woodworker1", "craft woodworker1")
    assert (after.seats[0].gold, after.seats[0].res) == (8, (0, 3, 0, 0))
    assert Action("craft", ("woodworker1",)) not in GAME.legal_actions(after)
    with pytest.raises(IllegalAction) as exc:
        play(after, "craft woodworker1")
    assert "at most 2 times" in exc.value.reason and "has worked 2" in exc.value.reason
    with pytest.raises(IllegalAction, match="at most 2 times"):
        play(state, "convert woodworker1x3")


def test_goldsmith_12_gold_make_4_vp() -> None:
    state = at_cathedral(("goldsmith5",), gold=12, vp=5)
    best = GAME.best_conversion(state)
    assert best.uses == {"goldsmith5": 4}
    assert (best.vp, best.gold) == (4, 0)
    after = play(state, "convert goldsmith5x4").seats[0]
    assert (after.vp, after.gold) == (9, 0)
    with pytest.raises(IllegalAction, match="needs 3 gold, there is 0"):
        play(state, "convert goldsmith5x5")


def test_potter_2_sand_make_2_vp() -> None:
    state = at_cathedral(("potter2",), (0, 0, 2, 0), vp=3)
    best = GAME.best_conversion(state)
    assert best.uses == {"potter2": 2}
    assert (best.vp, best.left) == (2, (0, 0, 0, 0))
    after = play(state, str(GAME.best_convert_action(state))).seats[0]
    assert (after.vp, after.res) == (5, (0, 0, 0, 0))


def test_mason_needs_a_mortar_mixer() -> None:
    no_mortar = at_cathedral(("mason1", "stonecutter0r", "woodworker0r"), (3, 0, 0, 0))
    best = GAME.best_conversion(no_mortar)
    assert "mason1" not in best.uses
    assert best.key == (1, 0, 1)  # the Stonecutter: 2 stone -> 1 VP, 1 stone kept
    assert Action("craft", ("mason1",)) not in GAME.legal_actions(no_mortar)
    with pytest.raises(IllegalAction, match="Mortar Mixer"):
        play(no_mortar, "craft mason1")
    # Any Mortar Mixer will do (ruling P13): the starting card or the round-1 "!" card.
    for mortar in ("mortar0r", "mortar1"):
        state = at_cathedral(("mason1", "stonecutter0r", mortar), (3, 0, 0, 0))
        best = GAME.best_conversion(state)
        assert best.uses == {"mason1": 2}
        assert best.key == (2, 0, 1)
        assert play_key(state, GAME.best_convert_action(state)) == (2, 0, 1)


def test_gold_limit_30_with_the_master_woodworker() -> None:
    """Ruling P2: gold stops at 30, so at 28 gold a second use only wastes wood."""
    state = at_cathedral(("woodworker1",), (0, 2, 0, 0), 28)
    assert play(state, "convert woodworker1x2").seats[0].gold == 30
    best = GAME.best_conversion(state)
    assert best.uses == {"woodworker1": 1}
    assert best.key == (0, 30, 1)
    full = at_cathedral(("woodworker1",), (0, 2, 0, 0), 30)
    assert GAME.best_convert_action(full) == DONE
    assert GAME.best_conversion(full).key == (0, 30, 2)


def test_gold_limit_30_bites_as_late_as_possible() -> None:
    """At 30 gold the Goldsmith spends before the Master Woodworker earns: 30 - 24 + 8 = 14.
    Earning first would waste the 8 gold (30 - 24 = 6)."""
    state = at_cathedral(("goldsmith6", "woodworker1"), (0, 2, 0, 0), 30)
    best = GAME.best_conversion(state)
    assert best.uses == {"goldsmith6": 8, "woodworker1": 2}
    assert best.key == (8, 14, 0)
    assert play_key(state, GAME.best_convert_action(state)) == (8, 14, 0)
    wasteful = play(state, "craft woodworker1", "craft woodworker1", *["craft goldsmith6"] * 8)
    assert wasteful.seats[0].gold == 6


def test_gold_limit_30_when_gold_runs_short() -> None:
    """With 2 gold the Master Woodworker earns just in time for each Goldsmith use."""
    state = at_cathedral(("goldsmith5", "woodworker1"), (0, 2, 0, 0), 2)
    best = GAME.best_conversion(state)
    assert best.key == (3, 1, 0)
    assert play_key(state, convert_action({"goldsmith5": 3, "woodworker1": 2})) == (3, 1, 0)


def test_boost_adds_one_use() -> None:
    """Event "Archbishop" (ruling P12): the boosted craftsman works once more this round."""
    plain = at_cathedral(("woodworker1",), (0, 5, 0, 0))
    boosted = at_cathedral(("woodworker1",), (0, 5, 0, 0), boost="woodworker1")
    assert GAME.best_conversion(plain).uses == {"woodworker1": 2}
    assert GAME.best_conversion(boosted).uses == {"woodworker1": 3}
    assert play_key(boosted, convert_action({"woodworker1": 3})) == (0, 12, 2)
