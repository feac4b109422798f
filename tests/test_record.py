"""Deal records: written, read back, replayed, and re-checked by an independent checker."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rebelote.bots import make_bot
from rebelote.commands._deal import deal_records
from rebelote.deal import DealState
from rebelote.errors import InputError
from rebelote.record import check_record, record_of, replay_record
from rebelote.rules import Rules
from record_checker import check

RANDOM = [make_bot("random")] * 4
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"direction": "counterclockwise", "declaration_tie": "first", "overtrump_partner": False},
    {"belote_no_all_trump": True, "all_trump_scale": "trump", "coinche_capot": False,
     "generale": False},
    {"declarations": False, "undertrump": "may", "litige": "defense"},
    {"undertrump": "must", "belote_counts_for_contract": False, "no_trump_aces": 11},
]


def records(game: str, name: str = "official", seed: int = 1, count: int = 30,
            options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return deal_records(Rules.from_options(name, game, options), seed, count, RANDOM)


def played(recs: list[dict[str, Any]]) -> dict[str, Any]:
    return next(r for r in recs if r["tricks"] and r["declarations"])


@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_a_record_round_trips(game: str) -> None:
    for rec in records(game):
        state = replay_record(json.loads(json.dumps(rec)))
        assert record_of(state) == rec


@pytest.mark.parametrize("game", ["belote", "coinche"])
@pytest.mark.parametrize("name", ["official", "house"])
@pytest.mark.parametrize("options", OPTION_SETS, ids=range(len(OPTION_SETS)))
def test_records_replay_clean_under_the_independent_checker(game: str, name: str,
                                                            options: dict[str, Any]) -> None:
    for seed in range(2):
        for rec in records(game, name, seed, 40, options):
            assert check(rec) == rec["result"], rec
            answer = check_record(rec)
            assert answer["outcome"] == rec["result"]["outcome"]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["belote", "coinche"])
@pytest.mark.parametrize("name", ["official", "house"])
def test_thousands_of_records_replay_clean(game: str, name: str) -> None:
    for seed in range(10):
        for i, rec in enumerate(records(game, name, 1000 + seed, 250,
                                        OPTION_SETS[seed % len(OPTION_SETS)])):
            assert check(rec) == rec["result"], (seed, i, rec)


def test_a_void_belote_deal_records_five_cards_and_the_stock() -> None:
    rec = next(r for r in records("belote") if not r["tricks"])
    assert rec["result"] == {"outcome": "void", "score": {"NS": 0, "EW": 0}}
    assert all(len(h) == 5 for h in rec["hands"].values()) and len(rec["stock"]) == 11
    assert replay_record(rec).is_void


def test_the_first_illegal_card_is_named() -> None:
    rec = copy.deepcopy(played(records("coinche")))
    trick = rec["tricks"][1]
    trick[2], trick[3] = trick[3], trick[2]  # swap two players' cards
    with pytest.raises(InputError, match=r"tricks\[1\]\[2\]"):
        check_record(rec)


def test_a_wrong_leader_is_named() -> None:
    rec = copy.deepcopy(played(records("coinche")))
    rec["tricks"][3][0] = next(s for s in "NESW" if s != rec["tricks"][3][0])
    with pytest.raises(InputError, match=r"tricks\[3\]\[0\]: the trick is led by"):
        check_record(rec)


def test_a_bid_out_of_turn_is_named() -> None:
    rec = copy.deepcopy(played(records("coinche")))
    rec["auction"][0][0] = next(s for s in "NESW" if s != rec["auction"][0][0])
    with pytest.raises(InputError, match=r"auction\[0\]: .*turn to speak"):
        check_record(rec)


def test_an_illegal_coinche_is_named() -> None:
    state = DealState.new(Rules.preset("official", "coinche"), 0, seed=1)
    for text in ("90 hearts", "pass", "pass", "pass"):
        state = state.apply(text)
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[0])
    rec = record_of(state)
    rec["auction"] = [["E", "90 hearts"], ["S", "pass"], ["W", "coinche"], ["N", "pass"],
                      ["E", "pass"], ["S", "pass"]]
    with pytest.raises(InputError, match=r"auction\[2\]: W coinche: only an opponent"):
        check_record(rec)


def test_a_wrong_score_is_named() -> None:
    rec = copy.deepcopy(played(records("belote")))
    rec["result"]["score"]["NS"] += 10
    with pytest.raises(InputError, match=r"result.score: recorded"):
        check_record(rec)


def test_declarations_that_are_not_the_best_set_are_refused() -> None:
    rec = copy.deepcopy(played(records("coinche")))
    seat, combos = next(iter(rec["declarations"].items()))
    cards = rec["hands"][seat]
    fake = [c for c in cards if c not in combos[0]["cards"]][:3]
    rec["declarations"][seat] = [{"kind": "tierce", "cards": fake}]
    with pytest.raises(InputError, match=rf"declarations.{seat}"):
        check_record(rec)


@pytest.mark.parametrize(("change", "field"), [
    ({"dealer": "X"}, "dealer"),
    ({"hands": {"N": [], "E": [], "S": [], "W": []}}, "hands.N"),
    ({"tricks": "none"}, "tricks"),
    ({"game": "tarot"}, "game"),
    ({"options": {"undertrump": "sometimes"}}, "options.undertrump"),
    ({"colour": 1}, "colour"),
])
def test_bad_records_name_the_field(change: dict[str, Any], field: str) -> None:
    rec = {**played(records("coinche")), **change}
    with pytest.raises(InputError) as info:
        check_record(rec)
    assert str(info.value).startswith(field)
