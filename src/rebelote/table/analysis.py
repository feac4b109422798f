"""Analysis of a finished deal with the double-dummy solver (issue 8, item 7): replay the play
card by card and, for each card a player chose, what it cost against the best card, in card
points and in the deal's mark.

The solver (:mod:`rebelote.solver`) values each legal card of the player to move as the final
card points of that player's team when all four play perfectly with every card visible. A
card's cost is the best card's value minus its own (0 for a best card). The cost in the mark
scores the deal twice (:func:`rebelote.scoring.score_deal`): with the trick points the best card
would have given and with the played card's, the rest of the deal (contract, coinche,
declarations, belote) unchanged; it is the difference of the team's mark minus the other's.

A value of the capot total is the team's capot. A value of 0 is ambiguous: the solver counts
card points, not tricks, so 0 is both the other team's capot and "every point to the other
team" when the team can take only tricks of cards worth nothing (a 7, 8 or 9 of a plain suit).
Once the team has won a trick, it is never capot. While it has won none, the analysis asks the
other team: after a card valued 0, the position is solved from the side of the next player to
move; when that is the other team, it makes capot exactly when its best value is the capot
total; when it is the team itself (it won the trick just played), there is no capot; after
the deal's last card, the team that won no trick is capot. For the card played, that position
is the next card's own (its values are already solved): only the other legal cards valued 0
cost one more search each, and only while no card of the team's was valued above 0 (then the
best card in the mark is one after which the other team cannot make capot, if there is one).
A card can so cost nothing in card points and a capot's worth in the mark.

The web server runs analyses in threads, beside bots that search: the solver takes turns
itself (a process-wide lock around its compiled search).
"""

from __future__ import annotations

import dataclasses
import importlib
from types import ModuleType
from typing import Any

from rebelote.cards import SEATS, TEAMS, Card, Mask, card_str
from rebelote.deal import DealState
from rebelote.errors import IllegalActionError
from rebelote.rules import trick_points, trick_winner
from rebelote.scoring import score_deal


def solver_available() -> bool:
    """Is :mod:`rebelote.solver` installed in this build?"""
    try:
        importlib.import_module("rebelote.solver")
    except ImportError:
        return False
    return True


def _margin(state: DealState, team: int, points: int, beaten: bool = False) -> int:
    """The team's mark minus the other's if its final trick points were ``points`` (the
    solver's value: the capot total for its capot), ``beaten`` if the other team took every
    trick (``points`` is then 0)."""
    rules = state.rules
    summary = state.summary()
    total = rules.deal_total(state.trump)
    capot_total = rules.capot_total(state.trump)
    pair = [0, 0]
    capot = None
    if points >= capot_total:
        pair[team], capot = capot_total, TEAMS[team]
    elif beaten:
        pair[1 - team], capot = capot_total, TEAMS[1 - team]
    else:  # tricks worth nothing count for nothing: the other team has the rest, no capot
        pair[team], pair[1 - team] = points, total - points
    changed = dataclasses.replace(summary, points=(pair[0], pair[1]), capot=capot,
                                  generale=summary.generale and capot == summary.taker)
    marks = score_deal(changed, rules).score
    return marks[team] - marks[1 - team]


@dataclasses.dataclass(frozen=True, slots=True)
class _Spot:
    """A card of the play and the position it was chosen in: every hand, the trick so far, its
    leader, the card points and tricks won by NS and EW, and the solver's values."""

    number: int
    seat: int
    card: Card
    hands: tuple[Mask, ...]
    leader: int
    trick: tuple[Card, ...]
    points: tuple[int, int]
    won: tuple[int, int]
    values: dict[Card, int]


