"""The hand-only learned bidder (``learned:hand``; ``learned`` is the bidder in context,
tests/test_contextual.py): examples from played-out deals, a model reproducible from a seed,
the shipped weights read with NumPy, legal calls."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rebelote.bots import make_bot
from rebelote.bots.heuristic import contract_points
from rebelote.bots.learned import (
    FEATURES,
    LearnedEvaluation,
    examples,
    features,
    mean_squared_error,
    shipped_model,
    train,
)
from rebelote.cards import cards_mask, parse_cards
from rebelote.deal import DealState
from rebelote.rules import Rules


def test_features_have_the_documented_size_and_read_the_trumps() -> None:
    hand = cards_mask(parse_cards(["JH", "9H", "AH", "TH", "AS", "AD", "7C", "8C"]))
    f = features(hand, 1, 0)
    assert len(f) == FEATURES
    assert f[:8] == [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]  # J 9 A 10 of hearts
    assert f[-5:-1] == [1.0, 0.0, 0.0, 0.0] and 0.5 < f[-1] < 1.0  # place, hand_points / 162


def test_training_on_a_small_set_is_reproducible_and_learns() -> None:
    x, y = examples(12, seed=3)
    x2, y2 = examples(12, seed=3)
    assert x.shape == (12 * 4 * 2 * 2, FEATURES) and np.array_equal(x, x2)
    assert np.array_equal(y, y2) and y.min() >= 0 and y.max() <= 252
    a = train(x, y, seed=5, epochs=150)
    b = train(x, y, seed=5, epochs=150)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert mean_squared_error(a, x, y) < 0.5 * float(np.mean((y - y.mean()) ** 2))
    c = train(x, y, seed=6, epochs=150)
    assert not np.array_equal(a["w1"], c["w1"])


def test_the_shipped_model_values_strong_hands_above_weak_ones() -> None:
    model = shipped_model()
    assert model["w1"].shape[0] == FEATURES
    ev = LearnedEvaluation(model)
    strong = cards_mask(parse_cards(["JH", "9H", "AH", "TH", "AS", "AD", "7C", "8C"]))
    weak = cards_mask(parse_cards(["7H", "8H", "KS", "QS", "9D", "8D", "7C", "8C"]))
    assert ev(strong, 1, False) > ev(weak, 1, False) + 40
    # no-trump and all-trump keep the heuristic's evaluation
    assert ev(strong, 4, True) == contract_points(strong, 4, True)


@pytest.mark.parametrize("game,preset", [("coinche", "official"), ("contree", "ffb"),
                                         ("belote", "official")])
def test_the_learned_bidder_plays_whole_deals_legally(game: str, preset: str) -> None:
    rules = Rules.preset(preset, game)
    bot = make_bot("learned:hand")
    contracts = 0
    for seed in range(12):
        state = DealState.new(rules, seed % 4, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            obs = state.observation(state.player)
            action = bot.act(obs, rng)
            assert action in obs.legal
            state = state.apply(action)
        contracts += not state.is_void
    assert contracts >= 4


def test_the_hand_only_bidders_level_is_its_margin() -> None:
    assert make_bot("learned:hand").bid_params.margin == 30.0  # type: ignore[attr-defined]
    assert make_bot("learned:20").bid_params.margin == 20.0  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="margin in card points"):
        make_bot("learned:99")
