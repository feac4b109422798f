"""Deal records (docs/interfaces.md "Deal records"): a whole deal as JSON, written and read back.

:func:`record_of` writes a finished :class:`~rebelote.deal.DealState` as a record;
:func:`replay_record` reads one and plays every bid and card through the engine, raising an
:class:`~rebelote.errors.InputError` that names the first illegal move and why;
:func:`check_record` answers one line of ``rebelote replay``.

>>> from rebelote.deal import DealState
>>> from rebelote.rules import Rules
>>> state = DealState.new(Rules.preset("official", "coinche"), dealer=0, seed=3)
>>> for text in ("100 spades", "pass", "pass", "pass"):
...     state = state.apply(text)
>>> while not state.is_terminal:
...     state = state.apply(state.legal_actions()[0])
>>> rec = record_of(state)
>>> replay_record(rec).tricks == state.tricks, check_record(rec) == score_answer(state)
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from rebelote.actions import AUCTION, NO_DECLARATION, PLAYS, Declare
from rebelote.auction import Bid
from rebelote.cards import SEATS, card_str, parse_card, parse_seat
from rebelote.deal import DealState
from rebelote.declarations import Combo, combo_from_json
from rebelote.errors import CardError, IllegalActionError, InputError, RulesError
from rebelote.rules import Rules, seat_step, seats_from
from rebelote.summary import summary_rules

__all__ = [
    "check_record",
    "record_line",
    "record_of",
    "replay_record",
    "result_of",
    "score_answer",
]


_RECORD_KEYS: Final = frozenset({
    "game", "rules", "options", "dealer", "hands", "turned", "stock", "auction",
    "declarations", "tricks", "result", "held_over", "id", "note", "seed", "salt",
    "commitment", "explanations",
})


_NAMES: Final = tuple(card_str(c) for c in range(32))
#: For each suit and each byte of a mask, the names of its cards (lowest first).
_NAMES8: Final = tuple(tuple([_NAMES[suit * 8 + r] for r in range(8) if byte >> r & 1]
                             for byte in range(256)) for suit in range(4))


def _cards(mask: int) -> list[str]:
    """The cards of a mask in the two-letter form, lowest first (four table look-ups)."""
    return [*_NAMES8[0][mask & 255], *_NAMES8[1][mask >> 8 & 255],
            *_NAMES8[2][mask >> 16 & 255], *_NAMES8[3][mask >> 24 & 255]]


_changed: dict[Rules, dict[str, Any]] = {}


def _changed_options(rules: Rules) -> dict[str, Any]:
    """``rules.changed_options()``, computed once per rule set (a fresh copy each call)."""
    got = _changed.get(rules)
    if got is None:
        got = _changed[rules] = rules.changed_options()
    return dict(got)


def record_of(state: DealState) -> dict[str, Any]:
    """The record of a finished deal (docs/interfaces.md), ``result`` included."""
    if not state.is_terminal:
        raise IllegalActionError("record", "the deal is not over")
    rules = state.rules
    void = state.is_void
    hands = state.hands if void else state.start_hands
    out: dict[str, Any] = {
        "game": rules.game,
        "rules": rules.name,
        "options": _changed_options(rules),
        "dealer": SEATS[state.dealer],
        "hands": {SEATS[s]: _cards(hands[s]) for s in range(4)},
        "turned": card_str(state.turned) if state.turned >= 0 else None,
    }
    if void and rules.game == "belote":
        out["stock"] = [card_str(c) for c in state.stock]
    out["auction"] = [[SEATS[s], str(b)] for s, b in state.auction.history]
    out["declarations"] = {
        SEATS[s]: [c.to_json() for c in d] for s, d in enumerate(state.declared) if d
    } if not void else {}
    names = _NAMES
    out["tricks"] = [[SEATS[lead], *[names[c] for c in cards]] for lead, cards in state.tricks]
    if state.held_over:
        out["held_over"] = state.held_over
    out["result"] = result_of(state)
    return out


#: The JSON encoder of records (``rebelote deal`` writes one record a line with it).
_encode: Final = json.JSONEncoder(ensure_ascii=False).encode
#: Each card's and each seat's name as a JSON string, and per suit and byte of a mask the
#: JSON strings of its cards (lowest first).
_JNAMES: Final = tuple(_encode(n) for n in _NAMES)
_JSEATS: Final = tuple(_encode(n) for n in SEATS)
_JNAMES8: Final = tuple(tuple(tuple(_encode(n) for n in names) for names in suit)
                        for suit in _NAMES8)
_HANDS_KEYS: Final = tuple(f"{_encode(n)}: [" for n in SEATS)
#: The JSON text of the strings, the rule sets' first fields and the declarations seen so far
#: (bounded: beyond _CACHED entries each is encoded again).
_CACHED: Final = 4096
_jstrings: dict[str, str] = {}
_jheads: dict[Rules, str] = {}
_jcombos: dict[tuple[str, int], str] = {}


def _jstr(text: str) -> str:
    got = _jstrings.get(text)
    if got is None:
        got = _encode(text)
        if len(_jstrings) < _CACHED:
            _jstrings[text] = got
    return got


def _jint(value: object) -> str:
    return str(value) if type(value) is int else _encode(value)


def _jhead(rules: Rules) -> str:
    """``{"game": ..., "rules": ..., "options": ..., "dealer": `` for a rule set."""
    got = _jheads.get(rules)
    if got is None:
        got = (f'{{"game": {_encode(rules.game)}, "rules": {_encode(rules.name)}, '
               f'"options": {_encode(_changed_options(rules))}, "dealer": ')
        if len(_jheads) < _CACHED:
            _jheads[rules] = got
    return got


def _jcombo(combo: Combo) -> str:
    key = (combo.kind, combo.cards)
    got = _jcombos.get(key)
    if got is None:
        got = _encode(combo.to_json())
        if len(_jcombos) < _CACHED:
            _jcombos[key] = got
    return got


def _jcards(mask: int) -> str:
    """The JSON strings of the cards of a mask, lowest first, separated by ``, ``."""
    j = _JNAMES8
    return ", ".join([*j[0][mask & 255], *j[1][mask >> 8 & 255], *j[2][mask >> 16 & 255],
                      *j[3][mask >> 24 & 255]])


def record_line(state: DealState) -> str:
    """The record of a finished deal as one line of JSON, without building the record:
    ``json.JSONEncoder(ensure_ascii=False).encode(record_of(state))``, character for character
    (held equal by the tests); ``rebelote deal`` writes its records with it."""
    if not state.is_terminal:
        raise IllegalActionError("record", "the deal is not over")
    rules = state.rules
    void = state.is_void
    hands = state.hands if void else state.start_hands
    keys = _HANDS_KEYS
    parts = [_jhead(rules), _JSEATS[state.dealer], ', "hands": {',
             keys[0], _jcards(hands[0]), "], ", keys[1], _jcards(hands[1]), "], ",
             keys[2], _jcards(hands[2]), "], ", keys[3], _jcards(hands[3]), ']}, "turned": ',
             _JNAMES[state.turned] if state.turned >= 0 else "null"]
    if void and rules.game == "belote":
        parts.append(', "stock": [')
        parts.append(", ".join([_JNAMES[c] for c in state.stock]))
        parts.append("]")
    seats = _JSEATS
    parts.append(', "auction": [')
    parts.append(", ".join([f"[{seats[s]}, {_jstr(str(b))}]" for s, b in state.auction.history]))
    parts.append('], "declarations": {')
    if not void:
        parts.append(", ".join([f"{seats[s]}: [{', '.join([_jcombo(c) for c in d])}]"
                                for s, d in enumerate(state.declared) if d]))
    parts.append('}, "tricks": [')
    names = _JNAMES
    parts.append(", ".join([f"[{seats[lead]}, {names[t[0]]}, {names[t[1]]}, {names[t[2]]}, "
                            f"{names[t[3]]}]" for lead, t in state.tricks]))
    parts.append("]")
    if state.held_over:
        parts.append(f', "held_over": {_jint(state.held_over)}')
    score = state.score()
    parts.append(f', "result": {{"outcome": {_jstr(score.outcome)}, "score": {{"NS": '
                 f'{_jint(score.score[0])}, "EW": {_jint(score.score[1])}}}')
    if not void:
        parts.append(f', "points": {{"NS": {_jint(score.points[0])}, "EW": '
                     f"{_jint(score.points[1])}}}")
    parts.append("}}")
    return "".join(parts)


def result_of(state: DealState) -> dict[str, Any]:
    """The ``result`` of a record: outcome, score and (for a played deal) each team's points."""
    score = state.score()
    out: dict[str, Any] = {"outcome": score.outcome,
                           "score": {"NS": score.score[0], "EW": score.score[1]}}
    if not state.is_void:
        out["points"] = {"NS": score.points[0], "EW": score.points[1]}
    return out


def score_answer(state: DealState) -> dict[str, Any]:
    """The answer of ``rebelote replay`` for a finished deal: the deal answer of
    ``rebelote score`` (outcome, score, held_over, points, totals)."""
    return state.score().to_json()


# -- reading -----------------------------------------------------------------------------------
def _card(field: str, raw: Any) -> int:
    try:
        return parse_card(raw)
    except CardError as e:
        raise InputError(field, str(e)) from None


def _seat(field: str, raw: Any) -> int:
    try:
        return SEATS.index(parse_seat(raw))
    except CardError as e:
        raise InputError(field, str(e)) from None


def _hands(obj: Mapping[str, Any]) -> list[int]:
    raw = obj.get("hands")
    if not isinstance(raw, Mapping):
        raise InputError("hands", "missing: an object of each seat's cards (N, E, S, W)")
    hands = [0, 0, 0, 0]
    seen = 0
    for s, name in enumerate(SEATS):
        cards = raw.get(name)
        if not isinstance(cards, list):
            raise InputError(f"hands.{name}", "missing: a list of cards")
        for i, text in enumerate(cards):
            c = _card(f"hands.{name}[{i}]", text)
            if seen >> c & 1:
                raise InputError(f"hands.{name}[{i}]", f"{card_str(c)} is dealt twice")
            seen |= 1 << c
            hands[s] |= 1 << c
    return hands


def _auction(obj: Mapping[str, Any]) -> list[tuple[int, Bid]]:
    raw = obj.get("auction")
    if not isinstance(raw, list):
        raise InputError("auction", "missing: a list of [seat, bid]")
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, list) or len(item) != 2:
            raise InputError(f"auction[{i}]", "each call is [seat, bid], like ['N', 'pass']")
        seat = _seat(f"auction[{i}]", item[0])
        try:
            bid = Bid.parse(item[1])
        except IllegalActionError as e:
            raise InputError(f"auction[{i}]", str(e).removeprefix("action: ")) from None
        out.append((seat, bid))
    return out


