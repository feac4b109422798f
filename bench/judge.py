"""The decision judge: the exact double-dummy cost of each card a bot chooses.

In a bench the true deal is known, so at every card with a choice the compiled solver gives
each legal card's value in the **true** deal (its team's final card points under perfect play
by all four, :func:`rebelote.solver.solve`). A card's **cost** is the best card's value minus
the chosen card's: 0 for a card as good as the best, in card points; the **mark cost** is the
same through the deal's scoring (the contract's threshold, coinche, capot, declarations and
belote of the true deal, :class:`rebelote.bots.pimc.Marker`), in marks. Far less noisy than a
head-to-head match: the luck of the cards and of the other seats' play is out of it.

Two ways to choose the positions:

- **paired** (default): a driver bot (``--driver``, the heuristic) plays the four seats and
  makes every call; at each of its cards with a choice, every judged bot is asked what it would
  play there (from that seat's observation only), and the driver's card is played. All the
  judged bots answer the same positions, so their difference is paired decision by decision.
- **self-play** (``--selfplay``): each judged bot plays the four seats itself (auction
  included) and its own cards are judged: the positions it reaches.
- **colver's driver** (``--driver colver:SPEC``, e.g. ``colver:isdd:8``; needs ``pip install
  colver``): colver's agents (bench/versus_colver.py's bots) make every call and play every
  card of colver's deals in contrée by bench/versus_colver.py's rule set, the two engines in
  lockstep, and the judged bots answer at each card with a choice: the positions and the
  auctions of the match against colver (``--calls colver``), judged paired. colver's own
  cards are judged too, as the first bot (named as the driver): each of ours is then compared
  with colver's agent decision by decision, cost and time.

**Blunders**: a card whose cost is :data:`BLUNDER` card points or more. The summary gives each
bot's share of them (with its interval) and their kinds (:func:`blunder_kind`), the mistakes a
player sees at the table: trumping the partner's winning trick, not returning the partner's
suit, an opening lead into a tenace (the opponent playing fourth holds the ace and the ten of
the suit led), a trump led in a suit contract while a plain card could be, a lead into an
opponent's ruff (it is void in the suit and holds a trump), another lead, and
``other``: a card following (the wrong card of the suit, a discard, a ruff).

Deals are the arena's (``rebelote arena`` with the same seed deals the same cards). The judged
bots draw common random numbers: at each decision every one of them starts from the same
random state (:func:`asked_rng`), so bots that sample worlds alike see the same worlds there
(a variance reduction for their paired difference; before 2 December, later, each bot had its
own draws and two equal budgets differed by their luck alone). A bot is a
registry spec (``pimc:fast``) or a level for people (``fort``, :data:`rebelote.bots.PLAYER_LEVELS`).
Means come with 95% intervals computed over deals (a deal's decisions are not independent:
the ratio estimator, Student's t), phases are the tricks 1-2, 3-5 and 6-8, and the side is the
taker's team or the defence.

    nice -n 19 .venv/bin/python bench/judge.py --bots heuristic,pimc:fast,club --deals 40 \\
        --seed 1 [--driver heuristic | --driver colver:isdd:8] [--selfplay] \\
        [--game coinche --rules official] [--out judge.jsonl] [--json] \\
        [--workers 2 | --scheduler tcp://host:port]

The deals are independent: ``--workers N`` judges them on a pool of N processes,
``--scheduler`` on a Dask cluster (:func:`rebelote.arena.parallel_map`), their lines written in
the deals' order and, for count-based bots, the same as one process writes.
    .venv/bin/python bench/judge.py --summary judge.jsonl [--base pimc:fast] [--side defence]

``--base`` pairs every bot with the one named instead of the first; ``--side`` keeps the
cards of the taker's team or of the defence only.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from strength import add_parallel_arguments, ship_to_cluster

from rebelote.actions import PLAY, Declare, Play
from rebelote.arena import parallel_map, t975
from rebelote.bots import Bot, make_bot, player_level
from rebelote.bots.pimc import Marker, tricks_won, with_fields
from rebelote.cards import ACE, TEN, rank_of, suit_of
from rebelote.deal import DealState
from rebelote.rules import Rules, parse_rules, seat_step
from rebelote.solver import position_of_state, solve

PHASES = ("tricks 1-2", "tricks 3-5", "tricks 6-8")


def phase_of(state: DealState) -> str:
    done = len(state.tricks)
    return PHASES[0] if done < 2 else PHASES[1] if done < 5 else PHASES[2]


def spec_of(text: str) -> str:
    """A registry spec, or the spec of a level for people (``fort`` → ``pimc``)."""
    try:
        return player_level(text).spec
    except ValueError:
        return text


def make_judged(text: str) -> Bot:
    """A bot of a spec (:func:`spec_of`), or a search player with budget fields changed for a
    measurement: ``pimc:LEVEL[field=value;...]`` (``pimc:16[auction_alpha=0;infer=0.35]``:
    the :class:`~rebelote.bots.pimc.Budget` of ``LEVEL`` with those fields)."""
    if "[" not in text:
        return make_bot(spec_of(text))
    return with_fields(text)


def true_costs(state: DealState) -> tuple[dict[int, int], dict[int, int]]:
    """Each legal card's cost in card points and in marks in the true deal ``state``."""
    rules = state.rules
    values = solve(position_of_state(state), rules)
    obs = state.observation(state.player)
    mover = state.player & 1
    won = tricks_won(state.tricks, state.leader)[mover] > 0
    marker = Marker(state, state.taker, obs.contract, obs.multiplier)
    marks = {c: marker.mark(mover, v, won, mover) for c, v in values.items()}
    best_v, best_m = max(values.values()), max(marks.values())
    return ({c: best_v - v for c, v in values.items()},
            {c: best_m - m for c, m in marks.items()})


