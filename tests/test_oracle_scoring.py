"""Deal scoring held to an independent reading of docs/rules.md section 6 (``tests/oracle``).

Random valid deal summaries of both games, both rule sets and every scoring option are scored
by the oracle and by rebelote, through the Python API (Hypothesis, shrinking to the smallest
disagreement) and through ``rebelote score`` (a seeded loop of thousands of lines in one run).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from oracle import gen
from oracle.compare import (
    assert_cli_scores_like_the_oracle,
    cut_answer,
    cut_deal,
    expected_score,
    mismatch_report,
    run_json_lines,
)
from oracle.scoring import score_line
from rebelote.scoring import score_deal
from rebelote.summary import DealSummary, summary_rules

VECTORS = Path(__file__).parent / "vectors"
SETTINGS = settings(max_examples=400, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def api_score(obj: dict[str, Any]) -> dict[str, Any]:
    """rebelote's answer to one deal line through the Python API."""
    rules = summary_rules(obj)
    return cut_answer(score_deal(DealSummary.from_json(obj, rules), rules).to_json())


def test_the_oracle_agrees_with_every_seed_vector() -> None:
    """The oracle itself is checked first, on the source documents' worked examples."""
    for name in ("seed-deals.jsonl", "seed-games.jsonl", "contree-conventions.jsonl"):
        for line in (VECTORS / name).read_text(encoding="utf-8").splitlines():
            vector = json.loads(line)
            got = score_line(vector["input"])
            for key, want in vector["expect"].items():
                if key == "deals":
                    assert [cut_deal(d) for d in got["deals"]] == [
                        {"held_over": 0, **d} for d in want], vector["id"]
                else:
                    assert got[key] == want, vector["id"]


@SETTINGS
@given(gen.summaries())
def test_random_summaries_score_as_the_oracle_reads_the_rules(obj: dict[str, Any]) -> None:
    assert api_score(obj) == expected_score(obj)


@SETTINGS
@given(gen.summaries("belote"))
def test_random_belote_summaries_with_litige_and_reserve(obj: dict[str, Any]) -> None:
    assert api_score(obj) == expected_score(obj)


@SETTINGS
@given(gen.summaries("coinche"))
def test_random_coinche_summaries_with_contracts_coinche_capot_generale(
        obj: dict[str, Any]) -> None:
    assert api_score(obj) == expected_score(obj)


@pytest.mark.parametrize("seed", [2026, 7])
def test_thousands_of_summary_lines_through_one_cli_run(seed: int) -> None:
    rng = random.Random(seed)
    objs = [gen.random_line(rng) for _ in range(2500)]
    assert_cli_scores_like_the_oracle("deal lines", objs)


@SETTINGS
@given(gen.summaries())
def test_swapping_the_teams_swaps_the_marks(obj: dict[str, Any]) -> None:
    """A metamorphic check of the implementation alone: NS and EW play the same role."""
    swapped = json.loads(json.dumps(obj).replace('"NS"', '"XX"').replace('"EW"', '"NS"')
                         .replace('"XX"', '"EW"'))
    a, b = api_score(obj), api_score(swapped)
    assert a["outcome"] == b["outcome"]
    assert a["held_over"] == b["held_over"]
    assert a["score"] == {"NS": b["score"]["EW"], "EW": b["score"]["NS"]}


def test_summaries_of_deals_played_out_with_random_legal_cards() -> None:
    """Realistic summaries: card points, last trick, capot, générale and belotes of real play."""
    rng = random.Random(31)
    objs = [gen.random_played_summary(rng) for _ in range(1500)]
    answers, status, err = run_json_lines("score", objs)
    assert len(answers) == len(objs), err
    rows = [(obj, expected_score(obj), cut_answer(answer))
            for obj, answer in zip(objs, answers, strict=True)
            if expected_score(obj) != cut_answer(answer)]
    assert not rows, mismatch_report("played deals", rows)
    assert status == 0
