"""The draw of a concours over thousands of seeded draws of 4 to 150 teams: every team placed
once, the *exempt* in turn, no rematch while a draw without one exists, and the repeats
reported as they are (issue 20, item 2)."""

from __future__ import annotations

import doctest
import random
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rebelote.concours.tirage as tirage
from rebelote.concours import Concours
from rebelote.concours.tirage import history, max_matching


def _least_repeats(teams: Sequence[int], met: set[frozenset[int]],
                   candidates: Sequence[int]) -> int:
    """The fewest rematches of any draw, by trying every pairing (a few teams only)."""
    best = [len(teams)]

    def go(rest: list[int], cost: int) -> None:
        if cost >= best[0]:
            return
        if not rest:
            best[0] = cost
            return
        first = rest[0]
        for i in range(1, len(rest)):
            go(rest[1:i] + rest[i + 1:], cost + (frozenset((first, rest[i])) in met))

    for out in candidates or [None]:
        go([t for t in teams if t != out], 0)
    return best[0]


def _dirac_says_free(teams: Sequence[int], met: set[frozenset[int]],
                     candidates: Sequence[int]) -> bool:
    """Dirac's theorem: a graph of m >= 3 vertices each joined to m/2 others has a Hamiltonian
    cycle, so (m even) a perfect matching: here a draw without a rematch."""
    for out in candidates or [None]:
        rest = [t for t in teams if t != out]
        m = len(rest)
        degree = min(sum(frozenset((a, b)) not in met for b in rest if b != a) for a in rest)
        if m >= 3 and 2 * degree >= m:
            return True
    return False


def _check_draw(c: Concours) -> None:
    k = len(c.parties)
    partie = c.parties[-1]
    before = c.parties[:-1]
    active = [e.number for e in c.entries if e.withdrawn is None]
    placed = [n for t in partie.tables for n in t.entries] + list(partie.exempt)
    assert sorted(placed) == sorted(active), "every team still playing is placed once"
    assert [t.number for t in partie.tables] == list(range(1, len(partie.tables) + 1))
    counts = {n: sum(n in p.exempt for p in before) for n in active}
    if len(active) % 2:
        (out,) = partie.exempt
        assert counts[out] == min(counts.values()), "the exempt in turn"
    else:
        assert partie.exempt == ()
    met = history(c.settings, before)
    rematches = sum(frozenset(t.entries) in met for t in partie.tables)
    assert c.repeats(k) == rematches
    fewest = min(counts.values()) if len(active) % 2 else 0
    candidates = [n for n in active if counts[n] == fewest] if len(active) % 2 else []
    if len(active) <= 10:
        assert rematches == _least_repeats(active, met, candidates)
    elif _dirac_says_free(active, met, candidates):
        assert rematches == 0


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(teams=st.one_of(st.integers(4, 12), st.integers(13, 150)),
       parties=st.integers(2, 7), mode=st.sampled_from(["ranking", "random"]),
       seed=st.text("abcdef0123456789", min_size=1, max_size=8),
       changes=st.booleans(), data=st.randoms(use_true_random=False))
def test_draws_keep_their_rules(teams: int, parties: int, mode: str, seed: str, changes: bool,
                                data: random.Random) -> None:
    if teams > 12:
        parties = min(parties, 6)  # n >= 2 (parties - 1) + 2: Dirac finds a draw without rematch
    c = Concours.from_new({"name": "t", "game": "belote", "parties": parties, "deals": 12,
                           "draw": mode, "teams": [{"name": f"T{i}"} for i in range(teams)]},
                          seed=seed)
    for k in range(1, parties + 1):
        if changes and k > 1 and teams <= 12 and data.random() < 0.3:
            c = c.add_entry({"name": f"late {k}"})
        if changes and k > 1 and len(c.active) > 5 and data.random() < 0.3:
            c = c.withdraw(data.choice(c.active).number)
        c = c.draw_next()
        _check_draw(c)
        for t in c.parties[-1].tables:
            a = data.randrange(0, 1945)
            c = c.record(k, t.number, [a, 1944 - a])