def _initial_state(obj: Mapping[str, Any], auction: list[tuple[int, Bid]]) -> DealState:
    rules = summary_rules(obj)
    dealer = _seat("dealer", obj.get("dealer"))
    hands = _hands(obj)
    held = obj.get("held_over", 0)
    if isinstance(held, bool) or not isinstance(held, int) or held < 0:
        raise InputError("held_over", f"must be a whole number of points, not {held!r}")
    sizes = {h.bit_count() for h in hands}
    if sizes != {8} and not (rules.game == "belote" and sizes == {5}):
        seat = next(s for s in range(4) if hands[s].bit_count() != 8)
        raise InputError(f"hands.{SEATS[seat]}", f"{hands[seat].bit_count()} cards: each seat "
                         "holds 8 cards when play begins")
    if rules.game != "belote":
        if obj.get("turned") is not None:
            raise InputError("turned", f"{rules.game} has no turned card")
        try:
            return DealState.from_hands(rules, dealer, hands, held_over=held)
        except IllegalActionError as e:
            raise InputError("hands", e.reason if e.field == "hands" else str(e)) from None
    if obj.get("turned") is None:
        raise InputError("turned", "missing: the turned card of a belote deal")
    turned = _card("turned", obj["turned"])
    taker = next((s for s, b in auction if b.kind != "pass"), -1)
    step = seat_step(rules)
    order = seats_from((dealer + step) % 4, step)
    if sizes == {5}:
        raw_stock = obj.get("stock")
        if not isinstance(raw_stock, list):
            used = hands[0] | hands[1] | hands[2] | hands[3] | 1 << turned
            stock = [c for c in range(32) if not used >> c & 1]
        else:
            stock = [_card(f"stock[{i}]", t) for i, t in enumerate(raw_stock)]
        first = hands
    elif taker >= 0:
        if not hands[taker] >> turned & 1:
            raise InputError("turned", f"{card_str(turned)} is not in the taker "
                                       f"{SEATS[taker]}'s hand")
        first = [0, 0, 0, 0]
        stock = []
        for s in order:
            cards = [c for c in range(32) if (hands[s] & ~(1 << turned)) >> c & 1]
            first[s] = sum(1 << c for c in cards[:5])
            stock.extend(cards[5:])
    else:
        raise InputError("hands", "a belote deal voided by passes lists the 5 cards of each "
                                  "seat")
    try:
        return DealState.from_hands(rules, dealer, first, turned, stock, held_over=held)
    except IllegalActionError as e:
        raise InputError("hands", str(e).removeprefix("hands: ").removeprefix("turned: ")
                         ) from None


