"""An independent checker of deal records (docs/interfaces.md "Deal records").

It re-checks every bid, card, declaration and the score of a record without the engine
(``rebelote.deal``, ``auction``, ``declarations``, ``record``): the auction rules of docs/rules.md
section 5 and the declarations of section 4 are written again here, plainly; legal cards, trick
winners and points come from the lead's independent oracle (``oracle.play``) and the score from
``oracle.scoring``. :func:`check` returns the expected ``result`` or raises
:class:`RecordError` naming the first problem.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from oracle import play
from oracle.scoring import rules_of, score_summary

SUITS = "SHDC"
RANKS = "789TJQKA"
SUIT_TRUMPS = ("spades", "hearts", "diamonds", "clubs")
PLAIN_ORDER = "789JQKTA"  # weakest first: 7 8 9 J Q K 10 A
SEQ_POINTS = {3: 20, 4: 50}
KINDS = {3: "tierce", 4: "cinquante"}


class RecordError(AssertionError):
    """A record that breaks a rule; the message names where."""


def team(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


def seats_from(first: str, opts: Mapping[str, Any]) -> list[str]:
    out = [first]
    for _ in range(3):
        out.append(play.next_seat(out[-1], opts))
    return out


# -- auction -----------------------------------------------------------------------------------
def check_auction(rec: Mapping[str, Any], opts: Mapping[str, Any], first: str
                  ) -> dict[str, Any] | None:
    """The contract ``{"taker", "trump", "contract", "coinche"}``, or None for a void deal."""
    calls = [(s, b) for s, b in rec["auction"]]
    order = seats_from(first, opts)
    for i, (seat, _) in enumerate(calls):
        if seat != order[i % 4]:
            raise RecordError(f"auction[{i}]: {seat} speaks out of turn")
    if rec["game"] == "belote":
        turned_suit = SUIT_TRUMPS[SUITS.index(rec["turned"][1])]
        for i, (seat, bid) in enumerate(calls):
            rnd = 1 if i < 4 else 2
            if i >= 8:
                raise RecordError("auction: more than two rounds")
            if bid == "pass":
                continue
            if rnd == 1 and bid != "take":
                raise RecordError(f"auction[{i}]: round 1 is take or pass, not {bid}")
            if rnd == 2:
                allowed = [t for t in SUIT_TRUMPS if t != turned_suit]
                if opts["belote_no_all_trump"]:
                    allowed += ["no-trump", "all-trump"]
                if bid not in allowed:
                    raise RecordError(f"auction[{i}]: {bid} is not a round-2 bid")
            if i != len(calls) - 1:
                raise RecordError(f"auction[{i + 1}]: the auction ended at the taker's bid")
            return {"taker": seat, "trump": turned_suit if bid == "take" else bid,
                    "contract": None, "coinche": 1}
        if len(calls) != 8:
            raise RecordError("auction: two rounds of passes are eight calls")
        return None
    best_rank = 0
    best: tuple[str, str, Any] | None = None  # seat, trump, contract
    mult = 1
    passes = 0
    for i, (seat, bid) in enumerate(calls):
        words = bid.split()
        if bid == "pass":
            passes += 1
        elif bid == "coinche":
            if best is None or mult != 1 or team(seat) == team(best[0]):
                raise RecordError(f"auction[{i}]: {seat} may not coinche")
            if best[2] in ("capot", "generale") and not opts["coinche_capot"]:
                raise RecordError(f"auction[{i}]: a capot may not be coinched")
            mult, passes = 2, 0
        elif bid == "surcoinche":
            if mult != 2 or best is None or team(seat) != team(best[0]):
                raise RecordError(f"auction[{i}]: {seat} may not surcoinche")
            mult = 4
            if i != len(calls) - 1:
                raise RecordError("auction: a surcoinche ends the auction")
            break
        else:
            if len(words) != 2 or mult != 1:
                raise RecordError(f"auction[{i}]: {bid} is not allowed here")
            value, trump = words
            if value == "capot":
                rank = 250
            elif value == "generale":
                if not opts["generale"]:
                    raise RecordError(f"auction[{i}]: no generale under these rules")
                rank = 10_000
            else:
                rank = int(value)
                if rank not in range(80, 161, 10):
                    raise RecordError(f"auction[{i}]: {value} is not a contract")
            if trump not in (*SUIT_TRUMPS, "no-trump", "all-trump"):
                raise RecordError(f"auction[{i}]: {trump} is not a trump")
            if rank <= best_rank:
                raise RecordError(f"auction[{i}]: {bid} is not above the contract")
            best_rank = rank
            best = (seat, trump, value if value in ("capot", "generale") else rank)
            passes = 0
        if (best is None and passes == 4) or (best is not None and passes == 3):
            if i != len(calls) - 1:
                raise RecordError("auction: calls after the end")
            break
    else:
        raise RecordError("auction: not finished")
    if best is None:
        return None
    return {"taker": best[0], "trump": best[1], "contract": best[2], "coinche": mult}


# -- declarations ------------------------------------------------------------------------------
def carre_points(rank: str, trump: str) -> int:
    if trump == "no-trump":
        return {"A": 200, "T": 150, "K": 100, "Q": 100, "J": 100, "9": 100}.get(rank, 0)
    return {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}.get(rank, 0)


def combo_of(kind: str, cards: Sequence[str], trump: str) -> tuple[int, tuple[int, ...]]:
    """(points, strength) of a declared combo; RecordError if it is not one."""
    ranks = sorted(RANKS.index(c[0]) for c in cards)
    suits = {c[1] for c in cards}
    if kind == "carre":
        if len(cards) != 4 or len({c[0] for c in cards}) != 1:
            raise RecordError(f"{cards}: not a carré")
        pts = carre_points(cards[0][0], trump)
        if not pts:
            raise RecordError(f"{cards}: a carré worth nothing")
        return pts, (pts, 1, 0, PLAIN_ORDER.index(cards[0][0]), 0)
    n = len(cards)
    if len(suits) != 1 or n < 3 or ranks != list(range(ranks[0], ranks[0] + n)):
        raise RecordError(f"{cards}: not a sequence")
    pts = SEQ_POINTS.get(n, 100)
    if kind != KINDS.get(n, "cent"):
        raise RecordError(f"{cards}: {n} cards are not a {kind}")
    ts = play.trump_suit(trump)
    in_trump = 1 if trump == "all-trump" or suits == {ts} else 0
    return pts, (pts, 0, n, ranks[-1], in_trump)


def all_combos(hand: set[str], trump: str) -> list[tuple[frozenset[str], int]]:
    out = []
    for r in RANKS:
        four = frozenset(r + s for s in SUITS)
        if four <= hand and carre_points(r, trump):
            out.append((four, carre_points(r, trump)))
    for s in SUITS:
        for lo in range(8):
            for hi in range(lo + 3, 9):
                run = frozenset(RANKS[k] + s for k in range(lo, hi))
                if run <= hand:
                    out.append((run, SEQ_POINTS.get(hi - lo, 100)))
    return out


def best_points(hand: set[str], trump: str) -> int:
    """The most points of disjoint combos the hand holds (brute force over subsets)."""
    combos = all_combos(hand, trump)
    best = 0
    for k in range(1, min(len(combos), 4) + 1):
        for chosen in combinations(combos, k):
            cards = [c for cs, _ in chosen for c in cs]
            if len(cards) == len(set(cards)):
                best = max(best, sum(p for _, p in chosen))
    return best


def check_declarations(rec: Mapping[str, Any], opts: Mapping[str, Any], hands: dict[str, set[str]],
                       trump: str, first: str) -> dict[str, int]:
    """The declaration points that count, by team."""
    declared = rec.get("declarations") or {}
    if declared and not opts["declarations"]:
        raise RecordError("declarations: played without declarations")
    strongest: dict[str, tuple[tuple[int, ...], int]] = {}
    points = {"NS": 0, "EW": 0}
    order = seats_from(first, opts)
    for seat, items in declared.items():
        used: set[str] = set()
        total = 0
        for item in items:
            cards = item["cards"]
            if not set(cards) <= hands[seat]:
                raise RecordError(f"declarations.{seat}: {cards} not held")
            if used & set(cards):
                raise RecordError(f"declarations.{seat}: a card in two declarations")
            used |= set(cards)
            pts, key = combo_of(item["kind"], cards, trump)
            total += pts
            t = team(seat)
            prev = strongest.get(t)
            if prev is None or key > prev[0] or (key == prev[0] and order.index(seat) < prev[1]):
                strongest[t] = (key, order.index(seat))
        if items and total != best_points(hands[seat], trump):
            raise RecordError(f"declarations.{seat}: {total} is not the hand's best set")
        points[team(seat)] += total
    if not strongest:
        return {"NS": 0, "EW": 0}
    if len(strongest) == 1:
        winner = next(iter(strongest))
    else:
        ns, ew = strongest["NS"], strongest["EW"]
        if ns[0] != ew[0]:
            winner = "NS" if ns[0] > ew[0] else "EW"
        elif opts["declaration_tie"] == "first":
            winner = "NS" if ns[1] < ew[1] else "EW"
        else:
            return {"NS": 0, "EW": 0}
    return {winner: points[winner], ("EW" if winner == "NS" else "NS"): 0}


# -- the whole record --------------------------------------------------------------------------
def check(rec: Mapping[str, Any]) -> dict[str, Any]:
    """The ``result`` the record should carry; RecordError for the first broken rule."""
    opts = rules_of(rec)
    game = rec["game"]
    dealer = rec["dealer"]
    first = play.next_seat(dealer, opts)
    hands = {s: set(cs) for s, cs in rec["hands"].items()}
    every = [c for cs in rec["hands"].values() for c in cs]
    if len(every) != len(set(every)):
        raise RecordError("hands: a card dealt twice")
    contract = check_auction(rec, opts, first)
    if contract is None:
        size = 5 if game == "belote" else 8
        if any(len(h) != size for h in hands.values()) or rec["tricks"]:
            raise RecordError("void deal: hands or tricks")
        return {"outcome": "void", "score": {"NS": 0, "EW": 0}}
    if any(len(h) != 8 for h in hands.values()) or len(every) != 32:
        raise RecordError("hands: 8 cards each")
    if game == "belote" and rec["turned"] not in hands[contract["taker"]]:
        raise RecordError("turned: not in the taker's hand")
    trump = contract["trump"]
    decl = check_declarations(rec, opts, hands, trump, first)
    # belote: K and Q of a trump suit in one starting hand
    belote = {"NS": 0, "EW": 0}
    if trump != "no-trump":
        suits = SUITS if trump == "all-trump" else play.trump_suit(trump) or ""
        for s in suits:
            for seat, h in hands.items():
                if {"K" + s, "Q" + s} <= h:
                    belote[team(seat)] += 1
    # the play
    held = {s: set(h) for s, h in hands.items()}
    leader = first
    points = {"NS": 0, "EW": 0}
    won_by: list[str] = []
    if len(rec["tricks"]) != 8:
        raise RecordError("tricks: 8 of them")
    for t, trick in enumerate(rec["tricks"]):
        if trick[0] != leader:
            raise RecordError(f"tricks[{t}]: led by {trick[0]}, should be {leader}")
        seat = leader
        cards: list[str] = []
        for i, card in enumerate(trick[1:], start=1):
            if card not in play.legal_cards(sorted(held[seat]), cards, trump, opts):
                raise RecordError(f"tricks[{t}][{i}]: {seat} may not play {card}")
            held[seat].remove(card)
            cards.append(card)
            seat = play.next_seat(seat, opts)
        w = play.trick_winner(cards, trump)
        winner = leader
        for _ in range(w):
            winner = play.next_seat(winner, opts)
        points[team(winner)] += play.trick_points(cards, trump, opts)
        won_by.append(winner)
        leader = winner
    points[team(leader)] += 10
    capot = None
    for tm in ("NS", "EW"):
        if all(team(s) == tm for s in won_by):
            capot = tm
            points = {tm: points[tm] + 90, ("EW" if tm == "NS" else "NS"): 0}
    summary: dict[str, Any] = {
        "game": game, "rules": rec.get("rules", "official"), "options": rec.get("options") or {},
        "trump": trump, "taker": team(contract["taker"]), "points": points, "capot": capot,
        "generale": all(s == contract["taker"] for s in won_by),
        "declarations": {k: v for k, v in decl.items() if v},
        "belote": {k: v for k, v in belote.items() if v},
        "held_over": rec.get("held_over", 0),
    }
    if game != "belote":  # coinche and contrée
        summary["contract"] = contract["contract"]
        summary["coinche"] = {1: "none", 2: "coinche", 4: "surcoinche"}[contract["coinche"]]
    answer = score_summary(summary)
    return {"outcome": answer["outcome"], "score": answer["score"], "points": points}
