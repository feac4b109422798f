"""The oracle of deal scoring and games: docs/rules.md sections 2, 6, 7 and 9, read independently.

Input is the JSON of docs/interfaces.md (a deal summary, a void or adjust line, or a game), already
known to be valid; output is the answer's required fields only:
``{"outcome", "score", "held_over"}`` for a deal, ``{"deals", "totals", "winner",
"won_after_deal"}`` for a game. Every rule is written out the long way, one branch per sentence
of the specification, so that it can be checked against docs/rules.md by reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from oracle.conventions import (
    CONTREE_PRESETS,
    COUNTING_DEFAULTS,
    round_to_ten,
    score_auction_deal,
)

TEAMS = ("NS", "EW")
SUIT_TRUMPS = ("spades", "hearts", "diamonds", "clubs")
TRUMPS = (*SUIT_TRUMPS, "no-trump", "all-trump")

# Card values by rank, in the order 7 8 9 10 J Q K A (docs/rules.md section 2).
TRUMP_SCALE = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_SCALE = (0, 0, 0, 10, 2, 3, 4, 11)
ALL_TRUMP_REDUCED = (0, 0, 9, 5, 14, 1, 3, 6)

# The presets of docs/rules.md section 8 and the defaults of section 9 (and the source
# documents' choices):
# belote must undertrump, coinche may; coinche official rounds, belote counts exactly.
DEFAULTS: dict[str, Any] = {
    "direction": "clockwise",
    "undertrump": "may",
    "overtrump_partner": True,
    "declarations": True,
    "belote_counts_for_contract": True,
    "declaration_tie": "nobody",
    "all_trump_scale": "reduced",
    "no_trump_aces": 19,
    "rounding": "nearest",
    "generale": True,
    "generale_value": 500,
    "coinche_capot": True,
    "belote_no_all_trump": False,
    "litige": "hold",
    "belote_alone_wins": False,
    "target": 1000,
    **COUNTING_DEFAULTS,
}


def default_preset(game: str) -> str:
    return "ffb" if game == "contree" else "official"


def preset(name: str, game: str) -> dict[str, Any]:
    """The options of rule set ``name`` for ``game``: official / house for belote and coinche,
    the survey's presets for contrée (``official`` there is ``ffb``)."""
    opts = dict(DEFAULTS)
    if game == "contree":
        opts.update(CONTREE_PRESETS["ffb" if name == "official" else name])
        return opts
    if game == "belote":
        opts["undertrump"] = "must"
        opts["rounding"] = "none"
    if name == "house":
        opts["rounding"] = "none"
        opts["no_trump_aces"] = 11
    return opts


def rules_of(obj: Mapping[str, Any], game: str | None = None) -> dict[str, Any]:
    """The full options of a JSON object's ``game``, ``rules`` and ``options``, plus ``game``."""
    g = game or obj["game"]
    opts = preset(obj.get("rules") or default_preset(g), g)
    opts.update(obj.get("options") or {})
    opts["game"] = g
    return opts


def other(team: str) -> str:
    return "EW" if team == "NS" else "NS"


def scale(trump: str, opts: Mapping[str, Any], suit_is_trump: bool) -> tuple[int, ...]:
    """The values of one suit's eight cards under ``trump``."""
    if trump == "no-trump":
        return (*PLAIN_SCALE[:7], opts["no_trump_aces"])
    if trump == "all-trump":
        return TRUMP_SCALE if opts["all_trump_scale"] == "trump" else ALL_TRUMP_REDUCED
    return TRUMP_SCALE if suit_is_trump else PLAIN_SCALE


def card_total(trump: str, opts: Mapping[str, Any]) -> int:
    """Points in the 32 cards: 152 (house no-trump 120, all-trump on the trump scale 248)."""
    return sum(sum(scale(trump, opts, SUIT_TRUMPS[s] == trump)) for s in range(4))


def deal_total(trump: str, opts: Mapping[str, Any]) -> int:
    return card_total(trump, opts) + 10


def capot_total(trump: str, opts: Mapping[str, Any]) -> int:
    return card_total(trump, opts) + 100


@dataclass
class DealFacts:
    """A scored deal with what a game needs to know of it."""

    outcome: str
    score: dict[str, int]
    held_over: int
    taker: str | None = None
    capot: str | None = None
    belote_marks: tuple[int, int] = (0, 0)  # NS, EW marks of belote this deal (20 each)

    def answer(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "score": dict(self.score), "held_over": self.held_over}


