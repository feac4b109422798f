"""Cards: the forms players type, the two-letter form every interface writes, masks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rebelote.cards import (
    card_pretty,
    card_str,
    cards_mask,
    mask_cards,
    other_team,
    parse_card,
    parse_seat,
    parse_team,
    popcount,
)
from rebelote.errors import CardError


@pytest.mark.parametrize(
    ("text", "expected"),
    [("JH", "JH"), ("10H", "TH"), ("TH", "TH"), ("J♥", "JH"), ("j♥", "JH"), ("10♠", "TS"),
     ("as", "AS"), ("7c", "7C"), (" QD ", "QD"), ("K♣", "KC"), ("9♦", "9D"), ("VH", "JH"),
     ("RS", "KS")],
)
def test_parse_card_reads_the_forms_players_type(text: str, expected: str) -> None:
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "J", "1H", "11S", "JX", "ZZ", "10", "♥", "JHH"])
def test_parse_card_rejects_anything_else_with_a_sentence(text: str) -> None:
    with pytest.raises(CardError, match="is not a card"):
        parse_card(text)


def test_parse_card_rejects_non_strings() -> None:
    with pytest.raises(CardError):
        parse_card(12)  # type: ignore[arg-type]


@given(st.integers(0, 31))
def test_every_card_round_trips_through_its_text(card: int) -> None:
    assert parse_card(card_str(card)) == card
    assert parse_card(card_pretty(card)) == card


@given(st.sets(st.integers(0, 31)))
def test_masks_round_trip(cards: set[int]) -> None:
    mask = cards_mask(cards)
    assert mask_cards(mask) == sorted(cards)
    assert popcount(mask) == len(cards)


def test_card_str_rejects_numbers_outside_the_deck() -> None:
    with pytest.raises(CardError):
        card_str(32)


def test_seats_and_teams() -> None:
    assert other_team("NS") == "EW" and other_team("EW") == "NS"
    assert parse_seat("s") == "S" and parse_team("ew") == "EW"
    with pytest.raises(CardError):
        parse_seat("X")
    with pytest.raises(CardError):
        parse_team("NE")
