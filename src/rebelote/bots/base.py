"""The bot protocol: a bot sees one seat's observation and answers an action."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextvars import ContextVar
from typing import Final, Protocol, runtime_checkable

from rebelote.actions import Action
from rebelote.observation import Observation

#: Set by whoever runs a decision under a deadline (the play table's bot runner): a callable
#: that answers ``True`` once the decision must end (its time is spent, the table moved on,
#: the server stops). A bot that searches checks it between two units of work and answers
#: with what it has (or its fallback's move); ``None``: nothing stops it but its own budget.
STOP: Final[ContextVar[Callable[[], bool] | None]] = ContextVar("rebelote_bot_stop",
                                                                default=None)


@runtime_checkable
class Bot(Protocol):
    """A player program: ``act`` chooses one of ``observation.legal`` (never another seat's
    hidden cards: the observation holds none). Randomness comes only from ``rng``."""

    name: str

    def act(self, observation: Observation, rng: random.Random) -> Action:
        """The action to take at ``observation`` (whose ``legal`` is not empty)."""
        ...
