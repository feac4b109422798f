"""colver's bots (Rust, ``pip install colver``) seated at rebelote through the line protocol.

    rebelote arena --a heuristic --game contree --rules ffb-ludique \\
        --options '{"failure_base": 162, "rounding": "none"}' \\
        --b "engine:python3 examples/colver_bot.py --bot smart:50ms" --deals 200

colver plays contrée (suit contracts, no declarations): this adapter refuses another game, and
in a deal where a seat called no-trump, all-trump or a générale (ours may, colver's cannot) it
passes or plays its first legal card, saying so on standard error.
At each ``act`` line it rebuilds the deal as colver's seat sees it: its own cards (those in hand
and those it played), and the other seats' cards so far; the hidden cards of the other seats are
dealt at random among the unseen ones, consistently with every card played (a seat that did not
follow a suit holds none of it, one that did not trump or overtrump holds no trump that would
have: rebelote's rule of legal cards undone; a world that colver's rules refuse is dealt
again). It runs where rebelote is installed (it reads the rules with it). A
``colver.Agent`` observes the whole deal (``init_deal``, then ``observe`` at every call and
card, as colver's own arena does) and decides; its action goes back as our text. The agent sees
only its seat's cards and the public ones: the random hidden cards are there because colver's
``Env`` is a whole deal, and its bots sample their own worlds from their seat's view.

``--bot``: ``heuristic`` (its rule-based bidder ``improved`` and card play), ``smart:Nms``
(smart IS-MCTS, N ms a card), ``naive:Nms``, ``isdd:N`` / ``isdd:Nms`` (IS-DD, N worlds or N ms),
``toml:PATH`` (any colver bot spec) — bench/versus_colver.py's names. ``--seed``: the agents'
and the hidden cards' seed (the same seed and lines give the same answers at count budgets).
docs/versus-colver.md says what the arena measures with it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from rebelote.cards import card_str, iter_mask, parse_card
from rebelote.rules import Rules, legal_cards, parse_rules

try:
    import colver
except ImportError:
    sys.exit("examples/colver_bot.py needs colver: pip install colver")

SEATS = "NESW"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
_SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
C_PASS, C_CAPOT, C_COINCHE, C_SURCOINCHE = 0, 37, 41, 42
TRIES = 2000


def _card_names() -> list[str]:
    """colver's 32 cards in our text (``colver.Env.card_name``: ``10♠`` is our ``TS``)."""
    env = colver.Env.deal(seed=0, dealer=0)
    out = []
    for i in range(32):
        name = env.card_name(i)
        rank, suit = name[:-1], name[-1]
        out.append(("T" if rank == "10" else rank) + _SUIT_LETTERS[suit])
    return out


CARDS = _card_names()
CARD_INDEX = {c: i for i, c in enumerate(CARDS)}


def bid_text(action: int) -> str:
    """Our text of colver's auction action."""
    if action == C_PASS:
        return "pass"
    if action == C_COINCHE:
        return "coinche"
    if action == C_SURCOINCHE:
        return "surcoinche"
    if 1 <= action < C_CAPOT:
        return f"{80 + 10 * ((action - 1) // 4)} {SUIT_NAMES[(action - 1) % 4]}"
    if C_CAPOT <= action < C_COINCHE:
        return f"capot {SUIT_NAMES[action - C_CAPOT]}"
    raise ValueError(f"colver auction action {action}")


BID_INDEX = {bid_text(a): a for a in range(43)}


def colver_spec(text: str) -> str:
    """The TOML bot spec of a short name (bench/versus_colver.py's forms)."""
    name, _, level = text.strip().lower().partition(":")
    if name == "toml":
        with open(text.strip()[5:], encoding="utf-8") as f:
            return f.read()
    methods = {"heuristic": "heuristic", "smart": "smart_ismcts", "naive": "ismcts",
               "isdd": "isdd"}
    if name not in methods:
        raise SystemExit(f"--bot: {text!r} is not a colver bot (heuristic, smart:Nms, "
                         "naive:Nms, isdd:N, isdd:Nms, toml:PATH)")
    lines = ["[bid]", 'strategy = "improved"', "[play]", f'method = "{methods[name]}"']
    if name != "heuristic":
        budget = level.removesuffix("ms")
        if not budget.isdigit() or int(budget) <= 0 or (name != "isdd"
                                                       and not level.endswith("ms")):
            raise SystemExit(f"--bot: {text!r}: a budget, N ms (N worlds for isdd)")
        if level.endswith("ms"):
            lines.append(f"time_ms = {int(budget)}")
        else:
            lines += ["time_ms = 0", f"determinizations = {int(budget)}"]
        if name == "isdd":
            lines += ["parallel = false", "[worlds]", 'source = "uniform"']
    elif level:
        raise SystemExit(f"--bot: colver's heuristic has no budget ({text!r})")
    return "\n".join(lines) + "\n"


def history(obs: dict[str, Any]) -> tuple[list[tuple[int, int, int]], list[list[str]]]:
    """The deal's actions so far as (seat, phase, colver action), and each seat's cards
    played."""
    actions = [(SEATS.index(s), 0, BID_INDEX[call]) for s, call in obs["auction"]]
    played: list[list[str]] = [[], [], [], []]
    tricks = [*obs["tricks"], obs["trick"]]
    step = 1  # colver and the FFB play clockwise (N E S W)
    for leader, *cards in tricks:
        seat = SEATS.index(leader)
        for i, card in enumerate(cards):
            s = (seat + i * step) % 4
            actions.append((s, 1, CARD_INDEX[card]))
            played[s].append(card)
    return actions, played