def choose_card(bot: Bot, state: DealState, rng: random.Random) -> tuple[int, float]:
    """The card ``bot`` plays at ``state`` (after a declaration choice, if it makes one) and
    the seconds it took."""
    t0 = time.perf_counter()
    action = bot.act(state.observation(state.player), rng)
    if isinstance(action, Declare):
        after = state.apply(action)
        action = bot.act(after.observation(after.player), rng)
    dt = time.perf_counter() - t0
    if not isinstance(action, Play):
        raise ValueError(f"{bot.name}: a card was due, not {action}")
    return action.card, dt


def asked_rng(seed: int, index: int, state: DealState) -> random.Random:
    """The random draws of every judged bot asked at ``state`` (common random numbers): the
    same for all of them at a decision, so that two bots that sample alike draw the same
    worlds there, and their difference is the difference of their choices, not of their
    luck."""
    played = sum(len(t) for _, t in state.tricks) + len(state.trick)
    return random.Random(f"judge:{seed}:{index}:asked:{played}")


#: The cost, in card points, from which a card is a blunder.
BLUNDER: Final = 10
KINDS: Final = ("trumps partner's trick", "leaves partner's suit", "leads into a tenace",
                "other", "leads trumps", "other lead", "leads into a ruff")


def blunder_kind(state: DealState, card: int) -> str:
    """What kind of mistake playing ``card`` at ``state`` is (the true deal: a judge's view):
    one of :data:`KINDS`. Trumping the partner's winning trick when another card could be
    played; leading another suit than the one the partner led last, while holding it; the
    deal's first lead in a plain suit whose ace and ten the opponent playing fourth holds;
    leading a trump in a suit contract while holding a plain card; leading a plain suit an
    opponent is void in and can trump (a suit contract); another lead; ``other``: a
    card following (the wrong card of the suit, a discard, a ruff). Lines written before 7
    December 2026 counted every lead of the last three kinds as ``other``."""
    trump = state.trump
    seat = state.player
    step = seat_step(state.rules)
    partner = (seat + 2) % 4
    trick = state.trick
    is_trump = trump == 5 or (0 <= trump < 4 and suit_of(card) == trump)
    if trick:
        winner = (state.leader + state.win * step) % 4
        led = suit_of(trick[0])
        others = [c for c in range(32) if state.playable >> c & 1 and c != card]
        if winner == partner and is_trump and 0 <= trump < 4 and led != trump \
                and any(suit_of(c) != trump for c in others):
            return KINDS[0]
        return KINDS[3]
    hand = state.hands[seat]
    partner_leads = [cards[0] for leader, cards in state.tricks if leader == partner]
    if partner_leads:
        suit = suit_of(partner_leads[-1])
        holds = any(suit_of(c) == suit for c in range(32) if hand >> c & 1)
        if holds and suit_of(card) != suit and suit != trump:
            return KINDS[1]
    if not state.tricks and not (0 <= trump < 4 and suit_of(card) == trump) and trump != 5:
        fourth = (seat + 3 * step) % 4
        suit = suit_of(card)
        theirs = {rank_of(c) for c in range(32) if state.hands[fourth] >> c & 1
                  and suit_of(c) == suit}
        if {ACE, TEN} <= theirs:
            return KINDS[2]
    if 0 <= trump < 4 and suit_of(card) == trump \
            and any(suit_of(c) != trump for c in range(32) if hand >> c & 1):
        return KINDS[4]
    if 0 <= trump < 4:
        suit = suit_of(card)
        for opponent in ((seat + 1) % 4, (seat + 3) % 4):
            held = {suit_of(c) for c in range(32) if state.hands[opponent] >> c & 1}
            if suit not in held and trump in held:
                return KINDS[6]
    return KINDS[5]


