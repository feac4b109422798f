"""The heuristic bot: only legal actions in every game and rule set, and the craft of a club
player checked on constructed deals."""

from __future__ import annotations

import doctest
import random

import pytest

import rebelote.bots
import rebelote.bots.heuristic
from rebelote.actions import Play
from rebelote.auction import PASS, TAKE, Bid
from rebelote.bots import HeuristicBot, make_bot
from rebelote.cards import HEARTS, cards_mask, parse_card, parse_cards
from rebelote.deal import DealState
from rebelote.rules import Rules

BOT = HeuristicBot()
RNG = random.Random(0)


def hand(*cards: str) -> int:
    return cards_mask(parse_cards(cards))


def coinche(dealer: int, hands: list[tuple[str, ...]], actions: list[str]) -> DealState:
    state = DealState.from_hands(Rules.preset("official", "coinche"), dealer,
                                 [hand(*h) for h in hands])
    for a in actions:
        state = state.apply(a)
    return state


def choice(state: DealState) -> str:
    seat = state.current_player
    return str(BOT.act(state.observation(seat), RNG))


@pytest.mark.parametrize("module", [rebelote.bots.heuristic, rebelote.bots],
                         ids=lambda m: m.__name__)
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize(("game", "preset"), [
    ("belote", "official"), ("belote", "house"), ("coinche", "official"), ("coinche", "house"),
    ("contree", "ffb"), ("contree", "annonces")])
def test_the_heuristic_only_takes_legal_actions(game: str, preset: str) -> None:
    rules = Rules.preset(preset, game)
    bots = [make_bot("heuristic"), make_bot("random")]
    played = 0
    for seed in range(60):
        state = DealState.new(rules, dealer=seed % 4, seed=seed)
        rng = random.Random(seed)
        mix = seed % 3  # all heuristic, or heuristic against random on either side
        while not state.is_terminal:
            seat = state.current_player
            bot = bots[0] if mix == 0 or seat % 2 == mix - 1 else bots[1]
            obs = state.observation(seat)
            action = bot.act(obs, rng)
            assert action in obs.legal
            state = state.apply(action)
        played += not state.is_void
    assert played > 30  # the heuristic bids: most deals are played


def test_the_heuristic_is_deterministic() -> None:
    rules = Rules.preset("official", "coinche")

    def run(seed: int) -> tuple[object, ...]:
        state = DealState.new(rules, dealer=1, seed=seed)
        while not state.is_terminal:
            state = state.apply(BOT.act(state.observation(state.current_player),
                                        random.Random(seed)))
        return state.tricks, state.auction.history

    assert [run(s) for s in range(5)] == [run(s) for s in range(5)]


# -- play craft ---------------------------------------------------------------------------------
def test_the_taker_draws_trumps_with_the_jack() -> None:
    state = coinche(3, [("JH", "9H", "7H", "AS", "7S", "AD", "8D", "7C"),
                        ("8H", "TH", "8S", "9S", "9D", "TD", "8C", "9C"),
                        ("QH", "KH", "TS", "JS", "JD", "QD", "TC", "JC"),
                        ("AH", "QS", "KS", "7D", "KD", "QC", "KC", "AC")],
                    ["100 hearts", "pass", "pass", "pass"])
    assert state.current_player == 0  # N leads
    assert choice(state) == "JH"


def test_a_ten_is_loaded_on_the_partners_winning_trick() -> None:
    # E leads 7S, S (N's partner) cuts it, W follows low: N, last, loads its ten (the ace of
    # spades is still out: the ten would not make a trick of its own).
    state = coinche(0, [("TS", "9S", "7H", "8H", "AD", "8D", "7C", "8C"),
                        ("7S", "JS", "AS", "9H", "TH", "JH", "9D", "TD"),
                        ("QH", "KH", "AH", "QD", "KD", "9C", "JD", "AC"),
                        ("8S", "QS", "KS", "7D", "TC", "JC", "QC", "KC")],
                    ["80 hearts", "pass", "pass", "pass", "7S", "QH", "8S"])
    assert state.current_player == 0
    assert choice(state) == "TS"


def test_no_points_are_thrown_on_a_lost_trick() -> None:
    # E leads the master ace of spades: N, who cannot win it, keeps its ten.
    state = coinche(0, [("TS", "7S", "7H", "8H", "AD", "8D", "7C", "8C"),
                        ("AS", "JS", "9H", "TH", "JH", "9D", "TD", "JD"),
                        ("9S", "KS", "QH", "KH", "AH", "QD", "KD", "9C"),
                        ("8S", "QS", "AC", "KC", "QC", "JC", "TC", "7D")],
                    ["80 hearts", "pass", "pass", "pass", "AS", "9S", "8S"])
    assert state.current_player == 0
    assert choice(state) == "7S"


def test_no_lead_into_an_opponents_known_void_when_avoidable() -> None:
    # W showed a void in diamonds (it threw a club on its partner's king) and may hold
    # trumps: N, on lead after taking the trick, leads another suit.
    state = coinche(0, [("AD", "8D", "9D", "8S", "9S", "8C", "9C", "8H"),
                        ("KD", "QD", "JD", "JH", "9H", "AH", "TH", "7S"),
                        ("7D", "TD", "TS", "JS", "QS", "KS", "7H", "QH"),
                        ("AS", "KH", "7C", "TC", "JC", "QC", "KC", "AC")],
                    ["80 hearts", "pass", "pass", "pass", "KD", "7D", "7C", "AD"])
    assert state.current_player == 0
    lead = parse_card(choice(state))
    assert lead >> 3 != 2  # not a diamond
    obs = state.observation(0)
    assert any(parse_card(s) >> 3 == 2 for s in map(str, obs.legal))  # diamonds were legal


