"""Declarations and the belote (docs/rules.md section 4)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rebelote.cards import CLUBS, HEARTS, SPADES, cards_mask, parse_cards
from rebelote.declarations import (
    Combo,
    belote_holders,
    best_declarations,
    candidates,
    carre,
    check_declarations,
    combo_from_json,
    declaring_team,
    sequence,
)
from rebelote.rules import ALL_TRUMP, NO_TRUMP

N, E, S, W = range(4)


def hand(*cards: str) -> int:
    return cards_mask(parse_cards(cards))


def best(trump: int, *cards: str) -> list[tuple[str, int]]:
    return [(c.kind, c.points) for c in best_declarations(hand(*cards), trump)]


def combo(*cards: str) -> Combo:
    parsed = parse_cards(cards)
    if len({c & 7 for c in parsed}) == 1:
        return carre(parsed[0] & 7, HEARTS)
    return sequence(parsed[0] >> 3, min(c & 7 for c in parsed), len(parsed))


@pytest.mark.parametrize(("cards", "expected"), [
    (("7S", "8S", "9S"), [("tierce", 20)]),
    (("7S", "8S", "9S", "TS"), [("cinquante", 50)]),
    (("9D", "TD", "JD", "QD", "KD"), [("cent", 100)]),
    (("9D", "TD", "JD", "QD", "KD", "AD"), [("cent", 100)]),
    (("7S", "8S", "TS", "JS"), []),
])
def test_sequences_tierce_20_cinquante_50_cent_100(cards: tuple[str, ...],
                                                  expected: list[tuple[str, int]]) -> None:
    assert best(HEARTS, *cards) == expected


def test_eight_in_sequence_declare_a_cent_and_a_tierce() -> None:
    assert best(HEARTS, "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS") == [
        ("cent", 100), ("tierce", 20)]


@pytest.mark.parametrize(("rank", "points"), [("J", 200), ("9", 150), ("A", 100), ("T", 100),
                                              ("K", 100), ("Q", 100)])
def test_carres_in_a_suit_contract(rank: str, points: int) -> None:
    assert best(HEARTS, *(rank + s for s in "SHDC")) == [("carre", points)]
    assert best(ALL_TRUMP, *(rank + s for s in "SHDC")) == [("carre", points)]


@pytest.mark.parametrize(("rank", "points"), [("A", 200), ("T", 150), ("K", 100), ("Q", 100),
                                              ("J", 100), ("9", 100)])
def test_carres_in_no_trump(rank: str, points: int) -> None:
    assert best(NO_TRUMP, *(rank + s for s in "SHDC")) == [("carre", points)]


@pytest.mark.parametrize("rank", ["8", "7"])
def test_carres_of_eights_and_sevens_are_worth_nothing(rank: str) -> None:
    assert best(HEARTS, *(rank + s for s in "SHDC")) == []


def test_a_card_counts_in_one_declaration_only() -> None:
    # JH belongs to the carré of jacks and to the tierce 9H TH JH: the carré (200) is best
    assert best(HEARTS, "9H", "TH", "JH", "JS", "JD", "JC", "7C", "AS") == [("carre", 200)]
    # the carré of jacks (200) or the cent 9H..KH (100): the carré, and no tierce is left
    assert best(HEARTS, "9H", "TH", "JH", "QH", "KH", "JS", "JD", "JC") == [
        ("carre", 200)]


def test_a_hand_declares_carre_and_sequence_when_disjoint() -> None:
    assert best(HEARTS, "JS", "JH", "JD", "JC", "7C", "8C", "9C", "AS") == [
        ("carre", 200), ("tierce", 20)]


def test_check_declarations() -> None:
    h = hand("9H", "TH", "JH", "7S", "8S", "9S", "AD", "AC")
    both = (combo("9H", "TH", "JH"), combo("7S", "8S", "9S"))
    assert check_declarations(both, h, HEARTS) is None
    assert check_declarations((), h, HEARTS) is None
    assert "best declarations are worth 40" in (check_declarations(both[:1], h, HEARTS) or "")
    assert "not in the hand" in (check_declarations((combo("QS", "KS", "AS"),), h, HEARTS) or "")


def test_combo_from_json_reads_and_checks() -> None:
    assert combo_from_json({"kind": "tierce", "cards": ["9H", "TH", "JH"]}, HEARTS).points == 20
    for bad, match in [
        ({"kind": "tierce", "cards": ["9H", "TH", "QH"]}, "follow each other"),
        ({"kind": "cinquante", "cards": ["9H", "TH", "JH"]}, "make a tierce"),
        ({"kind": "carre", "cards": ["9H", "9S", "9D"]}, "four cards of one rank"),
        ({"kind": "quinte", "cards": []}, "not a declaration"),
        ({"kind": "tierce", "cards": ["9H", "TH", "ZZ"]}, "not a card"),
    ]:
        with pytest.raises(ValueError, match=match):
            combo_from_json(bad, HEARTS)


# -- which team scores -------------------------------------------------------------------------
def winner(declared: dict[int, list[Combo]], trump: int = SPADES, tie: str = "nobody",
           first: int = N) -> int:
    seats = [declared.get(s, []) for s in range(4)]
    return declaring_team(seats, trump, first, 1, tie)


def test_the_coinche_guides_tierce_to_the_ace_beats_the_tierce_to_the_queen() -> None:
    # North a tierce to the queen, South a tierce to the 9, East a tierce to the ace
    decl = {N: [combo("TD", "JD", "QD")], S: [combo("7C", "8C", "9C")],
            E: [combo("QH", "KH", "AH")]}
    assert winner(decl, trump=SPADES) == 1


def test_the_coinche_guides_two_tierces_to_the_king_out_of_trump_tie_and_nobody_scores() -> None:
    decl = {N: [combo("JD", "QD", "KD")],
            E: [combo("JC", "QC", "KC")]}
    assert winner(decl, trump=SPADES) == -1
    assert winner(decl, trump=SPADES, tie="first", first=E) == 1
    assert winner(decl, trump=SPADES, tie="first", first=W) == 0


def test_points_first() -> None:
    assert winner({N: [combo("7S", "8S", "9S")], E: [combo("7H", "8H", "9H", "TH")]}) == 1


def test_carre_over_sequence_of_the_same_points() -> None:
    assert winner({N: [combo("9D", "TD", "JD", "QD", "KD")],
                   E: [combo("QS", "QH", "QD", "QC")]}) == 1


def test_the_longer_sequence_wins() -> None:
    assert winner({N: [combo("8D", "9D", "TD", "JD", "QD", "KD")],
                   E: [combo("9C", "TC", "JC", "QC", "KC")]}) == 0


def test_higher_carre_in_plain_order() -> None:
    # carrés of 100: A over 10 over K over Q
    assert winner({N: [combo("KS", "KH", "KD", "KC")], E: [combo("TS", "TH", "TD", "TC")]}) == 1


def test_a_sequence_in_trump_beats_one_in_a_plain_suit() -> None:
    decl = {N: [combo("JH", "QH", "KH")], E: [combo("JC", "QC", "KC")]}
    assert winner(decl, trump=HEARTS) == 0
    assert winner(decl, trump=CLUBS) == 1
    assert winner(decl, trump=ALL_TRUMP) == -1


def test_a_small_declaration_counts_with_its_team() -> None:
    decl = {E: [combo("QH", "KH", "AH")], W: [combo("7S", "8S", "9S")],
            N: [combo("TD", "JD", "QD")]}
    assert winner(decl) == 1


# -- belote ------------------------------------------------------------------------------------
def test_belote_is_king_and_queen_of_trump_in_one_hand() -> None:
    hands = [hand("KH", "QH"), hand("KS"), hand("QS"), hand("KC", "QC")]
    assert belote_holders(hands, HEARTS) == (-1, N, -1, -1)
    assert belote_holders(hands, SPADES) == (-1, -1, -1, -1)
    assert belote_holders(hands, NO_TRUMP) == (-1, -1, -1, -1)
    assert belote_holders(hands, ALL_TRUMP) == (-1, N, -1, W)


def test_candidates_are_every_carre_worth_points_and_every_run_of_three_or_more() -> None:
    # the bit tricks of ``candidates`` against a plain enumeration, on random hands
    rng = random.Random(4)
    for _ in range(2000):
        h = sum(1 << c for c in rng.sample(range(32), 8))
        trump = rng.randrange(6)
        plain = {carre(r, trump) for r in range(2, 8)
                 if all(h >> (s * 8 + r) & 1 for s in range(4))}
        plain |= {sequence(s, low, n) for s in range(4) for n in range(3, 9)
                  for low in range(9 - n) if all(h >> (s * 8 + low + i) & 1 for i in range(n))}
        assert set(candidates(h, trump)) == plain


def test_best_declarations_equals_trying_every_set_of_disjoint_combos() -> None:
    # the shortcuts of ``best_declarations`` against the plain search over every subset
    def key(combos: tuple[Combo, ...] | list[Combo], trump: int) -> tuple[object, ...]:
        return (sum(c.points for c in combos),
                sorted((c.strength(trump) for c in combos), reverse=True))

    rng = random.Random(8)
    tried = 0
    while tried < 600:
        cards = rng.sample(range(32), 8)
        if rng.random() < 0.5:  # long runs and carrés, where combos share cards
            suit, low = rng.randrange(4), rng.randrange(4)
            cards[:4] = [suit * 8 + low + i for i in range(4)]
        h = sum(1 << c for c in set(cards))
        trump = rng.randrange(6)
        cands = candidates(h, trump)
        if len(cands) < 2:
            continue
        tried += 1
        plain_key: tuple[object, ...] = (0, [])
        for bits in range(1 << len(cands)):
            chosen = [c for i, c in enumerate(cands) if bits >> i & 1]
            used = 0
            for c in chosen:
                used = -1 if used == -1 or used & c.cards else used | c.cards
            if used != -1 and key(chosen, trump) > plain_key:
                plain_key = key(chosen, trump)
        got = best_declarations(h, trump)
        assert key(got, trump) == plain_key
        assert check_declarations(got, h, trump) is None
        strengths = [c.strength(trump) for c in got]
        assert strengths == sorted(strengths, reverse=True)


@settings(max_examples=300, deadline=None)
@given(cards=st.sets(st.integers(0, 31), max_size=8), trump=st.integers(0, 5))
def test_best_declarations_read_only_the_cards_in_a_combo(cards: set[int], trump: int) -> None:
    """The best set is computed (and kept) from the hand's cards that lie in some combo: the
    same as from the whole hand, for any hand and every trump mode."""
    from rebelote.declarations import _best_of

    h = sum(1 << c for c in cards)
    assert best_declarations(h, trump) == _best_of.__wrapped__(h, trump)


def test_best_declarations_of_hands_rich_in_combos_as_from_the_whole_hand() -> None:
    """Hands of eight cards drawn from two suits and the aces and jacks: sequences and
    carrés that overlap, the set chosen among several."""
    from rebelote.declarations import _best_of

    rng = random.Random(8)
    pool = [c for c in range(32) if c < 16 or c % 8 in (4, 7)]
    for _ in range(2000):
        h = sum(1 << c for c in rng.sample(pool, 8))
        for trump in range(6):
            assert best_declarations(h, trump) == _best_of.__wrapped__(h, trump)
