"""Worlds uniform over the deals that fit an observation: every deal listed (against a plain
enumeration of every way to deal the hidden cards, each replayed by the engine), the draws'
weights that make them uniform, and the search solving every world once when they are few."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import replace

import pytest

from rebelote.actions import PLAY, PLAYS
from rebelote.bots import make_bot
from rebelote.bots.pimc import Marker, budget_of, card_marks, tricks_won, world_weight
from rebelote.cards import mask_cards
from rebelote.deal import DealState
from rebelote.determinize import every_deal, uniform_deal
from rebelote.errors import IllegalActionError
from rebelote.observation import Observation
from rebelote.rules import parse_rules
from rebelote.solver import position_of_state, solve

RULES = parse_rules("contree:ffb-ludique,failure_base=162,rounding=none")


def _positions(cards: int, count: int) -> list[DealState]:
    """Heuristic deals' states where the seat to play holds ``cards`` cards and has a
    choice."""
    bot = make_bot("heuristic")
    out: list[DealState] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        state = DealState.new(RULES, dealer=seed % 4, seed=seed)
        while not state.is_terminal:
            obs = state.observation(state.player)
            if state.phase == PLAY and obs.hand.bit_count() == cards and len(obs.legal) > 1:
                out.append(state)
                break
            state = state.apply(bot.act(obs, rng))
        seed += 1
    return out


def _replays(obs: Observation, start: list[int]) -> bool:
    """Whether the deal whose hands were ``start`` when the play began gives the seat the
    observation ``obs`` when the auction and cards seen are replayed on it (the engine's
    judgement, no constraint of ours)."""
    try:
        return _replayed(obs, start).observation(obs.seat) == obs
    except IllegalActionError:
        return False


def _weighted_means(obs: Observation, worlds: list[tuple[DealState, float]]
                    ) -> dict[int, float]:
    """Each legal card's mean mark for the seat's team over ``worlds`` (a world and its
    weight), computed world by world: the solver's values through the deal's scoring."""
    team = obs.seat & 1
    total: dict[int, float] = {}
    weights = 0.0
    for world, w in worlds:
        marker = Marker(world, world.taker, obs.contract, obs.multiplier)
        won = tricks_won(world.tricks, world.leader)[team] > 0
        for c, v in solve(position_of_state(world), obs.rules).items():
            total[c] = total.get(c, 0.0) + w * marker.mark(team, v, won, team)
        weights += w
    return {c: t / weights for c, t in total.items()}


def _replayed(obs: Observation, start: list[int]) -> DealState:
    """The deal of hands ``start`` with the observation's calls and cards replayed on it."""
    world = DealState.from_hands(obs.rules, obs.dealer, start)
    for _, bid in obs.auction:
        world = world.apply(bid)
    for _, cards in (*obs.tricks, (obs.leader, obs.trick)):
        for c in cards:
            world = world.apply(PLAYS[c])
    return world


def _plain_every(obs: Observation) -> set[tuple[int, ...]]:
    """Every deal that fits, by brute force: each hidden card given to each other seat in
    every way with the right counts, kept when the engine replays the deal to ``obs``."""
    played = obs.played_by()
    me = obs.seat
    gone = played[0] | played[1] | played[2] | played[3]
    hidden = mask_cards(0xFFFFFFFF & ~(obs.hand | gone))
    others = [s for s in range(4) if s != me]
    need = {s: 8 - played[s].bit_count() for s in others}
    out: set[tuple[int, ...]] = set()
    for seats in itertools.product(others, repeat=len(hidden)):
        counts = Counter(seats)
        if any(counts[s] != need[s] for s in others):
            continue
        start = [played[s] for s in range(4)]
        start[me] = obs.hand | played[me]
        for c, s in zip(hidden, seats, strict=True):
            start[s] |= 1 << c
        if _replays(obs, start):
            out.add(tuple(start))
    return out


@pytest.mark.parametrize("cards", [2, 3])
def test_every_deal_is_every_deal_the_engine_replays(cards: int) -> None:
    for state in _positions(cards, 5):
        obs = state.observation(state.player)
        got = every_deal(obs, 10_000)
        assert got is not None
        listed = [tuple(start) for start, _ in got]
        assert len(set(listed)) == len(listed)  # each once
        assert set(listed) == _plain_every(obs)
        assert tuple(state.start_hands) in set(listed)  # the true deal among them


