"""Card-play problems cut from deals played to their end (*Exercices*): positions where one
card is clearly best for the seat to move **by the expected mark over the worlds that seat
can imagine** (its observation only, never the real deal), the answer explained as the search
explains its cards (:mod:`rebelote.bots.explain`).

A problem is found as the search values a card (:func:`rebelote.bots.pimc.card_marks`): the
hidden cards dealt again consistently with the seat's observation
(:class:`rebelote.bots.pimc.Worlds`, uniform over the deals that fit and weighed by the
auction), each world solved double-dummy (:func:`rebelote.solver.solve`) and each card's
final points turned into the deal's marks (:class:`rebelote.bots.pimc.Marker`). Each world's
marks are kept, so that the best card is a problem's answer only when its mean mark beats every
other card's by :attr:`Criteria.margin` marks **and** by :attr:`Criteria.z` standard errors
of the paired difference over :attr:`Criteria.worlds` worlds. A first
:attr:`Criteria.screen` worlds drop the positions whose lead is not already in sight.

The real deal's double-dummy marks of each card are computed too, for the explanation only
(``real``): they never choose the answer.

Everything is counted (worlds, positions tried), nothing timed: the same ``seed`` gives the
same problems (:func:`problem_set`).

Difficulty (:data:`LEVELS`): ``difficile`` when the club rule (the heuristic bot) would play
another card (a tempting card), ``moyen`` when it agrees but the seat still holds five cards or
more with three legal ones or its lead is under :data:`EASY_MARGIN` marks, ``facile``
otherwise.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from rebelote.actions import OVER, PLAY, Declare, Play
from rebelote.bots.explain import Candidate, Explanation, Notes, knowledge
from rebelote.bots.heuristic import HeuristicBot
from rebelote.bots.pimc import Marker, Worlds, tricks_won
from rebelote.cards import card_str, iter_mask, parse_card
from rebelote.deal import DealState
from rebelote.observation import Observation, observe
from rebelote.rules import TRUMP_NAMES, Rules, legal_cards
from rebelote.solver import position_of_state, solve

__all__ = [
    "EASY_MARGIN",
    "LEVELS",
    "Criteria",
    "Judged",
    "check_problem",
    "costly_problems",
    "judge_position",
    "play_states",
    "problem_of_deal",
    "problem_set",
    "visible_cards",
]

#: The three difficulties, easiest first.
LEVELS: Final = ("facile", "moyen", "difficile")
#: A problem the club rule gets right is ``facile`` only with this lead or more (marks) and
#: few cards (else ``moyen``).
EASY_MARGIN: Final = 40.0
#: The reason an answer's explanation gives (:data:`rebelote.bots.explain.WHY`).
_WHY: Final = "best"
#: What the explanation names as the level that chose the answer.
_LEVEL: Final = "exercices"


@dataclass(frozen=True, slots=True)
class Criteria:
    """What makes an answer unambiguous, and how much work finding one may take."""

    #: worlds a position is judged over
    worlds: int = 64
    #: worlds of the first look (a position whose best card does not lead by half the margin
    #: there is dropped)
    screen: int = 16
    #: the best card's mean mark beats every other's by this many marks...
    margin: float = 10.0
    #: ... and by this many standard errors of the paired difference
    z: float = 3.0
    #: positions tried in a deal (at most; the first that is a problem is the deal's)
    tries: int = 6
    #: the seat holds at most this many cards (the first tricks cost a whole deal's search)
    most_cards: int = 7
    #: and at least this many (a last card is forced)
    least_cards: int = 2


@dataclass(frozen=True, slots=True)
class Judged:
    """A position judged: each legal card's weighted mean mark (the seat's team's mark minus
    the other's), the standard error of its paired difference with the best card, the worlds,
    where the hidden cards were in them (for what the seat could infer)."""

    marks: dict[int, float]
    errors: dict[int, float]
    worlds: int
    notes: Notes

    def best(self) -> int:
        return max(self.marks, key=lambda c: (self.marks[c], -c))

    def clear(self, criteria: Criteria) -> bool:
        """Whether the best card beats every other by the margin and by ``z`` errors."""
        if len(self.marks) < 2:
            return False
        best = self.best()
        for c, m in self.marks.items():
            if c == best:
                continue
            gap = self.marks[best] - m
            if gap < criteria.margin or gap < criteria.z * self.errors[c]:
                return False
        return True


def judge_position(obs: Observation, rng: random.Random, worlds: int) -> Judged | None:
    """Each legal card of ``obs`` (a seat to play, two legal cards or more) valued over
    ``worlds`` worlds drawn from ``rng`` consistently with ``obs``; ``None`` if none fits."""
    team = obs.seat & 1
    # the worlds as the shipped problems were found with them (the rejection sampler where
    # declarations were announced), so that a seed still gives them: the fitted draws are
    # as likely to deal each world, from other random numbers
    dealer = Worlds(obs, rejection=True)
    notes = Notes()
    seen: list[tuple[float, dict[int, float]]] = []
    for _ in range(worlds):
        world, weight = dealer.uniform(rng)
        weight *= dealer.weight(world)
        if weight <= 0.0 or world.phase != PLAY:
            continue
        values = solve(position_of_state(world), obs.rules)
        won = tricks_won(world.tricks, world.leader)[team] > 0
        marker = Marker(world, world.taker, obs.contract, obs.multiplier)
        seen.append((weight, {c: float(marker.mark(team, v, won, team))
                              for c, v in values.items()}))
        notes.world(world.hands, obs.seat, weight)
    sw = sum(w for w, _ in seen)
    if sw <= 0.0:
        return None
    cards = list(seen[0][1])
    marks = {c: sum(w * m[c] for w, m in seen) / sw for c in cards}
    best = max(marks, key=lambda c: (marks[c], -c))
    sw2 = sum(w * w for w, _ in seen)
    n_eff = sw * sw / sw2
    errors: dict[int, float] = {}
    for c in cards:
        diff = marks[best] - marks[c]
        var = sum(w * (m[best] - m[c] - diff) ** 2 for w, m in seen) / sw
        errors[c] = math.sqrt(var / max(1.0, n_eff - 1.0))
    notes.pure = {c: marks[c] * sw for c in cards}
    return Judged(marks, errors, len(seen), notes)


def _real_marks(state: DealState) -> dict[int, float]:
    """Each legal card's mark in the real deal, double-dummy (for the explanation only)."""
    team = state.player & 1
    values = solve(position_of_state(state), state.rules)
    won = tricks_won(state.tricks, state.leader)[team] > 0
    obs = observe(state, state.player)
    marker = Marker(state, state.taker, obs.contract, obs.multiplier)
    return {c: float(marker.mark(team, v, won, team)) for c, v in values.items()}