def has_choice(state: DealState) -> bool:
    return state.phase == PLAY and state.playable.bit_count() > 1


@dataclass
class Decision:
    bot: str
    phase: str
    side: str  # "taker" or "defence"
    cost: int
    mark_cost: int
    ms: float
    #: the blunder's kind (:func:`blunder_kind`), ``None`` for a card that is none
    kind: str | None = None


def decision(bot: str, state: DealState, card: int, costs: dict[int, int],
             mark_costs: dict[int, int], ms: float) -> Decision:
    """The judged decision of ``bot`` playing ``card`` at ``state``."""
    seat = state.player
    side = "taker" if (seat & 1) == (state.taker & 1) else "defence"
    kind = blunder_kind(state, card) if costs[card] >= BLUNDER else None
    return Decision(bot, phase_of(state), side, costs[card], mark_costs[card], ms, kind)


def _versus_colver() -> Any:
    """bench/versus_colver.py (it imports colver)."""
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    import versus_colver

    if versus_colver.colver is None:
        raise SystemExit("judge.py: a colver driver needs colver, the yardstick (not a "
                         "dependency of rebelote): .venv/bin/pip install colver")
    return versus_colver


COLVER: Final = "colver:"


def colver_rules() -> Rules:
    """The rule set of a colver driver: bench/versus_colver.py's."""
    return parse_rules(_versus_colver().RULES_TEXT)


def judge_deal_colver(seed: int, index: int, bots: Sequence[str], driver: str
                      ) -> list[Decision]:
    """One of colver's deals (bench/versus_colver.py's deal ``index`` of ``seed``) played by
    colver's agents ``driver`` (``colver:SPEC``) at the four seats, our ``bots`` asked at each
    card with a choice."""
    vc = _versus_colver()
    colver = vc.colver
    to_ours_cards, _ = vc._card_maps()
    toml = vc.colver_spec(driver[len(COLVER):])
    deal_seed = seed * 1_000_003 + index
    dealer = index % 4
    env = colver.Env.deal(seed=deal_seed, dealer=dealer)
    hands = [sum(1 << to_ours_cards[c] for c in hand) for hand in env.get_hands()]
    state = DealState.from_hands(colver_rules(), dealer, hands)
    agents = [colver.Agent(toml, seat=s, seed=deal_seed * 8 + s) for s in range(4)]
    for agent in agents:
        agent.init_deal(env)
    judges = {b: make_judged(b) for b in bots}
    out: list[Decision] = []
    while not state.is_terminal:
        seat = state.player
        t0 = time.perf_counter()
        code = int(agents[seat].decide(env)["action"])
        took = time.perf_counter() - t0
        action = vc.to_ours(code, env.phase(), to_ours_cards)
        if has_choice(state) and isinstance(action, Play):
            costs, mark_costs = true_costs(state)
            # colver's own card first, then what each of ours would play there
            out.append(decision(driver, state, action.card, costs, mark_costs, took * 1000))
            for b in bots:
                card, dt = choose_card(judges[b], state, asked_rng(seed, index, state))
                out.append(decision(b, state, card, costs, mark_costs, dt * 1000))
        for agent in agents:
            agent.observe(env, code)
        env.step(code)
        state = state.apply(action)
    return out


