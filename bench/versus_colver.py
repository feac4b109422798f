"""Our bots against colver's (Rust, ``pip install colver``) on the same deals, duplicate, in
contrée, the two engines driven in lockstep.

The same match as an arena run anyone can repeat, colver's bots seated as outside bots through
the line protocol (examples/colver_bot.py; docs/versus-colver.md says how the two differ):
``rebelote arena --a heuristic --game contree --rules ffb-ludique --options '{"failure_base":
162, "rounding": "none"}' --b "engine:python3 examples/colver_bot.py --bot heuristic"``.

For each deal, colver deals (``colver.Env.deal(seed=s, dealer=d)``) and its hands are dealt
into ours (:func:`DealState.from_hands`, the mapping of bench/solver.py). The deal is played
twice with the same cards: our bot on N-S and colver's on E-W, then the other way. At each
decision the seat's bot chooses (ours through ``bot.act(observation, rng)``, colver's through
a ``colver.Agent`` built from a bot spec), and the action is translated and stepped into BOTH
engines. At every step the two engines' legal actions are compared; a disagreement is a rules
difference and is reported (never hidden), and an action one engine refuses stops that deal
(reported, left out of the figures).

Each play is scored by our rules and by colver's own score (``Env.rewards()``); a deal's
result is our team's mark minus colver's, averaged over its two plays, so the luck of the cards
cancels; the mean over the deals comes with its 95% interval (Student's t). Also: contracts
taken and made by each side, decision times (wall-clock, only decisions with a choice).

colver plays suit contracts only: no-trump and all-trump bids, which our contrée auction
offers, are taken out of our bots' legal actions (counted in the report). The rule set is the
closest of ours to colver's (docs/versus-colver.md): ``contree:ffb-ludique`` with
failure_base=162 and no rounding.

**Card play alone** (``--calls colver``): every seat's calls are made by colver's rule-based
``improved`` bidder (the same agent spec and seed at each seat in both plays of a deal), so the
two plays of a deal have the same auction and our bot only chooses the cards at its two seats;
the line records whether the two auctions were the same (``same_auction``). Without it
(``--calls own``, the default) each side's bot makes its own calls. This module registers
colver's bidder as a bidding system our search can read the auction by
(``--ours 'pimc:expert[calls=colver]'``: :class:`ColverCalls`, docs/versus-colver.md).

colver's bots (``--theirs``), built offline (its NN bidder, DMC player and playgen worlds are
model weights fetched from a hub: not available here); the bidder is always its rule-based
``improved`` bidder:

- ``heuristic``: its rule-based card play;
- ``smart:Nms``: smart IS-MCTS (belief-weighted worlds), N ms a card (colver's spec reader
  runs its IS-MCTS under a time budget only);
- ``naive:Nms``: IS-MCTS on uniform worlds, N ms a card;
- ``isdd:N`` / ``isdd:Nms``: IS-DD (each sampled world solved by its double-dummy solver) on
  constraint-uniform worlds, one thread;
- ``toml:PATH``: any bot spec file of colver's format.

Count budgets (``N``) are reproducible from the seed (``colver.Agent(seed=...)``, our bots'
rngs); time budgets (``Nms``) are not.

    nice -n 15 .venv/bin/python bench/versus_colver.py --ours heuristic --theirs heuristic \\
        --deals 40 [--seed 1] [--calls own|colver] [--out deals.jsonl] [--start 0] [--json]
    .venv/bin/python bench/versus_colver.py --summary deals.jsonl [more.jsonl ...] [--json]
        [--same 'pimc:expert[play_model=0.05]=pimc:expert'] [--paired base.jsonl ...]

Several result files pool their deals (each seed's deal once), for the same bots and rules;
``--same A=B`` reads our bot ``A`` of some lines as ``B`` (two names of one bot at the
commits the runs were made at, as ``expert`` took the learned model of the players);
``--paired BASE...`` adds, deal by deal, the summary's deals minus those of another run of
the same deals (the same seeds and deal numbers: the same cards and the same colver).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from rebelote.actions import NO_DECLARATION, PLAYS, Action, Play
from rebelote.arena import mean_ci, parallel_map, percentile
from rebelote.auction import COINCHE, PASS, SURCOINCHE, Bid
from rebelote.bots import Bot, make_bot
from rebelote.bots.pimc import hands_around, register_call_system, with_fields
from rebelote.cards import iter_mask
from rebelote.deal import DealState
from rebelote.rules import CONTRACTS, Rules, parse_rules

try:
    import colver
except ImportError:  # pragma: no cover - the tests skip, the bench says so
    colver = None

#: The closest rule set of ours to colver's contrée (docs/versus-colver.md).
RULES_TEXT = "contree:ffb-ludique,failure_base=162,rounding=none"

# colver's actions: in the auction 0 pass, 1..36 the bids 80..160 x (spades, hearts,
# diamonds, clubs), 37..40 capot in each suit, 41 coinche, 42 surcoinche; in the play the
# card's index (colver's order, mapped by bench/solver.py's TO_OURS / TO_COLVER).
C_PASS, C_CAPOT, C_COINCHE, C_SURCOINCHE = 0, 37, 41, 42


def _card_maps() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """bench/solver.py's card mapping (the one place it is written)."""
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    import solver as solver_bench  # bench/solver.py; it needs colver, checked before

    return solver_bench.TO_OURS, solver_bench.TO_COLVER


