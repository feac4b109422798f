"""Playing a trick (docs/rules.md section 3): one test per rule, named after it."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import play as oracle_play
from rebelote.cards import (
    CLUBS,
    HEARTS,
    SPADES,
    card_str,
    cards_mask,
    mask_cards,
    parse_card,
    suit_of,
)
from rebelote.errors import RulesError
from rebelote.rules import (
    ALL_TRUMP,
    NO_TRUMP,
    TRUMP_NAMES,
    Rules,
    card_values,
    legal_cards,
    next_seat,
    parse_trump,
    trick_points,
    trick_winner,
    why_illegal,
)

BELOTE = Rules.preset("official", "belote")
COINCHE = Rules.preset("official", "coinche")


def legal(hand: str, trick: str, trump: int, rules: Rules = COINCHE) -> list[str]:
    h = cards_mask(parse_card(c) for c in hand.split())
    t = [parse_card(c) for c in trick.split()]
    return sorted(card_str(c) for c in mask_cards(legal_cards(h, t, trump, rules)))


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def test_the_english_scoring_pages_trick_east_must_trump_with_the_jack_and_wins_41() -> None:
    assert legal("JH KD", "AS TS 7S", HEARTS) == ["JH"]
    full = cards("AS TS 7S JH")
    assert trick_winner(full, HEARTS) == 3
    assert trick_points(full, HEARTS) == 41


def test_the_leader_may_play_any_card() -> None:
    assert legal("JH KD 7S", "", HEARTS) == ["7S", "JH", "KD"]


def test_follow_the_led_suit_if_you_can() -> None:
    assert legal("7S KS JH AD", "AS", HEARTS) == ["7S", "KS"]


def test_following_a_plain_suit_need_not_go_higher() -> None:
    assert legal("7S KS", "QS", HEARTS) == ["7S", "KS"]


def test_trump_led_you_must_play_a_higher_trump_if_you_can() -> None:
    assert legal("7H 9H AD", "AH", HEARTS) == ["9H"]


def test_trump_led_you_must_go_higher_even_over_your_partner() -> None:
    # The leader, the third player's partner, wins with the ace.
    assert legal("7H 9H", "AH 8H", HEARTS) == ["9H"]


def test_trump_led_option_overtrump_partner_off_lets_you_follow_low_under_your_partner() -> None:
    rules = COINCHE.replace(overtrump_partner=False)
    assert legal("7H 9H", "AH 8H", HEARTS, rules) == ["7H", "9H"]
    # An opponent winning: still must go higher.
    assert legal("7H 9H", "8H AH", HEARTS, rules) == ["9H"]


def test_trump_led_without_a_higher_trump_any_trump() -> None:
    assert legal("7H 8H AD", "JH", HEARTS) == ["7H", "8H"]


def test_void_partner_winning_play_any_card() -> None:
    assert legal("7H 8D", "AS 7S", HEARTS) == ["7H", "8D"]


def test_void_opponent_winning_you_must_trump() -> None:
    assert legal("7H 8D", "7S AS", HEARTS) == ["7H"]


def test_void_an_opponent_trumped_you_must_overtrump_if_you_can() -> None:
    assert legal("7H JH 8D", "AS 9H", HEARTS) == ["JH"]


def test_void_partner_trumped_and_wins_play_any_card() -> None:
    assert legal("7H JH 8D", "AS 9H 7S", HEARTS) == ["7H", "8D", "JH"]


def test_void_cannot_overtrump_belote_you_must_undertrump() -> None:
    assert legal("7H 8D", "AS JH", HEARTS, BELOTE) == ["7H"]


def test_void_cannot_overtrump_coinche_you_may_discard() -> None:
    assert legal("7H 8D", "AS JH", HEARTS, COINCHE) == ["7H", "8D"]


def test_undertrump_option_changes_each_game() -> None:
    assert legal("7H 8D", "AS JH", HEARTS, COINCHE.replace(undertrump="must")) == ["7H"]
    assert legal("7H 8D", "AS JH", HEARTS, BELOTE.replace(undertrump="may")) == ["7H", "8D"]


def test_void_without_trump_play_any_card() -> None:
    assert legal("8D 9C", "7S AS", HEARTS) == ["8D", "9C"]


def test_all_trump_follow_suit_and_go_higher() -> None:
    assert legal("7S 9S KS AD", "AS", ALL_TRUMP) == ["9S"]
    assert legal("7S 8S AD", "AS", ALL_TRUMP) == ["7S", "8S"]


def test_all_trump_void_any_card() -> None:
    assert legal("7D 8C", "AS", ALL_TRUMP) == ["7D", "8C"]


def test_no_trump_follow_suit_or_any_card() -> None:
    assert legal("7S KS AD", "AS", NO_TRUMP) == ["7S", "KS"]
    assert legal("7D 8C", "AS", NO_TRUMP) == ["7D", "8C"]


def test_the_highest_trump_wins_the_trick() -> None:
    assert trick_winner(cards("AS 7H JS 8H"), HEARTS) == 3


def test_without_trump_the_highest_card_of_the_led_suit_wins() -> None:
    assert trick_winner(cards("KS AD TS 7S"), HEARTS) == 2
    assert trick_winner(cards("KS AD TS 7S"), NO_TRUMP) == 2
    assert trick_winner(cards("7S AD AC JS"), ALL_TRUMP) == 3


def test_trump_order_j_9_a_10_k_q_8_7() -> None:
    order = cards("JH 9H AH TH KH QH 8H 7H")
    for stronger, weaker in itertools.pairwise(order):
        assert trick_winner([weaker, stronger], HEARTS) == 1
        assert trick_winner([stronger, weaker], HEARTS) == 0


def test_plain_order_a_10_k_q_j_9_8_7() -> None:
    order = cards("AS TS KS QS JS 9S 8S 7S")
    for stronger, weaker in itertools.pairwise(order):
        assert trick_winner([weaker, stronger], HEARTS) == 1


@pytest.mark.parametrize(
    ("trump", "rules", "total"),
    [(HEARTS, COINCHE, 152), (NO_TRUMP, COINCHE, 152), (ALL_TRUMP, COINCHE, 152),
     (NO_TRUMP, Rules.preset("house", "coinche"), 120),
     (ALL_TRUMP, COINCHE.replace(all_trump_scale="trump"), 248)],
)
def test_the_cards_total(trump: int, rules: Rules, total: int) -> None:
    assert rules.card_total(trump) == total
    assert rules.deal_total(trump) == total + 10
    assert rules.capot_total(trump) == total + 100


def test_card_values_per_mode() -> None:
    v = card_values(SPADES)
    assert [v[c] for c in cards("JS 9S AS TS KS QS 8S 7S")] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert [v[c] for c in cards("JH 9H AH TH KH QH")] == [2, 0, 11, 10, 4, 3]
    nt = card_values(NO_TRUMP, 19)
    assert nt[parse_card("AS")] == 19
    at = card_values(ALL_TRUMP)
    assert [at[c] for c in cards("JC 9C AC TC KC QC")] == [14, 9, 6, 5, 3, 1]


def test_direction_of_play() -> None:
    assert [next_seat(s, COINCHE) for s in "NESW"] == ["E", "S", "W", "N"]
    ccw = COINCHE.replace(direction="counterclockwise")
    assert [next_seat(s, ccw) for s in "NESW"] == ["W", "N", "E", "S"]


def test_why_illegal_names_the_rule() -> None:
    hand = cards_mask(cards("7S JH 8D"))
    assert why_illegal(parse_card("JH"), hand, cards("AS"), HEARTS, COINCHE) == \
        "JH: must follow spades"
    hand = cards_mask(cards("JH 8D"))
    assert "must trump" in (why_illegal(parse_card("8D"), hand, cards("AS"), HEARTS, COINCHE)
                            or "")
    assert why_illegal(parse_card("JH"), hand, cards("AS"), HEARTS, COINCHE) is None
    assert "not in the hand" in (why_illegal(parse_card("AC"), hand, [], HEARTS, COINCHE) or "")


def test_rules_options_are_checked() -> None:
    with pytest.raises(RulesError, match="options.undertrump"):
        COINCHE.replace(undertrump="sometimes")
    with pytest.raises(RulesError, match="options.nope"):
        COINCHE.replace(nope=True)
    with pytest.raises(RulesError, match="options.target"):
        COINCHE.replace(target=0)
    with pytest.raises(RulesError, match="rules"):
        Rules.preset("street", "coinche")
    assert Rules.from_options("house", "coinche", {"rounding": "nearest"}).rounding == "nearest"
    assert parse_trump("sans-atout") == NO_TRUMP and parse_trump("clubs") == CLUBS


def test_presets() -> None:
    assert (BELOTE.undertrump, BELOTE.rounding) == ("must", "none")
    assert (COINCHE.undertrump, COINCHE.rounding) == ("may", "nearest")
    house = Rules.preset("house", "coinche")
    assert (house.rounding, house.no_trump_aces) == ("none", 11)
    assert COINCHE.replace(undertrump="must").changed_options() == {"undertrump": "must"}


# -- random positions ---------------------------------------------------------------------------
def _random_trick_position(rng: random.Random, rules: Rules) -> tuple[list[int], list[int], int]:
    """Four hands dealt, then a trick played legally up to a random point: (hand, trick, trump)."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [cards_mask(deck[i * 8:(i + 1) * 8]) for i in range(4)]
    trump = rng.randrange(6)
    stop = rng.randrange(4)
    trick: list[int] = []
    for i in range(stop):
        allowed = mask_cards(legal_cards(hands[i], trick, trump, rules))
        card = rng.choice(allowed)
        hands[i] &= ~(1 << card)
        trick.append(card)
    return mask_cards(hands[stop]), trick, trump


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([BELOTE, COINCHE,
                                                COINCHE.replace(overtrump_partner=False)]))
