"""Positions of the play shared by the search's tests: a contract taken, then the heuristic's
play until the seat to play holds a given number of cards."""

from __future__ import annotations

import random

from rebelote.actions import PLAY
from rebelote.auction import PASS, Bid
from rebelote.bots import make_bot
from rebelote.deal import DealState
from rebelote.rules import Rules


def taken_position(rules: Rules, seed: int, trump: int, cards: int) -> DealState:
    """A deal of ``seed`` whose first seat to call takes 80 in ``trump`` (4 no-trump, 5
    all-trump, 0-3 a suit) and the others pass, played by the heuristic until the seat to
    play holds ``cards`` cards."""
    state = DealState.new(rules, dealer=seed % 4, seed=seed)
    state = state.apply(Bid("value", trump, 80))
    for _ in range(3):
        state = state.apply(PASS)
    bot = make_bot("heuristic")
    rng = random.Random(seed)
    while state.phase != PLAY or state.observation(state.player).hand.bit_count() > cards:
        state = state.apply(bot.act(state.observation(state.player), rng))
    return state