def forbidden(obs: dict[str, Any], rules: Rules) -> list[set[str]]:
    """The cards each seat cannot hold now, from its plays: a card of the led suit when it did
    not follow, a trump when it discarded with an opponent winning, a higher trump when it did
    not overtrump... (rebelote's rule of legal cards, ``rules.legal_cards``, undone)."""
    out: list[set[str]] = [set(), set(), set(), set()]
    trump = ("spades", "hearts", "diamonds", "clubs", "no-trump", "all-trump").index(
        obs["trump"])
    gone = 0  # the cards played before the one looked at
    for leader, *texts in [*obs["tricks"], obs["trick"]]:
        seat = SEATS.index(leader)
        cards = [parse_card(t) for t in texts]
        for i, c in enumerate(cards):
            if i:
                possible = ((1 << 32) - 1) & ~gone & ~(1 << c)
                excluded = 0
                allowed = legal_cards(possible | 1 << c, cards[:i], trump, rules)
                while not allowed >> c & 1:
                    excluded |= allowed
                    possible &= ~allowed
                    allowed = legal_cards(possible | 1 << c, cards[:i], trump, rules)
                out[(seat + i) % 4] |= {card_str(x) for x in iter_mask(excluded)}
            gone |= 1 << c
    return out


def deal_world(obs: dict[str, Any], played: list[list[str]], rules: Rules,
               rng: random.Random) -> list[list[int]] | None:
    """The four hands at the deal's start: ours, and the others' cards played plus unseen cards
    dealt at random among those their plays allow; ``None`` if this draw found none."""
    me = SEATS.index(obs["seat"])
    mine = set(obs["hand"]) | set(played[me])
    seen = mine | {c for s in range(4) for c in played[s]}
    pool = [c for c in CARDS if c not in seen]
    rng.shuffle(pool)
    cannot = forbidden(obs, rules) if obs["trump"] else [set(), set(), set(), set()]
    need = {s: 8 - len(played[s]) for s in range(4) if s != me}
    hands: dict[int, list[str]] = {me: sorted(mine)}
    left = set(pool)
    for s in sorted(need, key=lambda s: (sum(c not in cannot[s] for c in pool), s)):
        fits = [c for c in pool if c in left and c not in cannot[s]]
        if len(fits) < need[s]:
            return None
        take = fits[:need[s]]
        left -= set(take)
        hands[s] = [*played[s], *take]
    return [[CARD_INDEX[c] for c in hands[s]] for s in range(4)]


class Seat:
    """colver's agent at one seat, rebuilt at each decision from the deal so far."""

    def __init__(self, spec: str, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        self.said: tuple[int, str] | None = None

    def decide(self, obs: dict[str, Any]) -> str:
        if obs["game"] != "contree":
            raise SystemExit(f"colver plays contrée only, not {obs['game']!r} "
                             "(rebelote arena --game contree)")
        me = SEATS.index(obs["seat"])
        dealer = SEATS.index(obs["dealer"])
        foreign = [call for _, call in obs["auction"] if call not in BID_INDEX]
        if foreign:
            return self.outside_colver(obs, foreign[0])
        actions, played = history(obs)
        rules = parse_rules(obs["rules_text"])
        rng = random.Random(f"{self.seed}:{obs['deal']}:{me}:{len(actions)}")
        for _ in range(TRIES):
            hands = deal_world(obs, played, rules, rng)
            if hands is None:
                continue
            env = colver.Env.deal_with_hands(dealer, hands)
            agent = colver.Agent(self.spec, seat=me, seed=self.seed * 1_000_003 + obs["deal"])
            scores = obs["scores"]
            agent.set_scores(scores["NS"], scores["EW"])
            agent.init_deal(env)
            if self._replay(env, agent, actions):
                break
        else:
            raise SystemExit(f"no deal of colver's fits the deal so far at seat {obs['seat']}")
        if env.current_player() != me:
            raise SystemExit(f"colver's turn is seat {SEATS[env.current_player()]}, ours "
                             f"{obs['seat']}")
        action = int(agent.decide(env)["action"])
        return bid_text(action) if env.phase() == 0 else CARDS[action]

    def outside_colver(self, obs: dict[str, Any], call: str) -> str:
        """A deal colver cannot play (a no-trump, all-trump or générale call, which its
        contrée has not): pass where it may, else the first legal action; said once a deal on
        standard error."""
        key = (obs["deal"], obs["seat"])
        if key != self.said:
            self.said = key
            print(f"colver_bot: deal {obs['deal']}, seat {obs['seat']}: {call!r} is not a "
                  "call of colver's; this seat passes or plays its first legal card",
                  file=sys.stderr, flush=True)
        legal = obs["legal"]
        return "pass" if "pass" in legal else legal[0]

    @staticmethod
    def _replay(env: Any, agent: Any, actions: list[tuple[int, int, int]]) -> bool:
        """Step the deal's actions into ``env`` (each checked by colver's rules) and show
        them to ``agent``; False when this world refuses one."""
        for seat, phase, action in actions:
            if env.current_player() != seat or env.phase() != phase \
                    or action not in env.legal_actions():
                return False
            agent.observe(env, action)
            env.step(action)
        return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="heuristic", help="a colver bot (see above)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    spec = colver_spec(args.bot)
    colver.Agent(spec, seat=0)  # a bad spec fails here, before any line
    seat = Seat(spec, args.seed)
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") != "act":
            continue
        print(seat.decide(message), flush=True)


if __name__ == "__main__":
    main()
