"""Analysis of a finished deal with the double-dummy solver (issue 8, item 7): replay the play
card by card and, for each card a player chose, what it cost against the best card, in card
points and in the deal's mark.

The solver (:mod:`rebelote.solver`) values each legal card of the player to move as the final
card points of that player's team when all four play perfectly with every card visible. A
card's cost is the best card's value minus its own (0 for a best card). The cost in the mark
scores the deal twice (:func:`rebelote.scoring.score_deal`): with the trick points the best card
would have given and with the played card's, the rest of the deal (contract, coinche,
declarations, belote) unchanged; it is the difference of the team's mark minus the other's.
A value of the capot total is the team's capot; a value of 0 is read as the other team's capot
while the team has won no trick yet (the solver counts card points, not tricks: the other side
making every trick is the line that leaves 0, save for tricks of cards worth nothing), and as
every point to the other team without a capot once the team has won a trick.

The web server runs analyses in threads, beside bots that search: the solver takes turns
itself (a process-wide lock around its compiled search).
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from rebelote.cards import SEATS, TEAMS, card_str
from rebelote.deal import DealState
from rebelote.rules import IllegalActionError, trick_points
from rebelote.scoring import score_deal


def solver_available() -> bool:
    """Is :mod:`rebelote.solver` installed in this build?"""
    try:
        importlib.import_module("rebelote.solver")
    except ImportError:
        return False
    return True


def _margin(state: DealState, team: int, points: int, won: int = 0) -> int:
    """The team's mark minus the other's if its final trick points were ``points``, the team
    having won ``won`` tricks already (a team that won a trick is never capot)."""
    rules = state.rules
    summary = state.summary()
    total = rules.deal_total(state.trump)
    capot_total = rules.capot_total(state.trump)
    pair = [0, 0]
    capot = None
    if points >= capot_total:
        pair[team], capot = capot_total, TEAMS[team]
    elif points <= 0 and not won:
        pair[1 - team], capot = capot_total, TEAMS[1 - team]
    elif points <= 0:  # only tricks worth nothing: the other team has every point, no capot
        pair[1 - team] = total
    else:
        pair[team], pair[1 - team] = points, total - points
    changed = dataclasses.replace(summary, points=(pair[0], pair[1]), capot=capot,
                                  generale=summary.generale and capot == summary.taker)
    marks = score_deal(changed, rules).score
    return marks[team] - marks[1 - team]


def analyse(state: DealState) -> list[dict[str, Any]]:
    """Each card of a finished deal's play: who played it, the solver's value of every legal
    card then, the best value, and what the card cost (points and mark)."""
    if not state.is_terminal:
        raise IllegalActionError("analysis: the deal is not over")
    if state.is_void:
        return []
    solver = importlib.import_module("rebelote.solver")
    rules = state.rules
    step = state.step
    hands = list(state.start_hands)
    points = [0, 0]
    won = [0, 0]
    out: list[dict[str, Any]] = []
    margins: dict[tuple[int, int, int], int] = {}
    for number, (leader, cards) in enumerate(state.tricks, start=1):
        for i, card in enumerate(cards):
            seat = (leader + i * step) % 4
            team = seat & 1
            values = solver.solve_values(hands, state.trump, leader, rules, cards[:i],
                                         points, won)
            best = max(values.values())
            mine = values[card]
            for v in (best, mine):
                if (team, v, won[team]) not in margins:
                    margins[(team, v, won[team])] = _margin(state, team, v, won[team])
            out.append({
                "trick": number, "seat": SEATS[seat], "card": card_str(card),
                "values": {card_str(c): v for c, v in values.items()},
                "best": best, "value": mine, "cost": best - mine,
                "mark_cost": (margins[(team, best, won[team])]
                              - margins[(team, mine, won[team])]),
            })
            hands[seat] &= ~(1 << card)
        winner = state.tricks[number][0] if number < 8 else state.leader
        points[winner & 1] += trick_points(cards, state.trump, rules)
        won[winner & 1] += 1
    return out
