"""The marks of the search's cards: a world's card points turned into the deal's marks
(:class:`Marker`), each legal card's weighted mean mark over the worlds (:func:`card_marks`,
:class:`Postponed`), the early stop (:func:`lead_is_clear`) and the ties (:func:`tie_break`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final

from rebelote.actions import AUCTION, PLAY, Action, Play
from rebelote.auction import Bid
from rebelote.bots.explain import Notes
from rebelote.bots.pimc.budget import Budget
from rebelote.bots.pimc.inference import _inference
from rebelote.bots.pimc.worlds import Clock, Worlds, _listed, _resample
from rebelote.cards import TEAMS
from rebelote.deal import DealState
from rebelote.observation import Observation
from rebelote.rules import AUCTION_GAMES, Rules
from rebelote.scoring import score_deal
from rebelote.solver import position_of_state, solve
from rebelote.summary import DealSummary


def tricks_won(tricks: tuple[tuple[int, tuple[int, ...]], ...], leader: int) -> tuple[int, int]:
    """Tricks won by NS and EW: each finished trick's winner leads the next (or leads now)."""
    won = [0, 0]
    for i in range(len(tricks)):
        winner = tricks[i + 1][0] if i + 1 < len(tricks) else leader
        won[winner & 1] += 1
    return won[0], won[1]


class Marker:
    """Turns a team's final card points in a world (a solver value) into the deal's mark
    difference for a team, through :func:`score_deal`; the declarations and belote come from
    the world (seats yet to play their first card declare their best set)."""

    def __init__(self, world: DealState, taker: int, contract: Bid | None, multiplier: int
                 ) -> None:
        rules = world.rules
        trump = world.trump if world.phase != AUCTION else (contract.trump if contract else -1)
        self.rules = rules
        self.trump = trump
        self.taker = taker
        self.contract = contract
        self.multiplier = multiplier
        self.total = rules.deal_total(trump)
        self.capot = rules.capot_total(trump)
        # the world's declarations (seats yet to play their first card declare their best
        # set) and belotes, as the engine counts them
        self.declarations = world.declaration_points()
        self.belote = world.belote_count()
        self.held_over = world.held_over
        self._cache: dict[tuple[int, int], int] = {}

    def mark(self, team: int, points: int, won_trick: bool, for_team: int) -> int:
        """The mark of ``for_team`` minus the other's when ``team`` ends with ``points`` card
        points (dix de der and capot included); ``won_trick``: ``team`` won a trick already."""
        key = (team * 2 + for_team, points * 2 + won_trick)
        got = self._cache.get(key)
        if got is not None:
            return got
        rules = self.rules
        capot: int = -1
        pts = [0, 0]
        if points >= self.capot:
            capot = team
            pts[team] = self.capot
        elif points == 0 and not won_trick:
            capot = 1 - team
            pts[1 - team] = self.capot
        else:
            pts[team] = points
            pts[1 - team] = self.total - points
        contract: int | str | None = None
        if rules.game in AUCTION_GAMES and self.contract is not None:
            c = self.contract
            contract = c.value if c.kind == "value" else c.kind
        summary = DealSummary(
            game=rules.game, taker=TEAMS[self.taker & 1], trump=self.trump,
            points=(pts[0], pts[1]), contract=contract, coinche=self.multiplier,
            capot=TEAMS[capot] if capot >= 0 else None, generale=False,
            declarations=self.declarations, belote=self.belote, held_over=self.held_over)
        ns, ew = _score(summary, rules)
        got = ns - ew if for_team == 0 else ew - ns
        self._cache[key] = got
        return got

    def own(self, team: int, points: int, won_trick: bool, eps: float) -> float:
        """The mark of ``team`` ending with ``points`` (:meth:`mark`), plus ``eps`` a card
        point (:attr:`Budget.points_eps`: the points part cards of equal marks)."""
        m: float = self.mark(team, points, won_trick, team)
        return m + eps * points if eps else m


@lru_cache(maxsize=1 << 14)
def _score(summary: DealSummary, rules: Rules) -> tuple[int, int]:
    """The marks (NS, EW) of a deal summary (:func:`score_deal`), kept: the worlds of a
    decision end on few distinct summaries."""
    ns, ew = score_deal(summary, rules).score
    return ns, ew


