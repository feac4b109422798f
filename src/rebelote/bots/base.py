"""The bot protocol: a bot sees one seat's observation and answers an action."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from rebelote.actions import Action
from rebelote.observation import Observation


@runtime_checkable
class Bot(Protocol):
    """A player program: ``act`` chooses one of ``observation.legal`` (never another seat's
    hidden cards: the observation holds none). Randomness comes only from ``rng``."""

    name: str

    def act(self, observation: Observation, rng: random.Random) -> Action:
        """The action to take at ``observation`` (whose ``legal`` is not empty)."""
        ...
