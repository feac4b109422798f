"""The search player (:class:`PimcBot`): its card by :func:`~rebelote.bots.pimc.marks.card_marks`,
its call by :func:`~rebelote.bots.pimc.calls.bid_marks`, a level's budget with fields changed
(:func:`with_fields`).
"""

from __future__ import annotations

import random
from dataclasses import replace

from rebelote.actions import AUCTION, NO_DECLARATION, Action, Play
from rebelote.auction import PASS, Bid
from rebelote.bots.heuristic import HeuristicBot
from rebelote.bots.pimc.budget import Budget, budget_of
from rebelote.bots.pimc.calls import anchored_call, bid_marks, choose_call, hopeless
from rebelote.bots.pimc.inference import call_system
from rebelote.bots.pimc.marks import card_marks, tie_break
from rebelote.bots.pimc.worlds import CLOCK
from rebelote.bots.tuned import make_tuned
from rebelote.observation import Observation
from rebelote.rules import AUCTION_GAMES, card_values


def with_fields(text: str) -> PimcBot:
    """A search player of a level with some of its budget's fields changed, for a
    measurement: ``pimc:LEVEL[field=value;...]`` (``pimc:match[points_eps=0;uniform=0]``: the
    :class:`Budget` of ``LEVEL`` with those fields; a tuple field's counts joined by ``-``, a
    flag 1 or 0). :class:`ValueError` naming the field otherwise."""
    head, bracket, rest = text.partition("[")
    name, _, level = head.partition(":")
    if not bracket or name.strip() != "pimc" or not rest.endswith("]"):
        raise ValueError(f"{text!r}: budget fields are for pimc (pimc:16[stop_z=2.5])")
    budget = budget_of(level or None)
    fields: dict[str, object] = {}
    for item in filter(None, rest[:-1].split(";")):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in Budget.__dataclass_fields__:
            raise ValueError(f"{text!r}: {item!r} is not field=value of pimc's Budget")
        old = getattr(budget, key)
        try:
            fields[key] = (tuple(int(x) for x in value.split("-")) if isinstance(old, tuple)
                           else value.strip().lower() in ("1", "true", "yes")
                           if isinstance(old, bool) else type(old)(value))
        except ValueError:
            kind = ("counts joined by '-' (64-32-8)" if isinstance(old, tuple)
                    else "whole number" if isinstance(old, int) else "number")
            raise ValueError(f"{text!r}: {key} must be a {kind}, not {value!r}") from None
    return PimcBot(budget=replace(budget, **fields))  # type: ignore[arg-type]


def _bidder(name: str) -> HeuristicBot:
    """The bot whose calls are a level's prior and its fallback (all play the heuristic's
    cards): ``heuristic``, ``tuned`` or ``learned`` (imported when first made: NumPy)."""
    if name == "learned":
        from rebelote.bots.contextual import make_contextual

        return make_contextual()
    return HeuristicBot() if name == "heuristic" else make_tuned()


class PimcBot:
    """The search player. ``act`` sees only its observation; worlds come from ``rng``."""

    name: str = "pimc"

    def __init__(self, level: str | None = None, budget: Budget | None = None) -> None:
        self.budget = budget or budget_of(level)
        if self.budget.calls:
            call_system(self.budget.calls)  # an unknown system is said when the bot is made
        self.fallback = _bidder(self.budget.bidder)
        self.clock = CLOCK
        #: Decisions searched (worlds solved) and answered by the heuristic for want of
        #: time, since the bot was made (for the benches).
        self.searched = 0
        self.fell_back = 0

    @property
    def worlds(self) -> int:
        return self.budget.worlds

    @property
    def seconds(self) -> float | None:
        return self.budget.seconds

    def act(self, observation: Observation, rng: random.Random) -> Action:
        if observation.phase == AUCTION:
            return self._bid(observation, rng)
        cards = [a for a in observation.legal if isinstance(a, Play)]
        if not cards:
            if NO_DECLARATION in observation.legal:  # pragma: no cover - cards come with it
                return NO_DECLARATION
            raise ValueError("act: the observed seat has no action to take")
        if len(cards) == 1:
            return cards[0]
        values = card_marks(observation, rng, self.budget, self.clock)
        if not values:
            self.fell_back += 1
            return self.fallback.act(observation, rng)
        self.searched += 1
        if not self.budget.tie_break:
            return max(cards, key=lambda a: values[a.card])
        r = observation.rules
        points = card_values(observation.trump, r.no_trump_aces, r.all_trump_scale)
        margin = self.budget.prior_margin \
            if observation.hand.bit_count() >= self.budget.prior_least else 0.0
        return tie_break(cards, values, points, lambda: self.fallback.act(observation, rng),
                         margin)

    def _bid(self, obs: Observation, rng: random.Random) -> Action:
        legal = [b for b in obs.legal if isinstance(b, Bid)]
        if len(legal) == 1:
            return legal[0]
        bidding = self.budget.bidding if obs.rules.game in AUCTION_GAMES else "free"
        if bidding == "heuristic":
            return self.fallback.act(obs, rng)
        prior: Bid | None = None
        if bidding == "anchored":
            got = self.fallback.act(obs, rng)
            prior = got if isinstance(got, Bid) else PASS
            if prior == PASS and hopeless(obs, legal):
                return PASS
        elif hopeless(obs, legal):
            return PASS
        sims = bid_marks(obs, rng, self.budget, self.clock, prior)
        if sims is None:
            self.fell_back += 1
            return prior if prior is not None else self.fallback.act(obs, rng)
        self.searched += 1
        if prior is not None:
            return anchored_call(legal, sims, prior)
        return choose_call(legal, sims)
