"""A table as a watcher sees it (issue 34, item 5): only what is public, behind the play.

A watcher holds the table's watch link (:attr:`Table.watch`), not a seat. :func:`watch_view`
shows the seats (names, and how many cards each has left: never which), the calls, the
contract, the tricks, the scores and the sheet, and the result of each deal once it is over.
The deal in play is shown **behind** the table by :attr:`Table.watch_delay`:

- ``1`` (the default), one trick behind: the calls as they are made, and the cards as they
  were when the trick before the last closed one ended (the trick being played and the last
  one closed are not shown yet);
- ``0``, live: everything public now;
- ``-1``, the end of each deal only: nothing of the deal in play (not even its calls) until it
  is over.

The teacher's view (``teacher``: the table's teacher link, :attr:`Table.teach`) is the same
view, with every seat's cards at that point only while every human at the table said yes
(:attr:`Table.teaching`); from the moment one says no, leaves, goes away or a new human sits,
it carries no hand. Seats are not turned (``N`` is North) and the teams are ``NS`` and ``EW``.

>>> from rebelote.rules import Rules
>>> from rebelote.table.model import Seat
>>> t = Table.new(Rules.preset("official", "coinche"), seats=[Seat.bot_seat("random")] * 4,
...               entropy=lambda: ("5eed", "5a17"))
>>> v = watch_view(t)
>>> v["seats"]["N"]["cards"], "hand" in v, "hands" in v, v["delay"]
(8, False, False, 1)
"""

from __future__ import annotations

from typing import Any, Final

from rebelote.actions import PHASE_NAMES, PLAY, parse_action
from rebelote.cards import SEATS, TEAMS, card_str
from rebelote.deal import DealState
from rebelote.rules import TRUMP_NAMES
from rebelote.table.model import NEXT, Table, _start
from rebelote.table.view import (
    _belote_words,
    _pair,
    _taken,
    _trick_cards,
    _tricks,
    sorted_hand,
)

#: ``watch_delay``: live, one trick behind, the end of each deal only.
LIVE: Final = 0
ONE_TRICK: Final = 1
DEAL_END: Final = -1
WATCH_DELAYS: Final = (LIVE, ONE_TRICK, DEAL_END)
#: The delays as the API names them.
DELAY_NAMES: Final = {LIVE: 0, ONE_TRICK: 1, DEAL_END: "deal"}
#: The viewer whose turned view is the table as it is (South sees N, E, S, W as they are).
_AS_IS: Final = 2


def delay_of(raw: object) -> int:
    """A watch delay from the API's word for it (``0``, ``1``, ``"deal"``); ``ValueError``
    otherwise."""
    for value, name in DELAY_NAMES.items():
        if raw == name and isinstance(raw, type(name)) and not isinstance(raw, bool):
            return value
    raise ValueError(f"{raw!r}: 0 (live), 1 (one trick behind) or \"deal\" (the end of each "
                     "deal only)")


def shown_point(table: Table) -> tuple[DealState, int]:
    """The deal in play as watchers see it, and how many of its actions they do not see yet."""
    replay = table.replay
    actions = [a for a in table.current.actions if a != NEXT]
    if table.is_over or table.watch_delay == LIVE:
        return replay.deal, 0
    # the deal in play from its first state, one action at a time
    states = [_first_state(table)]
    for text in actions:
        states.append(states[-1].apply(parse_action(text)))
    if table.watch_delay == DEAL_END:
        return states[0], len(actions)
    now = states[-1]
    if now.phase != PLAY:  # the auction: its calls as they are made
        return now, 0
    want = max(len(now.tricks) - 1, 0)  # the trick before the last closed one
    for i, state in enumerate(states):
        if state.phase == PLAY and len(state.tricks) == want:
            return state, len(actions) - i
    return now, 0  # pragma: no cover  (the play always passes through that point)


def _first_state(table: Table) -> DealState:
    """The deal in play as dealt (before its first call)."""
    replay = table.replay
    return _start(table.rules, table.current, replay.result if replay.finished else None)


def watch_view(table: Table, teacher: bool = False) -> dict[str, Any]:
    """What a watcher of ``table`` sees (the teacher's view with ``teacher``: the hands too,
    while :attr:`Table.teaching`)."""
    state, behind = shown_point(table)
    obs = state.observation(0)  # its hand is never used: only what is public
    v = _AS_IS
    replay = table.replay
    tricks = _tricks(obs, v)
    seats = {SEATS[s]: {"name": seat.name, "kind": seat.kind, "away": seat.away,
                        "cards": state.hands[s].bit_count()}
             for s, seat in enumerate(table.seats)}
    sheet = [{"n": n, "outcome": score.outcome, "score": _pair(score.score, v),
              "totals": _pair(totals, v), **_taken(ended.observation(0), v)}
             for n, (score, totals, ended) in enumerate(
                 zip(replay.result.deals, replay.result.running, replay.finished, strict=True),
                 start=1)]
    over = table.is_over
    turn = table.turn
    view: dict[str, Any] = {
        "watch": True,
        "teacher": teacher,
        "delay": DELAY_NAMES.get(table.watch_delay, 1),
        "behind": behind,
        "game": table.rules.game,
        "rules": table.rules.name,
        "target": table.target,
        "teams": {TEAMS[t]: table.teams[t] for t in (0, 1)},
        "seats": seats,
        "deal": table.deal_number,
        "dealer": SEATS[obs.dealer],
        "phase": "over" if over else PHASE_NAMES[obs.phase],
        "turn": SEATS[turn] if turn >= 0 and not behind else None,
        "turned": card_str(obs.turned) if obs.turned >= 0 else None,
        "auction": [[SEATS[s], str(b)] for s, b in obs.auction],
        "trump": TRUMP_NAMES[obs.trump] if obs.trump >= 0 else None,
        "taker": SEATS[obs.taker] if obs.taker >= 0 else None,
        "contract": str(obs.contract) if obs.contract is not None else None,
        "coinche": obs.multiplier,
        "leader": SEATS[obs.leader],
        "trick": _trick_cards(obs.leader, obs.trick, obs.step, v),
        "tricks": tricks,
        "last_trick": tricks[-1] if tricks else None,
        "declarations": {SEATS[s]: list(kinds) for s, kinds in obs.announced},
        "shown": [{"seat": SEATS[s], **c.to_json()} for s, c in obs.shown],
        "belote": _belote_words(obs, v),
        "points": _pair(obs.points, v),
        "scores": _pair(replay.result.totals, v),
        "sheet": sheet,
        "winner": table.winner,
        "over": over,
        "waiting": table.waiting,
        "last_result": None,
        "teaching": table.teaching,
    }
    if teacher and table.teaching:
        view["hands"] = {SEATS[s]: sorted_hand(state.hands[s], obs.trump) for s in range(4)}
    if replay.finished:
        n = len(replay.finished)
        score = replay.result.deals[-1]
        view["last_result"] = {
            "deal": n, "outcome": score.outcome, "score": _pair(score.score, v),
            "points": _pair(score.points, v),
            "last_trick": next(iter(_tricks(replay.finished[-1].observation(0), v)[-1:]),
                               None),
            **_taken(replay.finished[-1].observation(0), v),
        }
    return view


__all__ = ["DEAL_END", "DELAY_NAMES", "LIVE", "ONE_TRICK", "WATCH_DELAYS", "delay_of",
           "shown_point", "watch_view"]
