"""Where the learned player's calls take their contracts, and what a change of its calls does.

``record``: plays the arena's duplicate deals (the same deals, seats and ``rng`` seeds as
``rebelote arena --seed S``) of ``net`` (its level ``--a``) against ``--b`` and writes one
JSON line a play: the contract (taker's side, trump mode, value, coinche), made or not, A's
mark minus B's, and each call ``net`` chose with every legal call's logit (in marks: the
calls are learned as values, :data:`rebelote.bots.net.CALL_SCALE` marks a logit).

``replay``: for a level of ``net`` (``--level 'pass=60'``), the plays of a ``record`` file in
which that level would have called otherwise at one of ``net``'s calls (its logits, read
back from the record) are played again with that level; every other play is the same
(``net``'s choices are the same, the opponents' calls and cards are theirs). The paired
difference over the deals: the level's margin minus ``net``'s, and its contracts taken / made
against the record's. A clocked opponent (``fort``) plays the replayed deals in other minutes
than the record: its own noise, in either direction, which ``--level 'pass=0' --plays-of
LEVEL`` (``net`` itself on the plays LEVEL changes, in the replays' minutes) measures.

    OPENBLAS_NUM_THREADS=1 nice -n 10 python bench/netbid.py record --b pimc:default+tuned \
        --seed 41 --deals 200 --out netbid-41.jsonl
    python bench/netbid.py analyse netbid-41.jsonl       # where the contracts are
    OPENBLAS_NUM_THREADS=1 nice -n 10 python bench/netbid.py replay netbid-41.jsonl \
        --level 'pass=60' --out netbid-41-pass60.jsonl
    python bench/netbid.py summary netbid-41.jsonl --out netbid-41-pass60.jsonl
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rebelote.actions import AUCTION
from rebelote.arena import ArenaConfig, _play, mean_ci, play_duplicate_deal
from rebelote.bots import make_bot
from rebelote.bots.base import Bot
from rebelote.bots.net import CALL_SCALE, NetBot, features, forward, legal_indices, parse_net_level
from rebelote.deal import DealState
from rebelote.observation import Observation
from rebelote.rules import AUCTION_GAMES


class Recorder:
    """Wraps a ``NetBot``: each call with a choice is written down (the legal calls' logits in
    marks, the auction so far relative to the seat) with the bot's own choice."""

    def __init__(self, bot: NetBot, log: list[dict[str, Any]]) -> None:
        self.bot, self.log, self.name = bot, log, bot.name

    def act(self, obs: Observation, rng: random.Random) -> Any:
        action = self.bot.act(obs, rng)
        if obs.phase == AUCTION and obs.rules.game in AUCTION_GAMES and len(obs.legal) > 1:
            x, suits = features(obs)
            logits, value = forward(self.bot.model, x[None, :])
            choices = legal_indices(obs, suits)
            self.log.append({
                "seat": obs.seat,
                "auction": [[(s - obs.seat) % 4, str(b)] for s, b in obs.auction],
                "calls": {str(a): round(float(logits[0][i]) * CALL_SCALE, 3)
                          for i, a in choices},
                "value": round(float(value[0]), 2),
                "chose": str(action)})
        return action


def contract_of(end: Any) -> dict[str, Any]:
    if end.is_void:
        return {"void": True}
    bid = end.auction.best
    return {"taker": end.taker, "kind": bid.kind, "contract": str(bid),
            "trump": str(bid).split()[-1], "value": bid.rank, "mult": end.auction.multiplier,
            "bidder_history": [[s, str(b)] for s, b in end.auction.history],
            "made": end.score().outcome == "made"}