def to_colver(action: Action, to_col: Sequence[int]) -> int | None:
    """colver's action for ours; ``None`` for what colver has no action for (no-trump and
    all-trump bids, declarations)."""
    if isinstance(action, Play):
        return to_col[action.card]
    if not isinstance(action, Bid):
        return None
    kind = action.kind
    if kind == "pass":
        return C_PASS
    if kind == "coinche":
        return C_COINCHE
    if kind == "surcoinche":
        return C_SURCOINCHE
    if not 0 <= action.trump < 4:
        return None
    if kind == "value" and action.value in CONTRACTS:
        return 1 + (action.value - 80) // 10 * 4 + action.trump
    if kind == "capot":
        return C_CAPOT + action.trump
    return None


def to_ours(action: int, phase: int, to_ours_cards: Sequence[int]) -> Action:
    """Our action for colver's ``action`` in colver's ``phase`` (0 auction, 1 play)."""
    if phase == 1:
        return PLAYS[to_ours_cards[action]]
    if action == C_PASS:
        return PASS
    if action == C_COINCHE:
        return COINCHE
    if action == C_SURCOINCHE:
        return SURCOINCHE
    if 1 <= action < C_CAPOT:
        return Bid("value", (action - 1) % 4, 80 + 10 * ((action - 1) // 4))
    if C_CAPOT <= action < C_COINCHE:
        return Bid("capot", action - C_CAPOT)
    raise ValueError(f"colver action {action} is not an action of its auction")


# -- colver's bots ------------------------------------------------------------------------------
def colver_spec(text: str) -> str:
    """The TOML bot spec of a short name (see the module's help); :class:`ValueError` naming
    the known forms otherwise."""
    name, _, level = text.strip().lower().partition(":")
    if name == "toml":
        with open(text.strip()[5:], encoding="utf-8") as f:
            return f.read()
    methods = {"heuristic": "heuristic", "smart": "smart_ismcts", "naive": "ismcts",
               "isdd": "isdd"}
    if name not in methods:
        raise ValueError(f"--theirs: {text!r} is not a colver bot (heuristic, smart:Nms, "
                         f"naive:Nms, isdd:N, isdd:Nms, toml:PATH)")
    lines = ['[bid]', 'strategy = "improved"', '[play]', f'method = "{methods[name]}"']
    if name == "heuristic":
        if level:
            raise ValueError(f"--theirs: colver's heuristic has no budget ({text!r})")
    else:
        budget = level.removesuffix("ms")
        if not budget.isdigit() or int(budget) <= 0:
            raise ValueError(f"--theirs: {text!r}: a budget is N worlds or Nms")
        if name != "isdd" and not level.endswith("ms"):
            # colver's spec reader runs its IS-MCTS under time_ms only (50 iterations a world)
            raise ValueError(f"--theirs: {text!r}: colver's IS-MCTS takes a time budget "
                             f"only ({name}:{budget}ms)")
        if level.endswith("ms"):
            lines.append(f"time_ms = {int(budget)}")
        else:
            lines += ["time_ms = 0", f"determinizations = {int(budget)}"]
        if name == "isdd":
            lines += ["parallel = false", "[worlds]", 'source = "uniform"']
    return "\n".join(lines) + "\n"


# -- colver's calls as a bidding system our search reads the auction by --------------------------
class ColverCalls:
    """colver's rule-based ``improved`` bidder (what its agents call: ``bid_improved_v1``) as
    a bidding system (:data:`rebelote.bots.pimc.CALL_SYSTEMS`): with ``--calls colver`` every
    seat bids by it, so our search can read the auction by the table's own system, as a
    convention card tells it (``--ours 'pimc:expert[calls=colver]'``).

    colver's bidder sees only its own hand, so the call of a seat holding a hand is asked of
    one engine state per auction point (the calls before it stepped in once), its seat's hand
    written into the state's bytes (a hand is colver's card mask, 4 bytes little-endian at 4 x
    seat): a few microseconds a call. :meth:`plain` deals the whole deck and steps the calls
    (the reference the tests hold it to)."""

    def __init__(self) -> None:
        self.to_ours_cards, self.to_col = _card_maps()
        #: colver's mask of each byte of our hand mask, by the byte's place
        self.bytes = [[sum(1 << self.to_col[8 * k + c] for c in range(8) if b >> c & 1)
                       for b in range(256)] for k in range(4)]
        self.env: Any = None
        #: the state's bytes after the calls before a call, by (dealer, calls)
        self.points: dict[tuple[int, tuple[Bid, ...]], list[int]] = {}

    def _dealt(self, dealer: int, calls: Sequence[Bid], seat: int, hand: int) -> Any:
        """colver's engine with the seat dealt ``hand``, the rest of the deck to the others
        (:func:`rebelote.bots.pimc.hands_around`), the calls stepped in."""
        env = colver.Env.deal_with_hands(dealer, [[self.to_col[c] for c in iter_mask(m)]
                                                  for m in hands_around(seat, hand)])
        for bid in calls:
            env.step(to_colver(bid, self.to_col))
        return env

    def _call(self, env: Any) -> Bid:
        call = to_ours(env.bid_improved_v1(), 0, self.to_ours_cards)
        assert isinstance(call, Bid)
        return call

    def plain(self, dealer: int, calls: Sequence[Bid], seat: int, hand: int) -> Bid:
        """The call, from a whole deal of colver's (the seat's hand, the rest to the others)."""
        return self._call(self._dealt(dealer, calls, seat, hand))

    def __call__(self, obs: Any, index: int, seat: int, hand: int) -> Bid:
        calls = tuple(bid for _, bid in obs.auction[:index])
        key = (obs.dealer, calls)
        point = self.points.get(key)
        if point is None:
            self.env = self._dealt(obs.dealer, calls, seat, hand)
            point = self.points[key] = [int(b) for b in self.env.get_state_bytes()]
            if len(self.points) > 256:
                self.points.pop(next(iter(self.points)))
        t = self.bytes
        mask = (t[0][hand & 255] | t[1][hand >> 8 & 255] | t[2][hand >> 16 & 255]
                | t[3][hand >> 24 & 255])
        state = list(point)
        state[4 * seat:4 * seat + 4] = mask.to_bytes(4, "little")
        self.env.set_state_bytes(state)
        return self._call(self.env)


if colver is not None:
    register_call_system("colver", ColverCalls)


# -- one play of a deal -------------------------------------------------------------------------
@dataclass(slots=True)
class Play1:
    """One play of a deal: marks (N-S, E-W) by our rules and by colver's, who took (0 N-S, 1
    E-W, -1 passed out), whether it was made, and what differed."""

    ours: tuple[int, int] = (0, 0)
    colver: tuple[float, float] = (0.0, 0.0)
    taker: int = -1
    made: bool | None = None
    contract: str = ""
    legal_differ: list[str] = field(default_factory=list)
    hidden_bids: int = 0
    broken: str | None = None
    auction: list[int] = field(default_factory=list)


@dataclass(slots=True)
class Times:
    bid: list[float] = field(default_factory=list)
    play: list[float] = field(default_factory=list)
    #: the cards in the mover's hand at each decision of ``play`` (8 at the first trick)
    cards: list[int] = field(default_factory=list)


#: The calls of every seat when our bots choose only the cards (``--calls colver``): colver's
#: rule-based ``improved`` bidder, the bidder of every colver bot of :func:`colver_spec`.
CALLS_TOML: Final = '[bid]\nstrategy = "improved"\n[play]\nmethod = "heuristic"\n'
CALLS: Final = ("own", "colver")


def _ours(spec: str) -> Bot:
    """Our bot of a spec, or a search player with budget fields changed
    (``pimc:match[uniform=0]``, :func:`rebelote.bots.pimc.with_fields`)."""
    return with_fields(spec) if "[" in spec else make_bot(spec)


def play_once(ours_spec: str, theirs_toml: str, rules: Rules, deal_seed: int, dealer: int,
              ours_side: int, times: tuple[Times, Times], calls: str = "own") -> Play1:
    """Deal ``deal_seed`` played once: our bot on the seats of parity ``ours_side`` (0 N-S),
    colver's on the others. ``times`` (ours, colver's) get the decision times. With ``calls``
    ``colver`` every seat's calls are colver's bidder's (an agent per seat seeded by the deal
    and the seat only, so both plays of a deal call alike) and our bot only plays cards."""
    to_ours_cards, to_col = _card_maps()
    env = colver.Env.deal(seed=deal_seed, dealer=dealer)
    hands = [sum(1 << to_ours_cards[c] for c in hand) for hand in env.get_hands()]
    state = DealState.from_hands(rules, dealer, hands)
    ours: dict[int, Bot] = {s: _ours(ours_spec) for s in range(4) if s % 2 == ours_side}
    rngs = {s: random.Random(f"versus:{deal_seed}:{ours_side}:{s}") for s in ours}
    agents = {s: colver.Agent(theirs_toml, seat=s, seed=deal_seed * 8 + ours_side * 4 + s)
              for s in range(4) if s % 2 != ours_side}
    bidders = {}
    if calls == "colver":
        bidders = {s: colver.Agent(CALLS_TOML, seat=s, seed=deal_seed * 8 + s) for s in range(4)}
    watching = [*agents.values(), *bidders.values()]
    for agent in watching:
        agent.init_deal(env)
    out = Play1()
    clock = time.perf_counter
    while not state.is_terminal:
        seat = state.current_player
        phase = env.phase()
        if env.current_player() != seat or phase != int(state.phase):
            out.broken = (f"turn: ours {seat} in phase {int(state.phase)}, colver "
                          f"{env.current_player()} in phase {phase}")
            break
        legal = state.legal_actions()
        mine = {to_colver(a, to_col): a for a in legal}
        hidden = [a for a in legal if a is not NO_DECLARATION and to_colver(a, to_col) is None]
        mine.pop(None, None)
        theirs = set(env.legal_actions())
        if set(mine) != theirs:
            only_ours = sorted(str(mine[a]) for a in set(mine) - theirs)
            only_col = sorted(str(to_ours(a, phase, to_ours_cards)) for a in theirs - set(mine))
            out.legal_differ.append(f"seat {'NESW'[seat]} phase {phase}: only ours "
                                    f"{only_ours}, only colver {only_col}")
        choice = len(theirs) > 1
        if phase == 0 and bidders:
            t0 = clock()
            code = int(bidders[seat].decide(env)["action"])
            dt = clock() - t0
            if choice:
                (times[0] if seat in ours else times[1]).bid.append(dt)
            if code not in mine:
                out.broken = (f"colver's bidder called {to_ours(code, phase, to_ours_cards)} "
                              f"at seat {'NESW'[seat]}: our rules refuse it")
                break
            action = mine[code]
        elif seat in ours:
            obs = state.observation(seat)
            if hidden:
                out.hidden_bids += 1
                obs = obs._replace(legal=tuple(a for a in obs.legal if a not in hidden))
            t0 = clock()
            action = ours[seat].act(obs, rngs[seat])
            dt = clock() - t0
            code = to_colver(action, to_col)
            if choice:
                _timed(times[0], phase, dt, obs.hand.bit_count())
            if code is None or code not in theirs:
                out.broken = f"ours played {action} at seat {'NESW'[seat]}: colver refuses it"
                break
        else:
            t0 = clock()
            code = int(agents[seat].decide(env)["action"])
            dt = clock() - t0
            if choice:
                _timed(times[1], phase, dt, state.hands[seat].bit_count())
            if code not in mine:
                out.broken = (f"colver played {to_ours(code, phase, to_ours_cards)} at seat "
                              f"{'NESW'[seat]}: our rules refuse it")
                break
            action = mine[code]
        if phase == 0:
            out.auction.append(code)
        for agent in watching:
            agent.observe(env, code)
        env.step(code)
        state = state.apply(action)
    if out.broken is None and not env.is_terminal():
        out.broken = "our deal is over, colver's is not"
    if out.broken is not None:
        return out
    ns, ew = state.score().score
    out.ours = (ns, ew)
    rew = env.rewards()
    out.colver = (float(rew[0]), float(rew[1]))
    if not state.is_void:
        out.taker = state.taker % 2
        out.made = state.score().outcome == "made"
        best = state.auction.best
        out.contract = f"{best} x{state.auction.multiplier}" if best is not None else ""
    return out


def _timed(times: Times, phase: int, seconds: float, cards: int) -> None:
    if phase == 0:
        times.bid.append(seconds)
    else:
        times.play.append(seconds)
        times.cards.append(cards)


def play_deal(ours_spec: str, theirs: str, rules: Rules, seed: int, index: int,
              calls: str = "own") -> dict[str, Any]:
    """Duplicate deal ``index``: played with ours on N-S, then on E-W; its JSON line."""
    if calls not in CALLS:
        raise ValueError(f"--calls: {calls!r} is not one of {', '.join(CALLS)}")
    theirs_toml = colver_spec(theirs)
    deal_seed = seed * 1_000_003 + index
    dealer = index % 4
    times = (Times(), Times())
    plays = [play_once(ours_spec, theirs_toml, rules, deal_seed, dealer, side, times, calls)
             for side in (0, 1)]
    line: dict[str, Any] = {"deal": index, "seed": seed, "ours": ours_spec, "theirs": theirs,
                            "rules": rules.to_text(), "deal_seed": deal_seed, "dealer": dealer,
                            "calls": calls,
                            "same_auction": plays[0].auction == plays[1].auction}
    broken = [p.broken for p in plays if p.broken]
    if broken:
        line["broken"] = broken
    else:
        # our mark minus colver's: ours on N-S in play 0, on E-W in play 1
        line["diffs"] = [plays[0].ours[0] - plays[0].ours[1], plays[1].ours[1] - plays[1].ours[0]]
        line["diffs_colver"] = [plays[0].colver[0] - plays[0].colver[1],
                                plays[1].colver[1] - plays[1].colver[0]]
        line["diff"] = sum(line["diffs"]) / 2
        line["diff_colver"] = sum(line["diffs_colver"]) / 2
        line["takers"] = [None if p.taker < 0 else ("ours" if p.taker == side else "colver")
                          for side, p in enumerate(plays)]
        line["made"] = [p.made for p in plays]
        line["contracts"] = [p.contract for p in plays]
        line["marks"] = [list(p.ours) for p in plays]
        line["marks_colver"] = [list(p.colver) for p in plays]
        line["score_differ"] = [list(p.ours) != [int(x) for x in p.colver]
                                or any(x != int(x) for x in p.colver) for p in plays]
    line["legal_differ"] = [d for p in plays for d in p.legal_differ]
    line["hidden_bids"] = sum(p.hidden_bids for p in plays)
    for who, t in (("ours", times[0]), ("colver", times[1])):
        line[f"{who}_ms"] = {"bid": [round(x * 1000, 3) for x in t.bid],
                             "play": [round(x * 1000, 3) for x in t.play], "cards": t.cards}
    return line


def play_task(task: tuple[str, str, Rules, int, int, str]) -> dict[str, Any]:
    """:func:`play_deal` of ``(ours, theirs, rules, seed, index, calls)``: one task of a pool
    or a cluster."""
    return play_deal(*task)


# -- the report ---------------------------------------------------------------------------------
def _ci(values: list[float]) -> dict[str, Any]:
    mean, low, high = mean_ci(values)
    fin = [round(x, 2) if math.isfinite(x) else None for x in (low, high)]
    return {"mean": round(mean, 2), "ci95": fin}


def _ms(values: list[float]) -> dict[str, Any]:
    s = sorted(values)
    return {"decisions": len(s), "mean": round(statistics.fmean(s), 3) if s else 0.0,
            "median": round(percentile(s, 0.5), 3),
            "p99": round(percentile(s, 0.99), 3), "max": round(s[-1], 3) if s else 0.0}


def summarize(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures over the deals of ``lines`` (each deal of each seed once: the runs of
    several seeds pool, the same bots and rules in all)."""
    by_deal: dict[tuple[int, int], dict[str, Any]] = {}
    for r in lines:
        by_deal.setdefault((int(r["seed"]), int(r["deal"])), r)
    rows = [by_deal[k] for k in sorted(by_deal)]
    if not rows:
        raise ValueError("no deals to summarise")
    head = rows[0]
    for key in ("ours", "theirs", "rules"):
        other = {str(r[key]) for r in lines} - {str(head[key])}
        if other:
            raise ValueError(f"the lines pooled differ in {key}: {head[key]!r} and "
                             f"{sorted(other)[0]!r}")
    ok = [r for r in rows if "diff" in r]
    seeds = sorted({seed for seed, _ in by_deal})
    deals = [deal for _, deal in by_deal]
    out: dict[str, Any] = {"ours": head["ours"], "theirs": head["theirs"],
                           "rules": head["rules"],
                           "seed": seeds[0] if len(seeds) == 1 else seeds,
                           "calls": head.get("calls", "own"), "deals": len(ok),
                           "broken": len(rows) - len(ok),
                           "first_deal": min(deals), "last_deal": max(deals)}
    if "same_auction" in head:
        out["same_auction"] = sum(1 for r in ok if r["same_auction"])
    if ok:
        out["mark_diff"] = _ci([float(r["diff"]) for r in ok])
        out["mark_diff_colver_score"] = _ci([float(r["diff_colver"]) for r in ok])
        plays = [(t, m) for r in ok for t, m in zip(r["takers"], r["made"], strict=True)]
        out["contracts"] = {
            side: {"took": sum(1 for t, _ in plays if t == side),
                   "made": sum(1 for t, m in plays if t == side and m)}
            for side in ("ours", "colver")}
        out["contracts"]["passed_out"] = sum(1 for t, _ in plays if t is None)
        out["scores_differ"] = sum(sum(r["score_differ"]) for r in ok)
    out["legal_differ"] = sum(len(r["legal_differ"]) for r in rows)
    out["legal_differ_examples"] = [d for r in rows for d in r["legal_differ"]][:5]
    out["broken_examples"] = [b for r in rows for b in r.get("broken", [])][:5]
    out["hidden_bids"] = sum(int(r["hidden_bids"]) for r in rows)
    out["decision_ms"] = {
        who: {kind: _ms([float(x) for r in rows for x in r[f"{who}_ms"][kind]])
              for kind in ("bid", "play")}
        for who in ("ours", "colver")}
    # a card's time by the cards in the mover's hand (8: the first trick)
    by_cards: dict[str, dict[int, list[float]]] = {"ours": {}, "colver": {}}
    for r in rows:
        for who in by_cards:
            got = r[f"{who}_ms"]
            for ms, n in zip(got["play"], got.get("cards", ()), strict=False):
                by_cards[who].setdefault(int(n), []).append(float(ms))
    if by_cards["ours"]:
        out["play_ms_by_cards"] = {
            who: {str(n): round(percentile(sorted(v), 0.5), 2)
                  for n, v in sorted(d.items(), reverse=True)}
            for who, d in by_cards.items()}
    return out


def paired(lines: list[dict[str, Any]], base: list[dict[str, Any]]) -> dict[str, Any]:
    """Deal by deal, ``lines``' mark difference minus ``base``'s on the deals both played
    (the same seed and deal number: the same cards, the same colver): how much the one bot
    gains on the other with the deals' luck taken out. The rules and colver's bot must be the
    same."""
    bots = {str(r["ours"]) for r in base}
    if len(bots) > 1:
        raise ValueError(f"--paired: the base's lines are of several bots: {sorted(bots)}")
    for key in ("theirs", "rules", "calls"):
        ours = {str(r.get(key, "own")) for r in lines}
        theirs = {str(r.get(key, "own")) for r in base}
        if ours != theirs:
            raise ValueError(f"--paired: the runs differ in {key}: {sorted(ours)[0]!r} and "
                             f"{sorted(theirs)[0]!r}")
    old = {(int(r["seed"]), int(r["deal"])): float(r["diff"]) for r in base if "diff" in r}
    new = {(int(r["seed"]), int(r["deal"])): float(r["diff"]) for r in lines if "diff" in r}
    shared = sorted(old.keys() & new.keys())
    if not shared:
        raise ValueError("--paired: the runs share no deal (the same seed and deal number)")
    return {"ours": sorted({str(r["ours"]) for r in lines})[0],
            "base": sorted({str(r["ours"]) for r in base})[0], "deals": len(shared),
            "paired": _ci([new[k] - old[k] for k in shared]),
            "ours_alone": _ci([new[k] for k in shared]),
            "base_alone": _ci([old[k] for k in shared])}


def _shown(d: dict[str, Any]) -> str:
    """A mean and its interval (:func:`_ci`) as the reports print them."""
    low, high = d["ci95"]
    shown = "[-inf, +inf]" if low is None else f"[{low:+.1f}, {high:+.1f}]"
    return f"{d['mean']:+.1f} a deal, 95% CI {shown}"


def report_paired(p: dict[str, Any]) -> str:
    ci = _shown
    return (f"paired over {p['deals']} deals both played: {p['ours']} - {p['base']}: "
            f"{ci(p['paired'])}\n  {p['ours']} - colver: {ci(p['ours_alone'])}\n"
            f"  {p['base']} - colver: {ci(p['base_alone'])}")


def report(s: dict[str, Any]) -> str:
    ci = _shown
    calls = " (every call colver's bidder's: card play alone)" if s["calls"] == "colver" \
        else ""
    seeds = s["seed"] if isinstance(s["seed"], list) else [s["seed"]]
    lines = [f"ours {s['ours']} vs colver {s['theirs']}{calls}, {s['rules']}, "
             f"seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}: "
             f"{s['deals']} duplicate deals ({s['broken']} stopped by a rules "
             f"difference), deals {s['first_deal']}..{s['last_deal']}"]
    if "same_auction" in s:
        lines.append(f"  the same auction in both plays: {s['same_auction']} of {s['deals']}")
    if s["deals"]:
        lines.append(f"  ours - colver, our score:    {ci(s['mark_diff'])}")
        lines.append(f"  ours - colver, colver score: {ci(s['mark_diff_colver_score'])} "
                     f"({s['scores_differ']} plays scored differently)")
        c = s["contracts"]
        lines.append(f"  contracts: ours took {c['ours']['took']} made {c['ours']['made']}; "
                     f"colver took {c['colver']['took']} made {c['colver']['made']}; passed "
                     f"out {c['passed_out']}")
    for who in ("ours", "colver"):
        d = s["decision_ms"][who]
        lines.append(f"  {who} decision ms: bid median {d['bid']['median']} p99 "
                     f"{d['bid']['p99']} ({d['bid']['decisions']}); play median "
                     f"{d['play']['median']} mean {d['play']['mean']} p99 {d['play']['p99']} max "
                     f"{d['play']['max']} "
                     f"({d['play']['decisions']})")
    for who, d in s.get("play_ms_by_cards", {}).items():
        shown = ", ".join(f"{n}: {ms}" for n, ms in d.items())
        lines.append(f"  {who} median ms a card by cards in hand: {shown}")
    lines.append(f"  legal actions differing: {s['legal_differ']}; our no-trump/all-trump "
                 f"bids withheld at {s['hidden_bids']} decisions")
    lines.extend(f"    {x}" for x in s["legal_differ_examples"] + s["broken_examples"])
    return "\n".join(lines)


def _names(text: str) -> tuple[str, str] | None:
    """``A=B`` as ``(A, B)``, the ``=`` between them being the one outside a spec's brackets
    (``pimc:expert[play_model=0.05]=pimc:expert``); ``None`` if there is none, or a side is
    empty."""
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "[") - (ch == "]")
        if ch == "=" and depth == 0:
            a, b = text[:i].strip(), text[i + 1:].strip()
            return (a, b) if a and b else None
    return None


def _read_lines(names: list[str], same: dict[str, str]) -> list[dict[str, Any]]:
    """The result lines of the files ``names``, our bot's name read through ``same``
    (``--same``: A's lines as B's)."""
    rows: list[dict[str, Any]] = []
    for name in names:
        with open(name, encoding="utf-8") as f:
            rows.extend(json.loads(x) for x in f if x.strip())
    return [dict(r, ours=same[r["ours"]]) if r.get("ours") in same else r for r in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ours", default="heuristic", help="a bot of our registry")
    parser.add_argument("--theirs", default="heuristic", help="a colver bot (see above)")
    parser.add_argument("--rules", default=RULES_TEXT)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--start", type=int, default=0, help="first deal number")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calls", default="own", choices=CALLS,
                        help="own: each side's bot calls; colver: every seat's calls are "
                        "colver's bidder's, ours only plays the cards")
    parser.add_argument("--out", default=None, help="append each deal's JSON line here")
    parser.add_argument("--summary", default=None, nargs="+",
                        help="only summarise results files (several: their deals pooled)")
    parser.add_argument("--same", default=[], action="append", metavar="A=B",
                        help="with --summary: our bot A's lines read as B's (two names of "
                        "one bot at the runs' commits); may be given again")
    parser.add_argument("--paired", default=None, nargs="+", metavar="BASE",
                        help="with --summary: the summary's deals, deal by deal, minus "
                        "those of the runs in these files (the same seeds and deals)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    parser.add_argument("--workers", type=int, default=1,
                        help="deals played on a pool of this many processes (each needs colver)")
    parser.add_argument("--scheduler", default=None,
                        help="deals played on the Dask cluster of this scheduler "
                        "(tcp://host:port; its workers need rebelote and colver)")
    args = parser.parse_args(argv)
    if args.summary:
        same = dict(pair for x in args.same if (pair := _names(x)) is not None)
        if len(same) != len(args.same):
            parser.error("--same: give our bot's two names as A=B (A's lines read as B's)")
        rows = _read_lines(args.summary, same)
        try:
            s = summarize(rows)
        except ValueError as e:
            parser.error(f"--summary: {e}")
        if args.paired:
            try:
                s["versus_base"] = paired(rows, _read_lines(args.paired, same))
            except ValueError as e:
                parser.error(str(e))
        print(json.dumps(s) if args.json else report(s) + (
            "\n" + report_paired(s["versus_base"]) if args.paired else ""))
        return 0
    if colver is None:
        print("bench/versus_colver.py skipped: it needs colver, the yardstick (not a "
              "dependency of rebelote): .venv/bin/pip install colver", file=sys.stderr)
        return 0
    _ours(args.ours)  # a bad spec fails here, before any deal
    theirs_toml = colver_spec(args.theirs)
    colver.Agent(theirs_toml, seat=0)  # a bad spec fails here, before any deal
    rules = parse_rules(args.rules)
    lines = []
    t0 = time.perf_counter()
    tasks = [(args.ours, args.theirs, rules, args.seed, i, args.calls)
             for i in range(args.start, args.start + args.deals)]
    for i, line in zip(range(args.start, args.start + args.deals),
                       parallel_map(play_task, tasks, args.workers, args.scheduler),
                       strict=False):
        lines.append(line)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")
        if not args.quiet and not args.json:
            shown = line.get("diff", "stopped")
            print(f"deal {i}: {shown} {line.get('contracts', line.get('broken'))}",
                  flush=True)
    s = summarize(lines)
    s["seconds"] = round(time.perf_counter() - t0, 1)
    s["colver_version"] = colver.__version__
    print(json.dumps(s) if args.json else report(s) + f"\n  {s['seconds']} s, colver "
          f"{s['colver_version']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
