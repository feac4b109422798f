"""Scoring a deal: a pure function of a deal summary and a rule set (docs/rules.md section 6).

A :class:`~rebelote.summary.DealSummary` is what a counter at a real table knows of a deal
(:mod:`rebelote.summary` reads it from JSON).
:func:`score_deal` turns it into a :class:`DealScore`: the outcome, each team's mark, the litige
reserve, and the lines of a result card that say why each team marks what it marks.

>>> rules = Rules.preset("official", "coinche")
>>> s = DealSummary.from_json({"trump": "spades", "taker": "NS", "contract": 90,
...                            "points": {"NS": 97, "EW": 65}}, rules)
>>> score = score_deal(s, rules)
>>> score.outcome, score.score
('made', (190, 70))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from rebelote.cards import TEAMS, Team
from rebelote.errors import InputError
from rebelote.rules import BELOTE_POINTS, CAPOT_PRIME, Rules, round_mark

# The deal summary and its reading live in :mod:`rebelote.summary`; these names stay importable
# from here (``from rebelote.scoring import DealSummary, score_deal``).
from rebelote.summary import (
    DealSummary,
    Pair,
)

__all__ = [
    "DealScore",
    "LineKey",
    "MarkCase",
    "Outcome",
    "ResultLine",
    "score_deal",
    "score_deal_exact",
]

class LineKey(StrEnum):
    """What a result-card line is about: the ``key`` of a :class:`ResultLine` (the pages, PDFs
    and CSV key their translations by it)."""

    VOID = "void"
    HELD_OVER = "held_over"
    ADJUST = "adjust"
    CAPOT = "capot"
    TRICKS = "tricks"
    DECLARATIONS = "declarations"
    BELOTE = "belote"
    TOTAL = "total"
    CONTRACT = "contract"
    MARK = "mark"
    ROUNDING = "rounding"
    SCORE = "score"
    LAST_DEAL_EXACT = "last_deal_exact"


class MarkCase(StrEnum):
    """How a deal's marks are made: the ``case`` argument of its :attr:`LineKey.MARK` line."""

    MADE = "made"
    FAILED = "failed"
    CAPOT = "capot"
    LITIGE = "litige"
    LITIGE_DEFENSE = "litige_defense"
    MADE_MULTIPLIED = "made_multiplied"
    CAPOT_MULTIPLIED = "capot_multiplied"
    BID_MADE = "bid_made"
    BID_FAILED = "bid_failed"
    CAPOT_PRIME = "capot_prime"


Outcome = Literal["made", "failed", "litige", "void", "adjust"]


def _idx(team: Team) -> int:
    return 0 if team == "NS" else 1


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One line of a result card: a team's figure for one reason, and the sentence saying it."""

    key: LineKey
    ns: int | None
    ew: int | None
    text: str
    args: tuple[tuple[str, object], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "NS": self.ns, "EW": self.ew, "text": self.text,
                "args": dict(self.args)}


@dataclass(frozen=True, slots=True)
class DealScore:
    """The score of one deal: outcome, marks (NS, EW), the litige reserve after it, and why."""

    outcome: Outcome
    score: Pair
    held_over: int = 0
    totals: Pair = (0, 0)
    points: Pair = (0, 0)
    lines: tuple[ResultLine, ...] = field(default=())

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "outcome": self.outcome,
            "score": {"NS": self.score[0], "EW": self.score[1]},
            "held_over": self.held_over,
        }
        if self.outcome not in ("void", "adjust"):
            out["points"] = {"NS": self.points[0], "EW": self.points[1]}
            out["totals"] = {"NS": self.totals[0], "EW": self.totals[1]}
        if explain:
            out["lines"] = [line.to_json() for line in self.lines]
        return out