def capot_of(deal: Mapping[str, Any], trump: str, opts: Mapping[str, Any]) -> str | None:
    """The team that won every trick: named by ``capot``, or implied by points of 252 (the
    capot total; only a capot's last trick is worth 100). Card points alone imply nothing: the
    other team may have won a trick of cards worth nothing.
    """
    if deal.get("capot") is not None:
        return str(deal["capot"])
    for team, value in dict(deal.get("points") or {}).items():
        if int(value) == capot_total(trump, opts):
            return str(team)
    return None


def trick_points_of(deal: Mapping[str, Any], trump: str, opts: Mapping[str, Any]) -> dict[str, int]:
    """Each team's trick points with the dix de der, from any of the three input forms."""
    capot = capot_of(deal, trump, opts)
    if "points" in deal:
        given = dict(deal["points"])
        if len(given) == 2:
            return {t: int(given[t]) for t in TEAMS}
        (team, value), = given.items()
        if capot is not None:
            return {capot: capot_total(trump, opts), other(capot): 0}
        return {team: int(value), other(team): deal_total(trump, opts) - int(value)}
    cards = dict(deal["cards"])
    if len(cards) == 1:
        (team, value), = cards.items()
        cards = {team: int(value), other(team): card_total(trump, opts) - int(value)}
    last = deal["last_trick"]
    bonus = 100 if capot == last else 10
    return {t: int(cards[t]) + (bonus if t == last else 0) for t in TEAMS}


def belote_counts(deal: Mapping[str, Any]) -> dict[str, int]:
    """How many belotes each team announced."""
    b = deal.get("belote")
    if b is None:
        return {"NS": 0, "EW": 0}
    if isinstance(b, str):
        return {b: 1, other(b): 0}
    return {t: int(b.get(t, 0)) for t in TEAMS}


def declarations_of(deal: Mapping[str, Any]) -> dict[str, int]:
    d = deal.get("declarations") or {}
    return {t: int(d.get(t, 0)) for t in TEAMS}


def _contract_value(contract: Any, opts: Mapping[str, Any]) -> int:
    if contract == "capot":
        return 250
    if contract == "generale":
        return int(opts["generale_value"])
    return int(contract)


_MULTIPLIERS = {"none": 1, "coinche": 2, "surcoinche": 4}


def score_deal(deal: Mapping[str, Any], opts: Mapping[str, Any], reserve: int = 0) -> DealFacts:
    """Score one line: a deal summary, ``{"void": true}`` or ``{"adjust": {...}}``.

    ``reserve`` is the litige reserve waiting from earlier deals (in a game); a standalone
    summary's own ``held_over`` field is added to it.
    """
    if deal.get("void"):
        return DealFacts("void", {"NS": 0, "EW": 0}, reserve)
    if "adjust" in deal:
        adj = deal["adjust"]
        return DealFacts("adjust", {t: int(adj.get(t, 0)) for t in TEAMS}, reserve)
    reserve += int(deal.get("held_over", 0))
    if opts["game"] == "belote":
        return _score_belote(deal, opts, reserve)
    return _score_coinche(deal, opts, reserve)


def _round_marks(marks: dict[str, int], opts: Mapping[str, Any]) -> dict[str, int]:
    return {t: round_to_ten(v, opts["rounding"]) for t, v in marks.items()}


def _score_belote(deal: Mapping[str, Any], opts: Mapping[str, Any], reserve: int) -> DealFacts:
    trump = deal["trump"]
    taker = deal["taker"]
    defense = other(taker)
    capot = capot_of(deal, trump, opts)
    pts = trick_points_of(deal, trump, opts)
    decl = declarations_of(deal)
    bel = {t: 20 * n for t, n in belote_counts(deal).items()}
    all_decl = decl["NS"] + decl["EW"]
    total = {t: pts[t] + decl[t] + bel[t] for t in TEAMS}
    # What the comparison sees: without the belote when it does not count for the contract.
    judged = dict(total)
    if not opts["belote_counts_for_contract"]:
        judged = {t: total[t] - bel[t] for t in TEAMS}
    marks: dict[str, int]
    new_reserve = 0
    if capot == taker:
        outcome = "made"
        marks = {taker: capot_total(trump, opts) + bel[taker] + all_decl, defense: bel[defense]}
    elif capot == defense or judged[taker] < judged[defense]:
        outcome = "failed"
        marks = {defense: deal_total(trump, opts) + all_decl + bel[defense], taker: bel[taker]}
    elif judged[taker] > judged[defense]:
        outcome = "made"
        marks = dict(total)
    else:
        outcome = "litige"
        if opts["litige"] == "hold":
            marks = {defense: total[defense], taker: bel[taker]}
            new_reserve = total[taker] - bel[taker]
        else:  # the defense takes all: its total and the takers' (their belote stays theirs)
            marks = {defense: total[defense] + total[taker] - bel[taker], taker: bel[taker]}
    # The reserve brought in goes to the team that wins this deal.
    if reserve:
        winner = taker if outcome == "made" else defense
        marks[winner] += reserve
    return DealFacts(outcome, _round_marks(marks, opts), new_reserve, taker, capot,
                     (bel["NS"], bel["EW"]))


