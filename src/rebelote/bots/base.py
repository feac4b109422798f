"""The bot protocol: a bot sees one seat's observation and answers an action."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final, Protocol, runtime_checkable

from rebelote.actions import Action
from rebelote.observation import Observation

#: Set by whoever runs a decision under a deadline (the play table's bot runner): a callable
#: that answers ``True`` once the decision must end (its time is spent, the table moved on,
#: the server stops). A bot that searches checks it between two units of work and answers
#: with what it has (or its fallback's move); ``None``: nothing stops it but its own budget.
STOP: Final[ContextVar[Callable[[], bool] | None]] = ContextVar("rebelote_bot_stop",
                                                                default=None)


@dataclass(slots=True)
class Deadline:
    """When a decision's time is up (``at``, :func:`time.monotonic`), and whether its bot cut
    its work short for it (``cut``)."""

    at: float
    cut: bool = False

    def allows(self, seconds: float) -> bool:
        """Whether a unit of work expected to take ``seconds`` ends in time; one that does not
        is not to be started (the decision is then cut short)."""
        if time.monotonic() + seconds <= self.at:
            return True
        self.cut = True
        return False


#: Set beside :data:`STOP` by whoever runs a decision under a deadline. A bot that can tell
#: what its next unit of work costs starts none that :meth:`Deadline.allows` refuses, so that
#: it answers in time; ``None``: no deadline.
DEADLINE: Final[ContextVar[Deadline | None]] = ContextVar("rebelote_bot_deadline",
                                                          default=None)


@runtime_checkable
class Bot(Protocol):
    """A player program: ``act`` chooses one of ``observation.legal`` (never another seat's
    hidden cards: the observation holds none). Randomness comes only from ``rng``."""

    name: str

    def act(self, observation: Observation, rng: random.Random) -> Action:
        """The action to take at ``observation`` (whose ``legal`` is not empty)."""
        ...