# -- scoring -----------------------------------------------------------------------------------
class _Card:
    """Collects result-card lines."""

    def __init__(self) -> None:
        self.lines: list[ResultLine] = []

    def add(self, key: LineKey, ns: int | None, ew: int | None, text: str, **args: object) -> None:
        self.lines.append(ResultLine(key, ns, ew, text, tuple(args.items())))

    def mark(self, t: int, marks: list[int], text: str, **args: object) -> None:
        """The line that says how the marks are made, taker index ``t``; before rounding."""
        self.add(LineKey.MARK, marks[0], marks[1], text, taker=TEAMS[t], defense=TEAMS[1 - t],
                 taker_mark=marks[t], defense_mark=marks[1 - t], **args)


def score_deal(summary: DealSummary, rules: Rules) -> DealScore:
    """Score one deal under ``rules`` (docs/rules.md section 6). Pure; the summary is trusted
    valid."""
    card = _Card()
    if summary.kind == "void":
        card.add(LineKey.VOID, 0, 0, "Deal voided by passes: nothing is marked.")
        if summary.held_over:
            card.add(LineKey.HELD_OVER, None, None,
                     f"The litige reserve of {summary.held_over} waits for the next deal.",
                     reserve=summary.held_over)
        return DealScore("void", (0, 0), summary.held_over, lines=tuple(card.lines))
    if summary.kind == "adjust":
        a = summary.adjust
        card.add(LineKey.ADJUST, a[0], a[1], f"Adjustment: NS {a[0]}, EW {a[1]}.")
        return DealScore("adjust", a, summary.held_over, lines=tuple(card.lines))
    if summary.taker is None:
        raise InputError("taker", "missing: NS or EW")
    if summary.game == "belote":
        return _score_belote(summary, rules, card)
    return _score_coinche(summary, rules, card)


def score_deal_exact(summary: DealSummary, rules: Rules) -> DealScore:
    """:func:`score_deal` with no rounding: the last deal of a game under ``last_deal_exact``."""
    return score_deal(summary, rules.replace(rounding="none"))


def _common(summary: DealSummary, rules: Rules, card: _Card
            ) -> tuple[int, int, Pair, Pair, Pair, int, Pair]:
    """Taker index, defense index, belote points, totals, judged totals, all declarations."""
    t = _idx(summary.taker or "NS")
    d = 1 - t
    p = summary.points
    belote = (summary.belote[0] * BELOTE_POINTS, summary.belote[1] * BELOTE_POINTS)
    decl = summary.declarations
    totals = (p[0] + decl[0] + belote[0], p[1] + decl[1] + belote[1])
    if rules.belote_counts_for_contract:
        judged = totals
    else:
        judged = (totals[0] - belote[0], totals[1] - belote[1])
    if summary.capot:
        card.add(LineKey.CAPOT, p[0], p[1],
                 f"{summary.capot} won all eight tricks (capot): the last trick is worth 100.",
                 team=summary.capot, total=p[_idx(summary.capot)])
    else:
        card.add(LineKey.TRICKS, p[0], p[1],
                 f"Trick points with the dix de der: NS {p[0]}, EW {p[1]}.")
    if decl != (0, 0):
        who: Team = "NS" if decl[0] else "EW"
        card.add(LineKey.DECLARATIONS, decl[0], decl[1],
                 f"Declarations: {who} showed the strongest and scores all of its own "
                 f"({decl[_idx(who)]}).", team=who, value=decl[_idx(who)])
    if belote != (0, 0):
        card.add(LineKey.BELOTE, belote[0], belote[1],
                 f"Belote-rebelote: NS {belote[0]}, EW {belote[1]}, kept whatever happens.")
    card.add(LineKey.TOTAL, totals[0], totals[1], f"Totals: NS {totals[0]}, EW {totals[1]}.")
    all_decl = decl[0] + decl[1]
    return t, d, belote, totals, judged, all_decl, p


