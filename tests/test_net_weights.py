"""The network's policy inside the search (``Budget.net_weights``, ``net_calls``): each world
weighed by the likelihood of the other seats' cards and calls under the policy, in every
contract (no-trump and all-trump included), computed from each seat's observation in the
world, never from a card the deciding seat cannot see; checked against a plain replay of
each world."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest

from positions import taken_position
from rebelote.actions import NO_DECLARATION, Play
from rebelote.bots.encoding import action_index, card_map
from rebelote.bots.net import features, forward, legal_indices, shipped_model
from rebelote.bots.pimc import PimcBot, Worlds, budget_of
from rebelote.bots.pimc.inference import (
    NetWeights,
    _factored,
    _heuristic_off,
    _model_factors,
)
from rebelote.deal import DealState
from rebelote.observation import Observation
from rebelote.rules import parse_rules

RULES = parse_rules("coinche:official")


def _position(seed: int, trump: int, cards: int) -> DealState:
    return taken_position(RULES, seed, trump, cards)


def _worlds(obs: Observation, count: int, seed: int) -> list[DealState]:
    dealer = Worlds(obs)
    rng = random.Random(seed)
    return [dealer.deal(rng) for _ in range(count)]


def _reference(obs: Observation, world: DealState, cards: float, calls: float) -> float:
    """The log-likelihood of the other seats' moves in ``world``, plainly: the deal replayed
    in the world, each such move's observation there encoded whole and asked of the
    network, the legal cards the world's own."""
    model = shipped_model()
    me = obs.seat
    state = DealState.from_hands(RULES, obs.dealer, world.start_hands, obs.turned, (),
                                 obs.held_over, obs.scores)
    total = 0.0

    def logp(seen: Observation, indices: list[int], chosen: int, floor: float) -> float:
        x, _ = features(seen)
        row = forward(model, x[None, :])[0][0].astype(np.float64)
        top = max(row[i] for i in indices)
        z = sum(math.exp(row[i] - top) for i in indices)
        return max(row[chosen] - top - math.log(z), math.log(floor))

    for seat, bid in obs.auction:
        if calls > 0.0 and seat != me:
            seen = state.observation(seat)
            _, suits = features(seen)
            legal = [i for i, _ in legal_indices(seen, suits)]
            chosen = action_index(bid)
            if len(legal) > 1 and chosen is not None:
                total += logp(seen, legal, chosen, calls)
        state = state.apply(bid)
    announced = {s for s, _ in obs.announced}
    for _, trick in (*obs.tricks, (obs.leader, obs.trick)):
        for c in trick:
            p = state.player
            if state.declared[p] is None and state.best[p] \
                    and (obs.own_declared == () if p == me else p not in announced):
                state = state.apply(NO_DECLARATION)
            if p != me and cards > 0.0 and state.playable.bit_count() > 1:
                seen = state.observation(p)
                _, suits = features(seen)
                cmap = card_map(suits)
                legal = [cmap[k] for k in range(32) if state.playable >> k & 1]
                total += logp(seen, legal, cmap[c], cards)
            state = state.apply(Play(c))
    return total


@pytest.mark.parametrize(("trump", "cards"), [(4, 6), (5, 5), (4, 3), (1, 5)])
def test_the_weights_are_the_policys_likelihood_of_each_world(trump: int, cards: int) -> None:
    """Each world's log-weight is the sum over the other seats' moves of the policy's log
    probability of the move, seen from that seat in that world (its observation encoded
    whole), no less than the floor: the batched hand-swapped computation equals a plain
    replay of each world, and the worlds are told apart."""
    for seed in (3, 11):
        state = _position(seed, trump, cards)
        obs = state.observation(state.player)
        worlds = _worlds(obs, 12, seed)
        net = NetWeights(obs, worlds[0], 0.02, 0.05)
        got = net.log_weights(worlds)
        expected = [_reference(obs, w, 0.02, 0.05) for w in worlds]
        assert got == pytest.approx(expected, abs=1e-4)
        assert len({round(float(x), 6) for x in got}) > 1


def test_a_weight_never_reads_a_card_the_seat_cannot_see() -> None:
    """The weights depend on the observation and the weighed world only: the same whichever
    world the deal is replayed in (the template's hidden hands are not read), the same from
    the observation of the true deal and from that of a world that fits it (the true hidden
    hands are not read), and the observation is left as it was."""
    for trump in (4, 5):
        state = _position(7, trump, 5)
        obs = state.observation(state.player)
        kept = obs
        worlds = _worlds(obs, 16, 1)
        a = NetWeights(obs, worlds[0], 0.05, 0.05).log_weights(worlds)
        b = NetWeights(obs, worlds[-1], 0.05, 0.05).log_weights(worlds)
        assert a == pytest.approx(b, abs=1e-5)
        other = next(w for w in worlds if w.hands != state.hands)
        seen = other.observation(obs.seat)
        assert seen == obs  # another deal, the same observation
        c = NetWeights(seen, worlds[3], 0.05, 0.05).log_weights(worlds)
        assert a == pytest.approx(c, abs=1e-5)
        assert obs is kept and obs == state.observation(state.player)


def test_the_budget_weighs_no_trump_and_all_trump_by_the_network() -> None:
    """``expert`` weighs the play of a suit contract by the learned model of the players and
    of no-trump and all-trump by the heuristic's; with ``net_weights`` no-trump and all-trump
    are weighed by the network (the heuristic's model off), the suit contract as before;
    without ``play_model`` every contract is the network's."""
    expert = budget_of("expert")
    netted = replace(expert, net_weights=0.05)
    for trump in (4, 5):
        obs = _position(5, trump, 6).observation(_position(5, trump, 6).player)
        assert not _factored(obs, expert) and not _heuristic_off(obs, expert)
        assert _factored(obs, netted) and _heuristic_off(obs, netted)
        worlds = _worlds(obs, 20, 2)
        factors = _model_factors(obs, worlds, netted)
        logs = NetWeights(obs, worlds[0], 0.05).log_weights(worlds)
        assert factors == pytest.approx([math.exp(x - logs.max()) for x in logs])
        assert max(factors) == 1.0 and min(factors) < 0.9
    suit = _position(5, 1, 6)
    obs = suit.observation(suit.player)
    worlds = _worlds(obs, 10, 2)
    assert _model_factors(obs, worlds, netted) == _model_factors(obs, worlds, expert)
    alone = replace(netted, play_model=0.0)
    logs = NetWeights(obs, worlds[0], 0.05).log_weights(worlds)
    assert _model_factors(obs, worlds, alone) == pytest.approx(
        [math.exp(x - logs.max()) for x in logs])


def test_the_search_with_the_network_plays_legal_cards_reproducibly() -> None:
    """A search player with the network's weights on the cards and the calls, in no-trump
    and all-trump: a legal card, the same from the same seed."""
    budget = replace(budget_of("infer"), worlds=6, pool=4, net_weights=0.05, net_calls=0.1)
    for trump in (4, 5):
        state = _position(9, trump, 6)
        obs = state.observation(state.player)
        a = PimcBot(budget=budget).act(obs, random.Random(1))
        b = PimcBot(budget=budget).act(obs, random.Random(1))
        assert a == b and a in obs.legal
