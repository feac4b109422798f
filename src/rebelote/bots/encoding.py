"""One fixed encoding of what a seat knows, and one action space holding every call and card:
the PettingZoo environment (:mod:`rebelote.pettingzoo`) and the learned player
(:mod:`rebelote.bots.net`) read observations through it. NumPy only.

The cards are written by suit and rank. A suit permutation (:func:`canonical_suits`) writes
the contract's trump suit first, so that a learned model sees every suit contract as one: the
PettingZoo environment keeps the identity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

import numpy as np

from rebelote.actions import AUCTION, NO_DECLARATION, PLAYS, Action, Play
from rebelote.auction import COINCHE, PASS, SURCOINCHE, TAKE, Bid
from rebelote.cards import iter_mask
from rebelote.declarations import COMBO_KINDS
from rebelote.observation import Observation
from rebelote.rules import CONTRACTS, GAMES, TRUMP_NAMES

__all__ = ["ACTIONS", "IDENTITY", "LAYOUT", "OBSERVATION_SIZE", "action_index", "action_mask",
           "canonical_suits", "encode", "permute_action"]

#: The suits as they are.
IDENTITY: Final = (0, 1, 2, 3)


def canonical_suits(trump: int) -> tuple[int, ...]:
    """The suit permutation that writes ``trump`` (a suit 0..3) first and the other suits
    after it in their order; the identity for no-trump, all-trump and no trump yet.

    >>> canonical_suits(2), canonical_suits(0), canonical_suits(5)
    ((1, 2, 0, 3), (0, 1, 2, 3), (0, 1, 2, 3))
    """
    if not 0 <= trump < 4:
        return IDENTITY
    order = [trump] + [s for s in range(4) if s != trump]
    perm = [0, 0, 0, 0]
    for new, old in enumerate(order):
        perm[old] = new
    return tuple(perm)


_CARD_MAPS: dict[tuple[int, ...], tuple[int, ...]] = {}


def card_map(suits: Sequence[int]) -> tuple[int, ...]:
    """Each card's number with its suit permuted by ``suits``."""
    key = tuple(suits)
    got = _CARD_MAPS.get(key)
    if got is None:
        got = _CARD_MAPS[key] = tuple(key[c // 8] * 8 + c % 8 for c in range(32))
    return got


def permute_bid(bid: Bid, suits: Sequence[int]) -> Bid:
    """``bid`` with its trump suit (a suit 0..3) permuted by ``suits``."""
    if 0 <= bid.trump < 4 and tuple(suits) != IDENTITY:
        return replace(bid, trump=suits[bid.trump])
    return bid


def permute_action(action: Action, suits: Sequence[int]) -> Action:
    """``action`` with its card or trump suit permuted by ``suits``."""
    if isinstance(action, Play):
        return PLAYS[card_map(suits)[action.card]]
    if isinstance(action, Bid):
        return permute_bid(action, suits)
    return action


def _all_actions() -> tuple[Action, ...]:
    out: list[Action] = list(PLAYS)
    out += [NO_DECLARATION, PASS, TAKE, COINCHE, SURCOINCHE]
    out += [Bid("suit", t) for t in range(len(TRUMP_NAMES))]
    out += [Bid("value", t, v) for v in CONTRACTS for t in range(len(TRUMP_NAMES))]
    out += [Bid("capot", t) for t in range(len(TRUMP_NAMES))]
    out += [Bid("generale", t) for t in range(len(TRUMP_NAMES))]
    return tuple(out)


#: Every action, by its index in the action space: the 32 cards (``card_str(i)``), then
#: ``no-declaration``, ``pass``, ``take``, ``coinche``, ``surcoinche``, a trump named in
#: belote's second round (six), the value bids 80..160 in each trump mode (value by value),
#: capot and générale in each trump mode. A card played at the first trick declares the best
#: set the hand holds; ``no-declaration`` declares nothing (the other ``declare ...`` choices
#: are not in the space).
ACTIONS: Final = _all_actions()
_INDEX: Final = {a: i for i, a in enumerate(ACTIONS)}
#: The calls of the space (every action after the cards and ``no-declaration``).
_CALLS: Final = ACTIONS[33:]
_CALL_INDEX: Final = {a: i for i, a in enumerate(_CALLS)}

#: The observation's parts in order: (name, size). Seats are relative to the observer:
#: 0 itself, then 1, 2 (its partner), 3 in the order N E S W.
LAYOUT: Final[tuple[tuple[str, int], ...]] = (
    ("hand", 32),                    # the observer's cards
    ("played", 4 * 32),              # the cards each seat has played in this deal
    ("trick", 4 * 32),               # the cards on the table, by the seat that played them
    ("leader", 4),                   # the seat that led the trick on the table
    ("turned", 32),                  # belote's turned card (during the auction)
    ("phase", 2),                    # auction, play
    ("dealer", 4),
    ("calls", 4 * len(_CALLS)),      # each seat's latest call (one of the 76 calls)
    ("passes", 1),                   # passes since the last bid that was not a pass, / 4
    ("trump", len(TRUMP_NAMES)),     # the contract's trump mode (spades..all-trump)
    ("taker", 4),
    ("contract", len(CONTRACTS) + 2),  # 80..160, capot, générale
    ("coinche", 2),                  # coinched, surcoinched
    ("declarations", 4 * len(COMBO_KINDS)),  # the kinds each seat announced
    ("belote", 4),                   # the seats that said belote (or rebelote)
    ("points", 2),                   # the observer's team's trick points, the other's, / 252
    ("scores", 2),                   # the game's scores before this deal, / the target (≤ 1)
    ("game", len(GAMES)),            # belote, coinche, contree
)
OBSERVATION_SIZE: Final = sum(size for _, size in LAYOUT)
_OFFSET: Final = {name: sum(s for _, s in LAYOUT[:i]) for i, (name, _) in enumerate(LAYOUT)}


def action_index(action: Action) -> int | None:
    """The index of ``action`` in the action space (``None`` for a ``declare ...`` choice)."""
    return _INDEX.get(action)


def encode(obs: Observation, target: int, suits: Sequence[int] = IDENTITY) -> Any:
    """The observation vector of ``obs`` (:data:`LAYOUT`), each suit ``s`` written as
    ``suits[s]`` (:func:`canonical_suits`; the identity by default)."""
    v = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    me = obs.seat
    o = _OFFSET
    cmap = card_map(suits)
    for card in iter_mask(obs.hand):
        v[o["hand"] + cmap[card]] = 1
    step = obs.step
    for leader, cards in obs.tricks:
        for i, card in enumerate(cards):
            v[o["played"] + 32 * ((leader + i * step - me) % 4) + cmap[card]] = 1
    if obs.trick:
        for i, card in enumerate(obs.trick):
            rel = (obs.leader + i * step - me) % 4
            v[o["played"] + 32 * rel + cmap[card]] = 1
            v[o["trick"] + 32 * rel + cmap[card]] = 1
    if obs.leader >= 0:
        v[o["leader"] + (obs.leader - me) % 4] = 1
    if obs.turned >= 0 and obs.taker < 0:
        v[o["turned"] + cmap[obs.turned]] = 1
    v[o["phase"] + (0 if obs.phase == AUCTION else 1)] = 1
    v[o["dealer"] + (obs.dealer - me) % 4] = 1
    latest: dict[int, Bid] = {}
    passes = 0
    for seat, bid in obs.auction:
        latest[seat] = bid
        passes = passes + 1 if bid == PASS else 0
    for seat, bid in latest.items():
        k = _CALL_INDEX.get(permute_bid(bid, suits))
        if k is not None:
            v[o["calls"] + len(_CALLS) * ((seat - me) % 4) + k] = 1
    v[o["passes"]] = min(passes, 4) / 4
    if obs.trump >= 0:
        v[o["trump"] + (suits[obs.trump] if obs.trump < 4 else obs.trump)] = 1
    if obs.taker >= 0:
        v[o["taker"] + (obs.taker - me) % 4] = 1
    if obs.contract is not None:
        c = obs.contract
        if c.kind == "value" and c.value in CONTRACTS:
            v[o["contract"] + CONTRACTS.index(c.value)] = 1
        elif c.kind == "capot":
            v[o["contract"] + len(CONTRACTS)] = 1
        elif c.kind == "generale":
            v[o["contract"] + len(CONTRACTS) + 1] = 1
    if obs.multiplier >= 2:
        v[o["coinche"] + (0 if obs.multiplier == 2 else 1)] = 1
    for seat, kinds in obs.announced:
        for kind in kinds:
            v[o["declarations"] + len(COMBO_KINDS) * ((seat - me) % 4)
              + COMBO_KINDS.index(kind)] = 1
    for seat, _ in obs.belote:
        v[o["belote"] + (seat - me) % 4] = 1
    team = me & 1
    v[o["points"]] = min(obs.points[team] / 252, 1.0)
    v[o["points"] + 1] = min(obs.points[1 - team] / 252, 1.0)
    v[o["scores"]] = min(obs.scores[team] / target, 1.0)
    v[o["scores"] + 1] = min(obs.scores[1 - team] / target, 1.0)
    v[o["game"] + GAMES.index(obs.rules.game)] = 1
    return v


def action_mask(legal: tuple[Action, ...] | list[Action]) -> Any:
    """The legal actions of ``legal`` as a 0/1 vector over :data:`ACTIONS`."""
    mask = np.zeros(len(ACTIONS), dtype=np.int8)
    for a in legal:
        i = _INDEX.get(a)
        if i is not None:
            mask[i] = 1
    return mask
