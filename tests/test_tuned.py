"""The tuned bidder: the heuristic's calls at the heuristic's parameters, the chosen bidder's
cheap opening and its competing, legal calls, the tuning's deals the arena's, parameters read
from a spec."""

from __future__ import annotations

import doctest
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import rebelote.bots.tuned
from program_loader import load_program
from rebelote.actions import AUCTION
from rebelote.arena import ArenaConfig, play_duplicate_deal
from rebelote.auction import PASS, Bid
from rebelote.bots import HeuristicBot, make_bot
from rebelote.bots.heuristic import BidParams
from rebelote.bots.tuned import CHOSEN, TunedBidder, make_tuned
from rebelote.cards import cards_mask, parse_cards
from rebelote.deal import DealState
from rebelote.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
RNG = random.Random(0)


duplicate_results = load_program("scripts/tune_bidder.py").duplicate_results


def coinche(dealer: int, hands: list[tuple[str, ...]], actions: list[str]) -> DealState:
    state = DealState.from_hands(Rules.preset("official", "coinche"), dealer,
                                 [cards_mask(parse_cards(h)) for h in hands])
    for a in actions:
        state = state.apply(a)
    return state


STRONG = [("JH", "9H", "AH", "TH", "AS", "AD", "7C", "8C"),
          ("8H", "7H", "8S", "9S", "9D", "TD", "9C", "TC"),
          ("QH", "KH", "TS", "JS", "JD", "QD", "JC", "QC"),
          ("7S", "QS", "KS", "7D", "8D", "KD", "KC", "AC")]


def test_doctests() -> None:
    assert doctest.testmod(rebelote.bots.tuned).failed == 0


@pytest.mark.parametrize("game,preset", [("coinche", "official"), ("contree", "ffb")])
def test_at_the_heuristics_parameters_every_call_is_the_heuristics(game: str,
                                                                   preset: str) -> None:
    rules = Rules.preset(preset, game)
    tuned, heuristic = TunedBidder(BidParams()), HeuristicBot()
    calls = 0
    for seed in range(60):
        state = DealState.new(rules, seed % 4, seed=seed)
        while state.phase == AUCTION:
            obs = state.observation(state.player)
            action = heuristic.act(obs, RNG)
            assert tuned.act(obs, RNG) == action
            calls += 1
            state = state.apply(action)
    assert calls > 240
    # and so the tuning measures zero for them, deal by deal
    assert duplicate_results(BidParams(), game, preset, 7, range(30)) == [0.0] * 30


def test_the_chosen_bidder_opens_at_the_cheapest_value_where_the_heuristic_jumps() -> None:
    state = coinche(3, STRONG, [])
    assert str(HeuristicBot().act(state.observation(0), RNG)) == "150 hearts"
    assert make_tuned().act(state.observation(0), RNG) == Bid.parse("80 hearts")
    assert make_bot("tuned:jump=1").act(state.observation(0), RNG).value >= 130  # type: ignore[union-attr]


def test_the_chosen_bidder_competes_beyond_its_evaluation_and_no_further() -> None:
    # N opened 80 hearts, E bid 90 spades, S and W passed: N outbids with its own suit
    state = coinche(3, STRONG, ["80 hearts", "90 spades", "pass"])
    state = state.apply("pass") if state.player == 3 else state
    assert state.player == 0
    bid = make_tuned().act(state.observation(0), RNG)
    assert bid == Bid.parse("100 hearts")
    # far above its evaluation it passes
    high = coinche(3, STRONG, ["80 hearts", "160 spades", "pass", "pass"])
    assert make_tuned().act(high.observation(0), RNG) == PASS


def test_a_weak_hand_passes_and_a_partners_contract_is_raised_as_the_heuristic_does() -> None:
    state = coinche(3, STRONG, ["80 hearts"])
    assert make_tuned().act(state.observation(1), RNG) == PASS  # E: nothing
    raised = coinche(3, [("JH", "9H", "7H", "8H", "KS", "QD", "7C", "8C"),
                         ("QH", "TH", "8S", "9S", "KD", "TD", "JC", "TC"),
                         ("AH", "KH", "7S", "8D", "AD", "9D", "AC", "QC"),
                         ("QS", "AS", "TS", "7D", "JS", "JD", "KC", "9C")],
                     ["80 hearts", "pass"])
    # S: two outside aces, 20 less the margin of 10, as the heuristic raises
    assert make_tuned().act(raised.observation(2), RNG) == Bid.parse("90 hearts")
    assert HeuristicBot().act(raised.observation(2), RNG) == Bid.parse("90 hearts")


