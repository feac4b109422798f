"""Games held to an independent reading of docs/rules.md section 7 (``tests/oracle``).

Random games (targets, starts near the target, void and adjustment lines, litige reserves
carried from deal to deal) and games built around the belote-alone rule are totalled and judged
by the oracle and by rebelote, through ``Match.from_json(...).result()`` and ``rebelote score``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle import gen
from oracle.compare import assert_cli_scores_like_the_oracle, cut_answer, expected_score
from rebelote.match import Match

SETTINGS = settings(max_examples=250, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def api_game(obj: dict[str, Any]) -> dict[str, Any]:
    """rebelote's answer to a game through the Python API."""
    return cut_answer(Match.from_json(obj).result().to_json())


@SETTINGS
@given(gen.games())
def test_random_games_total_and_finish_as_the_oracle_reads_the_rules(
        obj: dict[str, Any]) -> None:
    assert api_game(obj) == expected_score(obj)


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_games_where_a_team_reaches_the_target_through_its_belote_alone(
        rng: random.Random) -> None:
    obj = gen.random_belote_alone_game(rng)
    assert api_game(obj) == expected_score(obj)


@SETTINGS
@given(gen.games("belote"))
def test_litige_reserves_pass_from_deal_to_deal(obj: dict[str, Any]) -> None:
    assert api_game(obj) == expected_score(obj)


def test_a_game_round_trips_through_its_json() -> None:
    rng = random.Random(11)
    for _ in range(200):
        obj = gen.random_game(rng)
        match = Match.from_json(obj)
        again = Match.from_json(match.to_json())
        assert again.result().to_json() == match.result().to_json()


@pytest.mark.parametrize("seed", [1, 2])
def test_a_thousand_games_through_one_cli_run(seed: int) -> None:
    rng = random.Random(seed)
    objs = [gen.random_game(rng) if i % 3 else gen.random_belote_alone_game(rng)
            for i in range(1000)]
    assert_cli_scores_like_the_oracle("games", objs)
