"""Every combination of the ways of counting against the independent oracle (issue 11).

``test_oracle_scoring.py`` draws a few options at random per line; here the combinations are
laid out so that none is left to chance:

- the marks: the full product of the options that shape a deal's mark (counting, failure base,
  coinche form, surcoinche, belote prenable and multiplied, rounding), 864 rule sets with random
  deal summaries under each;
- the capot: the full product of the capot options with the ones a capot's mark goes through,
  768 rule sets with capots bid, made, unbid and failed under each;
- the games: every pair of values of every option (the rounding's scope, the last deal exact,
  reach or exceed, the belote toward the contract, the générale...) in some rule set, whole
  games played to their target under each.

Each family goes through one ``rebelote score`` run and is compared line by line with
``tests/oracle``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from oracle import gen
from oracle.compare import assert_cli_scores_like_the_oracle

GAMES = ("contree", "coinche")
MARK_AXES: dict[str, tuple[Any, ...]] = {
    key: gen.COUNTING_CHOICES[key]
    for key in ("counting", "failure_base", "coinche_form", "surcoinche", "belote_prenable",
                "belote_multiplied")
} | {"rounding": ("nearest", "six_up", "none")}
CAPOT_AXES: dict[str, tuple[Any, ...]] = {
    key: gen.COUNTING_CHOICES[key]
    for key in ("capot_bid", "capot_value", "capot_unbid", "capot_failed", "counting",
                "coinche_form", "surcoinche")
} | {"coinche_capot": (True, False)}
# Every option of the auction games that scoring reads, for the pairwise games.
ALL_AXES: dict[str, tuple[Any, ...]] = {
    **gen.COUNTING_CHOICES,
    "rounding": ("nearest", "six_up", "none"),
    "belote_counts_for_contract": (True, False),
    "generale": (True, False),
    "generale_value": (400, 500, 1000),
    "coinche_capot": (True, False),
    "declarations": (True, False),
    "belote_alone_wins": (True, False),
    "no_trump_aces": (19, 11),
    "all_trump_scale": ("reduced", "trump"),
}


def product(axes: Mapping[str, Sequence[Any]]) -> Iterator[dict[str, Any]]:
    """Every rule set the values of ``axes`` make."""
    keys = list(axes)
    for values in itertools.product(*(axes[k] for k in keys)):
        yield dict(zip(keys, values, strict=True))


Pair = tuple[tuple[str, Any], tuple[str, Any]]


def pairs_of(row: Mapping[str, Any]) -> set[Pair]:
    items = sorted(row.items(), key=lambda kv: kv[0])
    return {(a, b) for a, b in itertools.combinations(items, 2)}


def all_pairs(axes: Mapping[str, Sequence[Any]]) -> set[Pair]:
    keys = sorted(axes)
    return {((k1, v1), (k2, v2)) for k1, k2 in itertools.combinations(keys, 2)
            for v1 in axes[k1] for v2 in axes[k2]}


def pairwise(axes: Mapping[str, Sequence[Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Rule sets in which every pair of values of two options meets at least once (a greedy
    covering array: each row starts from a pair not yet met and takes, option by option, the
    value that meets the most new pairs)."""
    left = all_pairs(axes)
    rows: list[dict[str, Any]] = []
    while left:
        (k1, v1), (k2, v2) = min(left, key=repr)
        row = {k1: v1, k2: v2}
        keys = [k for k in axes if k not in row]
        rng.shuffle(keys)
        for key in keys:
            row[key] = max(axes[key], key=lambda v, key=key: (
                sum(1 for p in pairs_of({**row, key: v}) if p in left), rng.random()))
        left -= pairs_of(row)
        rows.append(row)
    return rows


def line_under(rng: random.Random, game: str, name: str, options: dict[str, Any]
               ) -> dict[str, Any]:
    """A random deal summary of ``game`` under the preset ``name`` with ``options``."""
    deal = gen.random_summary(rng, game, in_game=True, opts_in=options, name=name)
    return {"game": game, "rules": name, "options": options, **deal}


