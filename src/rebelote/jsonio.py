"""The JSON answers of ``rebelote score`` and ``rebelote legal`` (docs/interfaces.md), as pure
functions from a parsed JSON object to the answer object.

>>> answer_score({"game": "coinche", "trump": "spades", "taker": "NS", "contract": 90,
...               "points": {"NS": 97, "EW": 65}})["score"]
{'NS': 190, 'EW': 70}
>>> answer_legal({"game": "coinche", "trump": "hearts", "hand": ["JH", "KD"],
...               "trick": [["S", "AS"], ["W", "TS"], ["N", "7S"]]})
{'legal': ['JH'], 'winner': None, 'player': 'E'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rebelote.cards import SEATS, card_str, cards_mask, read_card
from rebelote.errors import InputError, RulesError
from rebelote.match import Match
from rebelote.rules import legal_cards, next_seat, parse_trump, trick_points, trick_winner
from rebelote.scoring import score_deal
from rebelote.summary import DealSummary, summary_rules

__all__ = [
    "answer_legal",
    "answer_score",
]


def answer_score(obj: Any, explain: bool = False) -> dict[str, Any]:
    """The answer to one line of ``rebelote score``: a deal or, with ``deals``, a game."""
    if not isinstance(obj, Mapping):
        raise InputError("", f"each line is a JSON object, not {type(obj).__name__}")
    if "deals" in obj:
        return Match.from_json(obj).result().to_json(explain)
    rules = summary_rules(obj)
    summary = DealSummary.from_json(obj, rules)
    return score_deal(summary, rules).to_json(explain)


def answer_legal(obj: Any) -> dict[str, Any]:
    """The cards a player may play, or a full trick's winner and points."""
    if not isinstance(obj, Mapping):
        raise InputError("", f"each line is a JSON object, not {type(obj).__name__}")
    known = {"game", "rules", "options", "trump", "hand", "trick", "id", "note"}
    unknown = sorted(k for k in obj if k not in known)
    if unknown:
        raise InputError(unknown[0], "unknown field (known: game, rules, options, trump, hand, "
                                     "trick)")
    rules = summary_rules({**obj, "game": obj.get("game", "coinche")})
    if "trump" not in obj:
        raise InputError("trump", "missing: spades, hearts, diamonds, clubs, no-trump or "
                                  "all-trump")
    try:
        trump = parse_trump(obj["trump"])
    except RulesError as e:
        raise InputError("trump", str(e)) from None
    raw_trick = obj.get("trick", [])
    if not isinstance(raw_trick, list):
        raise InputError("trick", "must be a list of [seat, card] pairs, leader first")
    if len(raw_trick) > 4:
        raise InputError("trick", f"a trick has four cards, not {len(raw_trick)}")
    seats: list[str] = []
    trick: list[int] = []
    seen: dict[int, str] = {}
    for i, item in enumerate(raw_trick):
        where = f"trick[{i}]"
        if not isinstance(item, list | tuple) or len(item) != 2:
            raise InputError(where, f"must be a [seat, card] pair, like [\"S\", \"AS\"], not "
                                    f"{item!r}")
        seat, text = item
        if seat not in SEATS:
            raise InputError(where, f"{seat!r} is not a seat (N, E, S, W)")
        if seats and seat != next_seat(seats[-1], rules):  # type: ignore[arg-type]
            raise InputError(where, f"{seat} does not play after {seats[-1]}: play goes "
                                    f"{rules.direction}")
        card = read_card(where, text, seen)
        seats.append(seat)
        trick.append(card)
    hand_raw = obj.get("hand")
    if len(trick) == 4:
        if hand_raw:
            raise InputError("hand", "the trick is full: nobody has a card to play on it")
        win = trick_winner(trick, trump)
        return {"legal": [], "winner": seats[win], "points": trick_points(trick, trump, rules)}
    if hand_raw is None:
        raise InputError("hand", "missing: the cards of the player to play")
    if not isinstance(hand_raw, list) or not hand_raw:
        raise InputError("hand", "must be a non-empty list of cards")
    if len(hand_raw) > 8:
        raise InputError("hand", f"a hand holds at most 8 cards, not {len(hand_raw)}")
    hand: list[int] = []
    for i, text in enumerate(hand_raw):
        hand.append(read_card(f"hand[{i}]", text, seen))
    allowed = legal_cards(cards_mask(hand), trick, trump, rules)
    player = next_seat(seats[-1], rules) if seats else None  # type: ignore[arg-type]
    return {"legal": [card_str(c) for c in hand if allowed >> c & 1], "winner": None,
            "player": player}
