"""The JSON answer of ``rebelote solve`` (docs/solver.md): a deal position in, each legal
card's double-dummy value out.

>>> answer_solve({"game": "coinche", "trump": "hearts", "leader": "N",
...               "hands": {"N": ["JH", "AS"], "E": ["9H", "AD"], "S": ["TS", "8H"],
...                         "W": ["8S", "7H"]},
...               "points": {"NS": 86, "EW": 0}, "tricks": {"NS": 6, "EW": 0}})
{'values': {'JH': 252, 'AS': 127}, 'best': 'JH'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rebelote.cards import SEATS, TEAMS, card_str, read_card
from rebelote.errors import InputError, RulesError
from rebelote.rules import Rules, next_seat, parse_trump
from rebelote.solver import Position, solve

KNOWN_FIELDS = ("game", "rules", "options", "trump", "hands", "leader", "trick", "points",
                "tricks", "id", "note")


def position_of(obj: Any) -> tuple[Position, Rules, list[int]]:
    """The checked position, the rules and the hand of the player to move (input order)."""
    if not isinstance(obj, Mapping):
        raise InputError("", f"each line is a JSON object, not {type(obj).__name__}")
    unknown = sorted(k for k in obj if k not in KNOWN_FIELDS)
    if unknown:
        raise InputError(unknown[0], f"unknown field (known: {', '.join(KNOWN_FIELDS[:-2])})")
    rules = _rules(obj)
    if "trump" not in obj:
        raise InputError("trump", "missing: spades, hearts, diamonds, clubs, no-trump or "
                                  "all-trump")
    try:
        trump = parse_trump(obj["trump"])
    except RulesError as e:
        raise InputError("trump", e.reason) from None
    hands_raw = obj.get("hands")
    if not isinstance(hands_raw, Mapping):
        raise InputError("hands", 'missing or not an object: {"N": [...], "E": [...], '
                                  '"S": [...], "W": [...]}')
    extra = sorted(k for k in hands_raw if k not in SEATS)
    if extra:
        raise InputError(f"hands.{extra[0]}", "not a seat (N, E, S, W)")
    seen: dict[int, str] = {}
    lists: list[list[int]] = []
    for seat in SEATS:
        raw = hands_raw.get(seat)
        if not isinstance(raw, list):
            raise InputError(f"hands.{seat}", "missing or not a list of cards")
        if len(raw) > 8:
            raise InputError(f"hands.{seat}", f"a hand holds at most 8 cards, not {len(raw)}")
        lists.append([read_card(f"hands.{seat}[{i}]", text, seen) for i, text in enumerate(raw)])
    leader_raw = obj.get("leader")
    if leader_raw not in SEATS:
        raise InputError("leader", f"missing or not a seat (N, E, S, W): {leader_raw!r}")
    leader = SEATS.index(leader_raw)
    trick = _trick(obj.get("trick", []), leader_raw, rules, seen)
    points = _pair(obj, "points")
    tricks = _pair(obj, "tricks")
    pos = Position.make([sum(1 << c for c in h) for h in lists], trump, leader, trick, points,
                        tricks, rules)  # PositionError is an InputError naming the field
    return pos, rules, lists[pos.player_to_move(rules)]


def answer_solve(obj: Any) -> dict[str, Any]:
    """``{"values": {card: final card points of the mover's team}, "best": card}``."""
    pos, rules, hand = position_of(obj)
    values = solve(pos, rules)
    ordered = {card_str(c): values[c] for c in hand if c in values}
    best = max(ordered, key=lambda c: ordered[c])  # the first of the best, in hand order
    return {"values": ordered, "best": best}


def _rules(obj: Mapping[str, Any]) -> Rules:
    game = obj.get("game", "coinche")
    name = obj.get("rules", "official")
    options = obj.get("options")
    if not isinstance(game, str):
        raise InputError("game", f"{game!r} is not a game (belote, coinche)")
    if not isinstance(name, str):
        raise InputError("rules", f"{name!r} is not a rule set")
    try:
        return Rules.from_options(name, game, options)
    except RulesError as e:
        raise InputError(e.field, e.reason) from None


def _trick(raw: Any, leader: str, rules: Rules, seen: dict[int, str]) -> list[int]:
    """The trick's cards, given as cards (``"AS"``) or ``[seat, card]`` pairs, leader first."""
    if not isinstance(raw, list):
        raise InputError("trick", "must be a list of cards (or [seat, card] pairs), leader "
                                  "first")
    if len(raw) > 3:
        raise InputError("trick", f"at most 3 cards are on the table before a player plays, "
                                  f"not {len(raw)}")
    seat = leader
    out = []
    for i, item in enumerate(raw):
        where = f"trick[{i}]"
        if isinstance(item, list | tuple):
            if len(item) != 2:
                raise InputError(where, f"must be a card or a [seat, card] pair, not {item!r}")
            if item[0] != seat:
                raise InputError(where, f"{item[0]!r} does not play here: {seat} does (the "
                                        f"leader first, play goes {rules.direction})")
            item = item[1]
        out.append(read_card(where, item, seen))
        seat = next_seat(seat, rules)  # type: ignore[arg-type]
    return out


def _pair(obj: Mapping[str, Any], field: str) -> tuple[int, int]:
    raw = obj.get(field, {"NS": 0, "EW": 0})
    if not isinstance(raw, Mapping) or any(k not in TEAMS for k in raw):
        raise InputError(field, 'must be an object {"NS": n, "EW": n}')
    out = []
    for team in TEAMS:
        v = raw.get(team, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(f"{field}.{team}", f"must be a whole number >= 0, not {v!r}")
        out.append(v)
    return out[0], out[1]
