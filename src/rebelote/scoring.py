"""Scoring a deal: a pure function of a deal summary and a rule set (RULES.md section 6).

A :class:`DealSummary` is what a counter at a real table knows of a deal: who took, the trick
points, capot, the declarations that count, the belote, the contract and its coinche.
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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Literal

from rebelote.cards import TEAMS, Team
from rebelote.errors import InputError
from rebelote.rules import (
    ALL_TRUMP,
    CAPOT_PRIME,
    GAMES,
    HEARTS,
    NO_TRUMP,
    TRUMP_NAMES,
    Game,
    Rules,
    RulesError,
    TrumpMode,
    parse_rules,
    parse_trump,
    round_mark,
)


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
Kind = Literal["deal", "void", "adjust"]
Pair = tuple[int, int]

BELOTE_POINTS: Final = 20
CONTRACTS: Final = tuple(range(80, 161, 10))
COINCHE_NAMES: Final = {1: "none", 2: "coinche", 4: "surcoinche"}
_COINCHE_WORDS: Final = {"none": 1, "coinche": 2, "surcoinche": 4, "contre": 2, "surcontre": 4}
_DEAL_KEYS: Final = frozenset({
    "game", "rules", "options", "trump", "taker", "contract", "coinche", "points", "cards",
    "last_trick", "capot", "generale", "declarations", "belote", "held_over", "void", "adjust",
    "id", "note",
})


def _idx(team: Team) -> int:
    return 0 if team == "NS" else 1


def _pair(ns: int, ew: int) -> Pair:
    return (ns, ew)


def _set(pair: Pair, i: int, value: int) -> Pair:
    return (value, pair[1]) if i == 0 else (pair[0], value)


@dataclass(frozen=True, slots=True)
class DealSummary:
    """What a counter at a real table knows of a deal. Pairs are (NS, EW)."""

    game: Game
    taker: Team | None = None
    trump: TrumpMode = HEARTS
    points: Pair = (0, 0)
    contract: int | str | None = None
    coinche: int = 1
    capot: Team | None = None
    generale: bool = False
    declarations: Pair = (0, 0)
    belote: Pair = (0, 0)
    held_over: int = 0
    kind: Kind = "deal"
    adjust: Pair = (0, 0)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], rules: Rules) -> DealSummary:
        """Read and check a deal summary of INTERFACES.md; :class:`InputError` names the field."""
        return _parse_summary(obj, rules)

    @classmethod
    def void(cls, game: Game) -> DealSummary:
        return cls(game=game, kind="void")

    @classmethod
    def adjustment(cls, game: Game, ns: int, ew: int) -> DealSummary:
        return cls(game=game, kind="adjust", adjust=(ns, ew))

    @property
    def defense(self) -> Team | None:
        if self.taker is None:
            return None
        return "EW" if self.taker == "NS" else "NS"

    def contract_value(self, rules: Rules) -> int:
        """The value V of a contract: the bid, the capot's (option ``capot_value``: 250, or
        270), the générale's."""
        if self.contract == "capot":
            return rules.capot_value
        if self.contract == "generale":
            return rules.generale_value
        return int(self.contract or 0)

    def to_json(self) -> dict[str, Any]:
        """The deal summary of INTERFACES.md, without ``game`` and ``rules``."""
        if self.kind == "void":
            out: dict[str, Any] = {"void": True}
            if self.held_over:
                out["held_over"] = self.held_over
            return out
        if self.kind == "adjust":
            return {"adjust": {"NS": self.adjust[0], "EW": self.adjust[1]}}
        out = {"trump": TRUMP_NAMES[self.trump], "taker": self.taker}
        if self.game != "belote":
            out["contract"] = self.contract
            out["coinche"] = COINCHE_NAMES[self.coinche]
        out["points"] = {"NS": self.points[0], "EW": self.points[1]}
        out["capot"] = self.capot
        if self.generale:
            out["generale"] = True
        decl = {t: v for t, v in zip(TEAMS, self.declarations, strict=True) if v}
        if decl:
            out["declarations"] = decl
        if self.belote != (0, 0):
            if sum(self.belote) == 1 and self.trump != ALL_TRUMP:
                out["belote"] = "NS" if self.belote[0] else "EW"
            else:
                out["belote"] = {t: n for t, n in zip(TEAMS, self.belote, strict=True) if n}
        if self.held_over:
            out["held_over"] = self.held_over
        return out


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
    """Score one deal under ``rules`` (RULES.md section 6). Pure; the summary is trusted valid."""
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
    """Coinche and contrée, by the rule set's ways of counting (RULES.md section 6 and
    docs/rules.md, "Ways of counting"): the mark of a coinched or failed contract is
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
    contract_name = summary.contract if isinstance(summary.contract, str) else str(value)
    card.add(LineKey.CONTRACT, None, None,
             f"Contract {contract_name} ({value}) by {taker}: {why}: "
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
                "even": kb == kc}
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


# -- reading a summary -------------------------------------------------------------------------
def summary_rules(obj: Mapping[str, Any], game: str | None = None) -> Rules:
    """The rule set named by an object's ``game``, ``rules`` and ``options``. ``rules`` is a
    preset's name or a rule set's text form (``contree:ffb,rounding=none``)."""
    games = ", ".join(GAMES)
    name = obj.get("rules")
    text = isinstance(name, str) and ":" in name
    if game is None:
        raw_game = obj.get("game")
        if raw_game is None:
            if text:
                raw_game = str(name).partition(":")[0].strip().lower()
            elif "void" in obj or "adjust" in obj:
                raw_game = "coinche"
            else:
                raise InputError("game", f"missing: {games}")
        if raw_game not in GAMES:
            raise InputError("game", f"{raw_game!r} is not a game: {games}")
        game = raw_game
    if name is not None and not isinstance(name, str):
        raise InputError("rules", f"{name!r} is not a rule set: a preset's name or a text "
                                  "form like contree:ffb,rounding=none")
    options = obj.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise InputError("options", "must be an object of rule options")
    try:
        if text:
            rules = parse_rules(str(name))
            if rules.game != game:
                raise InputError("rules", f"{name!r} is a rule set of {rules.game}, and this "
                                          f"game is {game}")
            return rules.replace(**dict(options)) if options else rules
        return Rules.from_options(name, game, options)
    except RulesError as e:
        msg = str(e)
        fld, _, rest = msg.partition(": ")
        raise InputError(fld, rest) from None


def _int(obj: Mapping[str, Any], key: str, value: Any, *, minimum: int | None = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise InputError(key, f"must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise InputError(key, f"must be {minimum} or more, not {value}")
    return int(value)


def _team(key: str, value: Any, *, optional: bool = False) -> Team | None:
    if value is None and optional:
        return None
    if isinstance(value, str) and value.strip().upper() in TEAMS:
        return value.strip().upper()  # type: ignore[return-value]
    raise InputError(key, f"{value!r} is not a team: NS or EW" + (" or null" if optional else ""))


def _team_pair(key: str, value: Any, *, minimum: int | None = 0) -> dict[Team, int]:
    if not isinstance(value, Mapping):
        raise InputError(key, f"must be an object of teams, like {{\"NS\": 20}}, not {value!r}")
    out: dict[Team, int] = {}
    for k, v in value.items():
        team = _team(f"{key}", k)
        assert team is not None
        out[team] = _int(value, f"{key}.{team}", v, minimum=minimum)
    return out


def is_declaration_total(points: int) -> bool:
    """Can declarations add up to ``points``? Sums of 20, 50, 100, 150 and 200 are every
    multiple of ten from 40 on, and 20 (so 10, 30 and 35 cannot be)."""
    return points == 0 or points == 20 or (points >= 40 and points % 10 == 0)


def _parse_summary(obj: Mapping[str, Any], rules: Rules) -> DealSummary:
    if not isinstance(obj, Mapping):
        raise InputError("", f"a deal summary is a JSON object, not {type(obj).__name__}")
    unknown = sorted(k for k in obj if k not in _DEAL_KEYS and not str(k).startswith("_"))
    if unknown:
        raise InputError(unknown[0], "unknown field (known: " + ", ".join(sorted(
            _DEAL_KEYS - {"id", "note"})) + ")")
    game = rules.game
    held = _int(obj, "held_over", obj.get("held_over", 0)) if "held_over" in obj else 0
    if held and game != "belote":
        raise InputError("held_over", f"{game} has no litige: nothing is held over")

    if "void" in obj:
        if obj["void"] is not True and obj["void"] is not False:
            raise InputError("void", f"must be true or false, not {obj['void']!r}")
        if obj["void"]:
            extra = sorted(set(obj) - {"void", "game", "rules", "options", "held_over", "id",
                                       "note"})
            if extra:
                raise InputError(extra[0], "a void deal carries nothing but its reserve")
            return DealSummary(game=game, kind="void", held_over=held)
    if "adjust" in obj:
        extra = sorted(set(obj) - {"adjust", "game", "rules", "options", "held_over", "id",
                                   "note", "void"})
        if extra:
            raise InputError(extra[0], "an adjustment line carries only the points it marks")
        adj = _team_pair("adjust", obj["adjust"], minimum=None)
        if not adj:
            raise InputError("adjust", "give the points of at least one team, like {\"NS\": 50}")
        return DealSummary(game=game, kind="adjust", held_over=held,
                           adjust=(adj.get("NS", 0), adj.get("EW", 0)))

    # trump
    if "trump" in obj and obj["trump"] is not None:
        try:
            trump = parse_trump(obj["trump"])
        except RulesError as e:
            raise InputError("trump", str(e)) from None
    else:
        trump = HEARTS  # any suit: a suit contract counts the same in every suit
    if "taker" not in obj or obj["taker"] is None:
        raise InputError("taker", "missing: the team that took, NS or EW")
    taker = _team("taker", obj["taker"])
    assert taker is not None

    # contract and coinche
    contract: int | str | None = None
    multiplier = 1
    if game == "belote":
        if obj.get("contract") is not None:
            raise InputError("contract", "belote has no contract: the taker takes the turned "
                                         "card (contracts are for coinche and contrée)")
        if obj.get("coinche") not in (None, "none"):
            raise InputError("coinche", "belote has no coinche (coinche is for coinche and "
                                        "contrée)")
    else:
        if obj.get("contract") is None:
            raise InputError("contract", "missing: 80 to 160 by ten, \"capot\" or \"generale\"")
        contract = _parse_contract(obj["contract"], rules)
        raw = obj.get("coinche", "none")
        if raw is None:
            raw = "none"
        if isinstance(raw, str) and raw.strip().lower() in _COINCHE_WORDS:
            multiplier = _COINCHE_WORDS[raw.strip().lower()]
        else:
            raise InputError("coinche", f"{raw!r} is not one of none, coinche, surcoinche")
        if multiplier > 1 and contract in ("capot", "generale") and not rules.coinche_capot:
            raise InputError("coinche", f"a {contract} contract cannot be coinched under these "
                                        "rules (option coinche_capot is off)")

    capot = _team("capot", obj.get("capot"), optional=True)
    generale = obj.get("generale", False)
    if generale is None:
        generale = False
    if not isinstance(generale, bool):
        raise InputError("generale", f"must be true or false, not {generale!r}")

    points, capot = _parse_points(obj, rules, trump, taker, capot)
    if generale and capot != taker:
        raise InputError("generale", "a générale is the taker alone winning every trick: "
                                     f"capot must be {taker}")

    # declarations
    decl = (0, 0)
    if obj.get("declarations") is not None:
        d = _team_pair("declarations", obj["declarations"])
        if d.get("NS", 0) and d.get("EW", 0):
            raise InputError("declarations", "only one team scores declarations, the one that "
                             "showed the strongest; got both NS and EW")
        for team, v in d.items():
            if not is_declaration_total(v):
                raise InputError(f"declarations.{team}", f"{v} is not a sum of declarations "
                                 "(tierce 20, cinquante 50, cent 100, carrés 100, 150, 200)")
        if any(d.values()) and not rules.declarations:
            raise InputError("declarations", "declarations are off in these rules "
                                             "(option declarations)")
        decl = (d.get("NS", 0), d.get("EW", 0))

    belote = _parse_belote(obj.get("belote"), trump)
    return DealSummary(
        game=game, taker=taker, trump=trump, points=points, contract=contract,
        coinche=multiplier, capot=capot, generale=generale, declarations=decl, belote=belote,
        held_over=held,
    )


def _parse_contract(raw: Any, rules: Rules) -> int | str:
    if isinstance(raw, str):
        word = raw.strip().lower().replace("é", "e")
        if word in ("capot", "250"):
            return "capot"
        if word == "generale":
            if not rules.generale:
                raise InputError("contract", "générale is off in these rules (option generale)")
            return "generale"
        if word.isdigit():
            raw = int(word)
        else:
            raise InputError("contract", f"{raw!r} is not a contract: 80 to 160 by ten, "
                                         "\"capot\" or \"generale\"")
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise InputError("contract", f"{raw!r} is not a contract: 80 to 160 by ten, "
                                     "\"capot\" or \"generale\"")
    if raw == 250:
        return "capot"
    if raw not in CONTRACTS:
        raise InputError("contract", f"{raw} is not a contract: 80 to 160 by ten, "
                                     "\"capot\" or \"generale\"")
    return raw


def _parse_belote(raw: Any, trump: TrumpMode) -> Pair:
    if raw is None:
        return (0, 0)
    if isinstance(raw, str):
        team = _team("belote", raw)
        counts = {team: 1}
    elif isinstance(raw, Mapping):
        counts = {}
        for k, v in raw.items():
            team = _team("belote", k)
            assert team is not None
            counts[team] = _int(raw, f"belote.{team}", v)
    else:
        raise InputError("belote", f"{raw!r} is not a team (NS, EW) or counts like "
                                   "{\"NS\": 1, \"EW\": 2}")
    total = sum(counts.values())
    if total and trump == NO_TRUMP:
        raise InputError("belote", "there is no belote in no-trump")
    limit = 4 if trump == ALL_TRUMP else 1
    if total > limit:
        where = "all-trump (one per suit)" if trump == ALL_TRUMP else "a suit contract"
        raise InputError("belote", f"{total} belotes: at most {limit} in {where}")
    return (counts.get("NS", 0), counts.get("EW", 0))


def _parse_points(obj: Mapping[str, Any], rules: Rules, trump: TrumpMode, taker: Team,
                  capot: Team | None) -> tuple[Pair, Team | None]:
    deal_total = rules.deal_total(trump)
    capot_total = rules.capot_total(trump)
    card_total = rules.card_total(trump)
    has_points = obj.get("points") is not None
    has_cards = obj.get("cards") is not None
    if has_points and has_cards:
        raise InputError("points", "give either points (with the dix de der) or cards with "
                                   "last_trick, not both")
    if not has_points and not has_cards:
        if capot is not None:  # a capot says all the points: capot total / 0
            return ((capot_total, 0) if capot == "NS" else (0, capot_total)), capot
        raise InputError("points", "missing: the takers' trick points with the dix de der "
                                   "(or both teams'), or cards with last_trick")
    if has_cards:
        cards = _team_pair("cards", obj["cards"])
        if not cards:
            raise InputError("cards", "give the card points of at least one team")
        for team, v in cards.items():
            if v > card_total:
                raise InputError(f"cards.{team}", f"{v} is more than the {card_total} points "
                                                  "of the cards")
        if len(cards) == 2 and cards["NS"] + cards["EW"] != card_total:
            raise InputError("cards", f"{cards['NS']} + {cards['EW']} = "
                             f"{cards['NS'] + cards['EW']}, the cards hold {card_total}")
        known: Team = next(iter(cards))
        other: Team = "EW" if known == "NS" else "NS"
        full = {known: cards[known], other: card_total - cards[known]}
        if obj.get("last_trick") is None and capot is None:
            raise InputError("last_trick", "missing: the team that won the last trick (NS or "
                                           "EW), which cards need")
        last = _team("last_trick", obj.get("last_trick"), optional=capot is not None)
        if capot is not None:
            if last is not None and last != capot:
                raise InputError("last_trick", f"{capot} is capot, so {capot} won the last trick")
            if full[capot] != card_total:
                raise InputError(f"cards.{capot}", f"{capot} is capot and holds all "
                                 f"{card_total} card points, not {full[capot]}")
            last = capot
        assert last is not None
        bonus = 100 if capot is not None else 10
        pts = {t: full[t] + (bonus if t == last else 0) for t in TEAMS}
        return (pts["NS"], pts["EW"]), capot

    given = _team_pair("points", obj["points"])
    if not given:
        raise InputError("points", "give the trick points of at least one team")
    if capot is not None:
        other_c: Team = "EW" if capot == "NS" else "NS"
        if given.get(capot, capot_total) != capot_total or given.get(other_c, 0) != 0:
            shown = f"{given.get('NS', '?')} / {given.get('EW', '?')}"
            raise InputError("points", f"{capot} capot makes {capot_total} / 0 "
                             f"(NS / EW: {_capot_pair(capot, capot_total)}), not {shown}")
        return ((capot_total, 0) if capot == "NS" else (0, capot_total)), capot
    if len(given) == 2:
        ns, ew = given["NS"], given["EW"]
        if {ns, ew} == {capot_total, 0}:
            return (ns, ew), ("NS" if ns else "EW")
        if ns + ew != deal_total:
            raise InputError("points", f"{ns} + {ew} = {ns + ew}, a deal has {deal_total}"
                             f" ({capot_total} / 0 for a capot)")
    else:
        team = next(iter(given))
        v = given[team]
        if v == capot_total:
            pair = (v, 0) if team == "NS" else (0, v)
            return pair, team
        if v > deal_total:
            raise InputError(f"points.{team}", f"{v} is more than the {deal_total} of a deal"
                             f" ({capot_total} for a capot)")
        ns, ew = (v, deal_total - v) if team == "NS" else (deal_total - v, v)
    return (ns, ew), None


def _capot_pair(capot: Team, capot_total: int) -> str:
    return f"{capot_total} / 0" if capot == "NS" else f"0 / {capot_total}"


def summaries_from_json(deals: Sequence[Any], rules: Rules) -> list[DealSummary]:
    """Read a game's deals; errors name the deal (``deals[2].points``), counted from 1."""
    out: list[DealSummary] = []
    for i, obj in enumerate(deals, start=1):
        try:
            if not isinstance(obj, Mapping):
                raise InputError("", "a deal summary is a JSON object")
            for key in ("rules", "options"):
                if key in obj:
                    raise InputError(key, "a game's deals share the game's rules")
            if "game" in obj and obj["game"] != rules.game:
                raise InputError("game", f"this game is {rules.game}")
            out.append(DealSummary.from_json(obj, rules))
        except InputError as e:
            raise e.within(f"deals[{i}]") from None
    return out
