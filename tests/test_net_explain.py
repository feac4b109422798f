"""Pourquoi ce coup ? for the learned player (``net``): its network's own calls and cards are
explained by the network's preferences (each legal action's share of the policy, the value
head's expected mark, "the network's first choice"), its searched endgame by the search's own
notes; stored and read back like the others', in French and English, and nothing in them the
seat could not see."""

from __future__ import annotations

import json
import math
import random

import pytest

from rebelote.actions import OVER, Play
from rebelote.bots import make_bot
from rebelote.bots.explain import LEAST_SHARE, SHOWN, WHY, Explanation, explained_act
from rebelote.bots.net import ENDGAME_CARDS, ENDGAME_WORLDS, features, forward, legal_indices
from rebelote.deal import DealState
from rebelote.rules import Rules

COINCHE = Rules.preset("official", "coinche")
CONTREE = Rules.preset("ffb", "contree")


def explained_deal(rules: Rules, seed: int) -> list[tuple[DealState, Explanation]]:
    """A deal of four ``net`` players, each decision asked why (the state it was taken in)."""
    state = DealState.new(rules, 0, seed=seed)
    bot = make_bot("net")
    out = []
    i = 0
    while state.phase != OVER:
        obs = state.observation(state.player)
        action, why = explained_act(bot, obs, random.Random(i), "net")
        out.append((state, why))
        state = state.apply(action)
        i += 1
    return out


@pytest.fixture(scope="module")
def deals() -> list[tuple[DealState, Explanation]]:
    return [x for rules, seed in ((COINCHE, 1), (COINCHE, 2), (CONTREE, 3))
            for x in explained_deal(rules, seed)]


def policy(obs: object) -> dict[str, float]:
    """The shipped network's softmax over the legal actions of ``obs``, by action."""
    x, suits = features(obs)  # type: ignore[arg-type]
    logits, _ = forward(make_bot("net").model, x[None, :])  # type: ignore[attr-defined]
    choices = legal_indices(obs, suits)  # type: ignore[arg-type]
    top = max(float(logits[0][i]) for i, _ in choices)
    exps = {str(a): math.exp(float(logits[0][i]) - top) for i, a in choices}
    total = sum(exps.values())
    return {a: e / total for a, e in exps.items()}


def test_the_networks_decisions_say_its_preferences_and_its_expected_mark(
        deals: list[tuple[DealState, Explanation]]) -> None:
    net = make_bot("net")
    by_net = [(s, e) for s, e in deals if e.why == "net"]
    calls = [e for _, e in by_net if not isinstance(e.action, Play)]
    cards = [e for _, e in by_net if isinstance(e.action, Play)]
    assert len(calls) >= 10 and len(cards) >= 10
    for state, e in by_net:
        obs = state.observation(state.player)
        assert e.level == "net" and e.seat == state.player
        shares = policy(obs)
        # the chosen action is the policy's likeliest, first; the others likeliest first
        assert str(e.candidates[0].action) == str(e.action) == max(shares, key=lambda a: shares[a])
        got = [c.share for c in e.candidates]
        assert all(s is not None for s in got) and got == sorted(got, reverse=True)  # type: ignore[type-var]
        for c in e.candidates:
            assert c.share == pytest.approx(shares[str(c.action)], abs=1e-6)
            assert c.mark is None and c.worlds == 0
            assert c.action in obs.legal
        kept = sorted((p for p in shares.values() if p >= LEAST_SHARE), reverse=True)[:SHOWN]
        assert len(e.candidates) == len(kept)
        args = dict(e.args)
        assert args["share"] == str(round(100 * shares[str(e.action)]))
        assert args["value"] == f"{net.value(obs):+.0f}"  # type: ignore[attr-defined]
        assert e.facts[0] == ("hand", obs.seat, obs.hand, 1.0)
    # its sentence, in both languages, with its figures
    e = calls[0]
    share, value = dict(e.args)["share"], dict(e.args)["value"].replace("-", "\u2212")
    assert e.why_text("fr") == (
        f"Premier choix du réseau appris ({share}\u00a0% de sa préférence), sans calcul\u00a0; "
        f"l’écart de marque qu’il prévoit pour son équipe\u00a0: {value}.")
    assert e.why_text("en") == (
        f"The learned network's first choice ({share}% of its preference), without searching; "
        f"the mark difference it expects for its team: {value}.")
    assert e.to_json("en")["candidates"][0]["share"] == round(e.candidates[0].share or 0, 3)


