"""The duplicate arena: pairing, statistics, determinism over workers, Dask, the command."""

from __future__ import annotations

import doctest
import json
import math
import statistics
import subprocess
import sys

import pytest

import rebelote.arena
from rebelote.arena import (
    ArenaConfig,
    mean_ci,
    parallel_map,
    percentile,
    play_duplicate_deal,
    run_arena,
    t975,
    tasks_of,
)
from rebelote.observation import observe


def test_doctests() -> None:
    result = doctest.testmod(rebelote.arena)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_each_deal_is_played_twice_with_the_same_cards_and_the_teams_swapped(game: str) -> None:
    config = ArenaConfig(a="heuristic", b="random", game=game, deals=8)
    rules = config.check()
    for i in range(8):
        result, (first, second) = play_duplicate_deal(config, rules, i)
        assert first.dealer == second.dealer == i % 4
        assert first.turned == second.turned and first.stock == second.stock
        for seat in range(4):  # the same cards at the auction, seat by seat
            assert observe(first, seat).auction_hand == observe(second, seat).auction_hand
        if game == "coinche" and not first.is_void and not second.is_void:
            assert first.start_hands == second.start_hands
        assert result.diffs == (first.returns()[0], second.returns()[1])  # A: N-S, then E-W


def test_a_bot_against_itself_scores_exactly_zero_on_every_deal() -> None:
    # The heuristic is deterministic: both plays of a deal are the same play, seats swapped.
    result = run_arena(ArenaConfig(a="heuristic", b="heuristic", game="coinche", deals=12))
    assert [d.diff for d in result.deals] == [0.0] * 12
    assert any(d.diffs[0] != 0 for d in result.deals)  # the deals themselves are not all flat


def test_the_confidence_interval_on_a_tiny_sample() -> None:
    values = [10.0, -20.0, 30.0, 0.0, 5.0]
    mean, low, high = mean_ci(values)
    sd = statistics.stdev(values)  # 18.23
    assert mean == 5.0
    assert math.isclose(high - mean, 2.776 * sd / math.sqrt(5))
    assert math.isclose(mean - low, high - mean)
    assert mean_ci([3.0])[1:] == (-math.inf, math.inf)
    assert t975(4) == 2.776 and abs(t975(200) - 1.9719) < 1e-3
    assert abs(t975(31) - 2.0395) < 1e-3 and t975(31) < t975(30)
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.0 and percentile([1.0, 2.0], 0.99) == 2.0
    with pytest.raises(ValueError):
        mean_ci([])


def test_the_summary_reports_the_per_deal_mean_and_its_interval() -> None:
    result = run_arena(ArenaConfig(a="heuristic", b="random", game="belote", deals=10, games=1,
                                   target=300, seed=4))
    s = result.summary()
    diffs = [d.diff for d in result.deals]
    mean, low, high = mean_ci(diffs)
    assert s["mark_diff"]["mean"] == round(mean, 2)
    assert s["mark_diff"]["ci95"] == [round(low, 2), round(high, 2)]
    assert s["games"]["played"] == 2 and s["games"]["a_won"] + s["games"]["b_won"] == 2
    c = s["contracts"]
    assert c["a"]["took"] + c["b"]["took"] + c["passed_out"] == 20
    assert s["decision_ms"]["a"]["decisions"] > 0
    assert s["decision_ms"]["a"]["median"] <= s["decision_ms"]["a"]["p99"]
    json.dumps(s)


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    config = ArenaConfig(a="heuristic", b="random", game="coinche", rules="house", deals=23,
                         games=1, target=500, seed=9)
    one = run_arena(config, workers=1)
    two = run_arena(config, workers=2)
    assert one.deals == two.deals and one.games == two.games
    assert len(tasks_of(config)) == 1 + 3
    assert {d.index for d in one.deals} == set(range(23))


def test_a_match_on_a_dask_cluster_gives_the_same_results() -> None:
    distributed = pytest.importorskip("distributed")
    config = ArenaConfig(a="heuristic", b="random", game="belote", deals=12, seed=2)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as cluster:
        on_dask = run_arena(config, scheduler=cluster.scheduler_address)
    assert on_dask.deals == run_arena(config).deals
    assert on_dask.summary()["scheduler"] == cluster.scheduler_address