def judge_deal(rules: Rules, seed: int, index: int, bots: Sequence[str], driver: str | None
               ) -> list[Decision]:
    """One deal: paired under ``driver``, or (``driver`` None) each bot in self-play."""
    if driver is not None and driver.startswith(COLVER):
        return judge_deal_colver(seed, index, bots, driver)
    deck_rng = random.Random(f"arena:{seed}:deal:{index}")
    start = DealState.new(rules, index % 4, rng=deck_rng)
    out: list[Decision] = []
    drivers = [driver] if driver is not None else list(bots)
    for d in drivers:
        judged = list(bots) if driver is not None else [d]
        seat_bots = [make_judged(d) for _ in range(4)]
        seat_rngs = [random.Random(f"judge:{seed}:{index}:{d}:{s}") for s in range(4)]
        judges = {b: make_judged(b) for b in judged}
        state = start
        while not state.is_terminal:
            seat = state.player
            if has_choice(state) and not any(isinstance(a, Declare)
                                             for a in state.legal_actions()):
                costs, mark_costs = true_costs(state)
                played: int | None = None
                for b in judged:
                    if driver is None:
                        card, dt = choose_card(seat_bots[seat], state, seat_rngs[seat])
                        played = card
                    else:
                        card, dt = choose_card(judges[b], state, asked_rng(seed, index, state))
                    out.append(decision(b, state, card, costs, mark_costs, dt * 1000))
                if played is None:
                    played, _ = choose_card(seat_bots[seat], state, seat_rngs[seat])
                state = state.apply(Play(played))
                continue
            action = seat_bots[seat].act(state.observation(seat), seat_rngs[seat])
            state = state.apply(action)
    return out


def contract_trump(rules: Rules, seed: int, index: int, driver: str) -> int:
    """The trump mode of the contract ``driver``'s auction reaches in deal ``index`` (as
    :func:`judge_deal` plays it; -1 when all pass): for ``--trumps``."""
    state = DealState.new(rules, index % 4, rng=random.Random(f"arena:{seed}:deal:{index}"))
    seat_bots = [make_judged(driver) for _ in range(4)]
    seat_rngs = [random.Random(f"judge:{seed}:{index}:{driver}:{s}") for s in range(4)]
    while not state.is_terminal and state.phase != PLAY:
        seat = state.player
        state = state.apply(seat_bots[seat].act(state.observation(seat), seat_rngs[seat]))
    return state.trump if state.phase == PLAY else -1


def judge_task(task: tuple[Rules, int, int, tuple[str, ...], str | None]) -> list[Decision]:
    """:func:`judge_deal` of one ``(rules, seed, index, bots, driver)``: a deal for a worker."""
    rules, seed, index, bots, driver = task
    return judge_deal(rules, seed, index, bots, driver)


# -- summary ---------------------------------------------------------------------------------
def ratio_ci(sums: Sequence[float], counts: Sequence[int]) -> tuple[float, float, float]:
    """The pooled mean ``sum(sums) / sum(counts)`` over clusters (deals) and its 95% interval
    (the ratio estimator's variance across clusters, Student's t)."""
    pairs = [(s, n) for s, n in zip(sums, counts, strict=True) if n]
    k = len(pairs)
    total_n = sum(n for _, n in pairs)
    if not total_n:
        return (math.nan, math.nan, math.nan)
    mean = sum(s for s, _ in pairs) / total_n
    if k < 2:
        return (mean, -math.inf, math.inf)
    nbar = total_n / k
    var = sum((s - mean * n) ** 2 for s, n in pairs) / (k * (k - 1)) / nbar ** 2
    half = t975(k - 1) * math.sqrt(var)
    return (mean, mean - half, mean + half)


@dataclass
class Cell:
    sums: dict[int, float] = field(default_factory=dict)
    marks: dict[int, float] = field(default_factory=dict)
    counts: dict[int, int] = field(default_factory=dict)

    def add(self, deal: int, cost: float, mark: float) -> None:
        self.sums[deal] = self.sums.get(deal, 0.0) + cost
        self.marks[deal] = self.marks.get(deal, 0.0) + mark
        self.counts[deal] = self.counts.get(deal, 0) + 1

    def ci(self, deals: Iterable[int], marks: bool = False) -> tuple[float, float, float]:
        ds = list(deals)
        src = self.marks if marks else self.sums
        return ratio_ci([src.get(d, 0.0) for d in ds], [self.counts.get(d, 0) for d in ds])

    @property
    def n(self) -> int:
        return sum(self.counts.values())