def play(config: ArenaConfig, index: int, net_level: str | None, sides: Sequence[int],
         b: str) -> list[dict[str, Any]]:
    """Deal ``index`` of the arena's ``config`` on the given A sides (0: A at N-S), A being
    ``net`` at ``net_level``, recorded."""
    rules = config.check()
    out: list[dict[str, Any]] = []
    logs: dict[int, list[dict[str, Any]]] = {0: [], 1: []}

    def seat_bots(a_side: int) -> list[Bot]:
        net = make_bot("net" if net_level is None else f"net:{net_level}")
        assert isinstance(net, NetBot)
        rec = Recorder(net, logs[a_side])
        return [rec if s % 2 == a_side else make_bot(b) for s in range(4)]  # type: ignore

    # one side alone: the arena's deal and rng seeds (by seed, index and side), that side only
    finals: Sequence[Any] | dict[int, Any] = \
        play_duplicate_deal(config, rules, index, seat_bots=seat_bots)[1] if len(sides) == 2 \
        else {sides[0]: _one_side(config, rules, index, sides[0], seat_bots)}
    for a_side in sides:
        end = finals[a_side]
        row = {"deal": index, "a_side": a_side, "diff": end.returns()[a_side],
               **contract_of(end), "net_calls": logs[a_side]}
        if not end.is_void:
            row["side"] = "a" if end.taker % 2 == a_side else "b"
        out.append(row)
    return out


def _one_side(config: ArenaConfig, rules: Any, index: int, a_side: int,
              seat_bots: Callable[[int], list[Bot]]) -> DealState:
    deck_rng = random.Random(f"arena:{config.seed}:deal:{index}")
    start = DealState.new(rules, index % 4, rng=deck_rng)
    rngs = [random.Random(f"arena:{config.seed}:deal:{index}:{a_side}:{s}") for s in range(4)]
    end: DealState = _play(start, seat_bots(a_side), rngs, [s % 2 == a_side for s in range(4)],
                           ([], []))
    return end


def parse_lever(level: str) -> Callable[[dict[str, Any]], str]:
    """The call a level of ``net`` chooses from a recorded call (its logits in marks): the
    pass bonus of ``pass=MARKS`` and ``over=MARKS`` (added when an opponent holds the
    contract), as :class:`rebelote.bots.net.NetBot` adds them; the rest of the level (the
    endgame) changes no call."""
    got = parse_net_level(level)

    def choose(call: dict[str, Any]) -> str:
        calls = {a: np.float32(v / CALL_SCALE) for a, v in call["calls"].items()}
        bids = [s for s, b in call["auction"] if b.split()[0].isdigit()
                or b.split()[0] in ("capot", "generale")]
        bonus = got.pass_bonus + (got.over if bids and bids[-1] % 2 == 1 else 0.0)
        if "pass" in calls and bonus:
            calls["pass"] += np.float32(bonus / CALL_SCALE)
        return max(calls, key=lambda a: float(calls[a]))
    return choose


