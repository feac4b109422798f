"""The actions of a deal as text (docs/interfaces.md, the deal engine): what a seat may type and
how each action is written back. Written to kill the mutants that the mutation run of `actions`
left alive (docs/mutation.md)."""

from __future__ import annotations

import pytest

from rebelote.actions import NO_DECLARATION, Declare, Play, parse_action
from rebelote.auction import Bid
from rebelote.cards import HEARTS, SPADES, parse_card
from rebelote.declarations import carre, sequence
from rebelote.errors import IllegalActionError


@pytest.mark.parametrize("text", ["no-declaration", "no declaration", "nodeclaration",
                                  "no-declare", "No Declaration", "NO-DECLARE", " nodeclaration "])
def test_declining_to_declare_is_written_four_ways_in_any_case(text: str) -> None:
    assert parse_action(text) is NO_DECLARATION


def test_declaring_nothing_is_written_no_declaration() -> None:
    assert str(NO_DECLARATION) == "no-declaration" and str(Declare()) == "no-declaration"


def test_declarations_are_written_after_declare_one_by_one_separated_by_semicolons() -> None:
    tierce = sequence(HEARTS, 0, 3)
    carre_of_jacks = carre(4, SPADES)
    assert str(Declare((tierce,))) == "declare tierce 7H 8H 9H"
    assert str(Declare((tierce, carre_of_jacks))) == "declare tierce 7H 8H 9H; carre JS JH JD JC"


@pytest.mark.parametrize("text", ["JH", "jh", "10S", "tS", " 7c "])
def test_a_card_of_two_or_three_characters_is_played(text: str) -> None:
    assert parse_action(text) == Play(parse_card(text.strip()))


@pytest.mark.parametrize(("text", "reason"), [
    ("J H", "'J H' is not a bid"),
    ("10 S", "'10 S': a contract is 80 to 160 by ten"),  # read as a bid of 10 in spades
])
def test_a_card_is_written_without_a_space(text: str, reason: str) -> None:
    with pytest.raises(IllegalActionError) as info:
        parse_action(text)
    assert info.value.field == "action" and info.value.reason.startswith(reason)


def test_a_bid_is_anything_else() -> None:
    assert parse_action("90 hearts") == Bid.parse("90 hearts")
    assert parse_action("pass") == Bid.parse("pass")


@pytest.mark.parametrize("value", [None, 5, ("JH",)])
def test_an_action_is_text(value: object) -> None:
    with pytest.raises(IllegalActionError) as info:
        parse_action(value)  # type: ignore[arg-type]
    assert (info.value.field, info.value.reason, str(info.value)) == (
        "action", f"{value!r} is not an action", f"action: {value!r} is not an action")
