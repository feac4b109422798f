"""The observation built on the fast path (:func:`rebelote.observation.observe`: one tuple from
the state's fields, cached announced and shown declarations) held equal to a plain reference
that computes every field from the rules' definitions, at every step of random deals."""

from __future__ import annotations

import random

import pytest

from rebelote.actions import AUCTION, OVER
from rebelote.deal import DealState
from rebelote.observation import Observation, observe
from rebelote.rules import Rules, seats_from


def reference_observe(state: DealState, seat: int) -> Observation:
    """Every field computed plainly: what ``seat`` holds, was dealt before the auction, and
    what the table saw."""
    phase = state.phase
    in_play = phase != AUCTION and not state.auction.is_void
    auction_hand = state.hands[seat]
    if in_play:
        auction_hand = state.start_hands[seat]
        if state.rules.game == "belote":  # minus what it was dealt after the auction
            pos = 0
            for s in seats_from(state.first, state.step):
                n = 2 if s == state.taker else 3
                if s == seat:
                    for c in state.stock[pos:pos + n]:
                        auction_hand &= ~(1 << c)
                    if s == state.taker:
                        auction_hand &= ~(1 << state.turned)
                pos += n
    announced = tuple((s, tuple(c.kind for c in d)) for s, d in enumerate(state.declared)
                      if d and in_play)
    shown = []
    if in_play and (state.tricks or phase == OVER):
        team = state.declaring_team()
        if team >= 0:
            for s in range(team, 4, 2):
                shown.extend((s, c) for c in state.declared[s] or ())
    return Observation(
        seat=seat, rules=state.rules, dealer=state.dealer, phase=phase,
        player=state.current_player, hand=state.hands[seat], auction_hand=auction_hand,
        turned=state.turned, auction=state.auction.history, trump=state.trump,
        taker=state.taker, contract=state.auction.best, multiplier=state.auction.multiplier,
        tricks=state.tricks, leader=state.leader, trick=state.trick,
        own_declared=state.declared[seat] if in_play else None, announced=announced,
        shown=tuple(shown), belote=state.belote, points=state.points,
        held_over=state.held_over, scores=state.scores,
        legal=tuple(state.legal_actions()) if state.current_player == seat else ())


@pytest.mark.parametrize("game", ["belote", "coinche"])
@pytest.mark.parametrize("name", ["official", "house"])
def test_fast_observation_equals_the_reference_at_every_step(game: str, name: str) -> None:
    rules = Rules.preset(name, game)
    rng = random.Random(f"{game}{name}")
    played = 0
    for deal in range(60):
        state = DealState.new(rules, deal % 4, rng=rng)
        while True:
            for seat in range(4):
                assert observe(state, seat) == reference_observe(state, seat)
            if state.is_terminal:
                break
            legal = state.legal_actions()
            if state.phase == AUCTION and len(legal) > 1 and rng.random() < 0.4:
                action = rng.choice(legal[1:])
            else:
                action = legal[0] if state.phase == AUCTION else rng.choice(legal)
            state = state.apply(action)
        played += not state.is_void
    assert played > 20  # most deals were played, not voided


def test_an_observation_copies_fields_and_holds_no_state() -> None:
    rules = Rules.preset("official", "belote")
    state = DealState.new(rules, 0, seed=5)
    obs = observe(state, 2)  # E speaks first (N deals): S waits
    assert all(not isinstance(v, DealState) for v in obs)
    assert obs.hand == state.hands[2] and obs.legal == ()
    assert observe(state, 1).legal == tuple(state.legal_actions())


@pytest.mark.parametrize("game,name", [("belote", "official"), ("coinche", "official"),
                                       ("contree", "ffb")])
def test_constraints_hold_in_the_true_deal_and_are_public(game: str, name: str) -> None:
    # the constraints (kept for the positions last asked) are facts of the true deal at every
    # step, the same whichever seat observes, and the lists handed out are the caller's own
    from rebelote.bots import make_bot

    rules = Rules.preset(name, game)
    bot = make_bot("heuristic")
    for seed in range(6):
        state = DealState.new(rules, seed % 4, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            views = [observe(state, s).constraints() for s in range(4)]
            assert all(v == views[0] for v in views)
            must, forbid = views[0]
            for s in range(4):
                assert must[s] & ~state.hands[s] == 0
                assert forbid[s] & state.hands[s] == 0
            must[0] |= state.hands[1]  # the caller's lists: the next answer is not changed
            forbid[0] = -1
            again = observe(state, state.player).constraints()
            assert again == views[1]
            state = state.apply(bot.act(observe(state, state.player), rng))


@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_the_walk_over_the_played_cards_is_the_deals_play(game: str) -> None:
    """:func:`played_cards` gives every card in the order played, each with its seat (the
    engine's turn), the trick before it and which of those was winning (the rules'
    :func:`trick_winner`), at every moment of the play."""
    from rebelote.actions import PLAY, Play
    from rebelote.bots import make_bot
    from rebelote.observation import played_cards
    from rebelote.rules import seat_step, trick_winner

    rules = Rules.preset("official", game)
    bot = make_bot("heuristic")
    checked = 0
    for seed in range(8):
        state = DealState.new(rules, seed % 4, seed=seed)
        rng = random.Random(seed)
        order: list[tuple[int, int]] = []
        while not state.is_terminal:
            if state.phase == PLAY:
                walk = list(played_cards(state.trump, seat_step(rules), state.tricks,
                                         state.leader, state.trick))
                assert [(p.seat, p.card) for p in walk] == order
                for n, p in enumerate(walk):
                    assert p.done == n // 4
                    assert p.before == walk_trick(walk, n)
                    if p.before:
                        assert p.win == trick_winner(p.before, state.trump)
                checked += 1
            seat = state.player
            action = bot.act(state.observation(seat), rng)
            if isinstance(action, Play):
                order.append((seat, action.card))
            state = state.apply(action)
    assert checked >= 8 * 20


def walk_trick(walk: list[object], n: int) -> tuple[int, ...]:
    """The cards of the n-th card's trick played before it."""
    start = n - n % 4
    return tuple(p.card for p in walk[start:n])  # type: ignore[attr-defined]
