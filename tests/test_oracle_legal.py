"""Legal cards, trick winners and trick points held to docs/rules.md section 3 (``tests/oracle``).

Positions are reached by legal play from random deals (the oracle's legal moves), under random
options (direction, undertrump must/may, overtrump_partner, no-trump aces, all-trump scale), and
the answers compared through ``rebelote.rules`` and through ``rebelote legal``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from oracle import gen, play
from oracle.compare import cut_legal, expected_legal, mismatch_report, run_json_lines
from oracle.scoring import rules_of
from rebelote.cards import card_str, cards_mask, mask_cards, parse_card
from rebelote.rules import Rules, legal_cards, parse_trump, trick_points, trick_winner

SETTINGS = settings(max_examples=500, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def api_rules(obj: dict[str, Any]) -> Rules:
    return Rules.from_options(obj.get("rules", "official"), obj["game"], obj.get("options"))


@SETTINGS
@given(gen.positions())
def test_legal_cards_of_reachable_positions(obj: dict[str, Any]) -> None:
    trump = parse_trump(obj["trump"])
    hand = cards_mask(parse_card(c) for c in obj["hand"])
    trick = [parse_card(c) for _, c in obj["trick"]]
    got = sorted(card_str(c) for c in mask_cards(legal_cards(hand, trick, trump, api_rules(obj))))
    assert got == expected_legal(obj)["legal"]
    assert got, "a player always has a legal card"


@SETTINGS
@given(gen.positions(full_trick=True))
def test_trick_winner_and_points_of_full_tricks(obj: dict[str, Any]) -> None:
    trump = parse_trump(obj["trump"])
    cards = [c for _, c in obj["trick"]]
    trick = [parse_card(c) for c in cards]
    assert trick_winner(trick, trump) == play.trick_winner(cards, obj["trump"])
    assert trick_points(trick, trump, api_rules(obj)) == play.trick_points(
        cards, obj["trump"], rules_of(obj))


@SETTINGS
@given(gen.positions())
def test_partial_tricks_are_won_by_the_same_card(obj: dict[str, Any]) -> None:
    cards = [c for _, c in obj["trick"]]
    if cards:
        assert trick_winner([parse_card(c) for c in cards], parse_trump(obj["trump"])) == \
            play.trick_winner(cards, obj["trump"])


@pytest.mark.parametrize("seed", [3, 4])
def test_thousands_of_positions_through_one_cli_run(seed: int) -> None:
    rng = random.Random(seed)
    objs = [gen.random_position(rng, full_trick=i % 5 == 0) for i in range(3000)]
    answers, status, err = run_json_lines("legal", objs)
    assert "Traceback" not in err
    assert len(answers) == len(objs), err
    rows = []
    for obj, answer in zip(objs, answers, strict=True):
        exp, got = expected_legal(obj), cut_legal(obj, answer)
        if exp != got:
            rows.append((obj, exp, got))
    assert not rows, mismatch_report("positions", rows)
    assert status == 0


SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _other_form(card: str, rng: random.Random) -> str:
    """The same card as a player may type it: ``10S``, ``J♥``, ``jh``."""
    rank, suit = card[0], card[1]
    form = rng.randrange(4)
    if form == 0 and rank == "T":
        return "10" + suit
    if form == 1:
        return ("10" if rank == "T" else rank) + SYMBOLS[suit]
    if form == 2:
        return card.lower()
    return card


def test_cards_typed_as_10s_or_with_suit_symbols_answer_in_the_two_letter_form() -> None:
    rng = random.Random(8)
    objs = [gen.random_position(rng) for _ in range(500)]
    typed = [{**o, "hand": [_other_form(c, rng) for c in o["hand"]],
              "trick": [[s, _other_form(c, rng)] for s, c in o["trick"]]} for o in objs]
    answers, status, err = run_json_lines("legal", typed)
    assert len(answers) == len(objs), err
    rows = [(t, expected_legal(o), cut_legal(o, a))
            for o, t, a in zip(objs, typed, answers, strict=True)
            if expected_legal(o) != cut_legal(o, a)]
    assert not rows, mismatch_report("typed positions", rows)
    assert status == 0