def _square_after(x: int) -> int:
    """x squared, the small ones slower: a pool finishes them out of order."""
    import time

    time.sleep(0.02 * (5 - x) if x < 5 else 0)
    if x == 99:
        raise RuntimeError("item 99 fails")
    return x * x


def test_parallel_map_keeps_the_order_everywhere_and_raises_a_failure() -> None:
    distributed = pytest.importorskip("distributed")
    items = list(range(8))
    expected = [x * x for x in items]
    assert list(parallel_map(_square_after, items)) == expected
    assert list(parallel_map(_square_after, items, workers=2)) == expected
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        address = cluster.scheduler_address
        assert list(parallel_map(_square_after, items, scheduler=address)) == expected
        assert list(parallel_map(_square_after, items, scheduler=address,
                                 closing=True)) == expected
        with pytest.raises(RuntimeError, match="item 99 fails"):
            list(parallel_map(_square_after, [1, 99, 2], scheduler=address))
    with pytest.raises(RuntimeError, match="item 99 fails"):
        list(parallel_map(_square_after, [1, 99, 2], workers=2))
    with pytest.raises(ValueError, match="workers: must be 1 or more"):
        list(parallel_map(_square_after, items, workers=0))


def test_bad_configurations_name_the_field() -> None:
    with pytest.raises(ValueError, match="^a: unknown bot 'nobody'"):
        run_arena(ArenaConfig(a="nobody", b="random"))
    with pytest.raises(ValueError, match="^b: bot 'random' has no levels"):
        run_arena(ArenaConfig(a="heuristic", b="random:fast"))
    with pytest.raises(ValueError, match="^game: 'bridge'"):
        run_arena(ArenaConfig(a="heuristic", b="random", game="bridge"))
    with pytest.raises(ValueError, match="^rules: 'ffb' is not a rule set of belote"):
        run_arena(ArenaConfig(a="heuristic", b="random", game="belote", rules="ffb"))
    with pytest.raises(ValueError, match="^deals: must be"):
        run_arena(ArenaConfig(a="heuristic", b="random", deals=-1))
    with pytest.raises(ValueError, match="^workers: must be"):
        run_arena(ArenaConfig(a="heuristic", b="random", deals=1), workers=0)
    with pytest.raises(ValueError, match="undertrump"):
        run_arena(ArenaConfig(a="heuristic", b="random", options={"undertrump": "x"}))


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rebelote.cli", "arena", *args],
                          capture_output=True, text=True, check=False)


def test_the_arena_command_prints_json_and_refuses_bad_bots() -> None:
    out = run_cli("--a", "heuristic", "--b", "random", "--game", "belote", "--deals", "6",
                  "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["a"] == "heuristic" and s["deals"] == 6 and s["game"] == "belote"
    assert s == {**s, "workers": 1, "scheduler": None}
    text = run_cli("--deals", "3")
    assert text.returncode == 0 and "95% CI" in text.stdout
    bad = run_cli("--a", "nobody", "--deals", "3")
    assert bad.returncode == 2 and "unknown bot 'nobody'" in bad.stderr
    assert "Traceback" not in bad.stderr
    # a level for people plays its registry spec, as rebelote play --bots reads it
    levels = run_cli("--a", "Débutant", "--b", "club", "--deals", "1", "--seed", "2", "--json")
    assert levels.returncode == 0, levels.stderr
    got = json.loads(levels.stdout)
    assert (got["a"], got["b"]) == ("heuristic", "net")


def test_a_function_a_pool_cannot_receive_is_refused_before_the_pool_starts() -> None:
    """A lambda (or a module loaded twice under one name) cannot be pickled: the pool is not
    started, instead of its shutdown waiting for ever on a worker that never gets its task."""
    with pytest.raises(TypeError, match="^fn: a process pool runs only a picklable function"):
        list(parallel_map(lambda x: x, [1, 2], workers=2))
    assert list(parallel_map(lambda x: x, [1, 2])) == [1, 2]  # in this process: no pickling
