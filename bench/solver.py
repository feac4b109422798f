"""The double-dummy solver against colver's (Rust, ``pip install colver``), side by side in
one run, on the same deals.

For each seed, colver deals (``colver.Env.deal(seed=s, dealer=0)``, E leads) and its hands are
dealt into ours. Each deal is solved under the four suit trumps:

- **per card** (what ``rebelote.solver.solve`` gives: every legal card of the leader): colver's
  ``solve_scores`` after ``set_contract`` (trump, 80, NS) and ``set_phase_playing``;
- **best value** (``best_value``, one search): colver's ``solve_all_suits`` (four trumps in one
  call; its time is divided by four).

Mid-deal positions: after 2, 4 and 6 tricks of random legal cards (seeded, the same cards in
both engines), each engine's per-card values.

The two solves of a position run one after the other, interleaved over the corpus; times are
wall-clock (``perf_counter``) and CPU (``process_time``) per solve; the ratio is our median
over colver's. Both engines solve on one thread; on a shared machine the wall-clock includes
the waits for a core, so the goal is judged on the CPU times.
Values are compared: ours are the mover's team's final card points, colver's
are NS's; they agree when they add up to 162, or a capot reads 252 / 0 on both sides. colver
plays contrée rules without declarations, like our official coinche rules here (declarations
are never card points).

    .venv/bin/python bench/solver.py [--deals 100] [--mid 2,4,6] [--mid-deals 50] \
        [--worlds-deals 20]

IS-DD worlds at trick 1: the heuristic's deals, worlds dealt from each first-trick seat's
observation and solved for every card, counted per second of CPU time; the worlds of a suit
trump are solved by colver too (``Env.deal_with_hands``), side by side, values compared.

Goal: our median per-card full-deal solve at most 0.2x colver's (issue 19; 0.5x before).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time

from solver_ab import trick_one_worlds  # bench/, on the path when this file runs

from rebelote.rules import Rules, card_values, legal_cards, trick_winner
from rebelote.solver import COMPILED, Position, best_value, solve_counted

try:
    import colver
except ImportError:  # pragma: no cover
    print("bench/solver.py skipped: it needs colver, the yardstick (not a dependency of "
          "rebelote): .venv/bin/pip install colver", file=sys.stderr)
    sys.exit(0)

GOAL = 0.2
RULES = Rules.preset("official", "coinche")
# colver's card index is suit * 8 + rank with ranks 7 8 9 J Q K 10 A; ours 7 8 9 10 J Q K A.
_RANK = (0, 1, 2, 4, 5, 6, 3, 7)
TO_OURS = tuple((c // 8) * 8 + _RANK[c % 8] for c in range(32))
TO_COLVER = tuple(TO_OURS.index(c) for c in range(32))


def hands_of(env: colver.Env) -> list[int]:
    return [sum(1 << TO_OURS[c] for c in hand) for hand in env.get_hands()]


def agree(ours: int, ns_colver: int, mover_ns: bool) -> bool:
    if mover_ns:
        return ours == ns_colver
    return ours + ns_colver == 162 or (ours, ns_colver) in ((252, 0), (0, 252))


class Tally:
    def __init__(self, name: str) -> None:
        self.name = name
        self.ours: list[float] = []
        self.theirs: list[float] = []
        self.ours_cpu: list[float] = []
        self.theirs_cpu: list[float] = []
        self.nodes: list[int] = []
        self.cards = 0
        self.differ: list[str] = []

    def line(self) -> str:
        def ms(xs: list[float]) -> str:
            s = sorted(xs)
            p90 = s[min(len(s) - 1, int(0.9 * len(s)))]
            return f"{statistics.median(s) * 1000:8.2f} {p90 * 1000:8.2f} {s[-1] * 1000:8.1f}"

        mo, mt = statistics.median(self.ours), statistics.median(self.theirs)
        co, ct = statistics.median(self.ours_cpu), statistics.median(self.theirs_cpu)
        nodes = f"{int(statistics.median(self.nodes)):>9,}" if self.nodes else " " * 9
        return (f"{self.name:<22} {len(self.ours):>4}  cpu ours {ms(self.ours_cpu)}  colver "
                f"{ms(self.theirs_cpu)}  x{co / ct:5.2f}  |  wall ours {ms(self.ours)}  colver "
                f"{ms(self.theirs)}  x{mo / mt:5.2f}  {nodes}  "
                f"{self.cards - len(self.differ)}/{self.cards}")


def timed(fn, *args):  # type: ignore[no-untyped-def]
    w, c = time.perf_counter(), time.process_time()
    out = fn(*args)
    return out, time.perf_counter() - w, time.process_time() - c


def colver_env(seed: int, trump: int) -> colver.Env:
    env = colver.Env.deal(seed=seed, dealer=0)
    env.set_contract(trump, 80, 0, 0)
    env.set_phase_playing()
    return env


def compare(tally: Tally, env: colver.Env, pos: Position, where: str) -> None:
    mover = pos.player_to_move(RULES)
    assert env.current_player() == mover, (env.current_player(), mover)
    theirs, tw, tc = timed(env.solve_scores)
    (ours, nodes), ow, oc = timed(solve_counted, pos, RULES)
    tally.ours.append(ow)
    tally.ours_cpu.append(oc)
    tally.theirs.append(tw)
    tally.theirs_cpu.append(tc)
    tally.nodes.append(nodes)
    ns = {TO_OURS[c]: v for c, v in theirs["scores"]}
    if set(ns) != set(ours):
        tally.differ.append(f"{where}: legal cards differ")
        tally.cards += 1
        return
    for card, v in ours.items():
        tally.cards += 1
        if not agree(v, ns[card], mover % 2 == 0):
            tally.differ.append(f"{where} card {card}: ours {v} (mover {mover}), colver NS "
                                f"{ns[card]}")


def advance(env: colver.Env, seed: int, trump: int, tricks: int) -> Position:
    """Play ``tricks`` tricks of random legal cards in colver and in our bookkeeping."""
    rng = random.Random(seed * 31 + trump)
    hands = hands_of(env)
    values = card_values(trump)
    leader, points, won = 1, [0, 0], [0, 0]
    for _ in range(tricks):
        trick: list[int] = []
        for i in range(4):
            seat = (leader + i) % 4
            ours = legal_cards(hands[seat], trick, trump, RULES)
            theirs = {TO_OURS[c] for c in env.legal_actions()}
            if theirs != {c for c in range(32) if ours >> c & 1}:
                raise SystemExit(f"legal cards differ: seed {seed} trump {trump}")
            card = rng.choice(sorted(theirs))
            env.step(TO_COLVER[card])
            hands[seat] &= ~(1 << card)
            trick.append(card)
        winner = (leader + trick_winner(trick, trump)) % 4
        points[winner % 2] += sum(values[c] for c in trick)
        won[winner % 2] += 1
        leader = winner
    return Position.make(hands, trump, leader, (), points, won, RULES)


def worlds_at_trick_one(deals: int, per_card: int = 8) -> list[str]:
    """IS-DD worlds at trick 1: deals bid and played by the heuristic bot (official coinche,
    the arena's deals of seed 1); at each card of the first trick with a choice, ``per_card``
    worlds are dealt from the seat's observation (``DealState.from_observation``) and each
    solved for every legal card (``solve``). Worlds a second per core: CPU time of the solves
    alone, and of dealing and solving. Each world of a suit trump is also solved by colver
    (``Env.deal_with_hands`` with the world's hands as dealt, the first trick's cards played
    by ``step``, ``solve_scores``), side by side, and the values compared."""
    worlds, deal_cpu = trick_one_worlds(deals, per_card)
    if not worlds:
        return ["IS-DD worlds at trick 1: none (every deal passed out)"]
    alone = Tally("IS-DD world, trick 1")
    side = Tally("  (suit trumps: vs colver)")
    for k, pos in enumerate(worlds):
        if pos.trump < 4:
            hands = list(pos.hands)
            for j, card in enumerate(pos.trick):
                hands[(pos.leader + j) % 4] |= 1 << card
            env = colver.Env.deal_with_hands(
                (pos.leader - 1) % 4, [[TO_COLVER[c] for c in range(32) if h >> c & 1]
                                        for h in hands])
            env.set_contract(pos.trump, 80, 0, 0)
            env.set_phase_playing()
            for card in pos.trick:
                env.step(TO_COLVER[card])
            compare(side, env, pos, f"world {k}")
            alone.ours_cpu.append(side.ours_cpu[-1])
            alone.nodes.append(side.nodes[-1])
        else:
            (_, nodes), _, oc = timed(solve_counted, pos, RULES)
            alone.ours_cpu.append(oc)
            alone.nodes.append(nodes)
    n = len(worlds)
    solve_cpu = sum(alone.ours_cpu)
    lines = [f"IS-DD worlds at trick 1 ({n} worlds, {deals} deals, {per_card} a card with a "
             f"choice): {n / solve_cpu:,.0f} worlds/s per core solving ({solve_cpu / n * 1e3:.2f}"
             f" ms CPU a world, median {statistics.median(alone.ours_cpu) * 1e3:.2f}, nodes "
             f"median {int(statistics.median(alone.nodes)):,}), {n / (solve_cpu + deal_cpu):,.0f}"
             f"/s dealing and solving (goal >= 3,000/s)"]
    if side.ours:
        lines.append(side.line())
        co, ct = sum(side.ours_cpu), sum(side.theirs_cpu)
        lines.append(f"  IS-DD worlds of a suit trump: ours {len(side.ours) / co:,.0f}/s, colver "
                     f"{len(side.ours) / ct:,.0f}/s per core (total CPU ours/colver "
                     f"{co / ct:.2f})")
        lines += [f"  differs: {d}" for d in side.differ[:10]]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--mid", default="2,4,6", help="tricks played before the mid-deal solves")
    parser.add_argument("--mid-deals", type=int, default=50)
    parser.add_argument("--worlds-deals", type=int, default=20,
                        help="deals for the IS-DD worlds at trick 1 (0: skip)")
    args = parser.parse_args()
    print(f"# rebelote solver (compiled: {COMPILED}) vs colver {colver.__version__}; "
          f"Python {platform.python_version()}, {os.cpu_count()} cores; CPU and wall-clock "
          f"times in ms: median p90 max; x = ours/colver (medians); nodes: ours, median; "
          f"values agreeing")
    full = Tally("full deal, per card")
    best = Tally("full deal, best value")
    for seed in range(args.deals):
        hands = hands_of(colver.Env.deal(seed=seed, dealer=0))
        for trump in range(4):
            pos = Position.make(hands, trump, 1, rules=RULES)
            compare(full, colver_env(seed, trump), pos, f"seed {seed} trump {trump}")
        env = colver.Env.deal(seed=seed, dealer=0)
        suits, tw, tc = timed(env.solve_all_suits)
        for trump in range(4):
            pos = Position.make(hands, trump, 1, rules=RULES)
            (v, ow, oc) = timed(best_value, pos, RULES)
            best.ours.append(ow)
            best.ours_cpu.append(oc)
            best.theirs.append(tw / 4)
            best.theirs_cpu.append(tc / 4)
            best.cards += 1
            if not agree(v, suits["suits"][trump][0], False):
                best.differ.append(f"seed {seed} trump {trump}: ours EW {v}, colver "
                                   f"{suits['suits'][trump]}")
    tallies = [full, best] if args.deals else []
    for t in tallies:
        print(t.line())
    for k in (int(x) for x in args.mid.split(",") if x):
        mid = Tally(f"after {k} tricks")
        for seed in range(args.mid_deals):
            trump = seed % 4
            env = colver_env(seed, trump)
            pos = advance(env, seed, trump, k)
            compare(mid, env, pos, f"seed {seed} trump {trump} after {k}")
        print(mid.line())
        tallies.append(mid)
    for t in tallies:
        for d in t.differ[:10]:
            print(f"  differs, {t.name}: {d}")
    if args.worlds_deals:
        for line in worlds_at_trick_one(args.worlds_deals):
            print(line)
    if not args.deals:
        return
    wall = statistics.median(full.ours) / statistics.median(full.theirs)
    ratio = statistics.median(full.ours_cpu) / statistics.median(full.theirs_cpu)
    print(f"full-deal per-card median: ours/colver = {wall:.2f} by wall-clock, {ratio:.2f} by "
          f"CPU time (goal <= {GOAL}, judged on CPU time): "
          f"{'met' if ratio <= GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()