def test_the_searched_endgame_is_explained_by_the_searchs_own_notes(
        deals: list[tuple[DealState, Explanation]]) -> None:
    searched = 0
    for state, e in deals:
        obs = state.observation(state.player)
        choices = sum(isinstance(a, Play) for a in obs.legal)
        if state.phase == OVER or obs.hand.bit_count() > ENDGAME_CARDS or choices < 2 \
                or not isinstance(e.action, Play):
            continue
        searched += 1
        assert e.why not in ("net", "rule", "forced"), e
        assert e.level == "net"
        valued = [c for c in e.candidates if c.mark is not None]
        assert len(valued) == choices and all(c.worlds == ENDGAME_WORLDS for c in valued)
        assert all(c.share is None for c in e.candidates)
    assert searched >= 20
    # the network's cards are before the endgame, none in it
    assert all(s.observation(s.player).hand.bit_count() > ENDGAME_CARDS
               for s, e in deals if e.why == "net" and isinstance(e.action, Play))


def test_the_explanations_hold_nothing_of_another_seats_hidden_cards(
        deals: list[tuple[DealState, Explanation]]) -> None:
    for state, e in deals:
        obs = state.observation(state.player)
        text = json.dumps([e.to_record(), e.to_json("fr"), e.to_json("en")],
                          ensure_ascii=False)
        hidden = 0
        for s in range(4):
            if s != obs.seat:
                hidden |= state.hands[s]
        must, _ = obs.constraints()
        known = 0
        for s in range(4):
            known |= must[s]
        for kind, _seat, x, _share in e.facts:
            if kind == "hand":
                assert x == obs.hand
            elif kind == "holds":
                assert known >> (x & 31) & 1  # a card the seat was shown (a belote, a set)
        for c in e.candidates:
            if isinstance(c.action, Play):
                assert not hidden >> c.action.card & 1
        assert "hands" not in text


def test_the_networks_explanation_is_stored_and_read_back(
        deals: list[tuple[DealState, Explanation]]) -> None:
    reasons = set()
    for _, e in deals:
        reasons.add(e.why)
        stored = json.loads(json.dumps(e.to_record()))
        back = Explanation.from_record(stored)
        assert back == e
        for lang in ("fr", "en"):
            assert back.to_json(lang) == json.loads(json.dumps(e.to_json(lang)))
    assert {"net", "best", "forced"} <= reasons
    # a record stored before the shares (three fields a candidate) still reads
    old = {"seat": "N", "action": "AS", "why": "best", "candidates": [["AS", 12.5, 8]],
           "args": {"worlds": "8"}}
    assert Explanation.from_record(old).candidates[0].share is None
    with pytest.raises(ValueError, match="candidate"):
        Explanation.from_record({**old, "candidates": [["AS"]]})


def test_asking_why_changes_neither_the_networks_move_nor_the_draws() -> None:
    state = DealState.new(COINCHE, 0, seed=5)
    i = 0
    while state.phase != OVER:
        obs = state.observation(state.player)
        r1, r2 = random.Random(i), random.Random(i)
        plain = make_bot("net").act(obs, r1)
        action, why = explained_act(make_bot("net"), obs, r2, "club")
        assert action == plain and r1.random() == r2.random() and why.level == "club"
        state = state.apply(action)
        i += 1
    assert "net" in WHY
