"""Un conseil: a hint on request during play, the choice the table's level would make for the
player's seat, with its one sentence (:mod:`rebelote.bots.explain`).

The hint is computed from the seat's observation alone: the bot sees nothing else, and its
draws come from a seed made of that observation (:func:`hint_seed`), never of the table's
shuffle, so any deal of the hidden cards that the seat cannot tell from the real one gives
the same hint (at a counted level; a level limited in time may search fewer worlds).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from rebelote.bots import make_bot
from rebelote.bots.explain import Explanation, explained_act
from rebelote.observation import Observation

__all__ = ["hint_for", "hint_seed"]


def hint_seed(obs: Observation) -> int:
    """A seed of everything ``obs`` holds (the seat's hand and everything public): the same
    for every deal of the hidden cards that the seat sees alike."""
    text = repr((obs.seat, obs.rules.name, obs.rules.game, obs.dealer, obs.hand,
                 obs.auction_hand, obs.turned, [(s, str(b)) for s, b in obs.auction],
                 obs.tricks, obs.trick, obs.announced, [(s, str(c)) for s, c in obs.shown],
                 obs.belote, obs.scores, obs.held_over))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def hint_for(obs: Observation, spec: str) -> Explanation:
    """The move the bot ``spec`` makes at ``obs`` and why (its draws from :func:`hint_seed`)."""
    bot: Any = make_bot(spec)
    _, why = explained_act(bot, obs, random.Random(hint_seed(obs)), spec)
    return why
