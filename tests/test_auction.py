"""Auctions (docs/rules.md section 5): belote on the turned card, coinche with coinche and
surcoinche."""

from __future__ import annotations

import pytest

from rebelote.auction import COINCHE, PASS, SURCOINCHE, TAKE, Auction, Bid
from rebelote.cards import HEARTS, SPADES, parse_card
from rebelote.errors import IllegalActionError
from rebelote.rules import ALL_TRUMP, NO_TRUMP, Rules

BELOTE = Rules.preset("official", "belote")
COINCHE_RULES = Rules.preset("official", "coinche")
N, E, S, W = range(4)


def run(auction: Auction, *calls: str) -> Auction:
    for text in calls:
        auction = auction.apply(Bid.parse(text))
    return auction


def perft(auction: Auction, depth: int) -> int:
    """The number of legal call sequences of ``depth`` calls (or ending the auction sooner)."""
    if depth == 0 or auction.is_over:
        return 1
    return sum(perft(auction.apply(b), depth - 1) for b in auction.legal_bids())


def belote_auction(rules: Rules = BELOTE, turned: str = "8H") -> Auction:
    return Auction.start(rules, first=E, turned=parse_card(turned))


# -- bids as text ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["pass", "take", "hearts", "no-trump", "all-trump", "90 hearts",
                                  "160 clubs", "capot spades", "generale no-trump", "coinche",
                                  "surcoinche"])
def test_a_bid_reads_back_from_its_text(text: str) -> None:
    assert str(Bid.parse(text)) == text


@pytest.mark.parametrize("text", ["", "95 hearts", "170 spades", "90 stars", "bonjour", "90"])
def test_a_bid_that_is_not_one_names_the_problem(text: str) -> None:
    with pytest.raises(IllegalActionError, match="action"):
        Bid.parse(text)


def test_250_is_read_as_capot() -> None:
    assert Bid.parse("250 hearts") == Bid("capot", HEARTS)


# -- belote ------------------------------------------------------------------------------------
def test_belote_round_one_is_take_or_pass() -> None:
    a = belote_auction()
    assert a.legal_bids() == [PASS, TAKE]
    with pytest.raises(IllegalActionError, match="first round"):
        a.apply(Bid.parse("spades"))


def test_belote_take_ends_the_auction_on_the_turned_suit() -> None:
    a = run(belote_auction(turned="8H"), "pass", "take")
    assert a.is_over and a.taker == S and a.trump == HEARTS


def test_belote_round_two_names_another_suit() -> None:
    a = run(belote_auction(turned="8H"), "pass", "pass", "pass", "pass")
    assert a.round == 2 and a.player == E
    assert [str(b) for b in a.legal_bids()] == ["pass", "spades", "diamonds", "clubs"]
    with pytest.raises(IllegalActionError, match="other than the turned"):
        a.apply(Bid.parse("hearts"))
    with pytest.raises(IllegalActionError, match="second round"):
        a.apply(TAKE)
    done = a.apply(Bid.parse("spades"))
    assert done.taker == E and done.trump == SPADES


def test_belote_no_all_trump_option_adds_no_trump_and_all_trump() -> None:
    a = run(belote_auction(BELOTE.replace(belote_no_all_trump=True)), *["pass"] * 4)
    assert {b.trump for b in a.legal_bids() if b.kind == "suit"} == {0, 2, 3, NO_TRUMP, ALL_TRUMP}
    with pytest.raises(IllegalActionError, match="not bids of this rule set"):
        run(belote_auction(), *["pass"] * 4, "no-trump")


def test_belote_two_rounds_of_passes_void_the_deal() -> None:
    a = run(belote_auction(), *["pass"] * 8)
    assert a.is_over and a.is_void and a.taker == -1


def test_belote_auction_perft() -> None:
    # take at one of 4 turns of round 1, or one of 3 suits at one of 4 turns of round 2, or void
    assert perft(belote_auction(), 8) == 4 + 4 * 3 + 1
    assert perft(belote_auction(BELOTE.replace(belote_no_all_trump=True)), 8) == 4 + 4 * 5 + 1


# -- coinche -----------------------------------------------------------------------------------
def coinche(rules: Rules = COINCHE_RULES) -> Auction:
    return Auction.start(rules, first=N)


def test_coinche_first_call_perft() -> None:
    # pass, 9 values x 6 trumps, capot x 6, generale x 6
    assert perft(coinche(), 1) == 1 + 54 + 6 + 6


def test_coinche_two_calls_perft() -> None:
    # after a pass: the same 67; after value k (0..8) in a trump: pass, the higher values,
    # capot, generale and coinche; after capot: pass, 6 generales, coinche; after generale:
    # pass or coinche.
    after_values = 6 * sum(1 + (8 - k) * 6 + 6 + 6 + 1 for k in range(9))
    assert perft(coinche(), 2) == 67 + after_values + 6 * 8 + 6 * 2