def _score_coinche(deal: Mapping[str, Any], opts: Mapping[str, Any], reserve: int) -> DealFacts:
    """Coinche and contrée: the ways of counting are :mod:`oracle.conventions`."""
    trump = deal["trump"]
    taker = deal["taker"]
    capot = capot_of(deal, trump, opts)
    made, marks = score_auction_deal(
        opts=opts, taker=taker, contract=deal["contract"],
        coinche=deal.get("coinche", "none") or "none", pts=trick_points_of(deal, trump, opts),
        capot=capot, generale=bool(deal.get("generale")), decl=declarations_of(deal),
        bel={t: 20 * n for t, n in belote_counts(deal).items()},
        deal_total=deal_total(trump, opts), capot_total=capot_total(trump, opts))
    bel = belote_counts(deal)
    return DealFacts("made" if made else "failed", marks, reserve, taker, capot,
                     (20 * bel["NS"], 20 * bel["EW"]))


def score_summary(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The answer of ``rebelote score`` to one standalone line that is not a game."""
    if obj.get("void") or "adjust" in obj:
        return score_deal(obj, {"game": obj.get("game", "coinche")}).answer()
    return score_deal(obj, rules_of(obj)).answer()


def _won_no_trick(facts: DealFacts, team: str) -> bool:
    return facts.capot == other(team)


def _after(facts: DealFacts, totals: dict[str, int], blocked: dict[str, bool], target: int,
           opts: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, bool], str | None]:
    """The totals, the belote-alone blocks and the winner (if any) once ``facts`` is marked."""
    before = dict(totals)
    totals = {t: totals[t] + facts.score[t] for t in TEAMS}
    blocked = dict(blocked)
    if facts.outcome in ("made", "failed", "litige"):
        for t in TEAMS:
            ti = TEAMS.index(t)
            # A later deal in which the team is not capot unblocks it (it won a trick).
            if blocked[t] and not _won_no_trick(facts, t):
                blocked[t] = False
            only_belote = (
                facts.belote_marks[ti] > 0
                and (
                    (facts.taker == t and facts.outcome == "failed")
                    or _won_no_trick(facts, t)
                )
                and before[t] < target <= totals[t]
                and totals[t] - facts.belote_marks[ti] < target
            )
            if only_belote and not opts["belote_alone_wins"]:
                blocked[t] = True
    hi = max(TEAMS, key=lambda t: totals[t])
    lo = other(hi)
    reached = totals[hi] > target if opts["target_rule"] == "exceed" else totals[hi] >= target
    winner = hi if totals[hi] > totals[lo] and reached and not blocked[hi] else None
    return totals, blocked, winner


def score_game(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The answer of ``rebelote score`` to a game (docs/rules.md section 7).

    With ``last_deal_exact`` the deal that ends the game is counted exactly: a deal that would
    end the game counted either way (rounded or exact) is marked exactly, so that rounding
    never decides a game (the survey: Équipe Ludique, Cannes 2016).
    """
    opts = rules_of(obj)
    target = int(obj.get("target", opts["target"]))
    start = obj.get("start") or {}
    totals = {t: int(start.get(t, 0)) for t in TEAMS}
    reserve = 0
    blocked = {"NS": False, "EW": False}  # reached the target through its belote alone
    winner: str | None = None
    won_after: int | None = None
    answers: list[dict[str, Any]] = []
    exact_opts = {**opts, "rounding": "none"}
    for n, deal in enumerate(obj["deals"], start=1):
        facts = score_deal(deal, opts, reserve)
        after = _after(facts, totals, blocked, target, opts)
        if (winner is None and opts["last_deal_exact"] and opts["rounding"] != "none"
                and facts.outcome in ("made", "failed", "litige")):
            exact = score_deal(deal, exact_opts, reserve)
            after_exact = _after(exact, totals, blocked, target, opts)
            if after[2] is not None or after_exact[2] is not None:
                facts, after = exact, after_exact
        reserve = facts.held_over
        answers.append(facts.answer())
        totals, blocked, new_winner = after
        if winner is None and new_winner is not None:
            winner, won_after = new_winner, n
    return {"deals": answers, "totals": totals, "winner": winner, "won_after_deal": won_after}


def score_line(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The answer to one line of ``rebelote score``: a game or a single deal."""
    if "deals" in obj:
        return score_game(obj)
    return score_summary(obj)
