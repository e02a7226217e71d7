"""The others' turns played by a fixed rule (``search@Nto``): The Builders' ``advance`` plays
the other seats' turns by the rules (send the worker that supplies most, else start the best
building the seat can finish, else coins) to the start of the seat's next turn, The Pillars'
plays the other seats' decisions (craft all they can at the cathedral, skip the market, else as
the random playout) to the seat's next decision, and a search so named searches its own
decisions only; the same seed gives the same decision.  The Builders' ``conclude`` ends a leaf
of ``search@Nao`` so: the seat's own AP as coins, the others' turns by the same rule."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.bots import SearchBot, make_bot
from companion.bots import search as search_module
from companion.builders.actions import END_TURN, TAKE_COINS, Send, Start, TakeCoins
from companion.builders.checks import NEEDS, SUPPLY
from companion.builders.constants import START_AP
from companion.builders.sim import _WORTH, BuildersSim, _best_start
from companion.engine import CHANCE, TERMINAL, get_game
from tests.bots_helpers import random_positions
from tests.sweeps import sampled

from .test_bots_plan import LAVOIR, PAIR
from .test_bots_plan import _hold as _plan_hold
from .test_bots_settle import _positions

BUILDERS = get_game("builders")
PILLARS = get_game("pillars")


def _recorded(
    sim: Any, seat: int, rng: random.Random, way: str = "advance"
) -> list[tuple[Any, Any]]:
    """Each (state before, action) ``advance`` (or the method ``way``) applies to ``sim``,
    chance included."""
    steps: list[tuple[Any, Any]] = []
    kind = type(sim)
    apply = kind.apply

    def record(self: Any, action: Any) -> None:
        if self is sim:
            steps.append((self.freeze(), action))
        apply(self, action)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kind, "apply", record)
        getattr(sim, way)(seat, rng)
    return steps


def _gain(state: Any, action: Send) -> int:
    """What a send supplies of what its site still needs (by the rules' state)."""
    me = state.players[state.turn_player]
    site = next(s for s in me.sites if s.card == action.site)
    need = NEEDS[action.site]
    return sum(
        min(h, max(n - d, 0))
        for h, n, d in zip(SUPPLY[action.worker], need, site.supplied, strict=True)
    )


def _hold(
    sim: BuildersSim, seat: int, coins: int, idle: list[str], sites: list[tuple[str, list[int]]]
) -> None:
    """As the plan tests hold a seat (a copy of ``idle``: ``advance`` sends from it), and on
    its turn as the turn begins: the start AP, nothing sent or taken."""
    _plan_hold(sim, seat, coins, list(idle), sites)
    if sim.turn_player == seat:
        sim.ap, sim.sent, sim.coin_ap = START_AP, {}, 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_advance_plays_the_others_turns_by_the_rules_to_the_seat_s_next_turn(players: int) -> None:
    sends = 0
    for k, sim in enumerate(_positions(players, 30 + players, 8)):
        seat = (sim.current_player() + 1 + k % (players - 1)) % players  # another seat
        turn = sim.turn
        for before, action in _recorded(sim, seat, random.Random(k)):
            if BUILDERS.current_player(before) == CHANCE:
                continue
            assert before.turn_player != seat  # only the others' turns
            legal = BUILDERS.legal_actions(before)
            assert action in legal  # the rules allow every step
            gains = [_gain(before, a) for a in legal if isinstance(a, Send)]
            if isinstance(action, Send):
                sends += 1
                assert _gain(before, action) == max(gains) > 0  # the most supplying send
                continue
            assert not any(gains)  # no send that supplies anything was passed over
            if isinstance(action, Start):
                assert not before.players[before.turn_player].sites
            else:  # the AP as coins, as many as the table gives at once, or the turn ended
                coins = [a for a in legal if isinstance(a, TakeCoins)]
                assert action == (max(coins, key=lambda a: a.ap) if coins else END_TURN)
        if sim.current_player() != TERMINAL:
            assert sim.current_player() == seat and sim.turn > turn and not sim.sent
    assert sends  # the rule builds, not only takes coins


def test_a_seat_with_an_open_site_sends_the_worker_that_supplies_most() -> None:
    sim = _positions(2, 3, 1)[0]
    other = sim.current_player()
    seat = 1 - other
    _hold(sim, other, 10, ["apprenti-0011", *PAIR[:1]], [(LAVOIR, [0, 0, 0, 0])])
    steps = [
        a for s, a in _recorded(sim, seat, random.Random(0)) if BUILDERS.current_player(s) != CHANCE
    ]
    assert steps[0] == Send("apprenti-0101", LAVOIR)  # supplies two of what it needs, not one


def test_with_no_site_open_it_starts_the_building_worth_most_it_can_finish() -> None:
    sim = _positions(2, 3, 1)[0]
    other = sim.current_player()
    _hold(sim, other, 4, PAIR, [])
    # grue-1 (worth 1.0) and lavoir (1.6) are within reach; the rest of the row is not
    reach = [c for c in sim.building_row if c not in (LAVOIR, "grue-1")]
    sim.building_row = ["grue-1", LAVOIR, *reach[:2]]
    p = sim.players[other]
    assert _best_start(p, sim.building_row) == LAVOIR
    assert all(_WORTH[c] < _WORTH[LAVOIR] or _best_start(p, [c]) is None for c in reach[:2])
    steps = [
        a
        for s, a in _recorded(sim, 1 - other, random.Random(0))
        if BUILDERS.current_player(s) != CHANCE
    ]
    assert steps[0] == Start(LAVOIR)
    _hold(sim, other, 3, PAIR, [])  # one wage of the two: lavoir out of reach, grue-1 not
    assert _best_start(p, ["grue-1", LAVOIR]) == "grue-1"
    p.idle = ()
    assert _best_start(p, ["grue-1", LAVOIR]) is None


def test_with_nothing_to_build_it_takes_its_ap_as_coins() -> None:
    sim = _positions(2, 3, 1)[0]
    other = sim.current_player()
    _hold(sim, other, 0, [], [])
    coins = sim.players[other].coins
    ap = sim.ap
    steps = [
        a
        for s, a in _recorded(sim, 1 - other, random.Random(0))
        if BUILDERS.current_player(s) != CHANCE
    ]
    assert steps[0] == TAKE_COINS[min(ap, 3) - 1]
    assert sim.players[other].coins >= coins + (0, 1, 3, 6)[min(ap, 3)]


def _movers(bot: SearchBot, sim: Any, seat: int, monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The seats whose decisions the search's tree holds."""
    seen: set[int] = set()
    options = search_module.options

    def spy(state: Any) -> list[Any]:
        seen.add(state.current_player())
        return options(state)

    monkeypatch.setattr(search_module, "options", spy)
    bot.rank(sim, seat, random.Random(2))
    monkeypatch.undo()
    return seen


@pytest.mark.parametrize("players", [2, 4])
def test_an_o_search_holds_only_the_seat_s_own_decisions(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    sim = _positions(players, 11, 1)[0]
    seat = sim.current_player()
    bot = make_bot("search@600nto+plan")
    assert isinstance(bot, SearchBot) and bot.others and bot.settle and bot.normalize
    assert _movers(bot, sim, seat, monkeypatch) == {seat}
    assert bot.last_iterations > 100
    # without ``o`` the tree holds the others' decisions too
    assert len(_movers(make_bot("search@600nt+plan"), sim, seat, monkeypatch)) > 1


@pytest.mark.parametrize(
    ("players", "bot", "other"),
    sampled([
        (2, "search@300nto+plan", "search@300nt+plan"),
        (3, "search@300nao+plan", "search@300nto+plan"),
    ], keep=[0]),  # both under -m full (lab variants: no strength plays them)
)
def test_an_o_or_a_search_is_deterministic_and_decides_otherwise(
    players: int, bot: str, other: str
) -> None:
    changed = 0
    for k, sim in enumerate(_positions(players, 23, 6)):
        seat = sim.current_player()
        first = make_bot(bot).rank(sim, seat, random.Random(k), top=4)
        assert first == make_bot(bot).rank(sim.copy(), seat, random.Random(k), top=4)
        changed += first != make_bot(other).rank(sim, seat, random.Random(k), top=4)
    assert changed > 0  # the others in the walks (o) or in the leaves (a) move the rankings


def test_o_names_and_a_game_without_advance() -> None:
    bot = make_bot("search@2000c0.2nto+plan")
    assert isinstance(bot, SearchBot) and bot.name == "search@2000c0.2nto+plan"
    assert (bot.others, bot.normalize, bot.settle, bot.exploration, bot.evaluation) == (
        True,
        True,
        True,
        0.2,
        "plan",
    )
    assert make_bot("search@500o").name == "search@500o"
    plain = make_bot("search@500")
    assert isinstance(plain, SearchBot) and not plain.others
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("search@500ot")  # o comes after t
    # a game without ``advance`` (the third game of the tests): its tree searches every
    # seat, the same decisions
    for k, sim in enumerate(random_positions("dicerace", 2, 5, 3)):
        assert not hasattr(sim, "advance")
        seat = sim.current_player()
        assert make_bot("search@200o").rank(sim, seat, random.Random(k)) == make_bot(
            "search@200"
        ).rank(sim.copy(), seat, random.Random(k))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_pillars_advance_plays_the_others_decisions_to_the_seat_s_next(players: int) -> None:
    crafts = passes = 0
    for k, sim in enumerate(random_positions("pillars", players, 40 + players, 12)):
        seat = (sim.current_player() + 1 + k % (players - 1)) % players  # another seat
        steps = _recorded(sim, seat, random.Random(k))
        for before, action in steps:
            if PILLARS.current_player(before) == CHANCE:
                continue
            assert PILLARS.current_player(before) != seat  # only the others' decisions
            legal = PILLARS.legal_actions(before)
            assert action in legal  # the rules allow every step
            if before.step == "cathedral":  # every craft it can, then done
                assert action == legal[0]
                crafts += action.verb != "done"
            if before.step == "market":  # the market skipped
                assert action.verb == "pass"
                passes += 1
        assert sim.current_player() in (seat, TERMINAL)  # stopped at the seat's decision
    assert crafts and passes  # the rule met both


def test_a_pillars_o_search_holds_only_the_seat_s_own_decisions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched = 0
    for k, sim in enumerate(random_positions("pillars", 3, 9, 4)):
        seat = sim.current_player()
        bot = make_bot("search@300o")
        assert _movers(bot, sim, seat, monkeypatch) == {seat}
        # without ``o`` the tree holds the others' decisions too
        searched += len(_movers(make_bot("search@300"), sim, seat, monkeypatch)) > 1
        first = bot.rank(sim, seat, random.Random(k), top=3)
        assert first == make_bot("search@300o").rank(sim.copy(), seat, random.Random(k), top=3)
    assert searched


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conclude_takes_the_seat_s_ap_as_coins_and_plays_the_others_by_the_rule(
    players: int,
) -> None:
    built = 0
    for k, sim in enumerate(_positions(players, 50 + players, 8)):
        seat = sim.current_player()  # the seat, in its own turn
        turn = sim.turn
        for before, action in _recorded(sim, seat, random.Random(k), "conclude"):
            if BUILDERS.current_player(before) == CHANCE:
                continue
            legal = BUILDERS.legal_actions(before)
            assert action in legal  # the rules allow every step
            if before.turn_player == seat:  # its own AP as coins, as ``settle`` takes them
                coins = [a for a in legal if isinstance(a, TakeCoins)]
                assert action == (max(coins, key=lambda a: a.ap) if coins else END_TURN)
            else:  # the others' turns as ``advance`` plays them
                assert action == BuildersSim.thaw(before).rule_action()
                built += isinstance(action, (Send, Start))
        if sim.current_player() != TERMINAL:
            assert sim.current_player() == seat and sim.turn > turn and not sim.sent
    assert built  # the others build, not only take coins


def test_only_an_a_search_concludes_its_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    sim = _positions(3, 7, 1)[0]
    seat = sim.current_player()
    calls = {"settle": 0, "conclude": 0}
    for way in calls:
        method = getattr(BuildersSim, way)

        def counted(
            self: BuildersSim, seat: int, rng: random.Random, m: Any = method, w: str = way
        ) -> None:
            calls[w] += 1
            m(self, seat, rng)

        monkeypatch.setattr(BuildersSim, way, counted)
    bot = make_bot("search@200nao+plan")
    assert isinstance(bot, SearchBot) and bot.conclude and bot.settle and bot.others
    bot.rank(sim, seat, random.Random(1))
    concluded = calls["conclude"]
    assert calls["settle"] == 0 and 0 < concluded <= 200
    make_bot("search@200nto+plan").rank(sim, seat, random.Random(1))
    assert 0 < calls["settle"] <= 200 and calls["conclude"] == concluded


def test_a_names_and_a_game_without_conclude() -> None:
    bot = make_bot("search@4000c0.2nao+plan")
    assert isinstance(bot, SearchBot) and bot.name == "search@4000c0.2nao+plan"
    assert bot.conclude and bot.settle and bot.others and not bot.horizon
    assert bot.exploration == 0.2
    made = SearchBot(think=None, iterations=50, conclude=True, others=True, evaluation="plan")
    assert made.name == "search@50ao+plan"
    for name in ("search@500at", "search@500oa", "search@500ta", "search@500ah"):
        with pytest.raises(ValueError, match="unknown bot"):
            make_bot(name)
    # The Pillars has no ``conclude`` (nor ``settle``): its leaves are judged as they are
    for k, state in enumerate(random_positions("pillars", 3, 4, 2)):
        assert not hasattr(state, "conclude")
        seat = state.current_player()
        assert make_bot("search@150ao").rank(state, seat, random.Random(k), top=5) == make_bot(
            "search@150o"
        ).rank(state.copy(), seat, random.Random(k), top=5)