def test_every_deal_gives_up_past_its_limit() -> None:
    obs = _positions(3, 1)[0]
    o = obs.observation(obs.player)
    everything = every_deal(o, 100_000)
    assert everything is not None and len(everything) > 3
    assert every_deal(o, len(everything) - 1) is None
    assert every_deal(o, len(everything)) == everything


def test_the_weights_make_the_draws_uniform() -> None:
    """Where the constraints are uneven the draws favour some deals; weighed by the inverse
    of their chance (what :func:`uniform_deal` returns) each deal holds its equal share. The
    last two cards of a deal: the king of trumps held by the one seat not void in trumps, a
    queen in each of two other seats, voids in clubs and in spades."""
    from rebelote.determinize import _assign

    kh, qc, qd, qs = 0, 1, 2, 3
    pool = [kh, qc, qd, qs]
    need = [1, 1, 0, 2]
    forbid = [1 << kh | 1 << qs, 1 << kh | 1 << qc, 0xFFFFFFFF, 0]
    rng = random.Random(5)
    count: Counter[tuple[int, ...]] = Counter()
    weight: Counter[tuple[int, ...]] = Counter()
    n = 30_000
    for _ in range(n):
        odds: list[float] = []
        hands = _assign(pool, need, forbid, rng, odds)
        assert hands is not None and len(odds) == 1
        count[tuple(hands)] += 1
        weight[tuple(hands)] += 1.0 / odds[0]
    assert len(count) == 3
    total = sum(weight.values())
    assert max(abs(c / n - 1 / 3) for c in count.values()) > 0.05  # the draws alone: uneven
    assert max(abs(w / total - 1 / 3) for w in weight.values()) < 0.015


def test_the_weighted_draws_of_real_positions_are_uniform() -> None:
    checked = 0
    for state in _positions(2, 20):
        obs = state.observation(state.player)
        every = every_deal(obs, 12)
        if every is None or len(every) < 3:
            continue
        rng = random.Random(7)
        weight: Counter[tuple[int, ...]] = Counter()
        for _ in range(6000):
            (start, _), w = uniform_deal(obs, rng)
            weight[tuple(start)] += w
        total = sum(weight.values())
        assert set(weight) == {tuple(s) for s, _ in every}
        share = 1.0 / len(every)
        assert all(abs(w / total - share) < 0.15 * share for w in weight.values())
        checked += 1
    assert checked >= 2


def test_stuck_draws_fall_back_on_a_uniform_choice_weighed_on_the_draws_scale() -> None:
    """With no random try left, :func:`uniform_deal` draws among the listed deals, each with
    the weight N (its chance 1/N): on the scale of the draws' inverse chances, not 1."""
    checked = 0
    for state in _positions(2, 10):
        obs = state.observation(state.player)
        every = every_deal(obs, 50)
        if every is None or len(every) < 2:
            continue
        listed = {tuple(s) for s, _ in every}
        rng = random.Random(3)
        seen: Counter[tuple[int, ...]] = Counter()
        for _ in range(40 * len(every)):
            (start, _), w = uniform_deal(obs, rng, tries=0)
            assert w == float(len(every))
            seen[tuple(start)] += 1
        assert set(seen) == listed  # every one drawn, none outside
        # the draws' own weights average N too (an unbiased estimate of the count of deals)
        drawn = [uniform_deal(obs, rng)[1] for _ in range(3000)]
        assert abs(sum(drawn) / len(drawn) - len(every)) < 0.1 * len(every)
        checked += 1
    assert checked >= 2


def test_the_search_solves_every_world_once_when_they_are_few() -> None:
    """``every_below``: each card's value is the mean over every deal that fits, weighed by the
    auction, exactly as computed here world by world."""
    checked = 0
    for state in _positions(2, 4) + _positions(3, 4):
        obs = state.observation(state.player)
        budget = replace(budget_of("match"), every_below=500, tie_break=False, points_eps=0.0)
        got = card_marks(obs, random.Random(1), budget)
        every = every_deal(obs, 500)
        if every is None:
            continue
        checked += 1
        worlds = []
        for start, _ in every:
            world = _replayed(obs, start)
            worlds.append((world, world_weight(world, obs) ** budget.auction_alpha))
        expected = _weighted_means(obs, worlds)
        assert got.keys() == expected.keys()
        for c in got:
            assert got[c] == pytest.approx(expected[c])
    assert checked >= 5