def _score_belote(summary: DealSummary, rules: Rules, card: _Card) -> DealScore:
    t, d, belote, totals, judged, all_decl, p = _common(summary, rules, card)
    taker: Team = TEAMS[t]
    defense: Team = TEAMS[d]
    deal_total = rules.deal_total(summary.trump)
    marks: list[int] = [0, 0]
    reserve_out = 0
    if summary.capot == taker:
        outcome: Outcome = "made"
        marks[t] = p[t] + belote[t] + all_decl
        marks[d] = belote[d]
        card.mark(t, marks,
                 f"{taker} capot: {p[t]} + belote {belote[t]} + all declarations {all_decl}; "
                 f"{defense} keeps its belote.", case=MarkCase.CAPOT, points=p[t],
                 belote=belote[t], decl=all_decl)
    elif summary.capot == defense or judged[t] < judged[d]:
        outcome = "failed"
        marks[d] = deal_total + all_decl + belote[d]
        marks[t] = belote[t]
        why = (f"{defense} capot" if summary.capot == defense
               else f"{judged[t]} < {judged[d]}")
        card.mark(t, marks,
                 f"{taker} dedans ({why}): {defense} marks {deal_total} + all declarations "
                 f"{all_decl} + its belote {belote[d]}; {taker} keeps its belote.",
                 case=MarkCase.FAILED, total=deal_total, decl=all_decl, belote=belote[d],
                 capot=summary.capot == defense)
    elif judged[t] > judged[d]:
        outcome = "made"
        marks[t], marks[d] = totals[t], totals[d]
        card.mark(t, marks,
                 f"Made ({judged[t]} > {judged[d]}): each team marks its total.",
                 case=MarkCase.MADE)
    else:
        outcome = "litige"
        if rules.litige == "hold":
            marks[d] = totals[d]
            marks[t] = belote[t]
            reserve_out = totals[t] - belote[t]
            card.mark(t, marks,
                     f"Litige ({judged[t]} = {judged[d]}): {defense} marks its total; "
                     f"{taker}'s {reserve_out} are held over for the winner of the next deal.",
                     case=MarkCase.LITIGE, reserve=reserve_out)
        else:
            marks[d] = deal_total + all_decl + belote[d]
            marks[t] = belote[t]
            card.mark(t, marks,
                     f"Litige ({judged[t]} = {judged[d]}): the defense takes all, "
                     f"{deal_total} + all declarations {all_decl} + its belote.",
                     case=MarkCase.LITIGE_DEFENSE, total=deal_total, decl=all_decl,
                     belote=belote[d])
    if summary.held_over:
        gets = t if outcome == "made" else d
        marks[gets] += summary.held_over
        card.add(LineKey.HELD_OVER, *_ordered(gets, summary.held_over, 0),
                 f"The litige reserve of {summary.held_over} goes to {TEAMS[gets]}.",
                 team=TEAMS[gets], reserve=summary.held_over)
    return _finish(outcome, marks, reserve_out, totals, p, rules, card)


def _coinche_factors(form: str, m: int) -> tuple[int, int]:
    """What the base and the contract are multiplied by under option ``coinche_form``:
    ``whole`` (base + C) × m, ``contract`` base + C × m, ``base`` base × m + C, ``flat``
    base × m (the contract is not added: 320 / 640)."""
    if m == 1:
        return 1, 1
    if form == "whole":
        return m, m
    if form == "contract":
        return 1, m
    if form == "base":
        return m, 1
    return m, 0


