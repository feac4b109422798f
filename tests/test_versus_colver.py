"""bench/versus_colver.py: the translation of actions between our engine and colver's, both ways,
on every legal action of a few deals, and a short match end to end.

colver is the yardstick, not a dependency: CI does not install it, and these tests are skipped
without it (``.venv/bin/pip install colver`` to run them).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from program_loader import load_program

colver = pytest.importorskip(
    "colver", reason="colver (the yardstick of bench/versus_colver.py) is not installed: "
    ".venv/bin/pip install colver")

from rebelote.actions import AUCTION, NO_DECLARATION, Play  # noqa: E402
from rebelote.auction import Bid  # noqa: E402
from rebelote.deal import DealState  # noqa: E402
from rebelote.rules import parse_rules  # noqa: E402

vc = load_program("bench/versus_colver.py")
RULES = parse_rules(vc.RULES_TEXT)


def test_rule_set_is_the_documented_one() -> None:
    assert RULES.game == "contree" and not RULES.declarations
    assert (RULES.failure_base, RULES.rounding, RULES.coinche_form, RULES.surcoinche,
            RULES.capot_bid) == (162, "none", "contract", 3, "contract")


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_translation_both_ways_on_every_legal_action(seed: int) -> None:
    to_ours_cards, to_col = vc._card_maps()
    env = colver.Env.deal(seed=seed, dealer=seed % 4)
    hands = [sum(1 << to_ours_cards[c] for c in hand) for hand in env.get_hands()]
    state = DealState.from_hands(RULES, seed % 4, hands)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal:
        phase = env.phase()
        assert env.current_player() == state.current_player and phase == int(state.phase)
        legal = state.legal_actions()
        theirs = env.legal_actions()
        codes = set()
        for action in legal:
            code = vc.to_colver(action, to_col)
            if code is None:  # only the no-trump and all-trump bids have no colver action
                assert isinstance(action, Bid) and action.trump in (4, 5), action
                continue
            assert vc.to_ours(code, phase, to_ours_cards) == action
            codes.add(code)
        for code in theirs:
            assert vc.to_colver(vc.to_ours(code, phase, to_ours_cards), to_col) == code
        assert codes == set(theirs)
        assert NO_DECLARATION not in legal
        # a mixed walk: random bids for a while (coinches, capots), then cards
        code = rng.choice(sorted(theirs))
        if phase == 0 and steps > 6 and 0 in theirs:
            code = 0
        action = vc.to_ours(code, phase, to_ours_cards)
        if isinstance(action, Play):
            assert to_col[action.card] == code
        env.step(code)
        state = state.apply(action)
        steps += 1
    assert env.is_terminal()


def test_bad_actions_and_specs_are_refused() -> None:
    with pytest.raises(ValueError, match="not an action"):
        vc.to_ours(43, 0, vc._card_maps()[0])
    for bad in ("dmc", "smart:0ms", "smart:fast", "heuristic:20", "naive:20"):
        with pytest.raises(ValueError, match="--theirs"):
            vc.colver_spec(bad)
    assert 'method = "isdd"' in vc.colver_spec("isdd:8")
    assert "time_ms = 30" in vc.colver_spec("naive:30ms")


def test_short_match_end_to_end(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "deals.jsonl"
    assert vc.main(["--ours", "heuristic", "--theirs", "heuristic", "--deals", "3",
                    "--seed", "7", "--out", str(out), "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["deals"] == 3 and s["broken"] == 0 and s["legal_differ"] == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["deal"] for r in lines] == [0, 1, 2]
    for r in lines:
        assert r["diff"] == sum(r["diffs"]) / 2
        for side, (ns, ew) in enumerate(r["marks"]):
            ours_minus = (ns - ew) if side == 0 else (ew - ns)
            assert r["diffs"][side] == ours_minus
        assert len(r["ours_ms"]["play"]) > 0 and len(r["colver_ms"]["play"]) > 0
    plays = s["contracts"]
    assert plays["ours"]["took"] + plays["colver"]["took"] + plays["passed_out"] == 6
    # the same deals again give the same results (both sides count-based here)
    again = [vc.play_deal("heuristic", "heuristic", RULES, 7, i) for i in range(3)]
    assert [r["diffs"] for r in again] == [r["diffs"] for r in lines]
    # the summary of the file is the run's
    assert vc.main(["--summary", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mark_diff"] == s["mark_diff"]
    # on a pool of two processes: the same deals in the same order, the same results
    pooled = tmp_path / "pooled.jsonl"
    assert vc.main(["--ours", "heuristic", "--theirs", "heuristic", "--deals", "3",
                    "--seed", "7", "--out", str(pooled), "--json", "--workers", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["mark_diff"] == s["mark_diff"]
    two = [json.loads(x) for x in pooled.read_text().splitlines()]
    assert [(r["deal"], r["diffs"]) for r in two] == [(r["deal"], r["diffs"]) for r in lines]


def test_card_play_alone_has_the_same_auction_in_both_plays(tmp_path: Path) -> None:
    # --calls colver: every seat's calls are colver's bidder's, so the two plays of a deal
    # have the same auction and contract, and only the cards are ours
    out = tmp_path / "cards.jsonl"
    assert vc.main(["--ours", "heuristic", "--theirs", "heuristic", "--calls", "colver",
                    "--deals", "3", "--seed", "5", "--out", str(out), "--quiet"]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 3
    for r in lines:
        assert r["calls"] == "colver" and r["same_auction"]
        assert r["contracts"][0] == r["contracts"][1]
        assert r["hidden_bids"] == 0  # our bot never called
        assert len(r["ours_ms"]["cards"]) == len(r["ours_ms"]["play"]) > 0
    s = vc.summarize(lines)
    assert s["calls"] == "colver" and s["same_auction"] == 3
    assert set(s["play_ms_by_cards"]["ours"]) <= {str(n) for n in range(2, 9)}
    # with our own calls the heuristic bids where colver's bidder would not
    own = [vc.play_deal("heuristic", "heuristic", RULES, 5, i) for i in range(3)]
    assert any(not r["same_auction"] for r in own) or any(
        a["contracts"] != b["contracts"] for a, b in zip(own, lines, strict=True))
    with pytest.raises(ValueError, match="--calls"):
        vc.play_deal("heuristic", "heuristic", RULES, 5, 0, "nobody")


def _colver_auction(deal_seed: int, dealer: int) -> tuple[list[int], list[tuple[int, Bid]]]:
    """A deal of colver's and the auction its agents (the `improved` bidder) make on it."""
    to_ours_cards, _ = vc._card_maps()
    env = colver.Env.deal(seed=deal_seed, dealer=dealer)
    hands = [sum(1 << to_ours_cards[c] for c in hand) for hand in env.get_hands()]
    agents = [colver.Agent(vc.colver_spec("heuristic"), seat=s, seed=s) for s in range(4)]
    for agent in agents:
        agent.init_deal(env)
    auction: list[tuple[int, Bid]] = []
    while env.phase() == 0 and not env.is_terminal():
        seat = env.current_player()
        code = int(agents[seat].decide(env)["action"])
        bid = vc.to_ours(code, 0, to_ours_cards)
        assert isinstance(bid, Bid)
        auction.append((seat, bid))
        for agent in agents:
            agent.observe(env, code)
        env.step(code)
    return hands, auction


