"""Auctions, rule by rule (docs/rules.md section 5): what a call reads as, what each refusal says,
and the whole state an auction ends in. Written to kill the mutants that the first mutation run
of `auction` left alive (docs/mutation.md)."""

from __future__ import annotations

import re

import pytest

from rebelote.auction import (
    COINCHE,
    PASS,
    SURCOINCHE,
    TAKE,
    Auction,
    Bid,
)
from rebelote.cards import HEARTS, SPADES, parse_card
from rebelote.errors import IllegalActionError
from rebelote.rules import Rules

BELOTE = Rules.preset("official", "belote")
COINCHE_RULES = Rules.preset("official", "coinche")
N, E, S, W = range(4)


def run(auction: Auction, *calls: str) -> Auction:
    for text in calls:
        auction = auction.apply(Bid.parse(text))
    return auction


def refusal(auction: Auction, call: str | Bid) -> str:
    """The message of the error raised when the player to speak says ``call``."""
    bid = Bid.parse(call) if isinstance(call, str) else call
    with pytest.raises(IllegalActionError) as info:
        auction.apply(bid)
    return str(info.value)


def belote(turned: str = "8H") -> Auction:
    return Auction.start(BELOTE, first=E, turned=parse_card(turned))


def coinche(rules: Rules = COINCHE_RULES) -> Auction:
    return Auction.start(rules, first=N)


# -- calls as text: the French words and accents -----------------------------------------------
@pytest.mark.parametrize(("text", "bid"), [
    ("passe", PASS), ("PASSE", PASS), ("Prends", TAKE), ("contre", COINCHE),
    ("Contre", COINCHE), ("surcontre", SURCOINCHE), ("SURCONTRE", SURCOINCHE),
    ("Générale cœur", Bid("generale", HEARTS)), ("GÉNÉRALE pique", Bid("generale", SPADES)),
    ("  capot  Pique ", Bid("capot", SPADES)),
])
def test_a_call_reads_in_french_with_or_without_accents_or_capitals(text: str, bid: Bid) -> None:
    assert Bid.parse(text) == bid


def test_what_is_not_a_call_is_refused_with_a_message_naming_the_field() -> None:
    with pytest.raises(IllegalActionError, match=r"^action: 90 is not a bid$"):
        Bid.parse(90)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match=r"^action: an empty bid$"):
        Bid.parse("   ")
    listed = ("action: 'bonjour' is not a bid (pass, take, a trump, '90 hearts', 'capot spades', "
              "'generale no-trump', coinche, surcoinche)")
    with pytest.raises(IllegalActionError, match=f"^{re.escape(listed)}$"):
        Bid.parse("bonjour")


