"""The oracle of the auction games' ways of counting: coinche and contrée, with every scoring
convention of the contrée survey as a rule-set option (``docs/rules.md``, "Ways of counting").

Written from the survey's table of conventions and its worked example (contract 100♥, takers 110
with the belote, defense 52), not from rebelote's code. Each convention is a formula in three
parts: the *base* (the deal's points a failed or coinched contract is worth), the contract *C*
and the belote *B*, each with its own multiplier:

    mark = (base + declarations) × kb + C × kc + B × kB

where (kb, kc) is (m, m) for ``whole`` ((base + C) × m), (1, m) for ``contract`` (base + C × m),
(m, 1) for ``base`` (base × m + C) and (m, 0) for ``flat`` (320 / 640); kB is m when the belote
is inside the multiplier, else 1. The counting method decides whether C is added at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TEAMS = ("NS", "EW")
CAPOT_PRIME = 500

# The options a rule set adds for the ways of counting, at the source documents' coinche values
# (docs/rules.md section 6: (160 + declarations + belote + C) × m, belote imprenable, capot a 250
# contract, marks rounded to the nearest ten, 5 up, judged as a whole).
COUNTING_DEFAULTS: dict[str, Any] = {
    "counting": "made_plus_bid",
    "failure_base": 160,
    "coinche_form": "whole",
    "surcoinche": 4,
    "belote_prenable": False,
    "belote_multiplied": True,
    "must_outscore": True,
    "capot_bid": "contract",
    "capot_value": 250,
    "capot_unbid": 252,
    "capot_failed": "formula",
    "rounding_scope": "mark",
    "last_deal_exact": False,
    "target_rule": "reach",
}

# The contrée presets, read from the survey (section 2's table and the issue's list).
_FFB: dict[str, Any] = {
    "declarations": False, "generale": False, "belote_prenable": True,
    "belote_multiplied": False, "must_outscore": False, "capot_bid": "prime",
    "capot_failed": "prime", "rounding": "nearest", "target": 2000,
}
CONTREE_PRESETS: dict[str, dict[str, Any]] = {
    # FFB 2016 table: made pts + C + own B; failed 160 + C + all B; 320 + 2C, 640 + 4C, belote
    # outside; capot bid 500, coinched 1000 / 2000; unbid 252; 5 up; 2000.
    "ffb": dict(_FFB),
    # Équipe Ludique: 160 + 2C + B, 160 + 3C + B, capot a 250 contract, 6 up, last deal exact.
    "ffb-ludique": {**_FFB, "coinche_form": "contract", "surcoinche": 3, "capot_bid": "contract",
                    "capot_failed": "formula", "rounding": "six_up", "last_deal_exact": True},
    # Cannes 2016: 162, ×3, "capot" bid 270, 6 up, last deal exact, 2001.
    "cannes-2016": {**_FFB, "failure_base": 162, "coinche_form": "contract", "surcoinche": 3,
                    "capot_bid": "contract", "capot_value": 270, "capot_failed": "formula",
                    "rounding": "six_up", "last_deal_exact": True, "target": 2001},
    # Points annoncés: the contract only (× the coinche), no rounding; capot 250, 500 coinched.
    "annonces": {**_FFB, "counting": "bid", "failure_base": 0, "capot_bid": "contract",
                 "capot_failed": "formula", "rounding": "none", "target": 1000},
    # As ffb, counted exactly.
    "exact": {**_FFB, "rounding": "none"},
}


def other(team: str) -> str:
    return "EW" if team == "NS" else "NS"


def round_to_ten(x: int, how: str) -> int:
    """``nearest``: 85 -> 90 (5 up); ``six_up``: 85 -> 80, 86 -> 90; ``none``: x."""
    if how == "none":
        return x
    up = 5 if how == "nearest" else 4
    sign = -1 if x < 0 else 1
    return sign * ((abs(x) + up) // 10 * 10)


def multipliers(form: str, m: int) -> tuple[int, int]:
    """(kb, kc): what the base and the contract are multiplied by under a coinche form."""
    if m == 1:
        return 1, 1
    return {"whole": (m, m), "contract": (1, m), "base": (m, 1), "flat": (m, 0)}[form]


def score_auction_deal(*, opts: Mapping[str, Any], taker: str, contract: Any, coinche: str,
                       pts: dict[str, int], capot: str | None, generale: bool,
                       decl: dict[str, int], bel: dict[str, int], deal_total: int,
                       capot_total: int) -> tuple[bool, dict[str, int]]:
    """(made, marks) of a coinche or contrée deal under ``opts``; marks rounded by the rules.

    ``pts`` are trick points with the dix de der, ``bel`` belote points (20 each).
    """
    defense = other(taker)
    m = {"none": 1, "coinche": 2, "surcoinche": int(opts["surcoinche"])}[coinche]
    how = opts["rounding"]
    by_points = opts["rounding_scope"] == "points"

    def r_points(x: int) -> int:  # rounding of the points part alone (scope "points")
        return round_to_ten(x, how) if by_points else x

    if contract == "capot":
        value = int(opts["capot_value"])
    elif contract == "generale":
        value = int(opts["generale_value"])
    else:
        value = int(contract)
    all_decl = decl["NS"] + decl["EW"]
    total = {t: pts[t] + decl[t] + bel[t] for t in TEAMS}
    judged = dict(total) if opts["belote_counts_for_contract"] else {
        t: total[t] - bel[t] for t in TEAMS}

    if contract == "generale":
        made = capot == taker and generale
    elif contract == "capot":
        made = capot == taker
    elif capot == taker:
        made = True
    elif capot == defense:
        made = False
    else:
        made = judged[taker] >= value and (
            judged[taker] > judged[defense] or not opts["must_outscore"])

    # The bases: the deal total rounded to ten (160), exact (162) or nothing (0).
    fb = opts["failure_base"]
    if fb == 160:
        base, capot_base = round_to_ten(deal_total, "nearest"), round_to_ten(capot_total, "nearest")
    elif fb == 162:
        base, capot_base = deal_total, capot_total
    else:
        base, capot_base = 0, 0
    base, capot_base = r_points(base), r_points(capot_base)
    unbid_capot = capot_total if opts["capot_unbid"] == 252 else round_to_ten(capot_total,
                                                                              "nearest")
    c = 0 if opts["counting"] == "made" else value
    kb, kc = multipliers(opts["coinche_form"], m)
    kbel = m if opts["belote_multiplied"] else 1
    prime_capot = contract == "capot" and opts["capot_bid"] == "prime"
    marks = {"NS": 0, "EW": 0}

    if opts["counting"] == "bid":
        # Points annoncés: only the contract is marked, by the team that wins the deal.
        if made:
            marks[taker] = (CAPOT_PRIME if prime_capot else value) * m
        elif prime_capot and opts["capot_failed"] == "prime":
            marks[defense] = CAPOT_PRIME * m
        else:
            marks[defense] = base * kb + value * kc
    elif made:
        if prime_capot:
            marks[taker] = (CAPOT_PRIME + all_decl) * m + bel[taker] * kbel
            marks[defense] = bel[defense]
        elif m == 1:
            if capot == taker:
                marks[taker] = r_points(unbid_capot + bel[taker] + all_decl) + c
                marks[defense] = bel[defense]
            else:
                marks[taker] = r_points(total[taker]) + c
                marks[defense] = r_points(total[defense])
        else:
            b = capot_base if capot == taker else base
            marks[taker] = (b + all_decl) * kb + c * kc + bel[taker] * kbel
            marks[defense] = bel[defense]
    else:
        # The belote goes to the defense when it is prenable; else each team keeps its own.
        won_bel = bel["NS"] + bel["EW"] if opts["belote_prenable"] else bel[defense]
        marks[taker] = 0 if opts["belote_prenable"] else bel[taker]
        if prime_capot and opts["capot_failed"] == "prime":
            marks[defense] = (CAPOT_PRIME + all_decl) * m + won_bel * kbel
        else:
            marks[defense] = (base + all_decl) * kb + c * kc + won_bel * kbel
    if not by_points:
        marks = {t: round_to_ten(v, how) for t, v in marks.items()}
    return made, marks