def _score_coinche(summary: DealSummary, rules: Rules, card: _Card) -> DealScore:
    """Coinche and contrée, by the rule set's ways of counting (docs/rules.md section 6 and
    "Ways of counting"): the mark of a coinched or failed contract is
    (base + declarations) × kb + C × kc + belote × kB, with (kb, kc) by ``coinche_form`` and kB
    the multiplier when the belote is inside it."""
    t, d, belote, totals, judged, all_decl, p = _common(summary, rules, card)
    taker: Team = TEAMS[t]
    defense: Team = TEAMS[d]
    value = summary.contract_value(rules)
    m = rules.coinche_multiplier(summary.coinche)
    capot_t = summary.capot == taker
    if summary.contract == "generale":
        made = capot_t and summary.generale
        why = "the taker alone won every trick" if made else "the taker did not win every trick"
    elif summary.contract == "capot":
        made = capot_t
        why = f"{taker} won every trick" if made else f"{taker} lost a trick"
    elif capot_t:
        made, why = True, f"{taker} won every trick"
    elif summary.capot == defense:
        made, why = False, f"{defense} won every trick"
    else:
        reached = judged[t] >= value
        ahead = judged[t] > judged[d]
        made = reached and (ahead or not rules.must_outscore)
        why = f"{judged[t]} {'≥' if reached else '<'} {value}"
        if rules.must_outscore:
            why += f" and {judged[t]} {'>' if ahead else '≤'} {judged[d]}"
    # "Contract capot (250)": a word with its value; "Contract 90": the value alone
    contract_name = f"{summary.contract} ({value})" if isinstance(summary.contract, str) \
        else str(value)
    card.add(LineKey.CONTRACT, None, None,
             f"Contract {contract_name} by {taker}: {why}: "
             f"{'made' if made else 'failed'}.", taker=taker, value=value, made=made)

    by_points = rules.rounding_scope == "points" and rules.rounding != "none"

    def r(points: int) -> int:  # the points part rounded first (rounding_scope = points)
        return round_mark(points, rules.rounding) if by_points else points

    marks = [0, 0]
    c = 0 if rules.counting == "made" else value
    kb, kc = _coinche_factors(rules.coinche_form, m)
    k_bel = m if rules.belote_multiplied else 1
    prime = summary.contract == "capot" and rules.capot_bid == "prime"
    fall = r(rules.fall_base(summary.trump))
    times = f" × {m}" if m > 1 else ""
    if rules.counting == "bid":
        if made:
            marks[t] = (CAPOT_PRIME if prime else value) * m
            text = (f"Made, points annoncés: {taker} marks the contract "
                    f"{CAPOT_PRIME if prime else value}{times}; {defense} marks nothing.")
        elif prime and rules.capot_failed == "prime":
            marks[d] = CAPOT_PRIME * m
            text = f"Failed, points annoncés: {defense} marks the capot {CAPOT_PRIME}{times}."
        else:
            marks[d] = fall * kb + value * kc
            text = (f"Failed, points annoncés: {defense} marks {fall}{_times(kb)} + the "
                    f"contract {value}{_times(kc)}.")
        case = MarkCase.BID_MADE if made else MarkCase.BID_FAILED
        args: dict[str, object] = {"contract": value, "fall": fall}
    elif made and prime:
        marks[t] = (CAPOT_PRIME + all_decl) * m + belote[t] * k_bel
        marks[d] = belote[d]
        text = (f"Capot bid and made: {taker} marks the prime {CAPOT_PRIME} + all declarations "
                f"{all_decl}{times}, + belote {belote[t]}{_times(k_bel)}; {defense} keeps its "
                "belote.")
        case = MarkCase.CAPOT_PRIME
        args = {"prime": CAPOT_PRIME, "decl": all_decl, "belote": belote[t]}
    elif made and m == 1:
        if capot_t:
            unbid = rules.unbid_capot(summary.trump)
            marks[t] = r(unbid + belote[t] + all_decl) + c
            marks[d] = belote[d]
            text = (f"{taker} capot: {unbid} + belote {belote[t]} + all declarations {all_decl} "
                    f"+ contract {c}; {defense} keeps its belote.")
            case = MarkCase.CAPOT
            args = {"capot": unbid, "belote": belote[t], "decl": all_decl, "contract": c}
        else:
            marks[t] = r(totals[t]) + c
            marks[d] = r(totals[d])
            if c:
                text = (f"Made: {taker} marks its total {totals[t]} + the contract {c}; "
                        f"{defense} marks its total {totals[d]}.")
            else:
                text = (f"Made, points faits: {taker} marks its total {totals[t]}; {defense} "
                        f"marks its total {totals[d]}.")
            case = MarkCase.MADE
            args = {"total": totals[t], "contract": c, "defense_total": totals[d]}
    elif made:
        base = r(rules.capot_base(summary.trump)) if capot_t else fall
        marks[t] = (base + all_decl) * kb + c * kc + belote[t] * k_bel
        marks[d] = belote[d]
        if kb == kc == k_bel:
            text = (f"Made, ×{m}: {taker} marks ({base} + all declarations {all_decl} + belote "
                    f"{belote[t]} + contract {c}) × {m}; {defense} keeps only its belote.")
        else:
            text = (f"Made, ×{m}: {taker} marks (base {base} + all declarations {all_decl})"
                    f"{_times(kb)} + contract {c}{_times(kc)} + belote {belote[t]}"
                    f"{_times(k_bel)}; {defense} keeps only its belote.")
        case = MarkCase.CAPOT_MULTIPLIED if capot_t else MarkCase.MADE_MULTIPLIED
        args = {"base": base, "decl": all_decl, "belote": belote[t] * k_bel, "contract": c,
                "even": kb == kc, "belote_times": k_bel}
    else:
        won = belote[0] + belote[1] if rules.belote_prenable else belote[d]
        marks[t] = 0 if rules.belote_prenable else belote[t]
        whose = "all the belote" if rules.belote_prenable else "its belote"
        keeps = (f"{taker} marks nothing" if rules.belote_prenable
                 else f"{taker} keeps its belote")
        if prime and rules.capot_failed == "prime":
            marks[d] = (CAPOT_PRIME + all_decl) * m + won * k_bel
            text = (f"Capot failed: {defense} marks the prime {CAPOT_PRIME} + all declarations "
                    f"{all_decl}{times}, + {whose} {won}{_times(k_bel)}; {keeps}.")
        else:
            marks[d] = (fall + all_decl) * kb + c * kc + won * k_bel
            if kb == kc == k_bel:
                text = (f"Failed: {defense} marks ({fall} + contract {c} + all declarations "
                        f"{all_decl} + {whose} {won}){times}; {keeps}.")
            else:
                text = (f"Failed: {defense} marks (base {fall} + all declarations {all_decl})"
                        f"{_times(kb)} + contract {c}{_times(kc)} + {whose} {won}"
                        f"{_times(k_bel)}; {keeps}.")
        case = MarkCase.FAILED
        args = {"fall": fall, "decl": all_decl, "contract": c, "belote": won * k_bel,
                "belote_times": k_bel,
                "even": kb == kc and not (prime and rules.capot_failed == "prime")}
    card.mark(t, marks, text, case=case, multiplier=m, **args)
    return _finish("made" if made else "failed", marks, 0, totals, p, rules, card,
                   rounded=not by_points)


def _times(k: int) -> str:
    return f" × {k}" if k != 1 else ""


def _ordered(first: int, a: int, b: int) -> tuple[int, int]:
    """(NS, EW) from the figures of team index ``first`` and of the other team."""
    return (a, b) if first == 0 else (b, a)


def _finish(outcome: Outcome, marks: list[int], reserve: int, totals: Pair, points: Pair,
            rules: Rules, card: _Card, rounded: bool = True) -> DealScore:
    score = (marks[0], marks[1])
    if rules.rounding != "none" and rounded:
        new = (round_mark(marks[0], rules.rounding), round_mark(marks[1], rules.rounding))
        if new != score:
            how = "" if rules.rounding == "nearest" else " (6 up)"
            card.add(LineKey.ROUNDING, new[0], new[1],
                     f"Rounded to the nearest ten{how}: NS {score[0]} → {new[0]}, "
                     f"EW {score[1]} → {new[1]}.", how=rules.rounding)
        score = new
    card.add(LineKey.SCORE, score[0], score[1], f"Marks: NS {score[0]}, EW {score[1]}.")
    return DealScore(outcome, score, reserve, totals, points, tuple(card.lines))
