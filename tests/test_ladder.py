"""bench/ladder.py, the levels' duplicate round-robin and its Elo fit."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from program_loader import load_program

ladder = load_program("bench/ladder.py")


def _games(ratings: dict[str, float], pairs: list[tuple[str, str]], n: int,
           rng: random.Random) -> list[tuple[str, str, float]]:
    games = []
    for a, b in pairs:
        p = 1.0 / (1.0 + 10 ** ((ratings[b] - ratings[a]) / 400.0))
        games += [(a, b, 1.0 if rng.random() < p else 0.0) for _ in range(n)]
    return games


def test_fit_recovers_the_ratings_that_drew_the_games() -> None:
    truth = {"x": 0.0, "y": 120.0, "z": 300.0}
    games = _games(truth, [("x", "y"), ("x", "z"), ("y", "z")], 4000, random.Random(3))
    fitted = ladder.fit_elo(["x", "y", "z"], games)
    assert fitted["x"] == 0.0
    assert fitted["y"] == pytest.approx(120.0, abs=20)
    assert fitted["z"] == pytest.approx(300.0, abs=25)


def test_a_pair_never_played_is_rated_through_the_others() -> None:
    # x beats y 3 times in 4, y beats z 3 times in 4; x and z never meet.
    games = ([("x", "y", 1.0)] * 300 + [("x", "y", 0.0)] * 100
             + [("y", "z", 1.0)] * 300 + [("y", "z", 0.0)] * 100)
    fitted = ladder.fit_elo(["x", "y", "z"], games)
    step = 400 * math.log10(3)  # a share of 3/4
    assert fitted["y"] == pytest.approx(-step, abs=2)
    assert fitted["z"] == pytest.approx(-2 * step, abs=4)


def test_ties_count_half_and_a_clean_sweep_stays_finite() -> None:
    assert ladder.fit_elo(["x", "y"], [("x", "y", 0.5)] * 50)["y"] == pytest.approx(0.0, abs=1e-6)
    swept = ladder.fit_elo(["x", "y"], [("x", "y", 0.0)] * 20)
    assert math.isfinite(swept["y"]) and swept["y"] > 400


def test_summary_counts_a_resumed_deal_once_and_brackets_each_rating() -> None:
    rng = random.Random(5)
    lines = []
    for deal in range(60):
        for a, b, edge in (("d", "c", -30), ("d", "f", -40), ("c", "f", -10)):
            lines.append({"a": a, "b": b, "bots": ["d", "c", "f"], "deal": deal,
                          "diff": float(edge + rng.randint(-100, 100))})
    summary = ladder.summarise(lines + lines[:3], samples=50)
    assert summary["deals"] == 60
    assert [p["deals"] for p in summary["pairs"]] == [60, 60, 60]
    rows = {r["bot"]: r for r in summary["ladder"]}
    assert list(rows) == ["d", "c", "f"] and rows["d"]["elo"] == 0.0
    assert rows["f"]["elo"] > rows["c"]["elo"] > 0
    for row in rows.values():
        assert row["low"] <= row["elo"] <= row["high"]
    text = ladder.render(summary)
    assert "d - c:" in text and "f: +" in text


def test_a_run_plays_every_pair_on_each_deal_and_resumes(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    out = tmp_path / "ladder.jsonl"
    args = ["--bots", "debutant,random,tuned", "--deals", "1", "--seed", "4",
            "--out", str(out), "--samples", "20"]
    assert ladder.main(args) == 0
    assert ladder.main([*args, "--start", "1"]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["deal"], r["a"], r["b"]) for r in lines] == [
        (d, a, b) for d in (0, 1) for a, b in (("debutant", "random"),
                                                ("debutant", "tuned"),
                                                ("random", "tuned"))]
    assert lines[0]["spec_a"] == "heuristic"
    for r in lines:
        assert r["diff"] == sum(r["diffs"]) / 2
    capsys.readouterr()
    assert ladder.main(["--summary", str(out), "--json", "--samples", "20"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 2 and len(summary["pairs"]) == 3


def test_a_pool_and_a_cluster_play_the_same_lines_in_the_same_order(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    args = ["--bots", "debutant,random,tuned", "--deals", "3", "--seed", "6", "--samples", "5"]

    def run(*extra: str) -> list[tuple[object, ...]]:
        out = tmp_path / f"run{len(list(tmp_path.iterdir()))}.jsonl"
        assert ladder.main([*args, "--out", str(out), *extra]) == 0
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        return [(r["deal"], r["a"], r["b"], r["spec_b"], r["diffs"]) for r in rows]

    alone = run()
    assert len(alone) == 9
    assert run("--workers", "2") == alone
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as cluster:
        assert run("--scheduler", cluster.scheduler_address) == alone


def test_the_bots_must_be_two_different_ones() -> None:
    with pytest.raises(SystemExit):
        ladder.main(["--bots", "fort,fort"])
