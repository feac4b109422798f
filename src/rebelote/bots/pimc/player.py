"""The search player (:class:`PimcBot`): its card by :func:`~rebelote.bots.pimc.marks.card_marks`,
its call by :func:`~rebelote.bots.pimc.calls.bid_marks`, a level's budget with fields changed
(:func:`with_fields`).
"""

from __future__ import annotations

import random
from dataclasses import replace

from rebelote.actions import AUCTION, NO_DECLARATION, Action, Play
from rebelote.auction import PASS, Bid
from rebelote.bots.explain import EXPLAIN, Candidate, Explanation, Notes, joined, knowledge
from rebelote.bots.heuristic import HeuristicBot
from rebelote.bots.pimc.budget import Budget, budget_of
from rebelote.bots.pimc.calls import (
    ANCHOR_MARGIN,
    anchored_call,
    bid_marks,
    choose_call,
    hopeless,
)
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

    def card_values(self, observation: Observation, rng: random.Random) -> dict[int, float]:
        """Each legal card's weighted mean mark over the budget's worlds (:func:`card_marks`,
        the draws ``act`` would make from the same ``rng``); empty when no world could be
        weighed. For a player that weighs the search's marks with its own (``net:prior``)."""
        return card_marks(observation, rng, self.budget, self.clock)

    def act(self, observation: Observation, rng: random.Random) -> Action:
        asked = EXPLAIN.get()  # someone asks why (rebelote.bots.explain): explain the choice
        if observation.phase == AUCTION:
            return self._bid(observation, rng, asked)
        cards = [a for a in observation.legal if isinstance(a, Play)]
        if not cards:
            if NO_DECLARATION in observation.legal:  # pragma: no cover - cards come with it
                return NO_DECLARATION
            raise ValueError("act: the observed seat has no action to take")
        if len(cards) == 1:
            return cards[0]
        notes = None if asked is None else Notes()
        values = card_marks(observation, rng, self.budget, self.clock, notes)
        if not values:
            self.fell_back += 1
            got = self.fallback.act(observation, rng)
            if asked is not None:
                asked.append(Explanation(observation.seat, got, "time",
                                         candidates=(Candidate(got),),
                                         facts=knowledge(observation)))
            return got
        self.searched += 1
        ruled: list[Action] = []  # the heuristic's card, if the tie-break asked for it
        if not self.budget.tie_break:
            chosen = max(cards, key=lambda a: values[a.card])
        else:
            r = observation.rules
            points = card_values(observation.trump, r.no_trump_aces, r.all_trump_scale)
            margin = self.budget.prior_margin \
                if observation.hand.bit_count() >= self.budget.prior_least else 0.0

            def prior() -> Action:
                got = self.fallback.act(observation, rng)
                ruled.append(got)
                return got

            chosen = tie_break(cards, values, points, prior, margin)
        if asked is not None and notes is not None:
            asked.append(card_explanation(observation, chosen, values, notes, self.budget,
                                          ruled))
        return chosen

    def _bid(self, obs: Observation, rng: random.Random,
             asked: list[Explanation] | None = None) -> Action:
        legal = [b for b in obs.legal if isinstance(b, Bid)]
        if len(legal) == 1:
            return legal[0]

        def said(action: Bid, why: str, sims: dict[Bid, tuple[float, float]] | None = None,
                 notes: Notes | None = None, **args: str) -> Bid:
            if asked is not None:
                asked.append(call_explanation(obs, action, why, sims, notes, args))
            return action

        bidding = self.budget.bidding if obs.rules.game in AUCTION_GAMES else "free"
        if bidding == "heuristic":
            return self.fallback.act(obs, rng)
        prior: Bid | None = None
        if bidding == "anchored":
            got = self.fallback.act(obs, rng)
            prior = got if isinstance(got, Bid) else PASS
            if prior == PASS and hopeless(obs, legal):
                return said(PASS, "hopeless")
        elif hopeless(obs, legal):
            return said(PASS, "hopeless")
        notes = None if asked is None else Notes()
        sims = bid_marks(obs, rng, self.budget, self.clock, prior, notes)
        if sims is None:
            self.fell_back += 1
            if prior is not None:
                return said(prior, "time")
            got = self.fallback.act(obs, rng)
            return said(got, "time") if isinstance(got, Bid) else got
        self.searched += 1
        if prior is not None:
            chosen = anchored_call(legal, sims, prior)
            if chosen == prior:
                return said(chosen, "anchor_kept", sims, notes, margin=f"{ANCHOR_MARGIN:g}")
            gap = sims[chosen][0] - sims[prior][0]
            return said(chosen, "anchor_left", sims, notes, prior=str(prior), gap=f"{gap:.1f}")
        chosen = choose_call(legal, sims)
        best = max((m for b, (m, _) in sims.items() if b in legal), default=0.0)
        return said(chosen, "call_best" if sims.get(chosen, (best - 1.0, 0.0))[0] >= best
                    else "call_pass", sims, notes)