def _beaten_after(solver: ModuleType, state: DealState, spot: _Spot, card: Card) -> bool:
    """After ``card`` at ``spot`` (of a team that has won no trick), does the other team take
    every trick under perfect play? One search of the position after the card, from the side
    of the next player to move."""
    rules, trump, step = state.rules, state.trump, state.step
    team = spot.seat & 1
    hands = list(spot.hands)
    hands[spot.seat] &= ~(1 << card)
    cards = (*spot.trick, card)
    leader, points, won = spot.leader, list(spot.points), list(spot.won)
    if len(cards) == 4:
        winner = (spot.leader + step * trick_winner(cards, trump)) % 4
        if winner & 1 == team:
            return False
        if not any(hands):  # the deal's last card: the team won no trick
            return True
        points[winner & 1] += trick_points(cards, trump, rules)
        won[winner & 1] += 1
        leader, cards = winner, ()
    position = solver.Position.make(hands, trump, leader, cards, points, won, rules)
    return bool(solver.best_value(position, rules) >= rules.capot_total(trump))


def _played_beaten(state: DealState, spot: _Spot, after: _Spot | None) -> bool:
    """:func:`_beaten_after` for the card played at ``spot``, read from the next card's values
    (``after``: the position after it, already solved) with no search."""
    team = spot.seat & 1
    if after is None:  # the deal's last card
        return state.leader & 1 != team
    if after.seat & 1 == team:  # the team won the trick just played: it leads
        return False
    return max(after.values.values()) >= state.rules.capot_total(state.trump)


def _spots(state: DealState, solver: ModuleType) -> list[_Spot]:
    """Every card of the play with its position and the solver's values there."""
    rules, step = state.rules, state.step
    hands = list(state.start_hands)
    points = [0, 0]
    won = [0, 0]
    out: list[_Spot] = []
    for number, (leader, cards) in enumerate(state.tricks, start=1):
        for i, card in enumerate(cards):
            seat = (leader + i * step) % 4
            values = solver.solve_values(hands, state.trump, leader, rules, cards[:i],
                                         points, won)
            out.append(_Spot(number, seat, card, tuple(hands), leader, tuple(cards[:i]),
                             (points[0], points[1]), (won[0], won[1]), values))
            hands[seat] &= ~(1 << card)
        winner = state.tricks[number][0] if number < 8 else state.leader
        points[winner & 1] += trick_points(cards, state.trump, rules)
        won[winner & 1] += 1
    return out


def analyse(state: DealState) -> list[dict[str, Any]]:
    """Each card of a finished deal's play: who played it, the solver's value of every legal
    card then, the best value, and what the card cost (points and mark)."""
    if not state.is_terminal:
        raise IllegalActionError("analysis: the deal is not over")
    if state.is_void:
        return []
    solver = importlib.import_module("rebelote.solver")
    spots = _spots(state, solver)
    margins: dict[tuple[int, int, bool], int] = {}

    def margin(team: int, value: int, beaten: bool) -> int:
        if (team, value, beaten) not in margins:
            margins[(team, value, beaten)] = _margin(state, team, value, beaten)
        return margins[(team, value, beaten)]

    out: list[dict[str, Any]] = []
    for k, spot in enumerate(spots):
        team = spot.seat & 1
        values = spot.values
        best = max(values.values())
        mine = values[spot.card]
        open_ = spot.won[team] == 0  # the other team can still make capot
        beaten = open_ and mine == 0 and _played_beaten(
            state, spot, spots[k + 1] if k + 1 < len(spots) else None)
        # the best card in the mark: when every card is worth 0, one after which the other
        # team cannot make capot, if there is one (the played card is one when not beaten)
        best_beaten = beaten and best == 0 and all(
            _beaten_after(solver, state, spot, c) for c in values if c != spot.card)
        out.append({
            "trick": spot.number, "seat": SEATS[spot.seat], "card": card_str(spot.card),
            "values": {card_str(c): v for c, v in values.items()},
            "best": best, "value": mine, "cost": best - mine,
            "mark_cost": margin(team, best, best_beaten) - margin(team, mine, beaten),
        })
    return out