def test_small_counts_repeat_only_when_they_must() -> None:
    """Four teams meet each other in three parties; the fourth and fifth must repeat, and say
    so; five teams give the exempt to each in turn."""
    c = Concours.from_new({"name": "t", "game": "belote", "parties": 6, "deals": 12,
                           "teams": ["A", "B", "C", "D"]}, seed="x")
    for k in range(1, 7):
        c = c.draw_next()
        assert c.repeats(k) == (0 if k <= 3 else 2)
        for t in c.parties[-1].tables:
            c = c.record(k, t.number, [1000 - t.number, 944 + t.number])
    c = Concours.from_new({"name": "t", "game": "belote", "parties": 5, "deals": 12,
                           "teams": ["A", "B", "C", "D", "E"]}, seed="y")
    for k in range(1, 6):
        c = c.draw_next()
        for t in c.parties[-1].tables:
            c = c.record(k, t.number, [972, 972])
    assert sorted(n for p in c.parties for n in p.exempt) == [1, 2, 3, 4, 5]
    assert sum(c.repeats(k) for k in range(1, 6)) == 0


def test_the_budget_falls_back_on_the_blossom_matching(monkeypatch: object) -> None:
    """With no search budget the draw comes from the maximum matching: still no rematch."""
    import pytest

    mp = pytest.MonkeyPatch()
    mp.setattr(tirage, "SEARCH_BUDGET", 0)
    try:
        c = Concours.from_new({"name": "t", "game": "belote", "parties": 5, "deals": 12,
                               "teams": [f"T{i}" for i in range(41)]}, seed="z")
        for k in range(1, 6):
            c = c.draw_next()
            _check_draw(c)
            assert c.repeats(k) == 0
            for t in c.parties[-1].tables:
                c = c.record(k, t.number, [1000, 944])
    finally:
        mp.undo()


def test_max_matching_on_an_odd_cycle_with_a_tail() -> None:
    """A blossom: the triangle 0-1-2 with 2-3 and 3-4: a maximum matching has two edges."""
    adj = [[1, 2], [0, 2], [0, 1, 3], [2, 4], [3]]
    match = max_matching(5, adj, [-1, -1, -1, -1, -1])
    assert sum(m != -1 for m in match) == 4
    assert all(match[match[v]] == v for v in range(5) if match[v] != -1)
    # Ten-vertex Petersen graph: a perfect matching, found from the empty one.
    outer = [[(i + 1) % 5, (i - 1) % 5, i + 5] for i in range(5)]
    inner = [[(i + 2) % 5 + 5, (i - 2) % 5 + 5, i] for i in range(5)]
    match = max_matching(10, outer + inner, [-1] * 10)
    assert -1 not in match


def test_partie_one_is_the_seeds_shuffle() -> None:
    c = Concours.from_new({"name": "t", "game": "coinche", "parties": 3, "target": 1000,
                           "teams": [f"T{i}" for i in range(7)]}, seed="salle-des-fetes")
    c = c.draw_next()
    order = list(range(1, 8))
    random.Random("salle-des-fetes:1").shuffle(order)
    assert [list(t.entries) for t in c.parties[0].tables] == [order[0:2], order[2:4],
                                                               order[4:6]]
    assert c.parties[0].exempt == (order[6],)


def test_melee_never_the_same_partner_twice() -> None:
    c = Concours.from_new({"name": "t", "game": "belote", "parties": 4, "deals": 12,
                           "mode": "melee", "teams": [f"P{i}" for i in range(18)]}, seed="m")
    partners: set[frozenset[int]] = set()
    for k in range(1, 5):
        c = c.draw_next()
        p = c.parties[-1]
        assert len(p.exempt) == 2 and len(p.tables) == 4
        assert sorted(n for t in p.tables for n in t.entries) + list(p.exempt) != []
        for t in p.tables:
            for side in t.sides:
                assert frozenset(side) not in partners
                partners.add(frozenset(side))
            c = c.record(k, t.number, [1000, 944])
    exempts = [n for p in c.parties for n in p.exempt]
    assert len(set(exempts)) == len(exempts) == 8


def test_doctests() -> None:
    assert doctest.testmod(tirage).failed == 0