def card_marks(obs: Observation, rng: random.Random, budget: Budget, clock: Clock | None = None,
               notes: Notes | None = None) -> dict[int, float]:
    """Each legal card's weighted mean mark (the seat's team's mark minus the other's) over
    the worlds solved within the budget; empty if no world could be weighed. ``notes``: what
    the search did, for its explanation (:class:`rebelote.bots.explain.Notes`: the worlds,
    the marks without the points' part, where the hidden cards were)."""
    team = obs.seat & 1
    total: dict[int, float] = {}
    weights = 0.0
    clock = clock or Clock()
    count = budget.card_worlds(obs.hand.bit_count())
    dealer = Worlds(obs, budget)
    draw = clock.sampler(("play", obs.hand.bit_count()), obs, rng, count,
                         budget.seconds, budget.min_worlds, budget.uniform,
                         budget.auction_alpha, dealer)
    contract = obs.contract
    n = 0
    seen: list[tuple[float, dict[int, float]]] = []  # each world's weight and marks
    infer = budget.infer_for(obs)
    # weighed: the source's weights hold the play's inference already
    weighed = resampled = infer > 0.0 and budget.pool > 1 and budget.seconds is None
    every = dealer.every(max(count, budget.every_below), rng) if budget.every_below else None
    if every:
        # few deals fit: each once, weighed by the auction and, with inference, by the play
        # (the model's likelihood of every world that fits: no draws to resample)
        count = len(every)
        draw = _listed(every, obs, budget, infer, dealer)
        weighed = True
    # a close decision may go on past ``count`` (Budget.extend): the resampled worlds only
    extra = budget.extend if resampled and not every else 0
    if resampled and not every:
        draw = _resample(obs, rng, budget, count, dealer, infer, extra)
    inferred = _inference(obs, budget, infer) if infer > 0.0 and not weighed else None
    later: Postponed | None = None
    if 2 <= obs.hand.bit_count() <= min(budget.postpone, 7):
        later = Postponed(obs.seat, budget.points_eps)
    while (got := draw()) is not None:
        world, weight = got
        n += 1
        if world is None or weight <= 0.0 or world.phase != PLAY:
            continue
        if inferred is not None:
            weight *= inferred(world)
        values = solve(position_of_state(world), obs.rules)
        # the world is at the seat's turn: the mover's team is the seat's
        won = tricks_won(world.tricks, world.leader)[team] > 0
        marker = Marker(world, world.taker, contract, obs.multiplier)
        marks: dict[int, float] = {}
        for card, v in values.items():
            m = marker.own(team, v, won, budget.points_eps)
            marks[card] = m
            total[card] = total.get(card, 0.0) + weight * m
        if notes is not None:
            notes.world(world.hands, obs.seat, weight)
            pure = notes.pure
            for card, v in values.items():
                pure[card] = pure.get(card, 0.0) + weight * marker.mark(team, v, won, team)
        if later is not None:
            later.add(world, weight, marker, values, won)
        weights += weight
        if budget.stop_z > 0.0 or extra:
            seen.append((weight, marks))
        if budget.stop_z > 0.0 and len(seen) >= budget.stop_least and len(seen) % 4 == 0 \
                and lead_is_clear(seen, total, budget.stop_z):
            if notes is not None:
                notes.stopped = True
            break
        if extra and n == count and not close_call(seen, total, budget.extend_z):
            break  # clear enough: no more worlds
    if weights <= 0.0 or n < min(budget.min_worlds, count):
        return {}  # the time was too short: the caller falls back on the heuristic
    if later is not None:
        total = later.totals()
    return {c: v / weights for c, v in total.items()}