def test_colver_calls_are_the_calls_colver_agents_make() -> None:
    """The bidding system `colver` (ColverCalls, read by `pimc:...[calls=colver]`) makes, for
    each seat's true hand, the very call colver's agent made there, whatever the others hold."""
    calls = vc.ColverCalls()
    n = 0
    for i in range(25):
        dealer = i % 4
        hands, auction = _colver_auction(7_000 + i, dealer)
        state = DealState.from_hands(RULES, dealer, hands)
        for k, (seat, bid) in enumerate(auction):
            obs = state.observation(seat)
            assert calls(obs, k, seat, hands[seat]) == bid
            assert calls.plain(dealer, [b for _, b in auction[:k]], seat, hands[seat]) == bid
            state = state.apply(bid)
            n += 1
    assert n >= 100


def test_colver_calls_fast_path_is_the_plain_one() -> None:
    """ColverCalls writes the seat's hand into one engine state per auction point; the plain
    way deals the whole deck and steps the calls: the same call for random hands, at every
    point of heuristic auctions (ours, any legal sequence)."""
    from rebelote.bots import make_bot
    from rebelote.bots.pimc import call_system

    calls = call_system("colver")
    assert isinstance(calls, vc.ColverCalls)
    rng = random.Random(3)
    bot = make_bot("heuristic")
    n = 0
    for d in range(12):
        state = DealState.new(RULES, dealer=d % 4, seed=d)
        while state.phase == AUCTION:
            obs = state.observation(state.player)
            for _ in range(15):
                hand = sum(1 << c for c in rng.sample(range(32), 8))
                assert calls(obs, len(obs.auction), state.player, hand) == calls.plain(
                    obs.dealer, [b for _, b in obs.auction], state.player, hand)
                n += 1
            state = state.apply(bot.act(obs, rng))
    assert n >= 300
