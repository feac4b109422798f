"""A table as one seat sees it, turned so that its viewer sits South (issue 8, items 2 and 9).

:func:`table_view` builds the JSON every answer to a player carries (the API, the pages, the
WebSocket, the terminal): the seat's own hand, and only what is public — the auction, the
cards played, the turned card, the declarations announced and shown, the belote, the scores.
It is built from :meth:`DealState.observation` (which holds no other seat's hidden cards) and
from the finished deals (whose records are public once over). Seats and teams are turned: the
viewer is ``S`` and its team ``NS``; ``"seat"`` names the viewer's real seat.

>>> from rebelote.rules import Rules
>>> from rebelote.table.model import Seat, Table
>>> t = Table.new(Rules.preset("official", "belote"), seats=[Seat.bot_seat("random")] * 4,
...               entropy=lambda: ("5eed", "5a17"))
>>> v = table_view(t, 1)   # East's view: East sits South, the dealer North sits East
>>> v["seat"], v["dealer"], v["turn"], len(v["hand"]), v["turned"] is not None
('E', 'E', 'S', 5, True)
"""

from __future__ import annotations

from typing import Any, Final

from rebelote.actions import PHASE_NAMES
from rebelote.cards import SEATS, TEAMS, card_str, iter_mask, suit_of
from rebelote.observation import Observation
from rebelote.rules import NO_TRUMP, TRUMP_NAMES, card_powers
from rebelote.table.model import Table

#: Suits in a hand, left to right: colours alternate (♠ ♥ ♣ ♦).
SUIT_ORDER: Final = (0, 1, 3, 2)


def turn_seat(seat: int, viewer: int) -> str:
    """``seat`` as ``viewer`` sees it (the viewer is S)."""
    return SEATS[(seat - viewer + 2) % 4]


def turn_team(team: int, viewer: int) -> str:
    """Team ``team`` (0 NS, 1 EW) as ``viewer`` sees it (its own team is NS)."""
    return TEAMS[(team - viewer) & 1]


def sorted_hand(mask: int, trump: int) -> list[str]:
    """A hand sorted for a player: by suit (trump first, colours alternating), strongest
    first within a suit."""
    powers = card_powers(trump if trump >= 0 else NO_TRUMP)
    order = list(SUIT_ORDER)
    if 0 <= trump < 4:
        order.remove(trump)
        order.insert(0, trump)
    return [card_str(c) for c in sorted(iter_mask(mask),
                                        key=lambda c: (order.index(suit_of(c)), -powers[c]))]


def _pair(pair: tuple[int, int], viewer: int) -> dict[str, int]:
    return {turn_team(0, viewer): pair[0], turn_team(1, viewer): pair[1]}


def _trick_cards(leader: int, cards: tuple[int, ...], step: int, viewer: int
                 ) -> list[list[str]]:
    return [[turn_seat((leader + i * step) % 4, viewer), card_str(c)]
            for i, c in enumerate(cards)]


def _belote_words(obs: Observation, viewer: int) -> list[list[str]]:
    out: list[list[str]] = []
    said: set[tuple[int, int]] = set()
    for s, card in obs.belote:
        key = (s, suit_of(card))
        out.append([turn_seat(s, viewer), card_str(card),
                    "rebelote" if key in said else "belote"])
        said.add(key)
    return out


def _tricks(obs: Observation, viewer: int) -> list[dict[str, Any]]:
    """The finished tricks of an observation: leader, cards by seat and winner, turned."""
    tricks = []
    for k, (leader, cards) in enumerate(obs.tricks):
        winner = obs.tricks[k + 1][0] if k + 1 < len(obs.tricks) else obs.leader
        tricks.append({"leader": turn_seat(leader, viewer),
                       "cards": _trick_cards(leader, cards, obs.step, viewer),
                       "winner": turn_seat(winner, viewer)})
    return tricks


def _taken(obs: Observation, viewer: int) -> dict[str, Any]:
    """Who took a deal, in which trump and for which contract (``None`` for a passed deal),
    with its coinche's multiplier, turned for ``viewer``."""
    return {"taker": turn_seat(obs.taker, viewer) if obs.taker >= 0 else None,
            "trump": TRUMP_NAMES[obs.trump] if obs.trump >= 0 else None,
            "contract": str(obs.contract) if obs.contract is not None else None,
            "coinche": obs.multiplier}