class Postponed:
    """The values of a seat's cards with its next card chosen once per information set
    (:attr:`Budget.postpone`): each world is played on from each card to the seat's next turn,
    the other seats playing their double-dummy best in that world, and the worlds that show
    the same cards meanwhile share the seat's next card, the one of the best weighted sum over
    them. A card's total is the sum over those groups of their best next card's sum: never
    above the double-dummy total (each world its own best next card), equal when every group
    is one world."""

    def __init__(self, seat: int, eps: float) -> None:
        self.seat = seat
        self.eps = eps
        #: card -> the cards seen until the seat's next turn -> next card -> weighted marks
        self.groups: dict[int, dict[tuple[int, ...], dict[int, float]]] = {}

    def add(self, world: DealState, weight: float, marker: Marker, values: dict[int, int],
            won: bool) -> None:
        """One world: its values now (``values``, the seat's team's points by card;
        ``won``: the team has won a trick)."""
        team = self.seat & 1
        for card in values:
            node = world.apply(Play(card))
            seen: list[int] = []
            while node.phase == PLAY and node.player != self.seat:
                replies = solve(position_of_state(node), node.rules)
                best = max(replies, key=lambda c: (replies[c], -c))
                seen.append(best)
                node = node.apply(Play(best))
            by_card = self.groups.setdefault(card, {})
            if node.phase != PLAY:  # no next turn in this world (never past trick 1): alone
                key: tuple[int, ...] = (-1 - len(by_card),)
                by_card[key] = {card: weight * marker.own(team, values[card], won, self.eps)}
                continue
            nxt = solve(position_of_state(node), node.rules)
            won_then = tricks_won(node.tricks, node.leader)[team] > 0
            sums = by_card.setdefault(tuple(seen), {})
            for c, v in nxt.items():
                sums[c] = sums.get(c, 0.0) + weight * marker.own(team, v, won_then, self.eps)

    def totals(self) -> dict[int, float]:
        """Each card's weighted total: the sum over its groups of the best next card's."""
        return {card: sum(max(sums.values()) for sums in by_card.values())
                for card, by_card in self.groups.items()}


#: :attr:`Budget.extend`: two cards whose marks differ by less than this in every world
#: differ by the points' part alone (:attr:`Budget.points_eps`): no close call between them.
ALIKE: Final = 2.0


def lead_is_clear(seen: list[tuple[float, dict[int, float]]], total: dict[int, float],
                  z: float) -> bool:
    """Whether the best card's weighted mean mark beats the second's by ``z`` standard errors
    of their paired difference over the worlds ``seen`` (weight, each card's mark), or the
    two are equal in every world (more worlds would not part them)."""
    if len(total) < 2:
        return True
    ranked = sorted(total, key=lambda c: -total[c])
    return _apart(seen, ranked[0], ranked[1], z)


def close_call(seen: list[tuple[float, dict[int, float]]], total: dict[int, float],
               z: float) -> bool:
    """Whether the best card's lead over the next card that differs from it (by
    :data:`ALIKE` or more in some world) is under ``z`` standard errors of their paired
    difference (:attr:`Budget.extend`): cards that differ by their points alone are passed
    over, a close call behind them is not."""
    ranked = sorted(total, key=lambda c: -total[c])
    if not ranked:
        return False
    a = ranked[0]
    for b in ranked[1:]:
        if any(abs(m[a] - m[b]) >= ALIKE for _, m in seen):
            return not _apart(seen, a, b, z)
    return False


def _apart(seen: list[tuple[float, dict[int, float]]], a: int, b: int, z: float) -> bool:
    """Whether card ``a``'s weighted mean mark beats ``b``'s by ``z`` standard errors of their
    paired difference over ``seen``, or the two are equal in every world."""
    sw = sum(w for w, _ in seen)
    sw2 = sum(w * w for w, _ in seen)
    if sw <= 0.0:
        return False
    diffs = [(w, m[a] - m[b]) for w, m in seen]
    mean = sum(w * d for w, d in diffs) / sw
    var = sum(w * (d - mean) ** 2 for w, d in diffs) / sw
    if var <= 1e-12:
        return True
    n_eff = sw * sw / sw2
    return mean > z * math.sqrt(var / max(1.0, n_eff - 1.0))


def tie_break(cards: list[Play], values: dict[int, float], points: Sequence[int],
              prior: Callable[[], Action], margin: float = 0.0) -> Play:
    """The card of the best mean mark; between equal ones (or with ``margin``, when the
    heuristic's card is within ``margin`` marks of the best), the heuristic's (``prior()``,
    asked only then) if it is one of them, else the one worth fewest card points, then the
    lowest."""
    best = max(values[a.card] for a in cards)
    tied = [a for a in cards if values[a.card] >= best - 1e-9]
    if len(tied) == 1 and margin <= 0.0:
        return tied[0]
    got = prior()
    if isinstance(got, Play) and got.card in values \
            and values[got.card] >= best - max(margin, 1e-9):
        return got
    if len(tied) == 1:
        return tied[0]
    return min(tied, key=lambda a: (points[a.card], a.card))
