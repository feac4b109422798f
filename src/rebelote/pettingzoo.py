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

from rebelote.bots.encoding import (
    ACTIONS,
    LAYOUT,
    OBSERVATION_SIZE,
    action_index,
    action_mask,
    encode,
)
from rebelote.cards import SEATS, card_str, iter_mask
from rebelote.deal import DealState
from rebelote.errors import RulesError
from rebelote.game import Game
from rebelote.rules import GAMES, Rules, parse_rules

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - the tests skip without the extra
    raise ImportError("rebelote.pettingzoo needs the 'rl' extra: pip install 'rebelote[rl]' "
                      f"(pettingzoo, gymnasium, numpy): {e}") from None

__all__ = ["ACTIONS", "LAYOUT", "OBSERVATION_SIZE", "action_index", "env", "raw_env"]


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
        return {"observation": encode(obs, self.target), "action_mask": action_mask(obs.legal)}

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

