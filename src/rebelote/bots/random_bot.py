"""The random bot: random legal bids (mostly passes) and random legal cards."""

from __future__ import annotations

import random

from rebelote.actions import AUCTION, NO_DECLARATION, Action
from rebelote.auction import PASS
from rebelote.observation import Observation


class RandomBot:
    """Passes at the auction with probability ``pass_rate``, else makes a random legal call;
    plays a random legal card; always declares (the default)."""

    name: str = "random"
    #: Plays a uniformly random legal card and always declares: four such bots play a deal's
    #: cards exactly like :meth:`DealState.playout <rebelote.deal.DealState.playout>` with the
    #: same ``rng`` (the same draws, the same cards), which ``rebelote deal`` uses.
    uniform_play: bool = True

    def __init__(self, pass_rate: float = 0.7) -> None:
        self.pass_rate = pass_rate

    def act(self, observation: Observation, rng: random.Random) -> Action:
        legal = observation.legal
        if observation.phase == AUCTION:
            if not legal:
                raise ValueError("act: the observed seat has no action to take")
            others = legal[1:]  # ``pass`` comes first
            if not others or rng.random() < self.pass_rate:
                return PASS
            return rng.choice(others)
        if legal and legal[-1] is NO_DECLARATION:
            legal = legal[:-1]
        if not legal:
            raise ValueError("act: the observed seat has no action to take")
        return legal[int(rng.random() * len(legal))]