def read(path: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    by_deal: dict[int, list[int]] = {}
    for r in rows:
        by_deal.setdefault(r["deal"], []).append(r["diff"])
    diffs = [sum(v) / 2 for v in by_deal.values() if len(v) == 2]
    mean, low, high = mean_ci(diffs) if len(diffs) > 1 else (float("nan"),) * 3
    out: dict[str, Any] = {"deals": len(diffs), "mark_diff": [round(mean, 2), round(low, 2),
                                                             round(high, 2)]}
    for side in ("a", "b"):
        taken = [r for r in rows if r.get("side") == side]
        out[side] = {"took": len(taken), "made": sum(r["made"] for r in taken)}
    return out


def situation(history: Sequence[Sequence[Any]], taker: int) -> str:
    """How the taker's last contract bid came: ``opening`` (no contract before it), ``raise``
    (over its partner's), ``overcall`` (over an opponent's), ``own`` (over its own)."""
    best = -1
    for seat, call in history:
        words = str(call).split()
        if words[0].isdigit() or words[0] in ("capot", "generale"):
            if seat == taker and str(call) == str(last_bid(history, taker)):
                if best < 0:
                    return "opening"
                return "own" if best == taker else "raise" if best % 2 == taker % 2 \
                    else "overcall"
            best = seat
    return "?"


def last_bid(history: Sequence[Sequence[Any]], taker: int) -> str:
    bids = [c for s, c in history if s == taker and (c.split()[0].isdigit()
                                                     or c.split()[0] in ("capot", "generale"))]
    return bids[-1]


def analyse(rows: list[dict[str, Any]]) -> None:
    """The contracts of each side by trump mode, value, how they came, coinched; made."""
    for side in ("a", "b"):
        taken = [r for r in rows if r.get("side") == side]
        print(f"side {side}: {len(taken)} taken, {sum(r['made'] for r in taken)} made")
        keys: dict[str, Callable[[dict[str, Any]], str]] = {
            "mode": lambda r: {"no-trump": "NT", "all-trump": "AT"}.get(r["trump"], "suit"),
            "value": lambda r: str(min(r["value"], 170)) if r["value"] < 250 else "capot+",
            "how": lambda r: situation(r["bidder_history"], r["taker"]),
            "coinched": lambda r: str(r["mult"]),
            "partner_bid": lambda r: str(any(s % 2 == r["taker"] % 2 and s != r["taker"]
                                             and c.split()[0].isdigit()
                                             for s, c in r["bidder_history"])),
        }
        for name, key in keys.items():
            took: Counter[str] = Counter()
            made: Counter[str] = Counter()
            lost: Counter[str] = Counter()
            for r in taken:
                k = key(r)
                took[k] += 1
                made[k] += r["made"]
                lost[k] += r["diff"] * (1 if side == "a" else -1) if not r["made"] else 0
            cells = ", ".join(f"{k} {took[k]}/{made[k]} ({100 * made[k] // took[k]}%)"
                              for k in sorted(took))
            print(f"  {name}: {cells}")
    coinched = [r for r in rows if r.get("side") == "b" and r["mult"] >= 2]
    print(f"a coinches b: {len(coinched)}, b down {sum(not r['made'] for r in coinched)}; "
          f"b coinches a: {sum(1 for r in rows if r.get('side') == 'a' and r['mult'] >= 2)}")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("command", choices=("record", "replay", "summary", "analyse"))
    p.add_argument("record_file", nargs="?")
    p.add_argument("--a", default=None, help="net's level for record (net's default)")
    p.add_argument("--b", default="pimc:default+tuned")
    p.add_argument("--game", default="coinche")
    p.add_argument("--seed", type=int, default=41)
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--level", default=None, help="replay: the level of net tried")
    p.add_argument("--plays-of", default=None,
                   help="replay: the plays this level would call otherwise (a control: "
                        "--level 'pass=0' plays them again as net)")
    p.add_argument("--out", default=None)
    args = p.parse_args(argv)
    if args.command == "summary":
        base = read(args.record_file)
        print(json.dumps({"net": summary(base)}))
        if args.out:  # a replay of this record: the level's rows, net's for the others
            again = {(r["deal"], r["a_side"]): r for r in read(args.out)}
            rows = [again.get((r["deal"], r["a_side"]), r) for r in base]
            paired: dict[int, float] = {}
            for old, new in zip(base, rows, strict=True):
                paired[old["deal"]] = paired.get(old["deal"], 0.0) + (new["diff"] - old["diff"]) / 2
            mean, low, high = mean_ci(list(paired.values()))
            print(json.dumps({"level": summary(rows), "replayed": len(again),
                              "level_minus_net": [round(mean, 2), round(low, 2),
                                                  round(high, 2)]}))
        return 0
    if args.command == "analyse":
        analyse(read(args.record_file))
        return 0
    if args.command == "record":
        config = ArenaConfig(a="net", b=args.b, game=args.game, seed=args.seed,
                             deals=args.deals)
        with open(args.out, "a") as f:
            for i in range(args.start, args.deals):
                for row in play(config, i, args.a, (0, 1), args.b):
                    row.update(seed=args.seed, game=args.game, b=args.b)
                    f.write(json.dumps(row) + "\n")
                f.flush()
        return 0
    base = read(args.record_file)
    choose = parse_lever(args.plays_of or args.level)
    done = {(r["deal"], r["a_side"]) for r in read(args.out)} if Path(args.out).exists() \
        else set()
    todo = [r for r in base if any(choose(c) != c["chose"] for c in r["net_calls"])]
    print(f"{len(todo)} plays of {len(base)} call otherwise", file=sys.stderr)
    with open(args.out, "a") as f:
        for r in todo:
            if (r["deal"], r["a_side"]) in done:
                continue
            config = ArenaConfig(a="net", b=r["b"], game=r["game"], seed=r["seed"],
                                 deals=r["deal"] + 1)
            for row in play(config, r["deal"], args.level, (r["a_side"],), r["b"]):
                row.update(seed=r["seed"], game=r["game"], b=r["b"])
                f.write(json.dumps(row) + "\n")
            f.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