@pytest.mark.parametrize(("text", "reason"), [
    ("90 stars", "'90 stars': 'stars' is not a trump: spades, hearts, diamonds, clubs, no-trump "
                 "or all-trump"),
    ("95 hearts", "'95 hearts': a contract is 80 to 160 by ten, capot or generale"),
])
def test_a_bad_trump_or_value_in_a_two_word_call_is_refused_naming_it(text: str,
                                                                      reason: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        Bid.parse(text)
    assert (info.value.field, info.value.reason) == ("action", reason)


# -- how an auction starts ---------------------------------------------------------------------
def test_a_belote_auction_needs_the_turned_card() -> None:
    with pytest.raises(IllegalActionError,
                       match=r"^turned: a belote auction needs the turned card$"):
        Auction.start(BELOTE, first=E)


def test_the_first_card_of_the_deck_may_be_the_turned_card() -> None:
    a = Auction.start(BELOTE, first=E, turned=0)
    assert a.turned == 0
    assert run(a, "take").trump == 0


def test_a_coinche_auction_has_no_turned_card() -> None:
    assert Auction.start(COINCHE_RULES, first=N, turned=parse_card("8H")).turned == -1
    assert Auction.start(COINCHE_RULES, first=N).turned == -1


# -- the whole state an auction ends in --------------------------------------------------------
def test_a_belote_take_ends_the_auction_with_every_call_kept() -> None:
    a = run(belote(), "pass", "take")
    assert a == belote()._replace(player=-1, history=((E, PASS), (S, TAKE)), best=TAKE,
                                  bidder=S, is_over=True)


def test_two_belote_rounds_of_passes_end_the_auction_void() -> None:
    a = run(belote(), *["pass"] * 8)
    assert a == belote()._replace(player=-1, history=tuple(((E + i) % 4, PASS) for i in range(8)),
                                  round=2, is_over=True, is_void=True)
    assert a.passes == 0  # belote counts rounds, not passes


def test_four_coinche_passes_end_the_auction_void() -> None:
    a = run(coinche(), *["pass"] * 4)
    assert a == coinche()._replace(player=-1, history=tuple((s, PASS) for s in range(4)),
                                   passes=4, is_over=True, is_void=True)


def test_three_passes_after_a_contract_end_the_auction() -> None:
    a = run(coinche(), "90 hearts", "pass", "pass", "pass")
    bid = Bid("value", HEARTS, 90)
    assert a == coinche()._replace(player=-1, history=((N, bid), (E, PASS), (S, PASS), (W, PASS)),
                                   best=bid, bidder=N, passes=3, is_over=True)


def test_a_surcoinche_ends_the_auction_at_once() -> None:
    a = run(coinche(), "90 hearts", "coinche", "surcoinche")
    bid = Bid("value", HEARTS, 90)
    assert a == coinche()._replace(player=-1, history=((N, bid), (E, COINCHE), (S, SURCOINCHE)),
                                   best=bid, bidder=N, multiplier=4, is_over=True)


def test_a_coinche_starts_the_count_of_passes_again() -> None:
    a = run(coinche(), "90 hearts", "pass", "pass", "coinche")  # W coinches after two passes
    assert a.passes == 0 and a.player == N
    a = run(a, "pass", "pass")
    assert not a.is_over and a.player == S
    assert run(a, "pass").is_over


def test_nobody_speaks_after_the_end_of_an_auction() -> None:
    a = run(coinche(), "90 hearts", "coinche", "surcoinche")
    assert a.legal_bids() == []
    assert not a.is_legal(PASS)
    assert refusal(a, PASS) == "pass: the auction is over"
    assert a.why_illegal(Bid.parse("100 spades")) == "100 spades: the auction is over"


# -- who may coinche and surcoinche ------------------------------------------------------------
def test_either_opponent_of_the_bidder_may_coinche_in_turn() -> None:
    a = run(coinche(), "90 hearts", "pass", "pass")  # W, the second opponent, to speak
    assert a.can_coinche(W) and COINCHE in a.legal_bids()
    assert run(a, "coinche").multiplier == 2


def test_the_bidders_partner_may_surcoinche() -> None:
    a = run(coinche(), "pass", "90 hearts", "coinche")  # E bid, S coinched, W (E's partner) speaks
    assert a.can_surcoinche(W) and SURCOINCHE in a.legal_bids()
    assert run(a, "surcoinche").multiplier == 4


def test_a_trump_mode_outside_the_six_is_never_a_legal_bid() -> None:
    a = coinche()
    assert not a.is_legal(Bid("value", 6, 90))
    assert not a.is_legal(Bid("capot", 6))


# -- what each refusal says --------------------------------------------------------------------
def test_the_second_belote_round_refuses_take_naming_the_rule() -> None:
    a = run(belote(), *["pass"] * 4)
    assert refusal(a, TAKE) == "E take: in the second round, name another suit or pass"


def test_the_first_belote_round_refuses_a_suit_naming_the_rule() -> None:
    assert refusal(belote(), "spades") == (
        "E spades: in the first round, take the turned suit or pass")


def test_a_coinche_auction_refuses_a_bare_suit_or_take() -> None:
    assert refusal(coinche(), "hearts") == (
        "N hearts: a coinche bid names a value and a trump, like '90 hearts'")
    assert refusal(coinche(), TAKE) == (
        "N take: a coinche bid names a value and a trump, like '90 hearts'")


def test_each_refused_coinche_says_why() -> None:
    assert refusal(coinche(), COINCHE) == "N coinche: there is no contract to coinche"
    coinched = run(coinche(), "90 hearts", "coinche")
    assert refusal(coinched, COINCHE) == "S coinche: the contract is already coinched"
    partner = run(coinche(), "90 hearts", "pass")
    assert refusal(partner, COINCHE) == (
        "S coinche: only an opponent of the bidder may coinche, not S")
    capot = run(coinche(COINCHE_RULES.replace(coinche_capot=False)), "capot spades")
    assert refusal(capot, COINCHE) == "E coinche: a capot may not be coinched under these rules"
    no_capots = COINCHE_RULES.replace(coinche_capot=False, generale=True)
    generale = run(coinche(no_capots), "generale spades")
    assert not generale.can_coinche(E) and COINCHE not in generale.legal_bids()
    assert refusal(generale, COINCHE) == (
        "E coinche: a capot may not be coinched under these rules")
    assert run(coinche(no_capots), "160 spades").can_coinche(E)


def test_each_refused_surcoinche_says_why() -> None:
    assert refusal(run(coinche(), "90 hearts"), SURCOINCHE) == (
        "E surcoinche: only a coinched contract may be surcoinched")
    coinchers = run(coinche(), "90 hearts", "coinche", "pass")
    assert refusal(coinchers, SURCOINCHE) == (
        "W surcoinche: only the coinched team may surcoinche, not W")


def test_a_low_bid_without_the_generale_is_refused_as_low() -> None:
    a = run(coinche(COINCHE_RULES.replace(generale=False)), "90 hearts")
    assert refusal(a, "80 spades") == (
        "E 80 spades: a bid must be above the current contract (90 hearts)")
    assert refusal(a, "generale spades") == (
        "E generale spades: the generale is not played under these rules")
