"""bench/versus_colver.py's summary of the committed result lines (no colver needed): a run's
figures as the docs give them, and runs of several seeds pooled."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from program_loader import load_program

vc = load_program("bench/versus_colver.py")
RESULTS = Path(__file__).resolve().parent.parent / "bench" / "results"
SEED23 = RESULTS / "colver-cards-isdd20-seed23-expert-9dc4d78.jsonl"
SEED40 = RESULTS / "colver-cards-isdd20-seed40-expert.jsonl"


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_the_runs_of_two_seeds_pool_deal_by_deal() -> None:
    a, b = _lines(SEED23), _lines(SEED40)
    one, other = vc.summarize(a), vc.summarize(b)
    assert (one["deals"], one["seed"], other["deals"], other["seed"]) == (1000, 23, 1000, 40)
    assert one["mark_diff"]["mean"] == pytest.approx(8.4, abs=0.05)
    both = vc.summarize(a + b + a[:10])  # a deal given twice counts once
    assert both["deals"] == 2000 and both["seed"] == [23, 40]
    mean = statistics.fmean(float(r["diff"]) for r in a + b)  # type: ignore[arg-type]
    assert both["mark_diff"]["mean"] == pytest.approx(mean, abs=0.05)
    low, high = both["mark_diff"]["ci95"]
    assert low > 0 and high - low < one["mark_diff"]["ci95"][1] - one["mark_diff"]["ci95"][0]
    assert "seeds 23, 40: 2000 duplicate deals" in vc.report(both)
    # the time a card of both sides, over the 2,000 deals
    ours, theirs = both["decision_ms"]["ours"]["play"], both["decision_ms"]["colver"]["play"]
    assert ours["decisions"] > 40_000 and ours["mean"] < theirs["mean"]


def test_lines_of_other_bots_do_not_pool(capsys: pytest.CaptureFixture[str]) -> None:
    other = [dict(r, ours="pimc:match") for r in _lines(SEED40)[:5]]
    with pytest.raises(ValueError, match="differ in ours"):
        vc.summarize(_lines(SEED23)[:5] + other)
    with pytest.raises(SystemExit):
        vc.main(["--summary", str(SEED23), str(RESULTS / "colver-cards-isdd20-seed23.jsonl")])
    assert "differ in ours" in capsys.readouterr().err


def test_two_names_of_one_bot_pool_when_told(capsys: pytest.CaptureFixture[str]) -> None:
    """``expert`` took the learned model of the players (``play_model=0.05``): the runs made
    under the explicit spec before and under the level's name after pool with ``--same``."""
    before = str(RESULTS / "colver-cards-isdd20-seed45-expert-play-model.jsonl")
    after = RESULTS / "colver-cards-isdd20-seed50-expert.jsonl"
    fresh = vc.summarize(_lines(after))
    assert (fresh["deals"], fresh["seed"], fresh["ours"]) == (1000, 50, "pimc:expert")
    assert fresh["mark_diff"]["mean"] == pytest.approx(14.2, abs=0.05)
    with pytest.raises(SystemExit):
        vc.main(["--summary", before, str(after)])
    assert "differ in ours" in capsys.readouterr().err
    same = "pimc:expert[play_model=0.05]=pimc:expert"
    assert vc.main(["--summary", before, str(after), "--same", same, "--json"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert both["deals"] == 2000 and both["seed"] == [45, 50] and both["ours"] == "pimc:expert"
    assert both["mark_diff"]["mean"] == pytest.approx(15.7, abs=0.05)
    assert both["mark_diff"]["ci95"][0] > 10
    for bad in ("pimc:expert", "=pimc:expert", "pimc:expert[a=b]"):
        with pytest.raises(SystemExit):
            vc.main(["--summary", before, "--same", bad])
        assert "--same: give our bot's two names" in capsys.readouterr().err


def test_two_runs_of_the_same_deals_pair_deal_by_deal(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """``--paired``: the docs' "paired, deal by deal" rows from the committed lines."""
    full = RESULTS / "colver-full-isdd20-seed12-learned.jsonl"
    tuned = RESULTS / "colver-full-isdd20-seed12.jsonl"
    p = vc.paired(_lines(full), _lines(tuned))
    assert (p["ours"], p["base"], p["deals"]) == ("pimc:expert+learned", "pimc:expert+tuned",
                                                 1000)
    assert p["paired"]["mean"] == pytest.approx(16.2, abs=0.05)
    assert p["paired"]["ci95"][0] == pytest.approx(6.9, abs=0.05)
    assert p["ours_alone"]["mean"] == pytest.approx(41.5, abs=0.05)
    assert p["base_alone"]["mean"] == pytest.approx(25.2, abs=0.05)
    # the difference of the means is the mean of the differences, on the same deals
    assert p["paired"]["mean"] == pytest.approx(
        p["ours_alone"]["mean"] - p["base_alone"]["mean"], abs=1e-9)
    assert vc.main(["--summary", str(RESULTS / "colver-cards-isdd20-seed44-expert-play-model"
                                     ".jsonl"),
                    "--paired", str(RESULTS / "colver-cards-isdd20-seed44-expert.jsonl")]) == 0
    assert "pimc:expert[play_model=0.05] - pimc:expert: +5.4 a deal" in capsys.readouterr().out
    model = vc.paired(_lines(RESULTS / "colver-full-isdd20-seed12-expert-model.jsonl"),
                      _lines(full))  # the expert level with the learned model of the players
    assert model["ours_alone"]["mean"] == pytest.approx(47.8, abs=0.05)
    assert model["paired"]["mean"] == pytest.approx(6.4, abs=0.05)
    half = _lines(tuned)[:500]
    assert vc.paired(_lines(full), half)["deals"] == 500  # the deals both played
    with pytest.raises(ValueError, match="share no deal"):
        vc.paired(_lines(full), [dict(r, seed=13) for r in half])
    with pytest.raises(ValueError, match="differ in calls"):
        vc.paired(_lines(full), _lines(SEED40))
    with pytest.raises(ValueError, match="several bots"):
        vc.paired(_lines(full), _lines(full) + _lines(tuned))
