"""rebelote.pettingzoo: PettingZoo's own API test in every game, the action space holding every
call and card, the observation holding only what the seat may see, the rewards the deals'
marks (or the game's result). Skipped without the ``rl`` extra."""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test

from rebelote.cards import SEATS, iter_mask
from rebelote.errors import RulesError
from rebelote.pettingzoo import (
    ACTIONS,
    LAYOUT,
    OBSERVATION_SIZE,
    action_index,
    env,
    raw_env,
)
from rebelote.rules import GAMES

ROOT = Path(__file__).resolve().parents[1]


def quiet_api_test(e: Any, cycles: int) -> None:
    with warnings.catch_warnings():
        # api_test's advice for Dict observations (as for its own classic games)
        warnings.simplefilter("ignore", UserWarning)
        api_test(e, num_cycles=cycles, verbose_progress=False)


@pytest.mark.parametrize("game", GAMES)
def test_api_test_passes_in_every_game(game: str) -> None:
    quiet_api_test(env(game=game), 600)
    quiet_api_test(env(game=game, episode="game"), 300)


def test_api_test_passes_on_the_raw_env_and_other_rule_sets() -> None:
    quiet_api_test(raw_env(game="contree", rules="ffb-ludique"), 200)
    quiet_api_test(env(game="belote", options={"belote_no_all_trump": True},
                       episode="game", reward="win", target=300), 400)


def play(e: Any, rng: random.Random, check: Any = None) -> dict[str, float]:
    """Play the episode with random legal actions; the agents' rewards summed."""
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        if check:
            check(e, agent, obs)
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        e.step(rng.choice(legal))
    return total


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_call_and_card_is_in_the_space_and_masked(game: str) -> None:
    rng = random.Random(5)
    e = raw_env(game=game, options={"belote_no_all_trump": True} if game == "belote" else None)
    seen: set[int] = set()

    def check(env_: Any, agent: str, obs: dict[str, Any]) -> None:
        state = env_.state_now
        seat = SEATS.index(agent)
        assert state.current_player == seat
        legal = state.legal_actions()
        mapped = {action_index(a) for a in legal} - {None}
        assert {i for i, m in enumerate(obs["action_mask"]) if m} == mapped
        assert mapped  # never a seat with nothing to choose
        for a in legal:  # only the declare-a-chosen-set choices are outside the space
            assert action_index(a) is not None or str(a).startswith("declare ")
        seen.update(mapped)
        # the observer's own cards, and no other seat's
        hand = obs["observation"][:32]
        assert {i for i, x in enumerate(hand) if x} == set(iter_mask(state.observation(
            seat).hand))
        assert obs["observation"].shape == (OBSERVATION_SIZE,)
        assert obs["observation"].min() >= 0 and obs["observation"].max() <= 1

    for seed in range(25):
        e.reset(seed=seed)
        play(e, rng, check)
    assert len(seen) > (36 if game == "belote" else 45)  # cards, calls of every kind


def test_the_observation_never_holds_another_seats_hidden_cards() -> None:
    """Two deals that differ only in the hidden cards of the other seats give the observer the
    same vector."""
    from rebelote.deal import DealState
    from rebelote.pettingzoo import encode

    e = raw_env(game="coinche")
    e.reset(seed=3)
    rng = random.Random(0)
    for _ in range(12):  # into the play
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(rng.choice([i for i, m in enumerate(mask) if m]))
    state = e.state_now
    for seat in range(4):
        obs = state.observation(seat)
        other = DealState.from_observation(obs, random.Random(9))
        assert other.hands != state.hands or obs.phase != 1
        assert (encode(other.observation(seat), 1000) == encode(obs, 1000)).all()


def test_rewards_are_the_deals_marks() -> None:
    rng = random.Random(2)
    for game in GAMES:
        e = raw_env(game=game)
        for seed in range(6):
            e.reset(seed=seed)
            totals = play(e, rng)
            marks = e.state_now.returns()
            assert totals == {a: marks[s] for s, a in enumerate(SEATS)}
            assert totals["N"] == totals["S"] == -totals["E"] == -totals["W"]


def test_a_game_episode_rewards_each_deal_and_win_rewards_the_result() -> None:
    rng = random.Random(4)
    e = raw_env(game="belote", episode="game", target=400)
    e.reset(seed=1)
    totals = play(e, rng)
    game = e.state_now
    assert game.is_terminal and len(game.finished) >= 2
    ns = sum(d.returns()[0] for d in game.finished)
    assert totals == {"N": ns, "S": ns, "E": -ns, "W": -ns}
    w = raw_env(game="coinche", episode="game", reward="win", target=300)
    w.reset(seed=1)
    result = play(w, rng)
    assert sorted(result.values()) == [-1, -1, 1, 1]


def test_the_same_seed_gives_the_same_episode() -> None:
    def run(seed: int) -> list[int]:
        e = raw_env(game="contree")
        e.reset(seed=seed)
        rng = random.Random(7)
        out = []
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            a = rng.choice([i for i, m in enumerate(obs["action_mask"]) if m])
            out.append(a)
            e.step(a)
            del agent
        return out

    assert run(11) == run(11) and run(11) != run(12)


def test_bad_options_and_illegal_actions_are_named() -> None:
    for kwargs, field in [({"game": "tarot"}, "game"), ({"episode": "match"}, "episode"),
                          ({"reward": "win"}, "reward"), ({"target": 0}, "target"),
                          ({"render_mode": "rgb"}, "render_mode"),
                          ({"options": {"rounding": "up"}}, "options.rounding")]:
        with pytest.raises(RulesError, match=f"^{re.escape(field)}"):
            raw_env(**kwargs)
    e = raw_env(game="coinche")
    e.reset(seed=0)
    assert str(ACTIONS[0]) == "7S"  # a card, in the auction
    with pytest.raises(RulesError, match=r"^action: 0 \(7S\) is not legal for"):
        e.step(0)
    r = raw_env(game="belote", render_mode="ansi")
    r.reset(seed=1)
    assert "dealer" in r.render()


def test_the_layout_is_documented() -> None:
    doc = (ROOT / "docs" / "interfaces.md").read_text(encoding="utf-8")
    section = doc[doc.index("## The PettingZoo environment"):]
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", section, re.MULTILINE)
    assert [(n, int(size)) for n, _, size in rows] == list(LAYOUT)
    offset = 0
    for _, start, size in rows:
        assert int(start) == offset
        offset += int(size)
    assert offset == OBSERVATION_SIZE
    assert f"Discrete({len(ACTIONS)})" in section


def test_docstring_examples_run() -> None:
    import doctest

    import rebelote.pettingzoo

    result = doctest.testmod(rebelote.pettingzoo)
    assert result.failed == 0 and result.attempted > 0
