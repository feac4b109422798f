"""The compiled core (``rebelote.fast._core``) held equal to the rules (``rebelote.rules``) on
tens of thousands of random positions."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rebelote.fast import _core
from rebelote.rules import (
    ABOVE,
    DIX_DE_DER,
    card_values,
    legal_mask,
    trick_points,
    trick_winner,
)

FLAGS = [(ot, mu) for ot in (True, False) for mu in (True, False)]


def random_trick(rng: random.Random) -> tuple[int, list[int], int]:
    """A hand of 1..8 cards and 0..3 other cards on the trick, and a trump mode."""
    deck = list(range(32))
    rng.shuffle(deck)
    size = rng.randint(1, 8)
    hand = sum(1 << c for c in deck[:size])
    trick = deck[size: size + rng.randrange(4)]
    return hand, trick, rng.randrange(6)


def test_legal_masks_equal_the_rules_on_40000_positions() -> None:
    rng = random.Random(2026)
    for _ in range(40_000):
        hand, trick, trump = random_trick(rng)
        ot, mu = rng.choice(FLAGS)
        win = trick_winner(trick, trump) if trick else 0
        want = legal_mask(hand, trick, win, trump, ot, mu)
        assert _core.legal_mask(hand, trick, trump, ot, mu, ABOVE[trump]) == want, \
            (hand, trick, trump, ot, mu)


def test_trick_winners_and_points_equal_the_rules_on_20000_tricks() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        trump = rng.randrange(6)
        trick = rng.sample(range(32), rng.randint(1, 4))
        assert _core.trick_winner(trick, trump, ABOVE[trump]) == trick_winner(trick, trump)
        values = card_values(trump, rng.choice((19, 11)), rng.choice(("reduced", "trump")))
        assert _core.trick_points(trick, values) == sum(values[c] for c in trick)
        assert _core.trick_points(trick, card_values(trump)) == trick_points(trick, trump)


def reference_playout(hands: list[int], trump: int, leader: int, ot: bool, mu: bool,
                      step: int, values: tuple[int, ...], choices: list[int]
                      ) -> tuple[int, int, int, int]:
    """The same choices through the rules, one card at a time."""
    points, tricks = [0, 0], [0, 0]
    k = 0
    for _ in range(8):
        trick: list[int] = []
        for i in range(4):
            seat = (leader + step * i) % 4
            win = trick_winner(trick, trump) if trick else 0
            legal = legal_mask(hands[seat], trick, win, trump, ot, mu)
            cards = [c for c in range(32) if legal >> c & 1]
            card = cards[choices[k] % len(cards)]
            k += 1
            hands[seat] &= ~(1 << card)
            trick.append(card)
        leader = (leader + step * trick_winner(trick, trump)) % 4
        points[leader % 2] += sum(values[c] for c in trick)
        tricks[leader % 2] += 1
    points[leader % 2] += DIX_DE_DER
    if tricks[1 - leader % 2] == 0:
        points[leader % 2] += 90
    return points[0], points[1], tricks[0], tricks[1]


def test_playouts_equal_the_rules_card_by_card() -> None:
    rng = random.Random(11)
    capots = 0
    for _ in range(2_000):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[8 * s: 8 * s + 8]) for s in range(4)]
        trump = rng.randrange(6)
        ot, mu = rng.choice(FLAGS)
        step = rng.choice((1, 3))
        leader = rng.randrange(4)
        values = card_values(trump, rng.choice((19, 11)), "reduced")
        choices = [rng.randrange(8) if rng.random() < 0.8 else 0 for _ in range(32)]
        got = _core.playout(hands, trump, leader, [], ot, mu, step, ABOVE[trump], values,
                            choices)
        want = reference_playout(list(hands), trump, leader, ot, mu, step, values, choices)
        assert got == want
        capots += 0 in got[2:]
    assert capots > 0  # the capot path was taken


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.booleans())
def test_legal_masks_hypothesis(seed: int, ot: bool, mu: bool) -> None:
    hand, trick, trump = random_trick(random.Random(seed))
    win = trick_winner(trick, trump) if trick else 0
    assert _core.legal_mask(hand, trick, trump, ot, mu, ABOVE[trump]) == \
        legal_mask(hand, trick, win, trump, ot, mu)


def test_random_playouts_total_the_deal() -> None:
    rng = random.Random(3)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[8 * s: 8 * s + 8]) for s in range(4)]
    values = card_values(0)
    ns, ew = _core.random_playouts(hands, 0, 1, True, False, 1, ABOVE[0], values, 1000, 5)
    # every deal totals 162, or 252 for a capot
    assert 162_000 <= ns + ew <= 252_000
    assert (ns + ew - 162_000) % 90 == 0
    assert _core.random_playouts(hands, 0, 1, True, False, 1, ABOVE[0], values, 1000, 5) == \
        (ns, ew)