def _level(obs: Observation, margin: float, tempting: int | None) -> str:
    if tempting is not None:
        return LEVELS[2]
    legal = sum(1 for a in obs.legal if isinstance(a, Play))
    if margin < EASY_MARGIN or (obs.hand.bit_count() >= 5 and legal >= 3):
        return LEVELS[1]
    return LEVELS[0]


def _rng(seed: int, *parts: int) -> random.Random:
    return random.Random("/".join(str(p) for p in (seed, *parts)))


def _played(rules: Rules, dealer: int, seed: int, n: int) -> list[DealState]:
    """Deal ``n`` of ``seed`` played to its end by the heuristic bot at every seat: the
    states before each action."""
    bot = HeuristicBot()
    rng = _rng(seed, n, 0)
    state = DealState.new(rules, dealer=dealer, rng=rng)
    states: list[DealState] = []
    while state.phase != OVER:
        states.append(state)
        state = state.apply(bot.act(observe(state, state.player), rng))
    states.append(state)
    return states


def problem_of_deal(rules: Rules, seed: int, n: int, criteria: Criteria | None = None
                    ) -> dict[str, Any] | None:
    """The problem of deal ``n`` of ``seed`` (``None``: none of the positions tried is one):
    the deal played by the heuristic bot at every seat, up to :attr:`Criteria.tries` of its
    positions (drawn from the seed) judged from the mover's observation."""
    criteria = criteria or Criteria()
    states = _played(rules, n % 4, seed, n)
    if states[-1].phase != OVER or states[-1].taker < 0:
        return None
    candidates: list[int] = []
    for i, s in enumerate(states[:-1]):
        if s.phase != PLAY:
            continue
        legal = s.legal_actions()
        if len(legal) < 2 or not all(isinstance(a, Play) for a in legal):
            continue
        held = s.hands[s.player].bit_count()
        if criteria.least_cards <= held <= criteria.most_cards:
            candidates.append(i)
    if not candidates:
        return None
    pick = _rng(seed, n, 1)
    pick.shuffle(candidates)
    for i in candidates[:criteria.tries]:
        got = _try(states[i], seed, n, i, criteria)
        if got is not None:
            return got
    return None


