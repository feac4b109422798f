"""What a deal summary may say (docs/interfaces.md, the deal summary; docs/rules.md): the edges
of each check, one test each, with the field and the reason of every refusal."""

from __future__ import annotations

from typing import Any

import pytest

from rebelote.errors import InputError
from rebelote.rules import Rules
from rebelote.summary import DealSummary, summaries_from_json

BELOTE = Rules.preset("official", "belote")
COINCHE = Rules.preset("official", "coinche")


def read(obj: dict[str, Any], rules: Rules = COINCHE) -> DealSummary:
    return DealSummary.from_json(obj, rules)


def refusal(obj: dict[str, Any], rules: Rules = COINCHE) -> tuple[str, str]:
    with pytest.raises(InputError) as e:
        read(obj, rules)
    return e.value.field, e.value.reason


def test_one_team_may_hold_all_162_points_without_a_capot() -> None:
    # the other team won a trick of sevens and eights: no points, no capot
    s = read({"trump": "hearts", "taker": "NS", "points": {"NS": 162}}, BELOTE)
    assert (s.points, s.capot) == ((162, 0), None)
    assert refusal({"trump": "hearts", "taker": "NS", "points": {"NS": 163}}, BELOTE) == (
        "points.NS", "163 is more than the 162 of a deal (252 for a capot)")


def test_a_generale_cannot_be_coinched_when_capots_cannot() -> None:
    rules = COINCHE.replace(coinche_capot=False)
    obj = {"trump": "hearts", "taker": "NS", "contract": "generale", "coinche": "coinche",
           "capot": "NS", "generale": True}
    assert refusal(obj, rules) == ("coinche", "a generale contract cannot be coinched under "
                                              "these rules (option coinche_capot is off)")
    assert read(obj).coinche == 2


def test_a_generale_is_the_takers_capot_not_the_defenses() -> None:
    obj = {"trump": "hearts", "taker": "NS", "contract": "generale", "capot": "EW",
           "generale": True}
    assert refusal(obj) == ("generale", "a générale is the taker alone winning every trick: "
                                        "capot must be NS")
    assert read({**obj, "capot": "NS"}).generale


def test_a_games_deals_are_counted_from_one_in_errors() -> None:
    good = {"trump": "hearts", "taker": "NS", "points": {"NS": 100}}
    with pytest.raises(InputError) as e:
        summaries_from_json([good, {**good, "taker": "XY"}], BELOTE)
    assert e.value.field == "deals[2].taker"
    with pytest.raises(InputError) as e:
        summaries_from_json([{**good, "game": "coinche"}], BELOTE)
    assert (e.value.field, e.value.reason) == ("deals[1].game", "this game is belote")


def test_an_adjustment_may_be_negative_and_other_numbers_may_be_zero() -> None:
    adj = read({"adjust": {"NS": -50}}, BELOTE)
    assert (adj.kind, adj.adjust) == ("adjust", (-50, 0))
    s = read({"trump": "hearts", "taker": "NS", "points": {"NS": 0}, "held_over": 0}, BELOTE)
    assert s.points == (0, 162)
    assert refusal({"trump": "hearts", "taker": "NS", "points": {"NS": -1}}, BELOTE) == (
        "points.NS", "must be 0 or more, not -1")


@pytest.mark.parametrize("contract", ["capot", "Capot", 250, "250"])
def test_a_capot_contract_is_written_capot_or_250(contract: object) -> None:
    s = read({"trump": "hearts", "taker": "NS", "contract": contract, "capot": "NS"})
    assert s.contract == "capot"


@pytest.mark.parametrize(("word", "multiplier"), [
    ("none", 1), ("coinche", 2), ("surcoinche", 4), ("contre", 2), ("surcontre", 4),
    (" Contre ", 2), (None, 1),
])
def test_the_coinche_words_of_both_games(word: str | None, multiplier: int) -> None:
    s = read({"trump": "hearts", "taker": "NS", "contract": 90, "coinche": word,
              "points": {"NS": 100}})
    assert s.coinche == multiplier