def card_explanation(obs: Observation, chosen: Action, values: dict[int, float], notes: Notes,
                     budget: Budget, ruled: list[Action]) -> Explanation:
    """Why the search played ``chosen`` (its decision's ``values`` by card, its ``notes``;
    ``ruled``: the heuristic's card, if the tie-break asked for it): the best mark, a clear
    lead that stopped the search, the points between cards of equal marks, a tie broken."""
    assert isinstance(chosen, Play)
    weights = notes.weights or 1.0
    marks = {c: notes.pure.get(c, v * weights) / weights for c, v in values.items()}
    cands = tuple(Candidate(Play(c), marks[c], notes.worlds)
                  for c in sorted(values, key=lambda c: (-values[c], c)))
    best = max(values.values())
    mine = values[chosen.card]
    tied = [Play(c) for c, v in values.items() if v >= best - 1e-9 and c != chosen.card]
    same = [Play(c) for c, m in marks.items()
            if c != chosen.card and abs(m - marks[chosen.card]) <= 1e-9]
    args: dict[str, str] = {"worlds": str(notes.worlds)}
    if mine < best - 1e-9:  # the heuristic's card, within the margin
        top = max(values, key=lambda c: values[c])
        why = "near_rule"
        args.update(margin=f"{budget.prior_margin:g}", best=str(Play(top)))
    elif tied:
        why = "tie_rule" if ruled and ruled[0] == chosen else \
            "tie_points" if budget.tie_break else "tie_first"
        args["others"] = joined(tied)
    elif same and budget.points_eps:
        why = "points"
        args["others"] = joined(same)
    elif notes.stopped:
        second = max((c for c in values if c != chosen.card), key=lambda c: values[c])
        why = "clear"
        args.update(second=str(Play(second)), gap=f"{marks[chosen.card] - marks[second]:.1f}")
    else:
        why = "best"
    return Explanation(obs.seat, chosen, why, candidates=cands,
                       facts=knowledge(obs, notes.holders, notes.weights),
                       args=tuple(args.items()))


def call_explanation(obs: Observation, chosen: Bid, why: str,
                     sims: dict[Bid, tuple[float, float]] | None, notes: Notes | None,
                     args: dict[str, str]) -> Explanation:
    """Why the search made the call ``chosen`` (``sims``: each simulated call's mean mark and
    chance): the candidates are the simulated calls, best mark first."""
    cands: list[Candidate] = []
    if sims:
        counts = notes.counts if notes is not None else {}
        for bid, (mark, _chance) in sorted(sims.items(), key=lambda kv: -kv[1][0]):
            cands.append(Candidate(bid, mark, counts.get(bid, 0)))
    if all(c.action != chosen for c in cands):
        cands.append(Candidate(chosen))
    return Explanation(obs.seat, chosen, why, candidates=tuple(cands), facts=knowledge(obs),
                       args=tuple(args.items()))