def test_coinche_a_bid_must_be_above_the_contract() -> None:
    a = run(coinche(), "90 hearts")
    with pytest.raises(IllegalActionError, match="above the current contract"):
        a.apply(Bid.parse("90 spades"))
    assert run(a, "100 spades").best == Bid("value", SPADES, 100)


def test_coinche_three_passes_after_a_bid_end_the_auction() -> None:
    a = run(coinche(), "pass", "90 hearts", "pass", "pass")
    assert not a.is_over
    a = run(a, "pass")
    assert a.is_over and a.taker == E and a.value == 90 and a.multiplier == 1


def test_coinche_four_opening_passes_void_the_deal() -> None:
    a = run(coinche(), "pass", "pass", "pass", "pass")
    assert a.is_over and a.is_void


def test_coinche_only_by_an_opponent_of_the_bidder() -> None:
    a = run(coinche(), "90 hearts", "pass")  # S, N's partner, to speak
    assert COINCHE not in a.legal_bids()
    with pytest.raises(IllegalActionError, match="only an opponent of the bidder"):
        a.apply(COINCHE)


def test_coinche_only_in_turn() -> None:
    a = run(coinche(), "90 hearts")  # E to speak
    assert a.can_coinche(E) and not a.can_coinche(W)


def test_no_coinche_without_a_contract() -> None:
    with pytest.raises(IllegalActionError, match="no contract to coinche"):
        coinche().apply(COINCHE)


def test_after_a_coinche_every_other_bid_is_closed() -> None:
    a = run(coinche(), "90 hearts", "coinche")
    assert a.multiplier == 2 and a.player == S
    assert a.legal_bids() == [PASS, SURCOINCHE]
    with pytest.raises(IllegalActionError, match="no bid after a coinche"):
        a.apply(Bid.parse("100 spades"))


def test_surcoinche_only_by_the_coinched_team() -> None:
    a = run(coinche(), "90 hearts", "coinche", "pass")  # W, a coincher, to speak
    assert a.legal_bids() == [PASS]
    with pytest.raises(IllegalActionError, match="only the coinched team may surcoinche"):
        a.apply(SURCOINCHE)


def test_surcoinche_ends_the_auction() -> None:
    a = run(coinche(), "90 hearts", "coinche", "surcoinche")
    assert a.is_over and a.multiplier == 4 and a.taker == N


def test_three_passes_after_a_coinche_end_the_auction() -> None:
    a = run(coinche(), "90 hearts", "coinche", "pass", "pass", "pass")
    assert a.is_over and a.multiplier == 2 and a.taker == N


def test_surcoinche_needs_a_coinche() -> None:
    with pytest.raises(IllegalActionError, match="only a coinched contract"):
        run(coinche(), "90 hearts", "pass", "surcoinche")


def test_coinche_capot_option() -> None:
    a = run(coinche(COINCHE_RULES.replace(coinche_capot=False)), "capot spades")
    assert COINCHE not in a.legal_bids()
    with pytest.raises(IllegalActionError, match="capot may not be coinched"):
        a.apply(COINCHE)
    assert COINCHE in run(coinche(), "capot spades").legal_bids()


def test_generale_option() -> None:
    off = coinche(COINCHE_RULES.replace(generale=False))
    assert not any(b.kind == "generale" for b in off.legal_bids())
    with pytest.raises(IllegalActionError, match="generale is not played"):
        off.apply(Bid.parse("generale hearts"))
    a = run(coinche(), "generale hearts")
    assert a.legal_bids() == [PASS, COINCHE]


def test_counterclockwise_auction_goes_n_w_s_e() -> None:
    a = Auction.start(COINCHE_RULES.replace(direction="counterclockwise"), first=N)
    a = run(a, "pass", "pass")
    assert a.player == S and [s for s, _ in a.history] == [N, W]


def test_belote_calls_are_not_coinche_calls() -> None:
    with pytest.raises(IllegalActionError, match="names a value and a trump"):
        coinche().apply(TAKE)


def test_is_legal_agrees_with_the_list_of_legal_bids() -> None:
    import random

    every = [PASS, TAKE, COINCHE, SURCOINCHE, *(Bid("suit", t) for t in range(6)),
             *(Bid("value", t, v) for t in range(6) for v in range(80, 170, 10)),
             *(Bid("capot", t) for t in range(6)), *(Bid("generale", t) for t in range(6))]
    rng = random.Random(3)
    for rules in (BELOTE, BELOTE.replace(belote_no_all_trump=True), COINCHE_RULES,
                  COINCHE_RULES.replace(generale=False, coinche_capot=False)):
        for _ in range(200):
            a = belote_auction(rules) if rules.game == "belote" else coinche(rules)
            while not a.is_over:
                legal = a.legal_bids()
                assert [b for b in every if a.is_legal(b)] == [b for b in every if b in legal]
                a = a.apply(rng.choice(legal) if rng.random() < 0.5 else PASS)
