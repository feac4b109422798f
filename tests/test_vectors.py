"""Every worked example of the source documents (``tests/vectors/README.md``), and the contrée
survey's worked example under every convention (``contree-conventions.jsonl``), through the
Python API and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rebelote.jsonio import answer_score

VECTORS = Path(__file__).parent / "vectors"


def _load(name: str) -> list[dict[str, Any]]:
    with (VECTORS / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


CONVENTIONS = _load("contree-conventions.jsonl")
DEALS = _load("seed-deals.jsonl") + [v for v in CONVENTIONS if "deals" not in v["input"]]
GAMES = _load("seed-games.jsonl") + [v for v in CONVENTIONS if "deals" in v["input"]]


def _same_deal(got: dict[str, Any], exp: dict[str, Any]) -> None:
    assert got["outcome"] == exp["outcome"]
    assert got["score"] == exp["score"]
    assert got.get("held_over", 0) == exp.get("held_over", 0)


@pytest.mark.parametrize("vector", DEALS, ids=[v["id"] for v in DEALS])
def test_seed_deal(vector: dict[str, Any]) -> None:
    _same_deal(answer_score(vector["input"]), vector["expect"])


@pytest.mark.parametrize("vector", GAMES, ids=[v["id"] for v in GAMES])
def test_seed_game(vector: dict[str, Any]) -> None:
    got = answer_score(vector["input"])
    exp = vector["expect"]
    for key in ("totals", "winner", "won_after_deal"):
        if key in exp:
            assert got[key] == exp[key], key
    if "deals" in exp:
        assert len(got["deals"]) == len(exp["deals"])
        for g, e in zip(got["deals"], exp["deals"], strict=True):
            _same_deal(g, e)


def test_all_vectors_through_the_command_line() -> None:
    vectors = DEALS + GAMES
    stdin = "".join(json.dumps(v["input"]) + "\n" for v in vectors)
    proc = subprocess.run([sys.executable, "-m", "rebelote.cli", "score"], input=stdin,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(vectors)
    for vector, got in zip(vectors, answers, strict=True):
        assert got == answer_score(vector["input"])


def test_every_convention_of_the_survey_has_its_five_cases() -> None:
    """Made, coinched, surcoinched, failed, failed coinched: every figure of the table."""
    cases = ("made", "coinched", "surcoinched", "failed", "failed-coinched")
    conventions = {v["convention"] for v in CONVENTIONS if "deals" not in v["input"]}
    assert len(conventions) >= 15
    for name in conventions:
        ids = {v["id"].rsplit("-", 1)[-1] for v in CONVENTIONS if v["convention"] == name}
        got = sorted(v["id"] for v in CONVENTIONS if v["convention"] == name)
        assert len(got) == 5, (name, got, ids)
        assert all(any(i.endswith("-" + c) for i in got) for c in cases), (name, got)