def _try(state: DealState, seed: int, n: int, index: int, criteria: Criteria
         ) -> dict[str, Any] | None:
    obs = observe(state, state.player)
    first = judge_position(obs, _rng(seed, n, index, 0), criteria.screen)
    if first is None:
        return None
    marks = sorted(first.marks.values(), reverse=True)
    if len(marks) < 2 or marks[0] - marks[1] < criteria.margin / 2:
        return None
    judged = judge_position(obs, _rng(seed, n, index, 1), criteria.worlds)
    if judged is None or not judged.clear(criteria):
        return None
    answer = judged.best()
    heuristic = HeuristicBot().act(obs, _rng(seed, n, index, 2))
    tempting = heuristic.card if isinstance(heuristic, Play) and heuristic.card != answer \
        else None
    return _problem(state, obs, seed, n, index, judged, answer, tempting)


def _problem(state: DealState, obs: Observation, seed: int, n: int, index: int,
             judged: Judged, answer: int, tempting: int | None) -> dict[str, Any]:
    order = sorted(judged.marks, key=lambda c: (-judged.marks[c], c))
    # the marks to the thousandth, as the shipped set holds them (a problem is read, not
    # replayed: its figures need no more)
    candidates = tuple(Candidate(Play(c), round(judged.marks[c], 3), judged.worlds)
                       for c in order)
    why = Explanation(
        obs.seat, Play(answer), _WHY, level=_LEVEL, candidates=candidates,
        facts=knowledge(obs, judged.notes.holders, judged.notes.weights),
        args=(("worlds", str(judged.worlds)),))
    real = _real_marks(state)
    second = judged.marks[order[1]]
    return {
        "id": f"{seed}-{n}-{index}",
        "seed": seed,
        "deal": n,
        "index": index,
        "game": obs.rules.game,
        "level": _level(obs, judged.marks[answer] - second, tempting),
        "position": obs.to_json(),
        "answer": card_str(answer),
        "tempting": None if tempting is None else card_str(tempting),
        "margin": round(judged.marks[answer] - second, 1),
        "cards": [{"card": card_str(c), "mark": round(judged.marks[c], 1),
                   "error": round(judged.errors[c], 1), "worlds": judged.worlds,
                   "real": round(real[c], 1)} for c in order],
        "explanation": why.to_record(),
    }


def problem_set(rules: Rules, seed: int, count: int, start: int = 0,
                criteria: Criteria | None = None) -> Iterator[dict[str, Any]]:
    """Problems of ``seed``, one at most a deal, deals ``start``, ``start`` + 1, ... until
    ``count`` are found: each deal's the same whatever came before (a stopped run goes on from
    its last deal)."""
    found = 0
    n = start
    while found < count:
        got = problem_of_deal(rules, seed, n, criteria)
        n += 1
        if got is not None:
            found += 1
            yield got


def play_states(final: DealState) -> list[DealState]:
    """The positions before each card of a finished deal's play, replayed from its hands, its
    calls and its declarations (coinche and contrée; :class:`ValueError` for belote, whose
    stock is not kept in the finished deal, and for a deal voided by passes)."""
    if final.rules.game == "belote":
        raise ValueError("belote: its stock is not in the finished deal; coinche or contree")
    if final.taker < 0 or not final.tricks:
        raise ValueError("a deal voided by passes has no play")
    state = DealState.from_hands(final.rules, final.dealer, final.auction_hands(),
                                 held_over=final.held_over, scores=final.scores)
    for _, bid in final.auction.history:
        state = state.apply(bid)
    out: list[DealState] = []
    for _, cards in final.tricks:
        for card in cards:
            p = state.player
            if state.declared[p] is None and any(not isinstance(a, Play)
                                                 for a in state.legal_actions()):
                state = state.apply(Declare(final.declared[p] or ()))
            out.append(state)
            state = state.apply(Play(card))
    return out


