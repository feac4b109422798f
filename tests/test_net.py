"""The learned player (rebelote.bots.net) and its training (rebelote.bots.nettrain): the
encoding's suit permutation, the examples, training end to end on a small set (resumable to
the bit), and the bot at the table."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from program_loader import load_program
from rebelote.actions import AUCTION, PLAY, PLAYS, Action, Play
from rebelote.auction import PASS, Bid
from rebelote.bots import make_bot
from rebelote.bots.encoding import (
    ACTIONS,
    LAYOUT,
    action_index,
    canonical_suits,
    encode,
    permute_action,
)
from rebelote.bots.net import (
    CALL_SCALE,
    KEYS,
    NetBot,
    features,
    forward,
    legal_indices,
    load_model,
    parse_net_level,
    save_model,
)
from rebelote.bots.nettrain import (
    CALL_MARGIN,
    CALL_TEMPERATURE,
    DD_POINTS,
    DD_TEMPERATURE,
    Q_FLOOR,
    Q_SCALE,
    RULE_SETS,
    TEACHER,
    TEMPERATURE,
    Examples,
    call_candidates,
    call_values_of,
    card_values_of,
    deal_examples,
    evaluate,
    init_model,
    train,
    with_pass_bonus,
)
from rebelote.bots.pimc import (
    Clock,
    Marker,
    budget_of,
    call_takers,
    card_marks,
    hopeless,
    tricks_won,
    true_call_marks,
)
from rebelote.bots.pimc.calls import _call_mark, _contract_holder, _played_worlds
from rebelote.cards import iter_mask
from rebelote.deal import DealState
from rebelote.observation import Observation
from rebelote.rules import parse_rules
from rebelote.solver import position_of_state, solve

OFFSET = {name: sum(s for _, s in LAYOUT[:i]) for i, (name, _) in enumerate(LAYOUT)}


def _play_state(seed: int, game: str = "coinche:official") -> DealState:
    """A deal of ``game`` played by the heuristic to its third trick."""
    state = DealState.new(parse_rules(game), dealer=seed % 4, rng=random.Random(seed))
    bot = make_bot("heuristic")
    rng = random.Random(seed)
    while not state.is_terminal and (state.phase != PLAY or len(state.tricks) < 2):
        state = state.apply(bot.act(state.observation(state.player), rng))
    return state


@pytest.mark.parametrize("seed", range(12))
def test_the_trump_suit_is_written_first_and_nothing_else_moves(seed: int) -> None:
    state = _play_state(seed)
    if state.is_terminal or not 0 <= state.trump < 4:
        pytest.skip("no suit contract on this deal")
    obs = state.observation(state.player)
    suits = canonical_suits(obs.trump)
    assert suits[obs.trump] == 0 and sorted(suits) == [0, 1, 2, 3]
    plain, permuted = encode(obs, 1000), encode(obs, 1000, suits)
    hand = OFFSET["hand"]
    # the same cards, each in its permuted suit and the same rank
    for card in iter_mask(obs.hand):
        assert plain[hand + card] == 1
        assert permuted[hand + suits[card // 8] * 8 + card % 8] == 1
    assert plain[hand:hand + 32].sum() == permuted[hand:hand + 32].sum() == obs.hand.bit_count()
    assert permuted[OFFSET["trump"]] == 1  # the trump mode reads "the first suit"
    # every part that holds no card or suit is the same
    for name in ("leader", "phase", "dealer", "passes", "taker", "contract", "coinche",
                 "belote", "points", "scores", "game"):
        lo = OFFSET[name]
        size = dict(LAYOUT)[name]
        assert (plain[lo:lo + size] == permuted[lo:lo + size]).all(), name
    # each legal action keeps its own index once permuted, and the permutation is one to one
    indices = legal_indices(obs, suits)
    assert len({i for i, _ in indices}) == len(indices) == len(obs.legal)
    for i, action in indices:
        assert ACTIONS[i] == permute_action(action, suits)
        if isinstance(action, Play):
            assert action_index(action) == action.card


def test_examples_are_the_same_from_the_same_seed_and_read_the_teacher() -> None:
    a = deal_examples(5, 0, level="4")
    b = deal_examples(5, 0, level="4")
    for field in ("x", "legal", "target", "value", "has_value", "deal"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert len(a) > 10
    assert np.allclose(a.target.sum(axis=1), 1.0)
    assert (a.target[a.legal == 0] == 0).all()  # no weight on an illegal action
    assert (a.legal.sum(axis=1) >= 2).all()  # forced moves are no examples
    play = a.x[:, OFFSET["phase"] + 1] == 1
    assert play.any() and (~play).any()  # cards and calls
    assert (a.has_value[play] == 1).all()  # the critic values every card decision
    # the critic is a mark: the deal's scale, never beyond a coinched générale's
    assert np.abs(a.value).max() <= 2000


def test_double_dummy_examples_favour_the_true_deal_s_best_card() -> None:
    """The cheap labels (level ``dd``): the same from a seed, a distribution over the legal
    actions, and at each card the target's heaviest card is one the solver finds best in the
    true deal, replayed here from the same seed."""
    a = deal_examples(5, 1, level="dd")
    b = deal_examples(5, 1, level="dd")
    for field in ("x", "legal", "target", "value", "has_value", "deal"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert len(a) > 10
    assert np.allclose(a.target.sum(axis=1), 1.0)
    assert (a.target[a.legal == 0] == 0).all()
    play = a.x[:, OFFSET["phase"] + 1] == 1
    assert play.any() and (~play).any()
    assert (a.has_value == 1).all()  # cards by the critic, calls by the deal's result
    # replay the deal with the same driver and seeds, and solve each card decision
    rules = parse_rules(RULE_SETS[1 % len(RULE_SETS)])
    rng = random.Random(5 * 1_000_003 + 1)
    driver_rng = random.Random(5 * 1_000_003 + 1 + 1_000_000_007)
    driver = make_bot("tuned")
    state = DealState.new(rules, dealer=1, rng=rng)
    rows = iter(np.flatnonzero(play))
    checked = 0
    while not state.is_terminal:
        obs = state.observation(state.player)
        action = obs.legal[0] if len(obs.legal) == 1 else driver.act(obs, driver_rng)
        if state.phase == PLAY and len(obs.legal) > 1:
            x, suits = features(obs)
            row = next(rows)
            assert np.array_equal(a.x[row], x)
            values = solve(position_of_state(state), state.rules)
            team = state.player & 1
            won = tricks_won(state.tricks, state.leader)[team] > 0
            marker = Marker(state, state.taker, state.auction.best, state.auction.multiplier)
            score = {c: marker.own(team, v, won or v > 0, 0.0) + DD_POINTS * v
                     for c, v in values.items()}
            real = dict(legal_indices(obs, suits))
            heaviest = real[int(np.argmax(a.target[row]))]
            assert isinstance(heaviest, Play)
            assert score[heaviest.card] == max(score.values())
            checked += 1
        state = state.apply(action)
    assert checked == int(play.sum())


def _driven_deal(index: int, spec: str = "tuned"
                 ) -> Iterator[tuple[DealState, Observation, Action]]:
    """Deal ``index`` of seed 5 as the examples' generator plays it with the driver ``spec``
    (the tuned bidder by default): each state before a move, its player's observation and the
    move made (a forced one as it comes)."""
    rules = parse_rules(RULE_SETS[index % len(RULE_SETS)])
    rng = random.Random(5 * 1_000_003 + index)
    driver_rng = random.Random(5 * 1_000_003 + index + 1_000_000_007)
    driver = make_bot(spec)
    state = DealState.new(rules, dealer=index % 4, rng=rng)
    while not state.is_terminal:
        obs = state.observation(state.player)
        legal = obs.legal
        action = legal[0] if len(legal) == 1 else driver.act(obs, driver_rng)
        yield state, obs, action
        state = state.apply(action)


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_the_calls_labelled_by_the_true_deal_are_its_marks(index: int) -> None:
    """Level ``dd+calls``: each call with a choice weighs the candidate calls by their marks
    in the true deal if the auction ended on them, solved here again without the labels'
    cache (one world, the true deal, through the search's own simulation): a softmax at
    CALL_TEMPERATURE with the tuned bidder's call given CALL_MARGIN, pass and the bids of
    the simulated modes at most one step above the tuned call, nothing on the other calls; a
    hopeless pass is the tuned bidder's pass alone. The cards are level ``dd``'s, unchanged."""
    a = deal_examples(5, index, level="dd+calls")
    plain = deal_examples(5, index, level="dd")
    play = a.x[:, OFFSET["phase"] + 1] == 1
    for field in ("x", "legal", "value", "has_value", "deal"):
        assert np.array_equal(getattr(a, field), getattr(plain, field)), field
    assert np.array_equal(a.target[play], plain.target[play])
    rows = iter(range(len(a)))
    weighed = 0
    for state, obs, action in _driven_deal(index):
        legal = obs.legal
        if len(legal) > 1:
            x, suits = features(obs)
            row = next(rows)
            assert np.array_equal(a.x[row], x)
            if isinstance(action, Bid):
                real = dict(legal_indices(obs, suits))
                got = {real[i]: float(a.target[row, i]) for i in real}
                bids = [b for b in legal if isinstance(b, Bid)]
                if action == PASS and hopeless(obs, bids):
                    want = {PASS: 1.0}
                else:
                    played = _played_worlds(state, call_takers(obs, action))
                    holder = _contract_holder(obs)
                    marks = {b: _call_mark(b, obs, played, state.player & 1, holder)
                             for b in bids}
                    values = [b.value for b in bids if b.kind == "value"]
                    cap = action.value + 10 if action.kind == "value" else min(values, default=0)
                    cands = {b: float(m) + (CALL_MARGIN if b == action else 0.0)
                             for b, m in marks.items()
                             if m is not None and (b == action or (
                                 b.kind not in ("coinche", "surcoinche")
                                 and (b.kind != "value" or b.value <= cap)))}
                    if action not in cands:
                        cands = {action: 0.0}
                    top = max(cands.values())
                    w = {b: np.exp((m - top) / CALL_TEMPERATURE) for b, m in cands.items()}
                    want = {b: v / sum(w.values()) for b, v in w.items()}
                    weighed += len(want) > 1
                for b, t in got.items():
                    w = want.get(b, 0.0) if isinstance(b, Bid) else 0.0
                    assert t == pytest.approx(w, rel=1e-4, abs=1e-7), b
    assert next(rows, None) is None
    if index == 0:
        assert weighed >= 3  # a coinche auction: several calls weighed


@pytest.mark.parametrize("index", [0, 2])
def test_the_calls_labelled_by_the_network_s_play_are_its_marks(index: int) -> None:
    """Level ``net-calls`` (``net+calls`` without its cards): the candidate calls of level
    ``dd+calls``, each valued by the deal played out from it here again: the call made,
    every other seat passing to the auction's end, the shipped network on every seat, the
    seat's team's mark; a softmax at CALL_TEMPERATURE with the tuned call given
    CALL_MARGIN. ``net+calls`` is the same rows with level ``dd``'s cards."""
    only = deal_examples(5, index, level="net-calls")
    full = deal_examples(5, index, level="net+calls")
    plain = deal_examples(5, index, level="dd")
    calls = full.legal[:, :len(PLAYS)].sum(axis=1) == 0.0
    for field in ("x", "legal", "target", "value", "has_value", "deal"):
        assert np.array_equal(getattr(full, field)[calls], getattr(only, field)), field
        assert np.array_equal(getattr(full, field)[~calls], getattr(plain, field)[~calls])
    net = NetBot()
    rows = iter(range(len(only)))
    weighed = 0
    for state, obs, action in _driven_deal(index):
        legal = obs.legal
        if len(legal) > 1 and isinstance(action, Bid):
            x, suits = features(obs)
            row = next(rows)
            assert np.array_equal(only.x[row], x)
            bids = [b for b in legal if isinstance(b, Bid)]
            cands = call_candidates(bids, true_call_marks(state, action), action)
            if (action == PASS and hopeless(obs, bids)) or not cands:
                want = {action: 1.0}
            else:
                marks = {}
                for b in cands:
                    end = state.apply(b)
                    while end.phase == AUCTION:
                        end = end.apply(PASS)
                    while not end.is_terminal:
                        o = end.observation(end.player)
                        end = end.apply(o.legal[0] if len(o.legal) == 1
                                        else net.act(o, random.Random(0)))
                    marks[b] = end.returns()[state.player & 1] + \
                        (CALL_MARGIN if b == action else 0.0)
                top = max(marks.values())
                w = {b: np.exp((m - top) / CALL_TEMPERATURE) for b, m in marks.items()}
                want = {b: v / sum(w.values()) for b, v in w.items()}
                weighed += len(want) > 1
            for i, b in legal_indices(obs, suits):
                assert only.target[row, i] == pytest.approx(want.get(b, 0.0), rel=1e-4,
                                                            abs=1e-7), b
    assert next(rows, None) is None
    assert weighed >= 1


def test_a_pass_bonus_makes_the_network_pass_in_coinche_and_not_in_belote() -> None:
    """``net:pass=MARKS`` adds MARKS / CALL_SCALE to the pass's logit in the auctions of
    coinche and contrée (the calls learned as values, Q_SCALE marks a logit): 0 plays as
    the plain net, a large bonus passes where the net bids; belote's calls are unchanged."""
    assert CALL_SCALE == Q_SCALE
    plain, zero, cautious = NetBot(), make_bot("net:pass=0"), make_bot("net:pass=1000")
    bids = changed = 0
    for game in ("coinche:official", "belote:official"):
        for seed in range(40):
            state = DealState.new(parse_rules(game), dealer=seed % 4, rng=random.Random(seed))
            obs = state.observation(state.player)
            action = plain.act(obs, random.Random(0))
            assert zero.act(obs, random.Random(0)) == action
            other = cautious.act(obs, random.Random(0))
            if game.startswith("belote"):
                assert other == action
            elif action != PASS:
                bids += 1
                changed += other == PASS
    assert bids >= 3 and changed == bids
    for bad in ("net:pass", "net:pass=x", "net:bonus=3", "net:pass=inf"):
        with pytest.raises(ValueError, match="pass=MARKS"):
            make_bot(bad)


def test_the_overcall_bonus_changes_the_calls_over_an_opponent_s_contract_only() -> None:
    """``net:over=MARKS`` adds MARKS / CALL_SCALE to the pass only when an opponent holds the
    highest contract bid (the network's overcalls and coinches): 0 plays as the plain net, a
    large bonus passes where the net would overcall or coinche, and every call made with no
    contract or the partner's on the table, and every card, stays the plain net's."""
    plain = NetBot()
    zero, over = make_bot("net:over=0;endgame=0"), make_bot("net:over=1000;endgame=0")
    assert isinstance(over, NetBot) and over.over_bonus == 1000.0 and over.pass_bonus == 0.0
    overcalls = changed = others = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = DealState.new(parse_rules("coinche:official"), dealer=seed % 4, rng=rng)
        while not state.is_terminal:
            obs = state.observation(state.player)
            action = plain.act(obs, random.Random(0))
            assert zero.act(obs, random.Random(0)) == action
            other = over.act(obs, random.Random(0))
            bids = [seat for seat, bid in obs.auction if bid.is_contract]
            if obs.phase == AUCTION and bids and (bids[-1] - obs.seat) % 2 == 1 \
                    and action != PASS:
                overcalls += 1
                changed += other == PASS
            else:
                others += 1
                assert other == action
            state = state.apply(action)
    assert overcalls >= 5 and changed == overcalls and others > 500
    assert parse_net_level("over=45;pass=10").over == 45.0
    for bad in ("net:over", "net:over=x", "net:over=nan"):
        with pytest.raises(ValueError, match="over=MARKS"):
            make_bot(bad)


def test_training_end_to_end_fits_and_a_stopped_run_ends_with_the_same_weights(
        tmp_path: Path) -> None:
    data = Examples.concat([deal_examples(7, i, level="4") for i in range(3)])
    straight = train(data, seed=3, hidden=32, epochs=3, batch=32)
    ckpt = tmp_path / "ckpt.npz"
    train(data, seed=3, hidden=32, epochs=1, batch=32, checkpoint=ckpt)  # stopped after 1
    resumed = train(data, seed=3, hidden=32, epochs=3, batch=32, checkpoint=ckpt)
    for k in KEYS:
        assert np.array_equal(straight[k], resumed[k]), k
    before = evaluate(init_model(3, 32), data)
    after = evaluate(straight, data)
    assert after["cross_entropy"] < before["cross_entropy"]
    with pytest.raises(ValueError, match="another run"):
        train(data, seed=4, hidden=32, epochs=4, batch=32, checkpoint=ckpt)
    # the weights written and read back answer the same
    save_model(straight, tmp_path / "net.npz")
    again = load_model(tmp_path / "net.npz")
    logits, value = forward(again, data.x[:5])
    want_logits, want_value = forward(straight, data.x[:5])
    assert np.allclose(logits, want_logits) and np.allclose(value, want_value)


def test_cards_learned_as_values_fit_their_marks(tmp_path: Path) -> None:
    """``card_q``: each card's target softmax turned back into its mark below the best (the
    best at 0, the others below, illegal cards untouched), and a network trained so fits the
    cards' values: its logits come nearer to them than the start's."""
    data = Examples.concat([deal_examples(9, i, level="dd") for i in range(4)])
    rows, q = card_values_of(data, DD_TEMPERATURE)
    cards = rows > 0
    assert cards.any() and (~cards).any()
    legal = data.legal > 0
    best = np.where(legal, q, -np.inf).max(axis=1)
    assert np.allclose(best[cards], 0.0)
    assert (q[legal] <= 0.0).all() and (q[~legal] == 0.0).all()
    assert (q[legal] >= Q_FLOOR / Q_SCALE).all()
    # a card of half the best's weight is DD_TEMPERATURE * log 2 marks below it
    row = int(np.flatnonzero(cards)[0])
    i = int(np.flatnonzero(legal[row])[0])
    top = data.target[row][legal[row]].max()
    assert q[row, i] == pytest.approx(
        max(DD_TEMPERATURE * np.log(data.target[row, i] / top), Q_FLOOR) / Q_SCALE, abs=1e-4)

    def error(model: dict[str, np.ndarray]) -> float:
        logits, _ = forward(model, data.x[cards])
        return float(np.mean(((logits - q[cards]) * data.legal[cards]) ** 2))

    fitted = train(data, seed=2, hidden=32, epochs=4, batch=32, card_q=DD_TEMPERATURE)
    assert error(fitted) < error(init_model(2, 32))
    ckpt = tmp_path / "q.npz"
    train(data, seed=2, hidden=32, epochs=1, batch=32, card_q=DD_TEMPERATURE, checkpoint=ckpt)
    with pytest.raises(ValueError, match="card_q"):
        train(data, seed=2, hidden=32, epochs=2, batch=32, checkpoint=ckpt)


def test_calls_labelled_by_the_true_deal_train_end_to_end(tmp_path: Path) -> None:
    """Level ``dd+calls`` trained end to end, its calls as a distribution and as values
    (``call_q``): the same seed gives the same weights, a stopped run taken up ends equal to
    the bit, and the calls' values are fitted better than at the start."""
    data = Examples.concat([deal_examples(11, i, level="dd+calls") for i in range(4)])
    rows, q = call_values_of(data, CALL_TEMPERATURE)
    calls = rows > 0
    assert calls.any()
    legal = data.legal > 0
    assert np.allclose(np.where(legal, q, -np.inf).max(axis=1)[calls], 0.0)
    assert (q[legal] >= Q_FLOOR / Q_SCALE).all()
    once = train(data, seed=5, hidden=32, epochs=3, batch=32, call_q=CALL_TEMPERATURE)
    twice = train(data, seed=5, hidden=32, epochs=3, batch=32, call_q=CALL_TEMPERATURE)
    ckpt = tmp_path / "calls.npz"
    train(data, seed=5, hidden=32, epochs=1, batch=32, call_q=CALL_TEMPERATURE, checkpoint=ckpt)
    resumed = train(data, seed=5, hidden=32, epochs=3, batch=32, call_q=CALL_TEMPERATURE,
                    checkpoint=ckpt)
    for k in KEYS:
        assert np.array_equal(once[k], twice[k]) and np.array_equal(once[k], resumed[k]), k
    with pytest.raises(ValueError, match="call_q"):
        train(data, seed=5, hidden=32, epochs=4, batch=32, checkpoint=ckpt)

    def error(model: dict[str, np.ndarray]) -> float:
        logits, _ = forward(model, data.x[calls])
        return float(np.mean(((logits - q[calls]) * data.legal[calls]) ** 2))

    assert error(once) < error(init_model(5, 32))
    spread = train(data, seed=5, hidden=32, epochs=3, batch=32)  # the calls as a distribution
    assert evaluate(spread, data)["cross_entropy"] < evaluate(init_model(5, 32), data)[
        "cross_entropy"]
    # fine-tuning from trained weights: the same weights again from the same start and seed
    tuned_a = train(data, seed=6, hidden=32, epochs=1, batch=32, init=spread)
    tuned_b = train(data, seed=6, hidden=32, epochs=1, batch=32, init=spread)
    for k in KEYS:
        assert np.array_equal(tuned_a[k], tuned_b[k]), k
    with pytest.raises(ValueError, match="hidden"):
        train(data, seed=6, hidden=16, epochs=1, batch=32, init=spread)


def test_a_bonus_on_the_pass_makes_the_true_deal_s_calls_more_cautious() -> None:
    """``with_pass_bonus``: in the calls labelled by the true deal the pass is worth ``bonus``
    marks more (its value read back as the calls' values is ``bonus`` higher beside every
    other call, capped at the best), the cards and the one-hot calls untouched."""
    data = Examples.concat([deal_examples(11, i, level="dd+calls") for i in range(4)])
    more = with_pass_bonus(data, 50.0)
    rows, q = call_values_of(data, CALL_TEMPERATURE)
    _, q2 = call_values_of(more, CALL_TEMPERATURE)
    calls = rows > 0
    assert np.array_equal(more.target[~calls], data.target[~calls])
    assert np.allclose(more.target.sum(axis=1), 1.0)
    pas = ACTIONS.index(PASS)
    assert (more.target[calls, pas] >= data.target[calls, pas]).all()
    assert (more.target[calls, pas] > data.target[calls, pas]).any()
    # beside the best other call, the pass gains the bonus (in the values' logits)
    legal = data.legal > 0
    for row in np.flatnonzero(calls):
        others = legal[row].copy()
        others[pas] = False
        if not legal[row, pas] or q[row, others].max() * Q_SCALE <= Q_FLOOR + 1 \
                or q[row, pas] * Q_SCALE <= Q_FLOOR + 60:
            continue
        gap = (q[row, pas] - q[row, others].max()) * Q_SCALE
        gap2 = (q2[row, pas] - q2[row, others].max()) * Q_SCALE
        assert gap2 == pytest.approx(gap + 50.0, abs=0.05)


@pytest.mark.parametrize("game", ["belote:official", "coinche:official", "contree:ffb"])
def test_the_net_plays_whole_deals_legally(game: str) -> None:
    bot = make_bot("net")
    rules = parse_rules(game)
    for seed in range(3):
        state = DealState.new(rules, dealer=seed, rng=random.Random(seed))
        rng = random.Random(seed)
        while not state.is_terminal:
            obs = state.observation(state.player)
            action = bot.act(obs, rng)
            assert action in obs.legal
            state = state.apply(action)


def test_the_shipped_weights_are_small_and_of_this_encoding() -> None:
    bot = NetBot()
    size = sum(bot.model[k].nbytes for k in KEYS)
    assert size <= 5 * 1024 * 1024
    state = next(s for s in map(_play_state, range(10)) if not s.is_terminal)
    x, _ = features(state.observation(state.player))
    logits, value = forward(bot.model, x[None, :])
    assert logits.shape == (1, len(ACTIONS)) and np.isfinite(value).all()


def _script() -> Any:
    """``scripts/train_net.py`` as a module."""
    return load_program("scripts/train_net.py")


def test_the_training_script_makes_the_true_deal_s_calls_and_trains_on_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``scripts/train_net.py`` end to end on a few deals: ``data --level dd+calls`` and
    ``dd`` (workers 1, chunks taken up), then ``train`` with belote's calls from the ``dd``
    chunks, their cards, a bonus on the pass, the calls as values and a start from trained
    weights: the same weights twice."""
    script = _script()
    calls, plain = tmp_path / "calls", tmp_path / "plain"
    assert script.main(["data", "--seed", "3", "--deals", "6", "--chunk", "3",
                        "--level", "dd+calls", "--out", str(calls)]) == 0
    assert script.main(["data", "--seed", "4", "--deals", "3", "--chunk", "3",
                        "--level", "dd", "--out", str(plain)]) == 0
    assert len(list(calls.glob("chunk-*.npz"))) == 2
    net_calls = tmp_path / "net-calls"
    assert script.main(["data", "--seed", "3", "--deals", "3", "--chunk", "3",
                        "--level", "net-calls", "--out", str(net_calls)]) == 0
    only = script.read_data(net_calls)
    assert len(only) and not only.legal[:, :len(PLAYS)].any()  # the calls alone
    start = tmp_path / "start.npz"
    save_model(init_model(1, 16), start)
    outs = []
    for run in ("a", "b"):
        out = tmp_path / f"net-{run}.npz"
        assert script.main(["train", "--data", str(calls), "--belote-calls-from", str(plain),
                            "--cards-from", str(plain), "--pass-bonus", "30", "--call-q", "25",
                            "--init", str(start), "--hidden", "16", "--epochs", "1",
                            "--seed", "2", "--out", str(out)]) == 0
        outs.append(load_model(out))
    for k in KEYS:
        assert np.array_equal(outs[0][k], outs[1][k]), k
    assert "examples to fit" in capsys.readouterr().out


@pytest.mark.parametrize("index", [0, 2])
def test_the_search_s_cards_are_its_expected_marks_over_the_seat_s_worlds(index: int) -> None:
    """Level ``search-cards``: the shipped network plays the deal (the positions of level
    ``dd:net``, the same deal), each card with a choice is a softmax at TEMPERATURE of every
    legal card's expected mark over the teacher's counted worlds drawn from the seat's
    observation, computed here again on a replay with its own random stream, the value the
    true deal's double-dummy value; no call is an example; the same seed, the same rows."""
    a = deal_examples(5, index, level="search-cards=3")
    b = deal_examples(5, index, level="search-cards=3")
    for field in ("x", "legal", "target", "value", "has_value", "deal"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert len(a) > 5 and (a.legal[:, :len(PLAYS)].sum(axis=1) > 0).all()  # cards only
    assert (a.has_value == 1).all()
    dd = deal_examples(5, index, level="dd:net")
    cards = dd.legal[:, :len(PLAYS)].sum(axis=1) > 0
    assert np.array_equal(dd.x[cards], a.x) and np.array_equal(dd.value[cards], a.value)
    budget = replace(budget_of(TEACHER), seconds=None, bid_seconds=None, worlds=3)
    worlds = random.Random(5 * 1_000_003 + index + 2_000_000_011)
    row = 0
    for state, obs, _ in _driven_deal(index, "net:endgame=0"):  # the data's "net"
        if state.phase == PLAY and len(obs.legal) > 1:
            x, suits = features(obs)
            assert np.array_equal(a.x[row], x)
            marks = card_marks(obs, worlds, budget, Clock())
            best = max(marks.values())
            want = np.zeros(len(ACTIONS))
            for i, act in legal_indices(obs, suits):
                if isinstance(act, Play):  # a declaration (declare nothing) weighs nothing
                    want[i] = np.exp((marks[act.card] - best) / TEMPERATURE)
            assert np.allclose(a.target[row], want / want.sum(), atol=1e-6)
            team = state.player & 1
            won = tricks_won(state.tricks, state.leader)[team] > 0
            marker = Marker(state, state.taker, state.auction.best, state.auction.multiplier)
            values = solve(position_of_state(state), state.rules)
            assert a.value[row] == max(marker.own(team, v, won, 0.0) for v in values.values())
            row += 1
    assert row == len(a)


def test_the_training_script_learns_the_search_s_cards_beside_other_data_s_calls(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``data --level search-cards`` writes cards alone; ``train --calls-only`` keeps
    ``--data``'s calls and drops its cards, the cards coming from ``--cards-from``."""
    script = _script()
    cards, calls = tmp_path / "cards", tmp_path / "calls"
    assert script.main(["data", "--seed", "3", "--deals", "2", "--chunk", "2",
                        "--level", "search-cards=2", "--out", str(cards)]) == 0
    assert script.main(["data", "--seed", "4", "--deals", "2", "--chunk", "2",
                        "--level", "dd", "--out", str(calls)]) == 0
    searched, plain = script.read_data(cards), script.read_data(calls)
    assert len(searched) and searched.legal[:, :len(PLAYS)].any(axis=1).all()
    n_calls = int((~plain.legal[:, :len(PLAYS)].any(axis=1)).sum())
    capsys.readouterr()
    for extra, rows in (([], n_calls + len(searched)), (["--cards-from", str(calls)],
                                                          len(plain) + len(searched))):
        assert script.main(["train", "--data", str(calls), "--calls-only", "--cards-from",
                            str(cards), *extra, "--hidden", "8", "--epochs", "1",
                            "--out", str(tmp_path / "net.npz")]) == 0
        fit, held = capsys.readouterr().out.split(" examples to fit, ")
        assert int(fit) + int(held.split()[0]) == rows