def test_a_master_ace_is_cashed() -> None:
    # Defending, N leads its ace of clubs (nobody has shown a void).
    state = coinche(3, [("AC", "7C", "8S", "9S", "8D", "9D", "7H", "QS"),
                        ("JH", "9H", "AH", "TH", "KH", "AS", "AD", "8C"),
                        ("8H", "TS", "JS", "7D", "TD", "JD", "9C", "TC"),
                        ("QH", "7S", "KS", "QD", "KD", "JC", "QC", "KC")],
                    ["pass", "120 hearts", "pass", "pass", "pass"])
    assert state.current_player == 0
    assert choice(state) == "AC"


# -- bidding --------------------------------------------------------------------------------------
def test_coinche_bids_a_strong_suit_and_passes_a_weak_hand() -> None:
    strong = coinche(3, [("JH", "9H", "AH", "TH", "AS", "AD", "7C", "8C"),
                         ("8H", "7H", "8S", "9S", "9D", "TD", "9C", "TC"),
                         ("QH", "KH", "TS", "JS", "JD", "QD", "JC", "QC"),
                         ("7S", "QS", "KS", "7D", "8D", "KD", "KC", "AC")], [])
    bid = BOT.act(strong.observation(0), RNG)
    assert isinstance(bid, Bid) and bid.kind == "value" and bid.trump == HEARTS
    assert bid.value >= 110
    weak = strong.apply(bid)  # E: 7 8 of hearts, no ace, nothing to say
    assert BOT.act(weak.observation(1), RNG) == PASS


def test_the_partner_raises_with_aces_and_the_opponents_coinche_a_hopeless_contract() -> None:
    state = coinche(3, [("AH", "TH", "KH", "QH", "7S", "8S", "7D", "8D"),
                        ("JH", "9H", "8H", "7H", "AS", "AD", "AC", "9S"),
                        ("TS", "JS", "QS", "KS", "9D", "TD", "JD", "QD"),
                        ("KD", "7C", "8C", "9C", "TC", "JC", "QC", "KC")],
                    ["80 hearts"])
    # E holds four of N's trumps (the jack and nine among them): N's contract will fall.
    assert str(BOT.act(state.observation(1), RNG)) == "coinche"
    raised = coinche(3, [("JH", "9H", "7H", "8H", "KS", "QD", "7C", "8C"),
                         ("QH", "TH", "8S", "9S", "KD", "TD", "JC", "TC"),
                         ("AH", "KH", "QS", "JS", "AD", "9D", "AC", "QC"),
                         ("7S", "AS", "TS", "7D", "8D", "JD", "KC", "9C")],
                     ["80 hearts", "pass"])
    bid = BOT.act(raised.observation(2), RNG)  # S: two outside aces, 20 less the margin
    assert bid == Bid.parse("90 hearts")
    weaker = coinche(3, [("JH", "9H", "7H", "8H", "KS", "QD", "7C", "8C"),
                         ("QH", "TH", "8S", "9S", "KD", "TD", "JC", "TC"),
                         ("AH", "KH", "QS", "JS", "AD", "9D", "KC", "QC"),
                         ("7S", "AS", "TS", "7D", "8D", "JD", "AC", "9C")],
                     ["80 hearts", "pass"])
    assert BOT.act(weaker.observation(2), RNG) == PASS  # one outside ace: not worth a raise


def test_belote_takes_the_turned_jack_with_trumps_and_passes_junk() -> None:
    rules = Rules.preset("official", "belote")
    turned = parse_card("JH")
    n = hand("9H", "AH", "AS", "7D", "8C")
    e = hand("7S", "8S", "9D", "TD", "7C")
    s = hand("QH", "KH", "TS", "JS", "9C")
    w = hand("7H", "QS", "KS", "QD", "KD")
    stock = parse_cards(["8H", "TH", "9S", "8D", "JD", "AD", "TC", "JC", "QC", "KC", "AC"])
    state = DealState.from_hands(rules, 3, [n, e, s, w], turned, stock)
    assert BOT.act(state.observation(0), RNG) == TAKE
    state = DealState.from_hands(rules, 0, [n, e, s, w], turned, stock)  # E speaks first
    assert BOT.act(state.observation(1), RNG) == PASS


def test_a_bot_plays_a_card_from_the_observation_alone() -> None:
    # The same observation from two deals that differ in hidden cards gives the same card.
    rules = Rules.preset("official", "coinche")
    for seed in range(20):
        state = DealState.new(rules, dealer=0, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal and len(state.tricks) < 3:
            state = state.apply(BOT.act(state.observation(state.current_player), rng))
        if state.is_terminal:
            continue
        seat = state.current_player
        obs = state.observation(seat)
        other = DealState.from_observation(obs, random.Random(seed + 1))
        assert other.observation(seat) == obs
        assert BOT.act(other.observation(seat), RNG) == BOT.act(obs, RNG)
        assert isinstance(BOT.act(obs, RNG), Play)