def summarize(rows: list[dict[str, Any]], base: str | None = None) -> dict[str, Any]:
    """Per bot: decisions, mean cost (card points and marks) with intervals, by phase and side;
    and (paired runs) each bot's difference from ``base`` (the first bot if ``None``),
    decision by decision."""
    bots: list[str] = []
    for r in rows:
        if r["bot"] not in bots:
            bots.append(r["bot"])
    deals = sorted({int(r["deal"]) for r in rows})
    cells: dict[tuple[str, str], Cell] = {}
    ms: dict[str, list[float]] = {b: [] for b in bots}
    blunders: dict[str, Cell] = {b: Cell() for b in bots}
    kinds: dict[str, dict[str, int]] = {b: {} for b in bots}
    for r in rows:
        for key in ("all", r["phase"], r["side"]):
            cells.setdefault((r["bot"], key), Cell()).add(int(r["deal"]), r["cost"],
                                                         r["mark_cost"])
        ms[r["bot"]].append(float(r["ms"]))
        bad = r["cost"] >= BLUNDER
        blunders[r["bot"]].add(int(r["deal"]), float(bad), 0.0)
        if bad:  # lines written before the kinds were: "unknown"
            kind = r.get("kind") or "unknown"
            kinds[r["bot"]][kind] = kinds[r["bot"]].get(kind, 0) + 1
    out: dict[str, Any] = {"deals": len(deals), "bots": {}}
    for b in bots:
        entry: dict[str, Any] = {}
        for key in ("all", *PHASES, "taker", "defence"):
            cell = cells.get((b, key))
            if cell is None:
                continue
            entry[key] = {"decisions": cell.n,
                          "cost": [round(x, 3) for x in cell.ci(deals)],
                          "mark_cost": [round(x, 3) for x in cell.ci(deals, marks=True)]}
        times = sorted(ms[b])
        entry["blunders"] = {"share": [round(x, 4) for x in blunders[b].ci(deals)],
                             "kinds": dict(sorted(kinds[b].items(), key=lambda kv: -kv[1]))}
        entry["ms"] = {"median": round(times[len(times) // 2], 2),
                       "mean": round(sum(times) / len(times), 2),
                       "max": round(times[-1], 1)}
        out["bots"][b] = entry
    paired = rows and rows[0].get("driver") is not None
    if base is not None and base not in bots:
        raise ValueError(f"--base {base!r} is not one of the judged bots: {', '.join(bots)}")
    if paired and len(bots) > 1:
        base = base or bots[0]
        a_all = cells[(base, "all")]
        out["base"] = base
        out["versus_first"] = {}
        for b in bots:
            if b == base:
                continue
            c = cells[(b, "all")]
            diff = [c.sums.get(d, 0.0) - a_all.sums.get(d, 0.0) for d in deals]
            dm = [c.marks.get(d, 0.0) - a_all.marks.get(d, 0.0) for d in deals]
            n = [c.counts.get(d, 0) for d in deals]
            out["versus_first"][b] = {
                "cost": [round(x, 3) for x in ratio_ci(diff, n)],
                "mark_cost": [round(x, 3) for x in ratio_ci(dm, n)],
                "ratio": round(c.ci(deals)[0] / a_all.ci(deals)[0], 3)
                if a_all.ci(deals)[0] else None}
    return out


def report(summary: dict[str, Any], head: dict[str, Any]) -> str:
    def f(ci: list[float]) -> str:
        return f"{ci[0]:6.2f} [{ci[1]:6.2f}, {ci[2]:6.2f}]"

    lines = [f"# decision judge: {head.get('mode')} ({head.get('driver') or 'self-play'}), "
             f"{head.get('game')} {head.get('rules')}, seed {head.get('seed')}, "
             f"{summary['deals']} deals; cost per card with a choice: double-dummy card points "
             f"(marks), mean [95% interval]"]
    for b, e in summary["bots"].items():
        a = e["all"]
        lines.append(f"{b:<16} {a['decisions']:>6} cards  cost {f(a['cost'])}  marks "
                     f"{f(a['mark_cost'])}  ms median {e['ms']['median']} mean {e['ms']['mean']}"
                     f" max {e['ms']['max']}")
        for key in (*PHASES, "taker", "defence"):
            if key in e:
                c = e[key]
                lines.append(f"    {key:<12} {c['decisions']:>6}  cost {f(c['cost'])}  marks "
                             f"{f(c['mark_cost'])}")
        bl = e["blunders"]
        share = [100 * x for x in bl["share"]]
        kinds = ", ".join(f"{k} {n}" for k, n in bl["kinds"].items()) or "none"
        lines.append(f"    blunders (cost >= {BLUNDER}) {f(share)} %  {kinds}")
    for b, v in summary.get("versus_first", {}).items():
        first = summary["base"]
        lines.append(f"{b} - {first}: cost {f(v['cost'])}  marks {f(v['mark_cost'])}  "
                     f"ratio {v['ratio']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="heuristic,pimc:fast")
    parser.add_argument("--driver", default="heuristic")
    parser.add_argument("--selfplay", action="store_true")
    parser.add_argument("--game", default="coinche")
    parser.add_argument("--rules", default="official",
                        help="a preset of --game, or a whole rule set "
                             "(contree:ffb-ludique,rounding=none)")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out")
    parser.add_argument("--summary")
    parser.add_argument("--base", help="the bot the others are paired with (the first)")
    parser.add_argument("--side", choices=("taker", "defence"),
                        help="only the cards of that side")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--trumps",
                        help="judge only the deals whose contract (the driver's auction) is "
                             "in these trump modes, by number (0-3 suits, 4 no-trump, "
                             "5 all-trump): --trumps 4,5")
    add_parallel_arguments(parser)
    args = parser.parse_args(argv)
    if args.summary:
        with open(args.summary) as fh:
            rows = [json.loads(x) for x in fh if x.strip()]
        head = rows[0] if rows else {}
    else:
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        driver = None if args.selfplay else args.driver
        if driver is not None and driver.startswith(COLVER):
            rules = colver_rules()
            _versus_colver().colver_spec(driver[len(COLVER):])  # a bad spec fails here
            game, preset = rules.game, rules.to_text()
        elif ":" in args.rules:  # a whole rule set, game:preset,option=value,...
            rules = parse_rules(args.rules)
            game, preset = rules.game, rules.to_text()
        else:
            rules = Rules.preset(args.rules, args.game)
            game, preset = args.game, args.rules
        head = {"mode": "self-play" if driver is None else "paired", "driver": driver,
                "game": game, "rules": preset, "seed": args.seed}
        rows = []
        sink = open(args.out, "a") if args.out else None  # noqa: SIM115
        t0 = time.perf_counter()
        ship_to_cluster(args.scheduler, __name__)
        indices: Sequence[int] = range(args.start, args.start + args.deals)
        if args.trumps:
            if driver is None or driver.startswith(COLVER):
                parser.error("--trumps: with a driver bot of ours (not --selfplay or colver)")
            try:
                modes = {int(t) for t in args.trumps.split(",")}
            except ValueError:
                parser.error(f"--trumps: trump modes by number 0-5, not {args.trumps!r}")
            indices = [i for i in indices if contract_trump(rules, args.seed, i, driver)
                       in modes]
            head["trumps"] = sorted(modes)
        tasks = [(rules, args.seed, i, tuple(bots), driver) for i in indices]
        for i, decisions in zip(indices, parallel_map(judge_task, tasks, args.workers,
                                                      args.scheduler), strict=True):
            for d in decisions:
                row = {**head, "deal": i, **d.__dict__}
                rows.append(row)
                if sink:
                    sink.write(json.dumps(row) + "\n")
            if sink:
                sink.flush()
            print(f"deal {i} done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        if sink:
            sink.close()
    if args.side:
        rows = [r for r in rows if r["side"] == args.side]
    if not rows:
        print("no decisions")
        return
    try:
        summary = summarize(rows, args.base)
    except ValueError as e:
        parser.error(str(e))
    print(json.dumps(summary, indent=1) if args.json else report(summary, head))


if __name__ == "__main__":
    main()