def table_view(table: Table, viewer: int) -> dict[str, Any]:
    """What seat ``viewer`` may see of ``table``, turned so that it sits South."""
    replay = table.replay
    deal = replay.deal
    obs = deal.observation(viewer)
    step = obs.step
    over = table.is_over
    tricks = _tricks(obs, viewer)
    seats = {}
    for s, seat in enumerate(table.seats):
        seats[turn_seat(s, viewer)] = {
            "name": seat.name, "kind": seat.kind, "bot": seat.bot,
            "away": seat.away, "you": s == viewer,
            # handed back in the deal its hand was shown in: its bot's from the next deal
            "leaving": seat.kind == "human" and seat.token_hash is None,
            # a newcomer's seat, played by its bot until the deal it is theirs from
            "from_deal": seat.from_deal if seat.kind == "human" and not table.holds(s)
            else None,
        }
    # a newcomer sees no hand before the deal its seat is theirs from (issue 17, item 1)
    holds = table.seats[viewer].kind != "human" or table.holds(viewer)
    running = replay.result.running
    sheet = []
    for n, (score, totals, ended) in enumerate(zip(replay.result.deals, running,
                                                   replay.finished, strict=True), start=1):
        # who took, in which trump, for which contract: public once the deal is over
        sheet.append({"n": n, "outcome": score.outcome, "score": _pair(score.score, viewer),
                      "totals": _pair(totals, viewer), **_taken(ended.observation(viewer),
                                                                viewer)})
    turn = table.turn
    view: dict[str, Any] = {
        "seat": SEATS[viewer],
        "game": table.rules.game,
        "rules": table.rules.name,
        "options": table.rules.changed_options(),
        "target": table.target,
        "teams": {turn_team(t, viewer): table.teams[t] for t in (0, 1)},
        "seats": seats,
        "deal": table.deal_number,
        "commitment": table.current.commitment,
        "dealer": turn_seat(obs.dealer, viewer),
        "phase": "over" if over else PHASE_NAMES[obs.phase],
        "turn": turn_seat(turn, viewer) if turn >= 0 else None,
        "bot_turn": table.bot_to_play,
        "hand": sorted_hand(obs.hand, obs.trump) if holds else [],
        "from_deal": max(table.seats[viewer].from_deal, 1),
        "turned": card_str(obs.turned) if obs.turned >= 0 else None,
        "auction": [[turn_seat(s, viewer), str(b)] for s, b in obs.auction],
        "trump": TRUMP_NAMES[obs.trump] if obs.trump >= 0 else None,
        "taker": turn_seat(obs.taker, viewer) if obs.taker >= 0 else None,
        "contract": str(obs.contract) if obs.contract is not None else None,
        "coinche": obs.multiplier,
        "leader": turn_seat(obs.leader, viewer),
        "trick": _trick_cards(obs.leader, obs.trick, step, viewer),
        "tricks": tricks,
        "last_trick": tricks[-1] if tricks else None,
        "declarations": {turn_seat(s, viewer): list(kinds) for s, kinds in obs.announced},
        "shown": [{"seat": turn_seat(s, viewer), **c.to_json()} for s, c in obs.shown],
        "belote": _belote_words(obs, viewer),
        "points": _pair(obs.points, viewer),
        "scores": _pair(replay.result.totals, viewer),
        "held_over": replay.result.reserve,
        "legal": [str(a) for a in obs.legal]
        if turn == viewer and holds else [],
        "sheet": sheet,
        "winner": turn_team(TEAMS.index(table.winner), viewer) if table.winner else None,
        "over": over,
        # the deal in play waits for a player to go on ("next"): pages show the one that ended
        "waiting": table.waiting,
        "last_result": None,
    }
    if table.is_host(viewer):  # the invitation of each seat kept for a friend
        view["invites"] = {turn_seat(s, viewer): seat.invite
                           for s, seat in enumerate(table.seats)
                           if seat.kind == "open" and seat.invite}
    if replay.finished:
        n = len(replay.finished)
        score = replay.result.deals[-1]
        view["last_result"] = {
            "deal": n,
            "outcome": score.outcome,
            "score": _pair(score.score, viewer),
            "points": _pair(score.points, viewer),
            # its last trick (public once the deal is over), shown on the felt meanwhile
            "last_trick": next(iter(_tricks(replay.finished[-1].observation(viewer),
                                            viewer)[-1:]), None),
            "record": table.record(n),
        }
    return view