def test_the_parameters_tried_and_not_kept_do_what_they_say() -> None:
    # jump_above: a first bid says the hand's value from that value on
    state = coinche(3, STRONG, [])
    assert make_tuned("jump_above=130").act(state.observation(0), RNG) == Bid.parse("160 hearts")
    assert make_tuned("jump_above=170").act(state.observation(0), RNG) == Bid.parse("80 hearts")
    # support_compete: S raises N's hearts over E's spades on its support (three trumps with
    # the jack, an ace: 30), where its own evaluation (about 80) would not bid 100
    over = coinche(3, [("AH", "TH", "KH", "QH", "7S", "8S", "7D", "8D"),
                       ("AS", "TS", "KS", "QS", "JS", "9S", "KD", "QD"),
                       ("JH", "8H", "7H", "AD", "KC", "7C", "8C", "9D"),
                       ("9H", "TC", "JC", "QC", "AC", "TD", "JD", "9C")],
                   ["80 hearts", "90 spades"])
    assert make_tuned().act(over.observation(2), RNG) == PASS
    assert make_tuned("support_compete=1").act(over.observation(2), RNG) == Bid.parse(
        "100 hearts")


@pytest.mark.parametrize("game,preset", [("coinche", "official"), ("contree", "ffb"),
                                         ("belote", "official")])
def test_the_tuned_bidder_plays_whole_deals_legally(game: str, preset: str) -> None:
    rules = Rules.preset(preset, game)
    bot = make_bot("tuned")
    contracts = 0
    for seed in range(30):
        state = DealState.new(rules, seed % 4, seed=seed)
        while not state.is_terminal:
            obs = state.observation(state.player)
            action = bot.act(obs, RNG)
            assert action in obs.legal
            state = state.apply(action)
        contracts += not state.is_void
    assert contracts >= 15


def test_the_tunings_deals_and_results_are_the_arenas() -> None:
    # the tuning seats bots it made itself (seat_bots); the arena from the specs agrees
    config = ArenaConfig(a="tuned", b="heuristic", game="coinche", rules="official",
                         deals=12, seed=5)
    rules = Rules.preset("official", "coinche")
    arena = [play_duplicate_deal(config, rules, i)[0].diff for i in range(12)]
    assert duplicate_results(CHOSEN, "coinche", "official", 5, range(12)) == arena
    assert any(arena)  # the bidders differ somewhere in 12 deals


def test_parameters_are_read_from_a_spec_and_bad_ones_refused() -> None:
    bot = make_bot("tuned:margin=0;compete=0")
    assert isinstance(bot, TunedBidder)
    assert bot.bid_params == CHOSEN.with_text("margin=0,compete=0")
    assert bot.bid_params.margin == 0.0 and bot.bid_params.jump is False
    assert make_bot("tuned:heuristic").bid_params == BidParams()  # type: ignore[attr-defined]
    assert CHOSEN.text() == "margin=-5;jump=0;compete=10;over_partner=10;plain_offset=20"
    assert BidParams().with_text(CHOSEN.text()) == CHOSEN
    assert BidParams().with_text("last_margin=none;coinche_trumps=5").coinche_trumps == 5
    with pytest.raises(ValueError, match="name=value"):
        make_bot("tuned:depth=3")
    with pytest.raises(ValueError, match="jump is bool"):
        BidParams().with_text("jump=maybe")
    with pytest.raises(ValueError, match="margin is float"):
        BidParams().with_text("margin=lots")


def test_the_tuning_command_is_reproducible(tmp_path: Path) -> None:
    out = tmp_path / "tune.jsonl"
    cmd = [sys.executable, str(ROOT / "scripts" / "tune_bidder.py"), "--deals", "20",
           "--seed", "3", "--out", str(out), "", "chosen"]
    first = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=tmp_path)
    again = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=tmp_path)
    assert first.stdout == again.stdout
    pooled = subprocess.run([*cmd[:-2], "--workers", "2", "", "chosen"], capture_output=True,
                            text=True, check=True, cwd=tmp_path)
    assert pooled.stdout == first.stdout  # the same figures on a process pool
    lines = first.stdout.splitlines()
    assert lines[0] == "(heuristic): +0.0 [+0.0, +0.0]" and lines[1].startswith("chosen: ")
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["params"] for r in rows] == ["", "chosen"] * 3
    assert rows[1]["diffs"] == duplicate_results(CHOSEN, "coinche", "official", 3, range(20))
