"""A PettingZoo environment (the AEC API) of Belote, Coinche and Contrée, for reinforcement
learning: ``rebelote.pettingzoo.env(game="coinche")``. It needs the ``rl`` extra (``pip
install 'rebelote[rl]'``: pettingzoo, gymnasium, numpy); playing never does.

Four agents, the seats ``N E S W``, act in turn. Each observes a :data:`OBSERVATION_SIZE`
float32 vector (its own cards and everything public, never another seat's hidden cards; the
layout is :data:`LAYOUT`, docs/interfaces.md "The PettingZoo environment") and an action mask
over one ``Discrete(109)`` action space holding every call and card (:data:`ACTIONS`). An
episode is one deal (``episode="deal"``, the default) or a whole game to the target
(``episode="game"``); at the end of each deal every agent is rewarded its team's mark minus the
other team's (``reward="marks"``), or, in a game, +1 or -1 when the game is won
(``reward="win"``).

>>> e = env(game="belote")
>>> e.reset(seed=1)
>>> e.agent_selection, int(e.action_space("N").n), e.observe("N")["observation"].shape
('S', 109, (685,))
"""

from __future__ import annotations

import random
from typing import Any, Final

from rebelote.actions import AUCTION, NO_DECLARATION, PLAYS, Action
from rebelote.auction import COINCHE, PASS, SURCOINCHE, TAKE, Bid
from rebelote.cards import SEATS, card_str, iter_mask
from rebelote.deal import DealState
from rebelote.declarations import COMBO_KINDS
from rebelote.errors import RulesError
from rebelote.game import Game
from rebelote.observation import Observation
from rebelote.rules import CONTRACTS, GAMES, TRUMP_NAMES, Rules, parse_rules

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - the tests skip without the extra
    raise ImportError("rebelote.pettingzoo needs the 'rl' extra: pip install 'rebelote[rl]' "
                      f"(pettingzoo, gymnasium, numpy): {e}") from None

__all__ = ["ACTIONS", "LAYOUT", "OBSERVATION_SIZE", "action_index", "env", "raw_env"]


def _all_actions() -> tuple[Action, ...]:
    out: list[Action] = list(PLAYS)
    out += [NO_DECLARATION, PASS, TAKE, COINCHE, SURCOINCHE]
    out += [Bid("suit", t) for t in range(len(TRUMP_NAMES))]
    out += [Bid("value", t, v) for v in CONTRACTS for t in range(len(TRUMP_NAMES))]
    out += [Bid("capot", t) for t in range(len(TRUMP_NAMES))]
    out += [Bid("generale", t) for t in range(len(TRUMP_NAMES))]
    return tuple(out)


#: Every action, by its index in the action space: the 32 cards (``card_str(i)``), then
#: ``no-declaration``, ``pass``, ``take``, ``coinche``, ``surcoinche``, a trump named in
#: belote's second round (six), the value bids 80..160 in each trump mode (value by value),
#: capot and générale in each trump mode. A card played at the first trick declares the best
#: set the hand holds; ``no-declaration`` declares nothing (the other ``declare ...`` choices
#: are not in the space).
ACTIONS: Final = _all_actions()
_INDEX: Final = {a: i for i, a in enumerate(ACTIONS)}
#: The calls of the space (every action after the cards and ``no-declaration``).
_CALLS: Final = ACTIONS[33:]
_CALL_INDEX: Final = {a: i for i, a in enumerate(_CALLS)}

#: The observation's parts in order: (name, size). Seats are relative to the observer:
#: 0 itself, then 1, 2 (its partner), 3 in the order N E S W.
LAYOUT: Final[tuple[tuple[str, int], ...]] = (
    ("hand", 32),                    # the observer's cards
    ("played", 4 * 32),              # the cards each seat has played in this deal
    ("trick", 4 * 32),               # the cards on the table, by the seat that played them
    ("leader", 4),                   # the seat that led the trick on the table
    ("turned", 32),                  # belote's turned card (during the auction)
    ("phase", 2),                    # auction, play
    ("dealer", 4),
    ("calls", 4 * len(_CALLS)),      # each seat's latest call (one of the 76 calls)
    ("passes", 1),                   # passes since the last bid that was not a pass, / 4
    ("trump", len(TRUMP_NAMES)),     # the contract's trump mode (spades..all-trump)
    ("taker", 4),
    ("contract", len(CONTRACTS) + 2),  # 80..160, capot, générale
    ("coinche", 2),                  # coinched, surcoinched
    ("declarations", 4 * len(COMBO_KINDS)),  # the kinds each seat announced
    ("belote", 4),                   # the seats that said belote (or rebelote)
    ("points", 2),                   # the observer's team's trick points, the other's, / 252
    ("scores", 2),                   # the game's scores before this deal, / the target (≤ 1)
    ("game", len(GAMES)),            # belote, coinche, contree
)
OBSERVATION_SIZE: Final = sum(size for _, size in LAYOUT)
_OFFSET: Final = {name: sum(s for _, s in LAYOUT[:i]) for i, (name, _) in enumerate(LAYOUT)}


