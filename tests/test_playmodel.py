"""The learned model of card play: canonical suits, the public moments read back from an
observation, the batched likelihoods against a plain row-by-row reference, examples and
training reproducible from a seed, the shipped weights, and the search player using them."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from program_loader import load_program
from rebelote.actions import PLAY, Play
from rebelote.bots import make_bot
from rebelote.bots.pimc import PimcBot, Worlds, budget_of
from rebelote.bots.playmodel import (
    FEATURES,
    cross_entropy,
    deal_examples,
    forward,
    inputs,
    mask_bits,
    moment_of,
    moments,
    play_log_weights,
    shipped_model,
    slots,
    train,
    uniform_cross_entropy,
)
from rebelote.deal import DealState
from rebelote.rules import Rules, legal_mask, parse_rules, seat_step

RULES = parse_rules("contree:ffb-ludique,failure_base=162,rounding=none")


def _played(seed: int, cards: int, rules: Rules = RULES) -> list[DealState]:
    """The states of a heuristic deal where the seat to play holds ``cards`` cards (a suit
    trump), or none."""
    bot = make_bot("heuristic")
    rng = random.Random(seed)
    state = DealState.new(rules, dealer=seed % 4, seed=seed)
    out = []
    while not state.is_terminal:
        obs = state.observation(state.player)
        if state.phase == PLAY and 0 <= state.trump < 4 and obs.hand.bit_count() == cards:
            out.append(state)
        state = state.apply(bot.act(obs, rng))
    return out


def _states(cards: int, count: int) -> list[DealState]:
    got: list[DealState] = []
    seed = 0
    while len(got) < count:
        got.extend(_played(seed, cards))
        seed += 1
    return got[:count]


def test_the_canonical_order_is_trump_first_strongest_first() -> None:
    for trump in range(4):
        order = slots(trump)
        assert sorted(order.tolist()) == list(range(32))
        assert order[0] == trump * 8 + 4 and order[1] == trump * 8 + 2  # J, 9 of trumps
        assert all(c >> 3 == trump for c in order[:8])
        assert [c >> 3 for c in order[8::8]] == [s for s in range(4) if s != trump]
        assert [c & 7 for c in order[8:16]] == [7, 3, 6, 5, 4, 2, 1, 0]  # A 10 K Q J 9 8 7
    bits = mask_bits(np.asarray([1 << (1 * 8 + 4)], dtype=np.int64), 1)
    assert bits[0, 0] == 1.0 and bits.sum() == 1.0


def test_the_moments_are_the_engines_as_the_deal_was_played() -> None:
    """Each card another seat played, read back from an observation, is the seat the engine
    had to play, its public moment (gone, trick, winner so far) the engine's then, and the
    cards it had played before."""
    bot = make_bot("heuristic")
    for seed in range(6):
        rng = random.Random(seed)
        state = DealState.new(RULES, dealer=seed % 4, seed=seed)
        seen: list[tuple[DealState, int]] = []
        while not state.is_terminal:
            action = bot.act(state.observation(state.player), rng)
            if state.phase == PLAY and isinstance(action, Play):
                seen.append((state, action.card))
            state = state.apply(action)
            if state.phase == PLAY and state.trump < 4 and len(seen) >= 13:
                break
        if state.is_terminal or not seen:
            continue
        me = state.player
        got = moments(state.observation(me))
        expected = [(s, c) for s, c in seen if s.player != me]
        assert len(got) == len(expected)
        for (m, card, before), (s, c) in zip(got, expected, strict=True):
            truth = moment_of(s)
            assert (m.seat, m.gone, m.trick, m.win, m.tricks_done) == \
                (truth.seat, truth.gone, truth.trick, truth.win, truth.tricks_done)
            assert card == c
            assert s.start_hands[m.seat] & ~before == s.hands[m.seat]


def _reference_log_weights(obs_state: DealState, worlds: list[DealState],
                           model: dict[str, np.ndarray], floor: float) -> list[float]:
    """The same as :func:`play_log_weights`, row by row: each world replayed by the engine
    from its first lead, each other seat's card's probability from one row of the model
    over the legal cards the engine gives there."""
    me = obs_state.player
    cards = [c for _, t in obs_state.tricks for c in t] + list(obs_state.trick)
    out = []
    for world in worlds:
        first = world.first
        state = world.replace(hands=world.start_hands, phase=PLAY, player=first, leader=first,
                              trick=(), win=0, tricks=(), points=(0, 0), winners=0)
        total = 0.0
        for card in cards:
            p = state.player
            if p != me:
                m = moment_of(state)
                contract = obs_state.observation(me).contract
                assert contract is not None
                m = m._replace(value=contract.value, multiplier=obs_state.auction.multiplier)
                x = inputs(np.asarray([state.hands[p]], dtype=np.int64), m,
                           seat_step(state.rules))
                legal = state.playable
                assert legal == legal_mask(state.hands[p], state.trick, state.win,
                                           state.trump, state.rules.overtrump_partner,
                                           state.rules.must_undertrump)
                logp = forward(model, x, mask_bits(np.asarray([legal], dtype=np.int64),
                                                    state.trump))
                k = int(np.flatnonzero(slots(state.trump) == card)[0])
                total += max(float(logp[0, k]), math.log(floor))
            state = state.apply(Play(card))
        out.append(total)
    return out


def test_the_batched_likelihoods_equal_a_plain_replay() -> None:
    """The fast path (every world and card in one product, hands from masks, one row for each
    hand a seat held at a moment however many worlds share it) against the engine's replay of
    each world, card by card, one row at a time."""
    model = shipped_model()
    shared = 0
    for cards in (7, 5, 3):
        for state in _states(cards, 3):
            obs = state.observation(state.player)
            dealer = Worlds(obs)
            rng = random.Random(cards)
            worlds = [dealer.deal(rng) for _ in range(5 if cards > 3 else 16)]
            worlds += worlds[:2]  # the same world twice
            fast = play_log_weights(obs, [w.start_hands for w in worlds], model, 0.02)
            plain = _reference_log_weights(state, worlds, model, 0.02)
            assert np.allclose(fast, plain, atol=1e-9)
            assert (fast < 0).all()
            assert fast[-2:].tolist() == fast[:2].tolist()
            # worlds that differ but give a seat the same hand (the rows shared)
            seats = [s for s in range(4) if s != obs.seat]
            shared += sum(len({w.start_hands[s] for w in worlds[:-2]}) < len(worlds) - 2
                          for s in seats)
    assert shared > 0


def test_nothing_to_weigh_and_no_trump_weigh_nothing() -> None:
    model = shipped_model()
    state = _states(8, 1)[0]
    obs = state.observation(state.player)
    hands = [state.start_hands] * 3
    if not obs.trick:
        assert play_log_weights(obs, hands, model, 0.02).tolist() == [0.0, 0.0, 0.0]
    assert play_log_weights(obs._replace(trump=4), hands, model, 0.02).tolist() == [0.0] * 3


def test_examples_and_training_are_reproducible_and_learn() -> None:
    parts = [deal_examples(3, i) for i in range(12)]
    again = [deal_examples(3, i) for i in range(12)]
    for a, b in zip(parts, again, strict=True):
        assert all(np.array_equal(u, v) for u, v in zip(a, b, strict=True))
    x = np.vstack([p[0] for p in parts])
    legal = np.vstack([p[1] for p in parts])
    target = np.vstack([p[2] for p in parts])
    assert x.shape[1] == FEATURES and len(x) >= 12 * 10
    assert np.allclose(target.sum(axis=1), 1.0)
    assert ((target > 0) <= (legal > 0)).all()  # a best card is a legal one
    assert (legal.sum(axis=1) >= 2).all()  # only decisions with a choice
    a = train(x, legal, target, seed=5, epochs=60, hidden=16, batch=64)
    b = train(x, legal, target, seed=5, epochs=60, hidden=16, batch=64)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    c = train(x, legal, target, seed=6, epochs=1, hidden=16, batch=64)
    assert not np.array_equal(a["w1"], c["w1"])
    assert cross_entropy(a, x, legal, target) < uniform_cross_entropy(legal, target)


def test_the_shipped_model_finds_the_true_world_likelier_than_most() -> None:
    """Against the heuristic's play, the true deal's hidden hands are likelier under the
    shipped model than most worlds dealt at random that fit the observation."""
    model = shipped_model()
    assert model["w1"].shape[0] == FEATURES and model["w2"].shape[1] == 32
    ranks = []
    for i, state in enumerate(_states(5, 12)):
        obs = state.observation(state.player)
        dealer = Worlds(obs)
        rng = random.Random(i)
        worlds = [dealer.deal(rng) for _ in range(60)]
        logs = play_log_weights(obs, [state.start_hands] + [w.start_hands for w in worlds],
                                model, 0.02)
        ranks.append(float(np.mean(logs[1:] < logs[0])))
    assert np.mean(ranks) > 0.6


@pytest.mark.parametrize("cards", [8, 6, 4])
def test_the_search_with_the_model_plays_legal_cards_reproducibly(cards: int) -> None:
    budget = replace(budget_of("match"), play_model=0.02, by_cards=(12,), infer_least=3)
    for state in _states(cards, 2):
        obs = state.observation(state.player)
        a = PimcBot(budget=budget).act(obs, random.Random(1))
        b = PimcBot(budget=budget).act(obs, random.Random(1))
        assert a == b and a in obs.legal


def test_the_data_command_makes_the_same_examples_on_a_pool(tmp_path: Path) -> None:
    """scripts/train_play_model.py: the examples of a few deals are the same in this process
    and on a pool of two workers, and ``train`` writes weights the likelihoods load."""
    program = load_program("scripts/train_play_model.py")
    program.CHUNK = 3
    one = program.make_data(4, 10, 7, workers=1)
    two = program.make_data(4, 10, 7, workers=2)
    assert all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))
    data = tmp_path / "x.npz"
    weights = tmp_path / "w.npz"
    assert program.main(["data", "--deals", "10", "--seed", "2", "--out", str(data)]) == 0
    assert program.main(["train", "--data", str(data), "--epochs", "2", "--hidden", "8",
                         "--out", str(weights)]) == 0
    with np.load(weights) as got:
        model = {k: np.asarray(got[k], dtype=np.float64) for k in got.files}
    state = _states(5, 1)[0]
    obs = state.observation(state.player)
    logs = play_log_weights(obs, [state.start_hands], model, 0.02)
    assert logs.shape == (1,) and logs[0] <= 0.0


def test_the_targets_of_a_search_player_are_its_best_mean_over_worlds() -> None:
    """With ``worlds``, the target is the best card of the mean over deals the seat could be
    in: reproducible, a legal card, and not always the true deal's best."""
    one = [deal_examples(5, i, worlds=3) for i in range(4)]
    two = [deal_examples(5, i, worlds=3) for i in range(4)]
    true = [deal_examples(5, i) for i in range(4)]
    for a, b in zip(one, two, strict=True):
        assert all(np.array_equal(u, v) for u, v in zip(a, b, strict=True))
    for a, t in zip(one, true, strict=True):
        assert np.array_equal(a[0], t[0]) and np.array_equal(a[1], t[1])  # the same play
        assert ((a[2] > 0) <= (a[1] > 0)).all()
    assert any(not np.array_equal(a[2], t[2]) for a, t in zip(one, true, strict=True))


def test_points_break_the_ties_of_marks() -> None:
    """``points_eps``: each card's value is its mean mark plus that much a card point of its
    team, over the same worlds (the same draws)."""
    from rebelote.bots.pimc import card_marks

    eps = 0.01
    for state in _states(3, 4) + _states(6, 2):
        obs = state.observation(state.player)
        base = replace(budget_of("match"), by_cards=(6,), points_eps=0.0, every_below=0)
        marks = card_marks(obs, random.Random(2), base)
        mixed = card_marks(obs, random.Random(2), replace(base, points_eps=eps))
        assert marks.keys() == mixed.keys()
        for c in marks:
            assert 0.0 <= mixed[c] - marks[c] <= eps * 252 + 1e-9
        assert any(mixed[c] != marks[c] for c in marks)
