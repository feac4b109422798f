"""The fast paths of ``rebelote deal`` held equal to their plain references: the compiled
random play-out to :func:`rebelote.fast.playout.reference_playout`, and the record written as
JSON text (:func:`rebelote.record.record_line`) to the JSON encoding of :func:`record_of`."""

from __future__ import annotations

import json
import random

import pytest

from rebelote.actions import AUCTION, PLAYS
from rebelote.bots import make_bot
from rebelote.commands._deal import play_deal
from rebelote.deal import DealState
from rebelote.record import record_line, record_of
from rebelote.rules import Rules

RULE_SETS = [("official", "belote"), ("house", "belote"), ("official", "coinche"),
             ("house", "coinche"), ("ffb", "contree"), ("annonces", "contree"),
             ("cannes-2016", "contree")]
ENCODE = json.JSONEncoder(ensure_ascii=False).encode


@pytest.mark.parametrize(("preset", "game"), RULE_SETS)
def test_the_compiled_playout_equals_the_reference_from_any_point_of_the_play(
        preset: str, game: str) -> None:
    rules = Rules.preset(preset, game)
    rng = random.Random(hash((preset, game)) & 0xFFFF)
    done = 0
    while done < 300:
        state = DealState.new(rules, done % 4, rng=rng)
        while state.phase == AUCTION:
            legal = state.legal_actions()
            take = len(legal) > 1 and rng.random() < 0.3
            state = state.apply(rng.choice(legal[1:]) if take else legal[0])
        if state.is_terminal:
            continue
        for _ in range(rng.randrange(31)):  # from the first lead up to the last card
            plays = [a for a in state.legal_actions() if a in PLAYS]
            state = state.apply(rng.choice(plays) if plays else state.legal_actions()[0])
        seed = rng.randrange(1 << 30)
        a, b = random.Random(seed), random.Random(seed)
        assert state.playout(a) == state.reference_playout(b), (preset, game, done)
        assert a.random() == b.random()  # the same draws were used
        done += 1


@pytest.mark.parametrize(("preset", "game"), RULE_SETS)
@pytest.mark.parametrize("bots", ["random", "heuristic,random,heuristic,random"])
def test_record_lines_are_the_json_of_the_records(preset: str, game: str, bots: str) -> None:
    rules = Rules.preset(preset, game)
    players = [make_bot(name) for name in bots.split(",")] * (4 if "," not in bots else 1)
    rng = random.Random(11)
    kinds = set()
    for i in range(120):
        held = rng.choice((0, 0, 0, 80, 162))
        state = play_deal(DealState.new(rules, i % 4, rng=rng, held_over=held), players[:4],
                          rng)
        record = record_of(state)
        assert record_line(state) == ENCODE(record), (preset, game, i)
        kinds.update(k for k in ("held_over", "stock") if k in record)
        kinds.update(("declared",) if record["declarations"] else ())
        kinds.add(record["result"]["outcome"])
    assert "held_over" in kinds and len(kinds) >= 3, kinds


def test_a_record_line_of_an_unfinished_deal_is_refused() -> None:
    state = DealState.new(Rules.preset("official", "belote"), 0, seed=1)
    with pytest.raises(Exception, match="the deal is not over"):
        record_line(state)


def test_without_the_compiled_core_the_playout_is_the_plain_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import rebelote.fast.playout as module

    rules = Rules.preset("official", "coinche")
    state = DealState.new(rules, 0, seed=5).apply("80 hearts")
    for _ in range(3):
        state = state.apply("pass")
    compiled = state.playout(random.Random(2))
    monkeypatch.setattr(module, "_core", None)
    assert state.playout(random.Random(2)) == compiled