def capot_line_under(rng: random.Random, game: str, name: str, options: dict[str, Any]
                     ) -> dict[str, Any]:
    """A random summary in which a capot is bid or made (drawn until one is)."""
    while True:
        line = line_under(rng, game, name, options)
        if line.get("contract") in ("capot", "generale") or line.get("capot") or any(
                v in (250, 252, 220) for v in line.get("points", {}).values()):
            return line


def presets(game: str) -> tuple[str, ...]:
    return tuple(n for n in gen.PRESETS[game] if n != "official" or game != "contree")


def test_every_mark_shaping_combination_scores_as_the_oracle() -> None:
    rng = random.Random(11)
    rows = list(product(MARK_AXES))
    assert len(rows) == 3 * 3 * 4 * 2 * 2 * 2 * 3 == 864
    objs = []
    for i, options in enumerate(rows):
        game = GAMES[i % 2]
        name = presets(game)[i % len(presets(game))]
        objs += [line_under(rng, game, name, options) for _ in range(8)]
    # every value of every option is met on made and failed contracts, coinched or not
    met = {(k, repr(o["options"][k]), o.get("coinche", "none")) for o in objs for k in MARK_AXES}
    assert len(met) == sum(len(v) for v in MARK_AXES.values()) * 3
    assert_cli_scores_like_the_oracle("every mark-shaping combination", objs)


def test_every_capot_combination_scores_as_the_oracle() -> None:
    rng = random.Random(12)
    rows = list(product(CAPOT_AXES))
    assert len(rows) == 2 * 2 * 2 * 2 * 3 * 4 * 2 * 2 == 768
    objs = []
    for i, options in enumerate(rows):
        game = GAMES[i % 2]
        name = presets(game)[i % len(presets(game))]
        objs += [capot_line_under(rng, game, name, options) for _ in range(5)]
    bid = [o for o in objs if o.get("contract") == "capot"]
    assert {(o["options"]["capot_bid"], o["options"]["capot_failed"], bool(o.get("capot")))
            for o in bid} == set(itertools.product(("contract", "prime"), ("formula", "prime"),
                                                   (True, False)))
    assert_cli_scores_like_the_oracle("every capot combination", objs)


def game_under(rng: random.Random, game: str, name: str, options: dict[str, Any]
               ) -> dict[str, Any]:
    """A random game of up to 14 deals under ``options``, some starting near the target."""
    target = rng.choice([500, 1000, 1500, 2000, 2001, 3000])
    obj: dict[str, Any] = {"game": game, "rules": name, "options": options, "target": target}
    if rng.random() < 0.6:
        obj["start"] = {t: max(0, target - rng.randint(1, 300)) for t in ("NS", "EW")}
    deals: list[dict[str, Any]] = []
    for _ in range(rng.randint(2, 14)):
        r = rng.random()
        if r < 0.05:
            deals.append({"void": True})
        elif r < 0.08:
            deals.append({"adjust": {rng.choice(("NS", "EW")): rng.choice([20, 50, 100])}})
        else:
            deals.append(gen.random_summary(rng, game, in_game=True, opts_in=options,
                                            name=name))
    obj["deals"] = deals
    return obj


def test_every_pair_of_option_values_in_whole_games() -> None:
    rng = random.Random(13)
    rows = pairwise(ALL_AXES, rng)
    covered = set().union(*(pairs_of(row) for row in rows))
    assert covered >= all_pairs(ALL_AXES)
    objs = []
    for i, options in enumerate(rows):
        for game in GAMES:
            names = presets(game)
            for j in range(30):
                objs.append(game_under(rng, game, names[(i + j) % len(names)], options))
    assert len(objs) > 1000
    # games are decided both ways of ending and with the last deal counted both ways
    assert {(o["options"]["target_rule"], o["options"]["last_deal_exact"]) for o in objs} == \
        set(itertools.product(("reach", "exceed"), (True, False)))
    assert_cli_scores_like_the_oracle("every pair of option values", objs)

