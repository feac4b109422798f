"""The deal form of the pages, translated to and from a deal summary (docs/interfaces.md).

Translation only: the form's fields become the JSON object that :meth:`DealSummary.from_json`
reads and checks; no rule is applied here. A capot is sent as the other team's 0 points, the
core knowing what a capot is worth.

>>> deal_from_form({"kind": "deal", "taker": "NS", "trump": "hearts", "points": "98",
...                 "belote": "NS"}, "belote")
{'taker': 'NS', 'trump': 'hearts', 'points': {'NS': 98}, 'belote': 'NS'}
>>> deal_from_form({"kind": "void"}, "coinche")
{'void': True}
>>> deal_from_form({"kind": "deal", "taker": "EW", "trump": "spades", "contract": "generale",
...                 "capot": "taker"}, "coinche")
{'taker': 'EW', 'trump': 'spades', 'contract': 'generale', 'coinche': 'none', 'capot': 'EW', \
'points': {'NS': 0}, 'generale': True}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rebelote.cards import TEAMS
from rebelote.errors import InputError
from rebelote.numbers import is_digits, number_or_text
from rebelote.rules import ALL_TRUMP, AUCTION_GAMES, TRUMP_NAMES
from rebelote.summary import COINCHE_NAMES, DealSummary

KINDS: Final = ("deal", "void", "adjust")


def _text(form: Mapping[str, Any], name: str) -> str:
    value = form.get(name)
    return value.strip() if isinstance(value, str) else ""


def _whole(form: Mapping[str, Any], name: str, field: str, *, negative: bool = False
           ) -> int | None:
    """A whole number typed in a form, or ``None`` if the box is empty."""
    text = _text(form, name).replace(" ", "").replace("\u202f", "").replace("\xa0", "")
    if not text:
        return None
    sign = -1 if negative and text.startswith("-") else 1
    digits = text[1:] if sign < 0 else text
    if not is_digits(digits):
        raise InputError(field, f"{_text(form, name)!r} is not a whole number")
    return sign * int(digits)


def _team(form: Mapping[str, Any], name: str, field: str, *, required: bool) -> str | None:
    value = _text(form, name).upper()
    if value in TEAMS:
        return value
    if value or required:
        raise InputError(field, "choose a team: NS or EW" if not value
                         else f"{value!r} is not a team: NS or EW")
    return None


def _per_team(form: Mapping[str, Any], box: str, field: str, *, negative: bool = False
              ) -> dict[str, int]:
    """The non-zero numbers typed in the boxes ``<box>_NS`` and ``<box>_EW``, by team."""
    out: dict[str, int] = {}
    for team in TEAMS:
        value = _whole(form, f"{box}_{team}", f"{field}.{team}", negative=negative)
        if value:
            out[team] = value
    return out


def deal_from_form(form: Mapping[str, Any], game: str) -> dict[str, Any]:
    """A deal summary (without ``game``) from the deal form's fields.

    Fields: ``kind`` (deal, void, adjust); ``taker``; ``contract`` and ``coinche`` (coinche);
    ``trump``; ``points`` (the takers', dix de der included); ``capot`` (``taker`` or
    ``defense``); ``generale``; ``decl_NS``, ``decl_EW``; ``belote`` (a team), or ``belote_NS``,
    ``belote_EW`` (counts, all-trump); ``adj_NS``, ``adj_EW`` (an adjustment).
    """
    kind = _text(form, "kind") or "deal"
    if kind not in KINDS:
        raise InputError("kind", f"{kind!r} is not a kind of line: deal, void or adjust")
    if kind == "void":
        return {"void": True}
    if kind == "adjust":
        return {"adjust": _per_team(form, "adj", "adjust", negative=True)}

    taker = _team(form, "taker", "taker", required=True)
    assert taker is not None
    defense = "EW" if taker == "NS" else "NS"
    trump = _text(form, "trump")
    if not trump:
        raise InputError("trump", "missing: choose the trump")
    out: dict[str, Any] = {"taker": taker, "trump": trump}
    generale = _text(form, "generale") in ("on", "true", "1")
    if game in AUCTION_GAMES:
        contract = _text(form, "contract")
        if not contract:
            raise InputError("contract", "missing: 80 to 160, capot or générale")
        out["contract"] = number_or_text(contract)
        out["coinche"] = _text(form, "coinche") or "none"
        generale = generale or contract == "generale"
        if generale and contract != "generale":
            raise InputError("generale", "a générale is a contract: choose générale as the "
                                         "contract")
    capot = _text(form, "capot")
    if generale and capot not in ("taker", taker):
        raise InputError("capot", "a générale is won by the takers' capot: choose capot by "
                                  "the takers")
    if capot in ("taker", taker):
        out["capot"] = taker
        out["points"] = {defense: 0}
        if generale:
            out["generale"] = True
    elif capot in ("defense", defense):
        out["capot"] = defense
        out["points"] = {taker: 0}
    elif capot:
        raise InputError("capot", f"{capot!r} is not a capot: taker or defense")
    else:
        points = _whole(form, "points", f"points.{taker}")
        if points is None:
            raise InputError(f"points.{taker}", "missing: the takers' trick points with the "
                                                "dix de der")
        out["points"] = {taker: points}
    declarations = _per_team(form, "decl", "declarations")
    if declarations:
        out["declarations"] = declarations
    if out["trump"] == TRUMP_NAMES[ALL_TRUMP]:
        counts = _per_team(form, "belote", "belote")
        if counts:
            out["belote"] = counts
    else:
        belote = _team(form, "belote", "belote", required=False)
        if belote:
            out["belote"] = belote
    return out


def form_from_deal(deal: DealSummary) -> dict[str, str]:
    """The deal form's fields filled from a deal, to edit it."""
    if deal.kind == "void":
        return {"kind": "void"}
    if deal.kind == "adjust":
        return {"kind": "adjust", "adj_NS": str(deal.adjust[0] or ""),
                "adj_EW": str(deal.adjust[1] or "")}
    taker = deal.taker or "NS"
    t = TEAMS.index(taker)
    fields = {
        "kind": "deal", "taker": taker, "trump": TRUMP_NAMES[deal.trump],
        "points": str(deal.points[t]),
        "capot": "" if deal.capot is None else "taker" if deal.capot == taker else "defense",
        "generale": "on" if deal.generale else "",
        "decl_NS": str(deal.declarations[0] or ""), "decl_EW": str(deal.declarations[1] or ""),
        "belote_NS": str(deal.belote[0] or ""), "belote_EW": str(deal.belote[1] or ""),
        "belote": "NS" if deal.belote[0] else "EW" if deal.belote[1] else "",
    }
    if deal.game in AUCTION_GAMES:
        fields["contract"] = str(deal.contract or "")
        fields["coinche"] = COINCHE_NAMES[deal.coinche]
    return fields