def _declarations(obj: Mapping[str, Any], trump: int) -> dict[int, tuple[Combo, ...]]:
    raw = obj.get("declarations") or {}
    if not isinstance(raw, Mapping):
        raise InputError("declarations", "must be an object of each seat's declarations")
    out: dict[int, tuple[Combo, ...]] = {}
    for key, items in raw.items():
        seat = _seat(f"declarations.{key}", key)
        if not isinstance(items, list):
            raise InputError(f"declarations.{key}", "must be a list of declarations")
        combos = []
        for i, item in enumerate(items):
            try:
                combos.append(combo_from_json(item, trump))
            except ValueError as e:
                raise InputError(f"declarations.{key}[{i}]", str(e)) from None
        if combos:
            out[seat] = tuple(combos)
    return out


def replay_record(obj: Any) -> DealState:
    """Play a record's bids and cards through the engine; the finished deal.

    The first illegal move raises :class:`InputError` naming it (``tricks[2][3]``) and why."""
    if not isinstance(obj, Mapping):
        raise InputError("", "a deal record is a JSON object")
    unknown = sorted(k for k in obj if k not in _RECORD_KEYS and not str(k).startswith("_"))
    if unknown:
        raise InputError(unknown[0], "unknown field of a deal record")
    auction = _auction(obj)
    state = _initial_state(obj, auction)
    for i, (seat, bid) in enumerate(auction):
        if state.phase != AUCTION:
            raise InputError(f"auction[{i}]", f"{SEATS[seat]} {bid}: the auction is over")
        if seat != state.current_player:
            raise InputError(f"auction[{i}]", f"{SEATS[seat]} {bid}: it is "
                                              f"{SEATS[state.current_player]}'s turn to speak")
        try:
            state = state.apply(bid)
        except IllegalActionError as e:
            raise InputError(f"auction[{i}]", str(e)) from None
    if state.phase == AUCTION:
        raise InputError("auction", f"the auction is not over: {SEATS[state.current_player]} "
                                    "still has to speak")
    raw_tricks = obj.get("tricks")
    if not isinstance(raw_tricks, list):
        raise InputError("tricks", "missing: a list of tricks [leader, 4 cards]")
    if state.is_void:
        if raw_tricks:
            raise InputError("tricks", "a deal voided by passes has no tricks")
        if obj.get("declarations"):
            raise InputError("declarations", "a deal voided by passes has no declarations")
        return state
    declarations = _declarations(obj, state.trump)
    if declarations and not state.rules.declarations:
        raise InputError("declarations", "these rules are played without declarations")
    if len(raw_tricks) != 8:
        raise InputError("tricks", f"a played deal has 8 tricks, not {len(raw_tricks)}")
    for t, trick in enumerate(raw_tricks):
        if not isinstance(trick, list) or len(trick) != 5:
            raise InputError(f"tricks[{t}]", "a trick is [leader, 4 cards]")
        leader = _seat(f"tricks[{t}][0]", trick[0])
        if leader != state.current_player:
            why = "the winner of the last trick" if t else "the dealer's next seat"
            raise InputError(f"tricks[{t}][0]", f"the trick is led by "
                                                f"{SEATS[state.current_player]} ({why}), "
                                                f"not {SEATS[leader]}")
        for i, text in enumerate(trick[1:], start=1):
            card = _card(f"tricks[{t}][{i}]", text)
            p = state.current_player
            try:
                if state.declared[p] is None:
                    if p in declarations:
                        state = state.apply(Declare(declarations[p]))
                    elif state.best[p]:
                        state = state.apply(NO_DECLARATION)
                state = state.apply(PLAYS[card])
            except IllegalActionError as e:
                where = f"declarations.{SEATS[p]}" if "declarations" in str(e) \
                    and state.declared[p] is None else f"tricks[{t}][{i}]"
                raise InputError(where, str(e)) from None
    return state


def check_record(obj: Any) -> dict[str, Any]:
    """The answer to one line of ``rebelote replay``: the deal answer, or an
    :class:`InputError` for the first illegal move or a result that differs from the record."""
    try:
        state = replay_record(obj)
    except RulesError as e:
        raise InputError("options", str(e)) from None
    answer = score_answer(state)
    recorded = obj.get("result")
    if recorded is not None:
        mine = result_of(state)
        if not isinstance(recorded, Mapping):
            raise InputError("result", "must be an object with outcome and score")
        for key in ("outcome", "score", "points"):
            if key in recorded and recorded[key] != mine.get(key):
                raise InputError(f"result.{key}", f"recorded {recorded[key]!r}, but the deal "
                                                  f"gives {mine.get(key)!r}")
    return answer
