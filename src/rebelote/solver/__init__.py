"""The double-dummy solver: every hand visible, each legal card's exact value.

For a :class:`Position` (all four hands, the trump mode, the trick in progress, its leader, and
the card points and tricks each team has already won) and the :class:`~rebelote.rules.Rules`,
:func:`solve` gives, for each legal card of the player to move, the **final card points of that
player's team** when all four play perfectly: points already won, the cards of the tricks still
to play, the dix de der (10) for the last trick, and the capot total (card points + 100, so 252,
or 220 in house no-trump) when that team takes every trick. Belote and declarations are not
card points and are not counted. The opponents play to make that number as small as they can.

>>> from rebelote.cards import card_str, cards_mask, parse_cards
>>> from rebelote.cards import HEARTS
>>> from rebelote.rules import Rules
>>> hands = [cards_mask(parse_cards(h)) for h in (["JH", "AS"], ["9H", "AD"], ["TS", "8H"],
...                                                ["8S", "7H"])]
>>> pos = Position.make(hands, HEARTS, leader=0, points=(86, 0), tricks=(6, 0))
>>> {card_str(c): v for c, v in solve(pos, Rules.preset("official", "coinche")).items()}
{'AS': 127, 'JH': 252}

The search is compiled (:mod:`rebelote.solver._search`, Cython); where that module was not
built, the plain reference (:mod:`rebelote.solver.reference`) answers, far slower, and
:data:`COMPILED` is ``False``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rebelote.cards import Card, Mask
from rebelote.rules import ABOVE, Rules, card_powers, card_values, seat_step
from rebelote.solver.position import CAPOT_EXTRA, Position, PositionError
from rebelote.solver.reference import solve_reference

if TYPE_CHECKING:
    from rebelote.deal import DealState
    from rebelote.solver._search import Solver

try:
    from rebelote.solver import _search
except ImportError:  # pragma: no cover - the build always compiles it
    _search = None  # type: ignore[assignment]

COMPILED: bool = _search is not None
#: Each thread's compiled solver (a search context and its transposition table, 512 KB): a
#: solver answers one solve at a time and searches with the interpreter's lock released, so
#: the threads of a process solve at the same time, each on its own.
_LOCAL = threading.local()

__all__ = [
    "CAPOT_EXTRA",
    "COMPILED",
    "Position",
    "PositionError",
    "best_value",
    "position_of_state",
    "solve",
    "solve_counted",
    "solve_reference",
    "solve_values",
]


def _args(position: Position, rules: Rules) -> tuple[Any, ...]:
    trump = position.trump
    mover = position.player_to_move(rules)
    flag = int(position.tricks[1 - (mover & 1)] == 0)
    return (*position.hands, trump, position.leader, list(position.trick), flag,
            seat_step(rules), int(rules.overtrump_partner), int(rules.must_undertrump),
            card_values(trump, rules.no_trump_aces, rules.all_trump_scale),
            card_powers(trump), ABOVE[trump])


def _solver() -> Solver:
    """This thread's :class:`rebelote.solver._search.Solver`, made at its first solve."""
    solver: Solver | None = getattr(_LOCAL, "solver", None)
    if solver is None:
        solver = _LOCAL.solver = _search.Solver()
    return solver


def solve_counted(position: Position, rules: Rules) -> tuple[dict[Card, int], int]:
    """:func:`solve` and the number of nodes searched (0 for the reference)."""
    if _search is None:  # pragma: no cover
        return solve_reference(position, rules), 0
    base = position.points[position.player_to_move(rules) & 1]
    args = _args(position, rules)
    cards, values, nodes = _solver().solve_cards(*args)
    return {c: base + v for c, v in zip(cards, values, strict=True)}, nodes


def solve(position: Position, rules: Rules) -> dict[Card, int]:
    """Each legal card of the player to move (lowest card number first) and its team's final
    card points under perfect play."""
    return solve_counted(position, rules)[0]


def best_value(position: Position, rules: Rules) -> int:
    """The value of the best card of :func:`solve`, found faster (one search, not one per
    card)."""
    if _search is None:  # pragma: no cover
        return max(solve_reference(position, rules).values())
    base = position.points[position.player_to_move(rules) & 1]
    args = _args(position, rules)
    value, _ = _solver().solve_best(*args)
    return base + int(value)


def solve_values(hands: Sequence[Mask], trump: int, leader: int, rules: Rules,
                 trick: Sequence[Card] = (), points: Sequence[int] = (0, 0),
                 tricks: Sequence[int] = (0, 0)) -> dict[Card, int]:
    """:func:`solve` on plain values: ``hands`` masks of seats 0..3 = N E S W, ``trump`` a trump
    mode (0..3 a suit, 4 no-trump, 5 all-trump), ``leader`` the seat that led ``trick``,
    ``points`` and ``tricks`` already won by NS and EW. The position is checked
    (:class:`PositionError`)."""
    return solve(Position.make(hands, trump, leader, trick, points, tricks, rules), rules)


def position_of_state(state: DealState) -> Position:
    """The position of a deal in its play (:class:`~rebelote.deal.DealState`): every hand, the
    trick in progress, the points and tricks won so far. Every hand is in it: give it only a
    state whose hidden cards are known or sampled (``state.determinize(seat, rng)``)."""
    won = [0, 0]
    tricks = state.tricks  # (leader, cards): a trick's winner leads the next (or leads now)
    for i in range(len(tricks)):
        winner = tricks[i + 1][0] if i + 1 < len(tricks) else state.leader
        won[winner & 1] += 1
    return Position(state.hands, state.trump, state.leader, tuple(state.trick),
                    (state.points[0], state.points[1]), (won[0], won[1]))
