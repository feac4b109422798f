"""Declarations, rule by rule (docs/rules.md section 4): what a declared set may hold, how a
declaration is read and written, and what each refusal says. Written to kill the mutants that
the mutation runs of `declarations` left alive (docs/mutation.md)."""

from __future__ import annotations

import re

import pytest

from rebelote.cards import HEARTS, SPADES, cards_mask, parse_cards
from rebelote.declarations import (
    Combo,
    best_declarations,
    carre,
    check_declarations,
    combo_from_json,
    declaring_team,
    sequence,
    sequence_points,
)
from rebelote.errors import InputError
from rebelote.rules import NO_TRUMP

EIGHT = 1  # rank index of the 8 (7 8 9 T J Q K A)


def hand(*cards: str) -> int:
    return cards_mask(parse_cards(cards))


def run_of(*cards: str) -> Combo:
    parsed = parse_cards(cards)
    return sequence(parsed[0] >> 3, min(c & 7 for c in parsed), len(parsed))


def refused(obj: object) -> str:
    with pytest.raises(ValueError) as info:
        combo_from_json(obj, HEARTS)
    return str(info.value)


# -- a declaration as text ---------------------------------------------------------------------
def test_a_declaration_reads_as_its_kind_then_its_cards_in_order() -> None:
    assert str(run_of("9H", "TH", "JH")) == "tierce 9H TH JH"
    assert str(carre(4, HEARTS)) == "carre JS JH JD JC"


# -- what a declared set may hold --------------------------------------------------------------
def test_a_carre_of_eights_is_worth_nothing_and_may_not_be_declared() -> None:
    eights = hand("8S", "8H", "8D", "8C", "7S", "QD", "KC", "AH")
    assert check_declarations([carre(EIGHT, SPADES)], eights, SPADES) == (
        "carre 8S 8H 8D 8C is worth nothing")


def test_a_card_shared_with_any_earlier_declaration_is_refused() -> None:
    # the third run shares the 9 of hearts with the first one, not with the second
    h = hand("7H", "8H", "9H", "TH", "JH", "7S", "8S", "9S")
    combos = [run_of("7H", "8H", "9H"), run_of("7S", "8S", "9S"), run_of("9H", "TH", "JH")]
    assert check_declarations(combos, h, SPADES) == (
        "tierce 9H TH JH shares a card with another declaration")


# -- reading a declaration: each refusal names the field and the rule --------------------------
def test_a_declaration_is_an_object() -> None:
    assert refused(["9H", "TH", "JH"]) == "a declaration is an object with 'kind' and 'cards'"


def test_the_kind_is_one_of_the_four() -> None:
    assert refused({"kind": "quinte", "cards": []}) == (
        "kind: 'quinte' is not a declaration (tierce, cinquante, cent, carre)")


def test_the_cards_are_a_list_of_card_names() -> None:
    assert refused({"kind": "tierce", "cards": "9H TH JH"}) == (
        "cards: must be a list of cards like 'JH'")
    assert refused({"kind": "tierce", "cards": ["9H", 10, "JH"]}) == (
        "cards: must be a list of cards like 'JH'")


def test_a_card_is_listed_once() -> None:
    assert refused({"kind": "tierce", "cards": ["9H", "9H", "TH"]}) == (
        "cards: a card is listed twice")


def test_a_carre_is_four_cards_of_one_rank() -> None:
    message = "cards: a carré is the four cards of one rank"
    assert refused({"kind": "carre", "cards": ["9H", "9S", "9D"]}) == message
    assert refused({"kind": "carre", "cards": ["9H", "9S", "9D", "TC"]}) == message


@pytest.mark.parametrize("cards", [["9H", "TH"], ["9H", "TH", "JS"], ["9H", "TS", "JD", "QC"]])
def test_a_sequence_is_three_or_more_cards_of_one_suit(cards: list[str]) -> None:
    assert refused({"kind": "tierce", "cards": cards}) == (
        "cards: a sequence is three or more cards of one suit")


def test_the_cards_of_a_sequence_follow_each_other() -> None:
    assert refused({"kind": "tierce", "cards": ["9H", "TH", "QH"]}) == (
        "cards: the cards of a sequence follow each other (7 8 9 T J Q K A)")


def test_the_kind_matches_the_length_of_the_sequence() -> None:
    assert refused({"kind": "cinquante", "cards": ["9H", "TH", "JH"]}) == (
        "kind: 3 cards in sequence make a tierce, not a cinquante")


def test_a_declaration_reads_back_from_its_json() -> None:
    for combo in (run_of("9H", "TH", "JH"), run_of("7S", "8S", "9S", "TS", "JS"),
                  carre(4, HEARTS)):
        assert combo_from_json(combo.to_json(), HEARTS) == combo
    assert re.fullmatch(r"\{'kind': 'tierce', 'cards': \['9H', 'TH', 'JH'\]\}",
                        str(run_of("9H", "TH", "JH").to_json()))


# -- a carré, the best set, and which team scores ------------------------------------------------
def test_a_carre_has_no_suit_four_cards_and_its_rank_on_top() -> None:
    assert carre(4, HEARTS) == Combo("carre", hand("JS", "JH", "JD", "JC"), 200, -1, 4, 4)


def test_of_two_best_sets_of_equal_points_the_one_with_the_strongest_combo_wins() -> None:
    # All eight spades: a cent and a tierce either way (120); the cent to the ace is the
    # strongest combo, so the tierce is 7 8 9 (not the cent to the jack and a tierce to the ace).
    spades = hand("7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS")
    assert best_declarations(spades, NO_TRUMP) == (run_of("TS", "JS", "QS", "KS", "AS"),
                                                   run_of("7S", "8S", "9S"))


def test_a_card_that_cannot_be_read_is_refused_in_the_cards_field() -> None:
    with pytest.raises(InputError) as info:
        combo_from_json({"kind": "tierce", "cards": ["9H", "TH", "ZZ"]}, HEARTS)
    assert info.value.field == "cards" and info.value.reason.startswith("'ZZ' is not a card")


def seats(**declared: list[Combo]) -> list[list[Combo]]:
    return [declared.get(s, []) for s in "NESW"]


def test_nobody_scores_when_nobody_declares() -> None:
    assert declaring_team(seats(), SPADES, 0, 1) == -1
    assert declaring_team(seats(), SPADES, 0, 1, tie="first") == -1


def test_a_team_alone_to_declare_scores_even_a_small_declaration() -> None:
    tierce = run_of("7C", "8C", "9C")
    assert declaring_team(seats(N=[tierce]), SPADES, 0, 1) == 0
    assert declaring_team(seats(S=[tierce]), SPADES, 1, 1) == 0
    assert declaring_team(seats(E=[tierce]), SPADES, 0, 1) == 1
    assert declaring_team(seats(W=[tierce]), SPADES, 0, 3) == 1


def test_fewer_than_three_cards_in_sequence_are_worth_nothing() -> None:
    assert [sequence_points(n) for n in range(9)] == [0, 0, 0, 20, 50, 100, 100, 100, 100]


def test_a_sequence_knows_its_suit_its_length_and_its_top_card() -> None:
    nine_high = sequence(HEARTS, 0, 3)  # 7H 8H 9H
    assert (nine_high.suit, nine_high.length, nine_high.top) == (HEARTS, 3, 2)
    assert sequence(SPADES, 3, 5).top == 7  # T J Q K A of spades: the ace on top
