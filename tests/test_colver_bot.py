"""examples/colver_bot.py: colver's bots at rebelote's arena through the line protocol. Skipped
without colver (the yardstick, never a dependency: ``pip install colver``)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from program_loader import load_program

colver = pytest.importorskip("colver")

from rebelote.arena import ArenaConfig, run_arena  # noqa: E402
from rebelote.bots import EngineBot, EngineError, make_bot  # noqa: E402
from rebelote.cards import card_str, iter_mask  # noqa: E402
from rebelote.deal import DealState  # noqa: E402
from rebelote.rules import parse_rules  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ADAPTER = ROOT / "examples" / "colver_bot.py"
RULES = "contree:ffb-ludique,failure_base=162,rounding=none"


def adapter() -> Any:
    return load_program("examples/colver_bot.py")


def test_the_arena_plays_whole_matches_against_colver() -> None:
    config = ArenaConfig(a="heuristic", b=f"engine:{sys.executable} {ADAPTER} --bot heuristic",
                         game="contree", rules="ffb-ludique",
                         options={"failure_base": 162, "rounding": "none"}, deals=6, games=1,
                         target=500, seed=3)
    result = run_arena(config)
    assert len(result.deals) == 6 and len(result.games) == 1
    summary = result.summary()
    assert summary["contracts"]["b"]["took"] > 0  # colver's bidder takes contracts
    again = run_arena(config)  # count budgets: the same match again
    assert [d.diffs for d in again.deals] == [d.diffs for d in result.deals]


def test_colvers_answers_are_its_own_on_the_true_deal_in_the_auction() -> None:
    """At each call the adapter's agent answers what colver's agent answers when it is driven
    in lockstep on the true deal (bench/versus_colver.py's way); every card it answers is
    legal, from a world consistent with every card played."""
    cb = adapter()
    spec = cb.colver_spec("heuristic")
    rules = parse_rules(RULES)
    lines = EngineBot("unused")
    calls = cards = 0
    for seed in range(12):
        state = DealState.new(rules, seed % 4, seed=seed)
        start = [[cb.CARD_INDEX[card_str(c)] for c in iter_mask(h)] for h in state.hands]
        ours = make_bot("heuristic")
        rng = random.Random(seed)
        while not state.is_terminal:
            seat = state.current_player
            obs = state.observation(seat)
            message = json.loads(lines.act_line(obs))
            if any(call not in cb.BID_INDEX for _, call in message["auction"]):
                break  # a no-trump or all-trump call of ours: colver has none
            answer = cb.Seat(spec, 0).decide(message)
            assert answer in message["legal"]
            if message["phase"] == "auction":
                env = colver.Env.deal_with_hands(state.dealer, start)
                agent = colver.Agent(spec, seat=seat, seed=message["deal"])
                agent.set_scores(0, 0)
                agent.init_deal(env)
                for _, _, a in cb.history(message)[0]:
                    agent.observe(env, a)
                    env.step(a)
                assert answer == cb.bid_text(int(agent.decide(env)["action"]))
                calls += 1
            else:
                cards += 1
            action = ours.act(obs, rng) if seat % 2 else answer
            state = state.apply(str(action))
    assert calls > 40 and cards > 100


def test_a_deal_colver_cannot_play_is_said_and_played_on(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    cb = adapter()
    state = DealState.new(parse_rules(RULES), 0, seed=1)
    state = state.apply("80 no-trump")
    obs = state.observation(state.current_player)
    message = json.loads(EngineBot("unused").act_line(obs))
    assert cb.Seat(cb.colver_spec("heuristic"), 0).decide(message) == "pass"
    assert "'80 no-trump' is not a call of colver's" in capsys.readouterr().err


def test_another_game_than_contree_stops_the_match_with_colvers_reason() -> None:
    config = ArenaConfig(a="heuristic", b=f"engine:{sys.executable} {ADAPTER}",
                         game="coinche", deals=1, seed=1)
    with pytest.raises(EngineError, match="exited with status 1"):
        run_arena(config)
