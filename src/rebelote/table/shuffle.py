"""A shuffle anyone can check: each deal's seed is committed to before the deal and revealed
after it (issue 8, item 10).

Before a deal the table shows its *commitment*, the hex SHA-256 of ``"<seed>:<salt>"``; the
seed (which alone decides the shuffle) and the salt (which keeps the commitment from being
guessed) stay on the server. When the deal ends both are revealed and anyone recomputes the
commitment and the shuffle (:func:`verify_record`, ``rebelote verify``).

>>> seed, salt = "5f1d", "a9"
>>> commitment(seed, salt) == hashlib.sha256(b"5f1d:a9").hexdigest()
True
>>> deck_of(seed) == deck_of(seed), sorted(deck_of(seed)) == list(range(32))
(True, True)
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections.abc import Mapping
from typing import Any, Final

from rebelote.auction import Bid
from rebelote.cards import SEATS, card_str, parse_card
from rebelote.deal import DealState
from rebelote.dealing import shuffle_and_cut
from rebelote.errors import CardError, IllegalActionError, InputError, RulesError
from rebelote.record import check_record
from rebelote.summary import summary_rules

_HEX: Final = re.compile(r"^[0-9a-f]{1,128}$")


def new_seed_and_salt() -> tuple[str, str]:
    """A fresh secret seed (128 bits) and salt (128 bits), both as hex."""
    return secrets.token_hex(16), secrets.token_hex(16)


def commitment(seed: str, salt: str) -> str:
    """The hex SHA-256 of ``"<seed>:<salt>"``: shown before the deal."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def deck_of(seed: str) -> list[int]:
    """The deck (32 cards, top first) that ``seed`` shuffles and cuts: ``random.Random(seed)``
    (a string seed is hashed by SHA-512, the same on every platform) drives
    :func:`rebelote.deal.shuffle_and_cut`."""
    return shuffle_and_cut(random.Random(seed))


def _cards(mask: int) -> list[str]:
    return [card_str(c) for c in range(32) if mask >> c & 1]


def _hex_field(obj: Mapping[str, Any], key: str) -> str:
    raw = obj.get(key)
    if not isinstance(raw, str) or not _HEX.match(raw):
        raise InputError(key, "missing or not lowercase hexadecimal: a table's record carries "
                              "its commitment, seed and salt")
    return raw


def verify_record(obj: Any) -> dict[str, Any]:
    """Check a table's deal record: the commitment is the SHA-256 of its seed and salt, the
    seed's shuffle dealt exactly the record's hands (and turned card), and every bid and card
    is legal and scored as recorded. ``{"verified": true, ...}``, else an
    :class:`InputError` naming what does not match."""
    if not isinstance(obj, Mapping):
        raise InputError("", "a deal record is a JSON object")
    seed, salt, shown = (_hex_field(obj, k) for k in ("seed", "salt", "commitment"))
    computed = commitment(seed, salt)
    if not hmac.compare_digest(computed, shown):
        raise InputError("commitment", f"{shown} is not the SHA-256 of the seed and salt "
                                       f"({computed}): the seed or salt was changed")
    answer = check_record(obj)  # legal bids and cards, the recorded result
    try:
        rules = summary_rules(obj)
    except RulesError as e:
        raise InputError("options", str(e)) from None
    dealer = SEATS.index(str(obj["dealer"]).strip().upper())
    state = DealState.from_deck(rules, dealer, deck_of(seed))
    if rules.game == "belote":
        turned = card_str(state.turned)
        try:
            recorded = card_str(parse_card(str(obj.get("turned"))))
        except CardError:
            recorded = None
        if recorded != turned:
            raise InputError("turned", f"the seed turns {turned}, the record says "
                                       f"{obj.get('turned')!r}")
    for _seat, text in obj.get("auction") or []:
        try:
            state = state.apply(Bid.parse(text))
        except IllegalActionError as e:  # check_record already refused illegal bids
            raise InputError("auction", str(e)) from None
    dealt = state.hands if state.is_void else state.start_hands
    hands = obj.get("hands") or {}
    for s, name in enumerate(SEATS):
        mine = _cards(dealt[s])
        try:
            theirs = sorted(card_str(parse_card(c)) for c in hands.get(name, []))
        except CardError as e:
            raise InputError(f"hands.{name}", str(e)) from None
        if sorted(mine) != theirs:
            raise InputError(f"hands.{name}", f"the seed deals {' '.join(mine)}, the record "
                                              f"says {' '.join(theirs)}")
    return {"verified": True, "commitment": computed, **answer}