def action_index(action: Action) -> int | None:
    """The index of ``action`` in the action space (``None`` for a ``declare ...`` choice)."""
    return _INDEX.get(action)


def encode(obs: Observation, target: int) -> Any:
    """The observation vector of ``obs`` (:data:`LAYOUT`)."""
    v = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    me = obs.seat
    o = _OFFSET
    for card in iter_mask(obs.hand):
        v[o["hand"] + card] = 1
    step = obs.step
    for leader, cards in obs.tricks:
        for i, card in enumerate(cards):
            v[o["played"] + 32 * ((leader + i * step - me) % 4) + card] = 1
    if obs.trick:
        for i, card in enumerate(obs.trick):
            rel = (obs.leader + i * step - me) % 4
            v[o["played"] + 32 * rel + card] = 1
            v[o["trick"] + 32 * rel + card] = 1
    if obs.leader >= 0:
        v[o["leader"] + (obs.leader - me) % 4] = 1
    if obs.turned >= 0 and obs.taker < 0:
        v[o["turned"] + obs.turned] = 1
    v[o["phase"] + (0 if obs.phase == AUCTION else 1)] = 1
    v[o["dealer"] + (obs.dealer - me) % 4] = 1
    latest: dict[int, Bid] = {}
    passes = 0
    for seat, bid in obs.auction:
        latest[seat] = bid
        passes = passes + 1 if bid == PASS else 0
    for seat, bid in latest.items():
        k = _CALL_INDEX.get(bid)
        if k is not None:
            v[o["calls"] + len(_CALLS) * ((seat - me) % 4) + k] = 1
    v[o["passes"]] = min(passes, 4) / 4
    if obs.trump >= 0:
        v[o["trump"] + obs.trump] = 1
    if obs.taker >= 0:
        v[o["taker"] + (obs.taker - me) % 4] = 1
    if obs.contract is not None:
        c = obs.contract
        if c.kind == "value" and c.value in CONTRACTS:
            v[o["contract"] + CONTRACTS.index(c.value)] = 1
        elif c.kind == "capot":
            v[o["contract"] + len(CONTRACTS)] = 1
        elif c.kind == "generale":
            v[o["contract"] + len(CONTRACTS) + 1] = 1
    if obs.multiplier >= 2:
        v[o["coinche"] + (0 if obs.multiplier == 2 else 1)] = 1
    for seat, kinds in obs.announced:
        for kind in kinds:
            v[o["declarations"] + len(COMBO_KINDS) * ((seat - me) % 4)
              + COMBO_KINDS.index(kind)] = 1
    for seat, _ in obs.belote:
        v[o["belote"] + (seat - me) % 4] = 1
    team = me & 1
    v[o["points"]] = min(obs.points[team] / 252, 1.0)
    v[o["points"] + 1] = min(obs.points[1 - team] / 252, 1.0)
    v[o["scores"]] = min(obs.scores[team] / target, 1.0)
    v[o["scores"] + 1] = min(obs.scores[1 - team] / target, 1.0)
    v[o["game"] + GAMES.index(obs.rules.game)] = 1
    return v


def _mask(legal: tuple[Action, ...] | list[Action]) -> Any:
    mask = np.zeros(len(ACTIONS), dtype=np.int8)
    for a in legal:
        i = _INDEX.get(a)
        if i is not None:
            mask[i] = 1
    return mask


def _rules(game: str, rules: str | Rules | None, options: dict[str, Any] | None) -> Rules:
    if isinstance(rules, Rules):
        chosen = rules
    elif rules is not None and ":" in rules:
        chosen = parse_rules(rules)
    else:
        if game not in GAMES:
            raise RulesError("game", f"{game!r} is not a game ({', '.join(GAMES)})")
        chosen = Rules.preset(rules, game)
    return chosen.replace(**options) if options else chosen