@pytest.mark.parametrize("learned", [False, True])
def test_with_inference_every_world_is_weighed_by_the_play_too(learned: bool) -> None:
    """``every_below`` with inference from the play: no candidates to resample, each deal
    that fits weighed by the auction and by the model's likelihood of the other seats' cards
    (the heuristic's, or the learned model's)."""
    from rebelote.bots.pimc import play_weight
    from rebelote.bots.playmodel import play_log_weights, shipped_model

    checked = 0
    for state in _positions(3, 8):
        obs = state.observation(state.player)
        budget = replace(budget_of("match"), every_below=500, tie_break=False, points_eps=0.0,
                         infer_least=3, play_model=0.02 if learned else 0.0)
        every = every_deal(obs, 500)
        if every is None or len(every) < 2:
            continue
        got = card_marks(obs, random.Random(1), budget)
        worlds = [_replayed(obs, start) for start, _ in every]
        if learned:
            logs = play_log_weights(obs, [w.start_hands for w in worlds], shipped_model(), 0.02)
            play = [math.exp(x - logs.max()) for x in logs]
        else:
            play = [play_weight(w, obs, budget.infer) for w in worlds]
        weighed = [(w, world_weight(w, obs) ** budget.auction_alpha * p)
                   for w, p in zip(worlds, play, strict=True)]
        expected = _weighted_means(obs, weighed)
        assert got.keys() == expected.keys()
        for c in got:
            assert got[c] == pytest.approx(expected[c])
        checked += len(set(play)) > 1  # the play told some worlds apart
    assert checked >= 2


def test_uniform_worlds_are_weighed_by_the_inverse_of_their_draws_chance() -> None:
    """``uniform``: each card's value is the mean of its marks over the worlds drawn, each
    weighed by the auction and by the inverse of its draws' chance, as computed here."""
    from rebelote.bots.pimc import Worlds

    for state in _positions(4, 3) + _positions(6, 1):
        obs = state.observation(state.player)
        budget = replace(budget_of("match"), by_cards=(12,), uniform=True, every_below=0,
                         points_eps=0.0, infer=0.0)
        got = card_marks(obs, random.Random(3), budget)
        dealer = Worlds(obs)
        rng = random.Random(3)
        worlds = []
        for _ in range(12):
            world, odds = dealer.uniform(rng)
            worlds.append((world, world_weight(world, obs) ** budget.auction_alpha * odds))
        expected = _weighted_means(obs, worlds)
        assert got.keys() == expected.keys()
        for c in got:
            assert got[c] == pytest.approx(expected[c])


def test_a_level_with_fields_changed() -> None:
    from rebelote.bots.pimc import with_fields

    bot = with_fields("pimc:match[uniform=0;every_below=16;by_cards=8-4;points_eps=0.5]")
    assert bot.budget == replace(budget_of("match"), uniform=False, every_below=16,
                                 by_cards=(8, 4), points_eps=0.5)
    with pytest.raises(ValueError, match="every_below must be a whole number"):
        with_fields("pimc:match[every_below=many]")
    with pytest.raises(ValueError, match="'colour=red' is not field=value"):
        with_fields("pimc:match[colour=red]")
    with pytest.raises(ValueError, match="budget fields are for pimc"):
        with_fields("heuristic[uniform=1]")


def test_with_declarations_the_worlds_are_uniform_until_one_is_announced() -> None:
    # official coinche counts declarations: while nothing is announced every deal of the
    # hidden cards that keeps the constraints fits (a seat may decline), so Worlds draws them
    # uniformly and lists them, each replayed by the engine and seen by the seat as it saw
    # the deal; once a seat has announced, the plain draws (weight 1) and no listing
    from rebelote.bots.pimc import Worlds
    from rebelote.rules import Rules

    rules = Rules.preset("official", "coinche")
    bot = make_bot("heuristic")
    plain = announced = listed = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = DealState.new(rules, dealer=seed % 4, seed=seed)
        while not state.is_terminal:
            obs = state.observation(state.player)
            if state.phase == PLAY and state.tricks and len(obs.legal) > 1:
                worlds = Worlds(obs)
                assert not worlds.fast
                world, weight = worlds.uniform(random.Random(seed))
                assert world.observation(obs.seat) == obs
                if obs.announced:
                    assert weight == 1.0 and worlds.every(10_000, rng) is None
                    announced += 1
                else:
                    assert weight >= 1.0
                    every = worlds.every(300, rng)
                    if every is not None:
                        assert len(every) == len(every_deal(obs, 300))
                        assert all(w.observation(obs.seat) == obs for w in every)
                        assert len({w.start_hands for w in every}) == len(every)
                        listed += 1
                    plain += 1
            state = state.apply(bot.act(obs, rng))
    assert plain >= 50 and announced >= 50 and listed >= 10
