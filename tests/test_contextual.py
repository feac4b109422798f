"""The learned bidder in context: its inputs, examples and a model reproducible from a seed,
the shipped weights, expected marks as the rules' scoring counts them, legal calls."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from program_loader import load_program
from rebelote.actions import AUCTION
from rebelote.auction import COINCHE, PASS, SURCOINCHE, Bid
from rebelote.bots import make_bot
from rebelote.bots.contextual import (
    BINS,
    CAPOT,
    CHOSEN,
    INPUTS,
    OUTCOMES,
    CallParams,
    ContextBidder,
    context,
    examples,
    inputs,
    log_loss,
    mark_table,
    outcome_bin,
    outcome_bins,
    parse_params,
    predict,
    shipped_model,
    train,
)
from rebelote.bots.learned import FEATURES
from rebelote.cards import cards_mask, parse_cards
from rebelote.deal import DealState
from rebelote.rules import Rules
from rebelote.scoring import score_deal
from rebelote.summary import DealSummary

COINCHE_RULES = Rules.preset("official", "coinche")
HANDS = [["JH", "9H", "AH", "TH", "AS", "AD", "7C", "8C"],
         ["8H", "7H", "8S", "9S", "9D", "TD", "9C", "TC"],
         ["QH", "KH", "TS", "JS", "JD", "QD", "JC", "QC"],
         ["7S", "QS", "KS", "7D", "8D", "KD", "KC", "AC"]]


def _state(rules: Rules = COINCHE_RULES, dealer: int = 3) -> DealState:
    return DealState.from_hands(rules, dealer, [cards_mask(parse_cards(h)) for h in HANDS])


def test_the_inputs_read_the_hand_and_the_calls_so_far() -> None:
    state = _state()  # dealer W: N speaks first
    for bid in (Bid.parse("80 spades"), Bid.parse("90 hearts"), PASS):
        state = state.apply(bid)
    obs = state.observation(state.player)  # W, after N 80 spades, E 90 hearts, S pass
    assert obs.seat == 3
    row = inputs(obs, 1, 0)
    assert len(row) == INPUTS == FEATURES + 22
    ctx = context(obs, 1, 0)
    assert ctx[0] == 0.0 and ctx[1] == 3 / 8  # coinche, three calls
    assert ctx[2:6] == [1.0, 90 / 160, 1.0, 0.0]  # E (W's partner) bid 90 hearts
    assert ctx[6:10] == [80 / 160, 0.0, 1.0, 1 / 4]  # N bid 80 spades
    assert ctx[12:16] == [90 / 160, 1.0, 0.0, 1.0]  # the contract: 90 hearts, ours
    assert ctx[-4:] == [0.0, 0.0, 0.0, 0.0]  # W takes itself, holds no belote, no tierce
    # the opponent who holds the contract taking, seen from S before its call
    obs_s = _state().apply(Bid.parse("80 spades")).apply(Bid.parse("90 hearts")).observation(2)
    assert context(obs_s, 1, 1)[-4:-2] == [1.0, 0.0]
    assert context(obs_s, 1, 3)[-4:-2] == [0.0, 1.0]
    # S holds the king and queen of hearts
    assert context(obs_s, 1, 0)[-2:] == [1.0, 0.0]
    # the hand's place in the first trick: N leads it
    assert row[FEATURES - 5:FEATURES - 1] == [0.0, 0.0, 0.0, 1.0]


def test_outcome_classes() -> None:
    assert [outcome_bin(o) for o in (0, 9, 10, 81, 162, 249, 250, 262, CAPOT)] == \
        [0, 0, 1, 8, 16, 24, 25, 25, 26]
    # the vectorised classes (training's) are the plain function's, outcome by outcome
    every = np.arange(CAPOT + 1, dtype=np.int64)
    assert outcome_bins(every).tolist() == [outcome_bin(int(o)) for o in every]


def test_examples_and_training_are_reproducible_and_learn() -> None:
    x, y = examples(8, seed=3)
    x2, y2 = examples(8, seed=3)
    assert x.shape[1] == INPUTS and len(x) == len(y) >= 8 * 4 * 4
    assert np.array_equal(x, x2) and np.array_equal(y, y2)
    assert y.min() >= 0 and y.max() <= CAPOT
    a = train(x, y, seed=5, epochs=8, hidden=16)
    b = train(x, y, seed=5, epochs=8, hidden=16)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    c = train(x, y, seed=6, epochs=8, hidden=16)
    assert not np.array_equal(a["w1"], c["w1"])
    untrained = train(x, y, seed=5, epochs=0, hidden=16)
    assert log_loss(a, x, y) < log_loss(untrained, x, y)
    dist = predict(a, x[:5])
    assert dist.shape == (5, OUTCOMES) and np.allclose(dist.sum(axis=1), 1.0)


def test_the_shipped_weights_load_and_value_strong_hands_above_weak_ones() -> None:
    model = shipped_model()
    assert model["w1"].shape == (INPUTS, model["b1"].shape[0])
    assert model["w2"].shape[1] == BINS and model["within"].shape == (BINS, OUTCOMES)
    state = _state()  # N speaks first and holds hearts, E holds the two lowest
    dist = predict(model, np.asarray([inputs(state.observation(0), 1, 0),
                                      inputs(state.observation(1), 1, 0)]))
    points = np.arange(OUTCOMES, dtype=np.float64)
    points[CAPOT] = 252
    assert dist[0] @ points > 130 > 100 > dist[1] @ points


def test_the_mark_table_is_the_rules_scoring() -> None:
    rules = COINCHE_RULES
    table = mark_table(rules, 1, 100, 2)
    for total, want_made in ((90, False), (100, True), (120, True)):
        summary = DealSummary(game="coinche", taker="NS", trump=1,
                              points=(total, 162 - total), contract=100, coinche=2)
        score = score_deal(summary, rules).score
        assert table[total] == score[0] - score[1]
        assert (table[total] > 0) == want_made
    # beyond 162 the excess counts as declarations
    summary = DealSummary(game="coinche", taker="NS", trump=1, points=(162, 0), contract=100,
                          coinche=2, declarations=(20, 0))
    score = score_deal(summary, rules).score
    assert table[182] == score[0] - score[1]
    assert table[CAPOT] > table[162] > 0 > table[0]


def test_the_call_is_the_highest_expected_mark_as_the_scoring_counts_it() -> None:
    """A hand-made model: the taking team's total is exactly 115 whatever the inputs. Then
    contracts up to 110 are made and 120 falls: N bids 110, the made value of highest mark.
    E coinches the opponents' 120, which falls (twice the fall against them), and not their
    100 (made: a coinche would double it for them; E outbids it with the same model)."""
    model = dict(shipped_model())
    model["w2"] = np.zeros_like(model["w2"])
    b2 = np.full(BINS, -50.0)
    b2[11] = 0.0
    model["b2"] = b2
    within = np.zeros((BINS, OUTCOMES))
    within[:, 115] = 1.0
    model["within"] = within
    bot = ContextBidder(model, CallParams())
    obs = _state().observation(0)
    values = dict((str(a), ev) for ev, a in bot.call_values(obs))
    rules = COINCHE_RULES

    def mark(value: int, mult: int) -> int:
        s = DealSummary(game="coinche", taker="NS", trump=0, points=(115, 47),
                        contract=value, coinche=mult)
        sc = score_deal(s, rules).score
        return sc[0] - sc[1]

    assert values["pass"] == 0.0
    assert values["80 spades"] == mark(80, 1) and values["90 spades"] == mark(90, 1)
    assert values["110 spades"] == mark(110, 1) > values["100 spades"] > values["80 spades"] > 0
    assert values["120 spades"] == mark(120, 1) < 0
    assert str(bot.act(obs, random.Random(0))) == "110 spades"
    for value in (120, 100):
        obs_e = _state().apply(Bid.parse(f"{value} spades")).observation(1)
        values = dict((str(a), ev) for ev, a in bot.call_values(obs_e))
        assert values["pass"] == -mark(value, 1)
        assert values["coinche"] == -mark(value, 2)
        call = bot.act(obs_e, random.Random(0))
        assert (call == COINCHE) == (value == 120)
        assert (values["coinche"] > values["pass"]) == (value == 120)


@pytest.mark.parametrize("game,preset", [("coinche", "official"), ("contree", "ffb"),
                                         ("belote", "official")])
@pytest.mark.parametrize("level", [None, "cheapest=1", "bid_margin=-50;coinche_margin=-200"])
def test_the_bidders_calls_are_always_legal(game: str, preset: str, level: str | None) -> None:
    rules = Rules.preset(preset, game)
    bot = make_bot("learned" if level is None else f"learned:{level}")
    assert isinstance(bot, ContextBidder)
    seen: set[str] = set()
    for seed in range(40):
        state = DealState.new(rules, seed % 4, seed=seed)
        rng = random.Random(seed)
        while state.phase == AUCTION:
            obs = state.observation(state.player)
            action = bot.act(obs, rng)
            assert action in obs.legal
            seen.add(getattr(action, "kind", ""))
            state = state.apply(action)
        if seed < 4:
            while not state.is_terminal:
                obs = state.observation(state.player)
                action = bot.act(obs, rng)
                assert action in obs.legal
                state = state.apply(action)
    if game != "belote":
        assert "value" in seen
    if level and "coinche_margin=-200" in level and game != "belote":
        assert {"coinche", "surcoinche"} & seen


def test_no_trump_and_all_trump_are_the_heuristics_calls() -> None:
    """The model has no examples of no-trump or all-trump: the heuristic's bids in them are
    made, and over a contract in force in them the heuristic calls; with ``other_modes=0``
    never."""
    rules = Rules.preset("official", "coinche")
    learned, without = make_bot("learned"), make_bot("learned:other_modes=0")
    heuristic = make_bot("heuristic")
    bids = over = 0
    for seed in range(300):
        state = DealState.new(rules, seed % 4, seed=seed)
        rng = random.Random(seed)
        while state.phase == AUCTION:
            obs = state.observation(state.player)
            theirs = heuristic.act(obs, rng)
            ours = learned.act(obs, rng)
            contract = obs.contract
            if isinstance(theirs, Bid) and theirs.kind == "value" and theirs.trump >= 4:
                assert ours == theirs
                other = without.act(obs, rng)
                assert not (isinstance(other, Bid) and other.kind == "value"
                            and other.trump >= 4)
                bids += 1
            elif contract is not None and contract.kind == "value" and contract.trump >= 4:
                assert ours == theirs
                over += 1
            state = state.apply(theirs)
    assert bids >= 5 and over >= 5


def test_the_levels() -> None:
    assert parse_params("bid_margin=10; cheapest=1").bid_margin == 10.0
    assert parse_params("cheapest=1").cheapest
    bot = make_bot("learned:risk=0;top=120")
    assert isinstance(bot, ContextBidder)
    for game, chosen in CHOSEN.items():
        assert bot.params[game] == replace(chosen, risk=0.0, top=120)
        assert make_bot("learned").params[game] == chosen  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="name=value"):
        make_bot("learned:lots")
    assert make_bot("learned:hand").bid_params.margin == 30.0  # type: ignore[attr-defined]
    assert make_bot("learned:20").bid_params.margin == 20.0  # type: ignore[attr-defined]
    assert SURCOINCHE != COINCHE


def test_the_search_takes_the_learned_bidders_calls_as_its_prior() -> None:
    """``pimc:cards+learned`` makes the learned bidder's calls (``cards`` bids as its
    prior)."""
    from rebelote.bots.pimc import PimcBot, budget_of

    bot = make_bot("pimc:cards+learned")
    assert isinstance(bot, PimcBot) and isinstance(bot.fallback, ContextBidder)
    assert budget_of("fast+learned").bidder == "learned"
    learned = make_bot("learned")
    for seed in range(6):
        state = DealState.new(COINCHE_RULES, seed % 4, seed=seed)
        rng = random.Random(seed)
        while state.phase == AUCTION:
            obs = state.observation(state.player)
            call = bot.act(obs, rng)
            assert call == learned.act(obs, rng)
            state = state.apply(call)


def test_the_data_command_makes_the_same_examples_on_a_pool(tmp_path: Path) -> None:
    """scripts/train_context_bidder.py: the examples of a few deals are the same in this
    process and on a pool of two workers (each deal seeded by its number), and ``train``
    writes weights the bidder loads."""
    program = load_program("scripts/train_context_bidder.py")
    one = program.make_data(4, 10, 52, workers=1)  # two chunks: 50 deals and 2
    two = program.make_data(4, 10, 52, workers=2)
    assert all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))
    assert sorted(set(one[2].tolist())) == list(range(10, 62))
    data = tmp_path / "x.npz"
    weights = tmp_path / "w.npz"
    assert program.main(["data", "--deals", "12", "--seed", "2", "--out", str(data)]) == 0
    assert program.main(["train", "--data", str(data), "--epochs", "2", "--hidden", "8",
                         "--out", str(weights)]) == 0
    with np.load(weights) as got:
        model = {k: np.asarray(got[k], dtype=np.float64) for k in got.files}
    bot = ContextBidder(model)
    obs = _state().observation(0)
    assert bot.act(obs, random.Random(0)) in obs.legal
