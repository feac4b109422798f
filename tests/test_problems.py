"""The card-play problems (*Exercices*, issue 34 item 4): the shipped set's answers found
again from their seed, every problem's structure (a legal answer, the best of its marks by the
margin, a position that fits the rules and names no card its player could not see), and
``rebelote problems`` reproducible and resumable."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from rebelote.bots.problems import (
    LEVELS,
    Criteria,
    check_problem,
    judge_position,
    problem_of_deal,
    visible_cards,
)
from rebelote.cards import iter_mask, parse_card
from rebelote.deal import DealState
from rebelote.observation import observe
from rebelote.rules import Rules

SHIPPED = files("rebelote.bots") / "data" / "problems.jsonl"
#: The position is an observation's JSON and nothing more.
POSITION_KEYS = {"seat", "game", "rules", "dealer", "phase", "turn", "hand", "turned",
                 "auction", "trump", "taker", "contract", "coinche", "tricks", "trick",
                 "declarations", "shown", "belote", "points", "scores", "held_over", "legal"}


def _shipped() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SHIPPED.read_text(encoding="utf-8").splitlines()]


def _rules(p: dict[str, Any]) -> Rules:
    return Rules.preset(p["position"]["rules"], p["game"])


def test_at_least_500_problems_ship_in_three_difficulties() -> None:
    problems = _shipped()
    assert len(problems) >= 500
    assert len({p["id"] for p in problems}) == len(problems)
    assert {p["level"] for p in problems} == set(LEVELS)
    for p in problems:
        assert p["id"] == f"{p['seed']}-{p['deal']}-{p['index']}"


def test_every_shipped_problem_is_sound() -> None:
    """For all of them: the structural facts, and the answer unambiguous by the criteria
    (every other card's mean mark below by the margin and by z standard errors)."""
    criteria = Criteria()
    for p in _shipped():
        assert check_problem(p, _rules(p)) == [], p["id"]
        assert set(p["position"]) == POSITION_KEYS, p["id"]
        best = next(c for c in p["cards"] if c["card"] == p["answer"])
        for c in p["cards"]:
            if c["card"] != p["answer"]:
                gap = best["mark"] - c["mark"]
                assert gap >= criteria.margin - 0.1, p["id"]
                assert gap >= criteria.z * c["error"] - 0.2, p["id"]
        assert p["tempting"] is None or p["level"] == "difficile"
        assert p["explanation"]["action"] == p["answer"]


def _sample() -> list[dict[str, Any]]:
    problems = _shipped()
    return [problems[i] for i in range(0, len(problems), max(1, len(problems) // 6))][:6]


@pytest.mark.parametrize("k", range(6))
def test_a_sample_is_found_again_from_its_seed(k: int) -> None:
    """The same seed, the same problem, to the last figure; and the real deal's other hands
    (replayed from the seed) are nowhere in what the player is shown."""
    p = _sample()[k]
    again = problem_of_deal(_rules(p), p["seed"], p["deal"])
    assert again is not None
    assert json.loads(json.dumps(again)) == p
    from rebelote.bots.problems import _played

    state = _played(_rules(p), p["deal"] % 4, p["seed"], p["deal"])[p["index"]]
    seat = state.player
    shown = visible_cards(p["position"])
    public = {c for _, t in state.tricks for c in t} | set(state.trick)
    public |= {c for _, c in state.belote}
    # the declarations shown at the second trick are shown to every seat
    public |= {c for _, combo in observe(state, (seat + 1) % 4).shown
               for c in iter_mask(combo.cards)}
    for other in range(4):
        if other != seat:
            hidden = {c for c in range(32) if state.hands[other] >> c & 1} - public
            assert not shown & hidden, (p["id"], other)


def test_check_problem_finds_a_hidden_card_and_a_wrong_answer() -> None:
    p = _shipped()[0]
    rules = _rules(p)
    pos = p["position"]
    mine = {parse_card(c) for c in pos["hand"]} | visible_cards(pos)
    stranger = next(c for c in range(32) if c not in mine)
    from rebelote.cards import card_str

    leaked = json.loads(json.dumps(p))
    leaked["position"]["legal"].append(card_str(stranger))
    assert any("neither the seat's nor public" in f for f in check_problem(leaked, rules))
    wrong = json.loads(json.dumps(p))
    wrong["answer"] = next(c["card"] for c in p["cards"] if c["card"] != p["answer"])
    assert "the answer is not the best mark" in check_problem(wrong, rules)


def test_the_judge_reads_only_the_observation() -> None:
    """Two deals whose hidden cards differ but whose seat sees the same give the same marks
    from the same draws: the judge never looks at the real deal."""
    rules = Rules.preset("official", "coinche")
    p = _shipped()[0]
    from rebelote.bots.problems import _played

    state = _played(rules, p["deal"] % 4, p["seed"], p["deal"])[p["index"]]
    obs = observe(state, state.player)
    other = DealState.from_observation(obs, __import__("random").Random(5))
    assert other.hands != state.hands or other.phase == state.phase
    a = judge_position(obs, __import__("random").Random(1), 8)
    b = judge_position(observe(other, other.player), __import__("random").Random(1), 8)
    assert a is not None and b is not None
    assert a.marks == b.marks and a.errors == b.errors


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rebelote.cli", "problems", *args],
                          capture_output=True, text=True, check=False, timeout=600)


def test_the_command_is_reproducible_and_carries_on_a_stopped_run(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    assert _run("--seed", "3", "--count", "4", "--out", str(whole)).returncode == 0
    lines = whole.read_text().splitlines()
    assert len(lines) == 4
    out = _run("--seed", "3", "--count", "4")
    assert out.stdout.splitlines() == lines
    cut = tmp_path / "cut.jsonl"
    cut.write_text(lines[0] + "\n" + lines[1][:40])  # a run stopped while writing line 2
    assert _run("--seed", "3", "--count", "4", "--out", str(cut)).returncode == 0
    assert cut.read_text().splitlines() == lines
    other = _run("--seed", "4", "--count", "4", "--out", str(whole))
    assert other.returncode == 2 and "seed 3" in other.stderr


@pytest.mark.parametrize("args", [("--count", "0"), ("--seed", "-1"), ("--game", "tarot"),
                                  ("--rules", "belote:official")])
def test_the_command_refuses_bad_options(args: tuple[str, ...]) -> None:
    got = _run(*args)
    assert got.returncode == 2
    assert got.stderr.startswith("rebelote: ")


def _finished(seed: int) -> DealState:
    import random

    from rebelote.bots import make_bot

    rng = random.Random(seed)
    state = DealState.new(Rules.preset("official", "coinche"), dealer=seed % 4, seed=seed)
    bots = [make_bot("random")] + [make_bot("heuristic") for _ in range(3)]
    while not state.is_terminal:
        state = state.apply(bots[state.player].act(observe(state, state.player), rng))
    return state


def test_the_play_is_replayed_position_by_position() -> None:
    from rebelote.actions import Play
    from rebelote.bots.problems import play_states

    final = _finished(3)
    states = play_states(final)
    cards = [c for _, t in final.tricks for c in t]
    assert len(states) == 32
    assert states[-1].apply(Play(cards[-1])).tricks == final.tricks
    for state, card in zip(states, cards, strict=True):
        assert state.hands[state.player] >> card & 1
    with pytest.raises(ValueError, match="belote"):
        belote = DealState.new(Rules.preset("official", "belote"), seed=1)
        play_states(belote)


def test_your_costly_cards_become_problems() -> None:
    """North (a random player) played cards that cost marks in the real deal and that the
    worlds it could imagine would not have played: each is a sound problem whose answer is
    not North's card, its cost the real deal's."""
    from rebelote.bots.problems import costly_problems

    final = _finished(3)
    got = costly_problems(final, 0, seed=3)
    assert got
    rules = Rules.preset("official", "coinche")
    for p in got:
        assert check_problem(p, rules) == []
        assert p["played"] != p["answer"] and p["cost"] > 0
        real = {c["card"]: c["real"] for c in p["cards"]}
        assert max(real.values()) - real[p["played"]] == pytest.approx(p["cost"])
        assert p["position"]["seat"] == "N"


def test_the_command_offers_your_costly_cards(tmp_path: Path) -> None:
    from rebelote.record import record_line

    records = tmp_path / "mine.jsonl"
    records.write_text(record_line(_finished(3)) + "\n")
    got = _run("--records", str(records), "--seat", "N", "--seed", "3")
    assert got.returncode == 0, got.stderr
    lines = [json.loads(line) for line in got.stdout.splitlines()]
    assert lines and all(p["played"] != p["answer"] for p in lines)
    assert _run("--records", str(records)).returncode == 2