def test_a_legal_card_always_exists_and_comes_from_the_hand(seed: int, rules: Rules) -> None:
    hand, trick, trump = _random_trick_position(random.Random(seed), rules)
    allowed = legal_cards(cards_mask(hand), trick, trump, rules)
    assert allowed
    assert allowed & ~cards_mask(hand) == 0


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([BELOTE, COINCHE]))
def test_four_legal_cards_make_a_trick_whose_winner_played_a_legal_card(seed: int, rules: Rules
                                                                        ) -> None:
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [cards_mask(deck[i * 8:(i + 1) * 8]) for i in range(4)]
    trump = rng.randrange(6)
    trick: list[int] = []
    legal_sets: list[int] = []
    for i in range(4):
        allowed = legal_cards(hands[i], trick, trump, rules)
        legal_sets.append(allowed)
        trick.append(rng.choice(mask_cards(allowed)))
    win = trick_winner(trick, trump)
    assert legal_sets[win] >> trick[win] & 1
    values = card_values(trump, rules.no_trump_aces, rules.all_trump_scale)
    assert trick_points(trick, trump, rules) == sum(values[c] for c in trick)
    # The winner is the oracle's reading of docs/rules.md section 3 (tests/oracle/play.py).
    assert win == oracle_play.trick_winner([card_str(c) for c in trick], TRUMP_NAMES[trump])
    if trump < 4 and any(suit_of(c) == trump for c in trick):
        assert suit_of(trick[win]) == trump
    else:
        assert suit_of(trick[win]) == suit_of(trick[0])