class raw_env(AECEnv):  # type: ignore[misc]
    """The AEC environment without PettingZoo's checking wrappers (:func:`env` adds them).

    ``game``: belote, coinche or contree; ``rules``: a preset or a rule set's text form
    (``contree:ffb,rounding=none``), ``options`` single rules; ``episode``: ``"deal"`` or
    ``"game"`` (to ``target``, the rules' own by default); ``reward``: ``"marks"`` (each deal:
    the team's mark minus the other's) or ``"win"`` (a game: +1 / -1 at its end);
    ``render_mode``: ``"ansi"`` (``render()`` returns the observer's view as text) or
    ``"human"`` (prints it).
    """

    metadata: Final[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "rebelote_v0",
                       "is_parallelizable": False}

    def __init__(self, game: str = "coinche", rules: str | Rules | None = None,
                 options: dict[str, Any] | None = None, episode: str = "deal",
                 reward: str = "marks", target: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = _rules(game, rules, options)
        if episode not in ("deal", "game"):
            raise RulesError("episode", f"{episode!r} is not 'deal' or 'game'")
        if reward not in ("marks", "win"):
            raise RulesError("reward", f"{reward!r} is not 'marks' or 'win'")
        if reward == "win" and episode != "game":
            raise RulesError("reward", "'win' rewards a whole game: episode='game'")
        if target is not None and (isinstance(target, bool) or not isinstance(target, int)
                                   or target <= 0):
            raise RulesError("target", f"a positive whole number, not {target!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesError("render_mode", f"{render_mode!r} is not ansi or human")
        self.episode = episode
        self.reward_kind = reward
        self.target = target or self.rules.target
        self.render_mode = render_mode
        self.possible_agents: list[str] = list(SEATS)
        self.agents: list[str] = []
        box = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), dtype=np.float32)
        mask = spaces.Box(0, 1, (len(ACTIONS),), dtype=np.int8)
        self._observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                    for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(len(ACTIONS)) for a in self.possible_agents}
        self._state: DealState | Game | None = None
        self._rng = random.Random()

    def observation_space(self, agent: str) -> Any:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self._action_spaces[agent]

    @property
    def state_now(self) -> DealState | Game:
        """The deal (or game) in play; every hand is in it (never show it to an agent)."""
        if self._state is None:
            raise RulesError("reset", "call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = self._rng.randrange(4)
        if self.episode == "game":
            self._state = Game.new(self.rules, seed=self._rng.getrandbits(62),
                                   target=self.target, dealer=dealer)
        else:
            self._state = DealState.new(self.rules, dealer,
                                        rng=random.Random(self._rng.getrandbits(62)))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = SEATS[self._state.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state_now
        obs = state.observation(SEATS.index(agent))
        return {"observation": encode(obs, self.target), "action_mask": _mask(obs.legal)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_now
        if not isinstance(action, int | np.integer) or not 0 <= int(action) < len(ACTIONS):
            raise RulesError("action", f"{action!r} is not an action index 0..{len(ACTIONS) - 1}")
        chosen = ACTIONS[int(action)]
        legal = state.legal_actions()
        if chosen not in legal:
            raise RulesError("action", f"{int(action)} ({chosen}) is not legal for {agent} "
                                       f"(legal: {', '.join(str(a) for a in legal)})")
        self._cumulative_rewards[agent] = 0
        before = state
        state = self._state = state.apply(chosen)
        self.rewards = {a: 0 for a in self.agents}
        ended = state if isinstance(state, DealState) else None
        if isinstance(state, Game) and isinstance(before, Game) \
                and len(state.finished) > len(before.finished):
            ended = state.finished[-1]
        if ended is not None and ended.is_terminal:
            if self.reward_kind == "marks":
                marks = ended.returns()
                self.rewards = {a: marks[s] for s, a in enumerate(SEATS)}
            for s, a in enumerate(SEATS):
                self.infos[a] = {"deal_marks": ended.returns()[s],
                                 "outcome": "void" if ended.is_void
                                 else ended.score().outcome}
        if state.is_terminal:
            if self.reward_kind == "win" and isinstance(state, Game):
                wins = state.returns()
                self.rewards = {a: wins[s] for s, a in enumerate(SEATS)}
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = SEATS[state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None or self._state is None:
            return None
        state = self._state
        deal = state.deal if isinstance(state, Game) else state
        lines = [f"{self.rules.to_text()}, dealer {SEATS[deal.dealer]}"]
        for s in range(4):
            hand = " ".join(card_str(c) for c in iter_mask(deal.hands[s]))
            lines.append(f"{SEATS[s]}: {hand}")
        obs = deal.observation(0)
        lines.append("auction: " + ", ".join(f"{SEATS[s]} {b}" for s, b in obs.auction))
        if obs.trick:
            lines.append("trick: " + " ".join(card_str(c) for c in obs.trick))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._state = None


def env(game: str = "coinche", **options: Any) -> Any:
    """The environment with PettingZoo's checking wrappers (an action out of the space, or a
    step before ``reset``, is refused): ``raw_env(game, **options)`` wrapped."""
    e = raw_env(game, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)