def costly_problems(final: DealState, seat: int, seed: int = 0,
                    criteria: Criteria | None = None) -> list[dict[str, Any]]:
    """*Vos cartes coûteuses*: the cards ``seat`` played in the finished deal ``final`` that
    cost its team marks double-dummy (the real deal, as the table's analysis counts them),
    offered as problems: each position judged from the seat's observation (as
    :func:`problem_of_deal` judges), kept when the card the worlds it could imagine prefer is
    not the one it played (a card that cost only through cards it could not see is no
    mistake). ``cost``: the marks the played card lost in the real deal; ``played``: that card;
    ``clear``: whether the answer beats every other card by the margin and the errors."""
    criteria = criteria or Criteria()
    out: list[dict[str, Any]] = []
    states = play_states(final)
    cards = [c for _, t in final.tricks for c in t]
    auction = len(final.auction.history)
    for k, state in enumerate(states):
        if state.player != seat:
            continue
        obs = observe(state, seat)
        if sum(1 for a in obs.legal if isinstance(a, Play)) < 2:
            continue
        real = _real_marks(state)
        played = cards[k]
        cost = max(real.values()) - real[played]
        if cost <= 0:
            continue
        judged = judge_position(obs, _rng(seed, auction + k, 1), criteria.worlds)
        if judged is None or judged.best() == played:
            continue
        answer = judged.best()
        heuristic = HeuristicBot().act(obs, _rng(seed, auction + k, 2))
        tempting = heuristic.card if isinstance(heuristic, Play) \
            and heuristic.card != answer else None
        got = _problem(state, obs, seed, 0, auction + k, judged, answer, tempting)
        got["id"] = f"own-{auction + k}"
        got.update(played=card_str(played), cost=round(cost, 1),
                   clear=judged.clear(criteria))
        out.append(got)
    return out


def visible_cards(position: Mapping[str, Any]) -> set[int]:
    """Every card a problem's position names (its hand, the turned card, the cards played,
    the belote and the declarations shown, the legal cards)."""
    out: set[int] = {parse_card(c) for c in position.get("hand", [])}
    if position.get("turned"):
        out.add(parse_card(position["turned"]))
    for trick in (*position.get("tricks", []), position.get("trick", [])):
        out |= {parse_card(c) for c in trick[1:]}
    out |= {parse_card(c) for _, c in position.get("belote", [])}
    for shown in position.get("shown", []):
        out |= {parse_card(c) for c in shown.get("cards", [])}
    out |= {parse_card(a) for a in position.get("legal", [])}
    return out


def check_problem(problem: Mapping[str, Any], rules: Rules) -> list[str]:
    """The structural faults of a problem (empty: none): the seat is to play; the hand and
    the cards played are disjoint and make a hand's worth with the tricks; the legal cards are
    the rule's (:func:`rebelote.rules.legal_cards`) for that hand and trick, two or more; the
    answer is one of them and the best of the marks weighed, which are the legal cards'; and
    every card the position names is the seat's own or public (played, turned, a belote or a
    declaration shown)."""
    faults: list[str] = []
    pos = problem["position"]
    hand = 0
    for c in pos["hand"]:
        hand |= 1 << parse_card(c)
    played = 0
    count = 0
    for trick in (*pos["tricks"], pos["trick"]):
        for c in trick[1:]:
            played |= 1 << parse_card(c)
            count += 1
    if hand & played:
        faults.append("a card both in the hand and played")
    if played.bit_count() != count:
        faults.append("a card played twice")
    if pos["phase"] != "play" or pos["turn"] != pos["seat"]:
        faults.append("not the seat's turn to play")
    if hand.bit_count() + len(pos["tricks"]) != 8:
        faults.append("the hand's size is not 8 less the tricks played")
    trick = [parse_card(c) for c in pos["trick"][1:]]
    trump = TRUMP_NAMES.index(pos["trump"]) if pos["trump"] in TRUMP_NAMES else -1
    legal = {parse_card(a) for a in pos["legal"]}
    if trump < 0:
        faults.append("no trump")
    elif legal != set(iter_mask(legal_cards(hand, trick, trump, rules))):
        faults.append("the legal cards are not the rule's")
    if parse_card(problem["answer"]) not in legal:
        faults.append("the answer is not a legal card")
    if len(legal) < 2:
        faults.append("fewer than two legal cards")
    marks = {d["card"]: d["mark"] for d in problem["cards"]}
    if set(marks) != {card_str(c) for c in legal}:
        faults.append("the cards weighed are not the legal ones")
    elif max(marks.values()) != marks[problem["answer"]]:
        faults.append("the answer is not the best mark")
    public = played
    if pos.get("turned"):
        public |= 1 << parse_card(pos["turned"])
    for _, c in pos["belote"]:
        public |= 1 << parse_card(c)
    for shown in pos["shown"]:
        for c in shown.get("cards", []):
            public |= 1 << parse_card(c)
    for c in sorted(visible_cards(pos)):
        if not (hand | public) >> c & 1:
            faults.append(f"{card_str(c)} is neither the seat's nor public")
    return faults
