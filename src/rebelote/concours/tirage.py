"""The draw (*tirage*) of a *partie*: which entries sit at which table, and who is *exempt*.

- *Partie* 1, and every *partie* of a concours drawn ``random`` (and every *partie* à la
  mêlée), starts from an order drawn from the seed shown to all: the entries' numbers, in
  increasing order, shuffled by ``random.Random("<seed>:<partie>")`` (a redraw ``n`` of the
  organiser: ``"<seed>:<partie>:<n>"``). Other *parties* start from the ranking.
- Doublettes: the first entry of the order not yet seated meets the next one it has not met;
  when that is impossible the search goes back (a bounded depth-first search). **No rematch
  while a draw without one exists**: when the search runs out of its budget the draw is taken
  from a maximum matching of the "not met yet" graph (Edmonds' blossoms), so the number of
  repeats is always the least possible, and reported.
- The *exempt* (an odd count): among the entries with the fewest *exempts* so far (never twice
  to one while others have not had it), the lowest in the order first (the last ranked, or the
  last drawn).
- À la mêlée: tables of four, players drawn into pairs each *partie*, never the same partner
  twice while it can be avoided; ``count % 4`` players are *exempt* in turn.
- Tables are numbered from 1 in the order (the top of the ranking at table 1).

>>> from rebelote.concours.settings import Settings
>>> from rebelote.concours.model import Entry
>>> s = Settings.from_json({"name": "x", "game": "belote", "parties": 3, "deals": 12},
...                        seed="demo")
>>> d = draw(s, [Entry(n, f"T{n}") for n in range(1, 6)], [])
>>> order = [1, 2, 3, 4, 5]; random.Random("demo:1").shuffle(order)
>>> [list(a + b) for a, b in d.tables] == [order[0:2], order[2:4]], d.exempt == (order[4],)
(True, True)
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from rebelote.concours.model import Entry, Partie
from rebelote.concours.ranking import rank
from rebelote.concours.settings import Settings
from rebelote.errors import InputError

__all__ = ["SEARCH_BUDGET", "Draw", "draw", "draw_order", "history", "max_matching",
           "repeats_of"]

#: The nodes the depth-first search visits at most before it takes the blossom matching.
SEARCH_BUDGET: Final = 20_000
Sides = tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Draw:
    """A drawn *partie*: its tables' sides, in table order, its *exempts* and the number of
    unavoidable repeats (tables whose sides already met; partners à la mêlée)."""

    tables: tuple[Sides, ...]
    exempt: tuple[int, ...]
    repeats: int


def _pair(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


def history(settings: Settings, parties: Iterable[Partie]) -> set[frozenset[int]]:
    """The pairs that must not meet again: the opponents of every table so far (doublettes),
    or the partners (à la mêlée)."""
    met: set[frozenset[int]] = set()
    for partie in parties:
        for table in partie.tables:
            if settings.mode == "melee":
                met.update(_pair(*s) for s in table.sides if len(s) == 2)
            else:
                met.add(_pair(table.sides[0][0], table.sides[1][0]))
    return met


def repeats_of(settings: Settings, sides: Iterable[Sides], met: set[frozenset[int]]) -> int:
    """How many of ``sides`` repeat a pair of ``met``."""
    if settings.mode == "melee":
        return sum(_pair(*s) in met for t in sides for s in t if len(s) == 2)
    return sum(_pair(t[0][0], t[1][0]) in met for t in sides)


def draw_order(settings: Settings, entries: Sequence[Entry], parties: Sequence[Partie],
               attempt: int = 0) -> list[int]:
    """The order the draw starts from: the seeded shuffle, or the ranking."""
    active = [e.number for e in entries if e.withdrawn is None]
    k = len(parties) + 1
    if k == 1 or settings.draw_mode == "random" or settings.mode == "melee":
        order = sorted(active)
        random.Random(f"{settings.seed}:{k}" if not attempt
                      else f"{settings.seed}:{k}:{attempt}").shuffle(order)
        return order
    playing = set(active)
    return [n for n in rank(settings, entries, parties) if n in playing]


def _exempt_counts(parties: Iterable[Partie]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for partie in parties:
        for n in partie.exempt:
            counts[n] = counts.get(n, 0) + 1
    return counts


class _OutOfBudget(Exception):
    pass


def _search(order: Sequence[int], met: set[frozenset[int]], allowed: int, budget: list[int]
            ) -> list[tuple[int, int]] | None:
    """Pairs of ``order`` (each first free entry with the next one possible) with at most
    ``allowed`` pairs in ``met``; ``None`` when none exists; :class:`_OutOfBudget` when the
    budget of nodes ran out first."""
    pairs: list[tuple[int, int]] = []

    def go(rest: list[int], used: int) -> bool:
        if not rest:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfBudget
        first = rest[0]
        for i in range(1, len(rest)):
            other = rest[i]
            cost = used + (_pair(first, other) in met)
            if cost > allowed:
                continue
            pairs.append((first, other))
            if go(rest[1:i] + rest[i + 1:], cost):
                return True
            pairs.pop()
        return False

    return pairs if go(list(order), 0) else None


def max_matching(n: int, adjacent: Sequence[Iterable[int]], match: list[int]) -> list[int]:
    """A maximum matching of the graph on ``0..n-1`` (Edmonds' blossom algorithm), grown from
    the matching ``match`` (``match[v]`` is ``v``'s mate or -1): a vertex matched at the
    start stays matched. ``match`` is returned, completed."""
    adj = [list(a) for a in adjacent]
    base = list(range(n))
    parent = [-1] * n
    used = [False] * n
    in_blossom = [False] * n

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, b: int, child: int) -> None:
        while base[v] != b:
            in_blossom[base[v]] = in_blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    def find(root: int) -> int:
        for i in range(n):
            used[i], parent[i], base[i] = False, -1, i
        used[root] = True
        queue = deque([root])
        while queue:
            v = queue.popleft()
            for to in adj[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    top = lca(v, to)
                    for i in range(n):
                        in_blossom[i] = False
                    mark(v, top, to)
                    mark(to, top, v)
                    for i in range(n):
                        if in_blossom[base[i]]:
                            base[i] = top
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        return to
                    used[match[to]] = True
                    queue.append(match[to])
        return -1

    for root in range(n):
        if match[root] != -1:
            continue
        v = find(root)
        while v != -1:
            pv = parent[v]
            ppv = match[pv]
            match[v], match[pv] = pv, v
            v = ppv
    return match


def _least_repeats(order: Sequence[int], met: set[frozenset[int]], candidates: Sequence[int]
                   ) -> tuple[list[tuple[int, int]], int | None]:
    """A draw with the fewest repeats, from a maximum matching of the "not met" graph (with
    a vertex for the *exempt*, joined to the ``candidates``): its pairs and its *exempt*."""
    index = {x: i for i, x in enumerate(order)}
    n = len(order)
    bye = n if candidates else -1
    size = n + (1 if candidates else 0)
    adj: list[list[int]] = [[] for _ in range(size)]
    for i, a in enumerate(order):
        for j in range(i + 1, n):
            if _pair(a, order[j]) not in met:
                adj[i].append(j)
                adj[j].append(i)
    if candidates:
        for c in candidates:
            adj[bye].append(index[c])
            adj[index[c]].append(bye)
    match = [-1] * size
    if candidates:  # the exempt's vertex matched first: it stays matched
        first = index[candidates[0]]
        match[bye], match[first] = first, bye
    for i in range(n):  # a greedy start in the order: fewer augmentations
        if match[i] == -1:
            for j in adj[i]:
                if j != bye and match[j] == -1:
                    match[i], match[j] = j, i
                    break
    match = max_matching(size, adj, match)
    exempt = order[match[bye]] if candidates else None
    pairs: list[tuple[int, int]] = []
    loose: list[int] = []
    for i, a in enumerate(order):
        if a == exempt:
            continue
        j = match[i]
        if j == -1:
            loose.append(a)
        elif j > i and j != bye:
            pairs.append((a, order[j]))
    pairs.extend((loose[i], loose[i + 1]) for i in range(0, len(loose), 2))
    pairs.sort(key=lambda p: min(index[p[0]], index[p[1]]))
    return [(a, b) if index[a] < index[b] else (b, a) for a, b in pairs], exempt


def _pairs_without(order: Sequence[int], met: set[frozenset[int]], candidates: Sequence[int]
                   ) -> tuple[list[tuple[int, int]], int | None]:
    """The pairs of ``order`` with the fewest pairs in ``met``, one of ``candidates`` (tried in
    their order) left out when there are any."""
    tries = [[x for x in order if x != c] for c in candidates] or [list(order)]
    outs: list[int | None] = list(candidates) or [None]
    budget = [SEARCH_BUDGET]
    try:
        for rest, out in zip(tries, outs, strict=True):
            found = _search(rest, met, 0, budget)
            if found is not None:
                return found, out
    except _OutOfBudget:
        pass
    pairs, out = _least_repeats(order, met, candidates)
    least = sum(_pair(a, b) in met for a, b in pairs)
    budget = [SEARCH_BUDGET]
    try:  # the same number of repeats, closer to the order
        for rest, c in zip(tries, outs, strict=True):
            found = _search(rest, met, least, budget)
            if found is not None:
                return found, c
    except _OutOfBudget:
        pass
    return pairs, out


def draw(settings: Settings, entries: Sequence[Entry], parties: Sequence[Partie],
         attempt: int = 0) -> Draw:
    """Draw the *partie* after ``parties`` for the entries not withdrawn."""
    order = draw_order(settings, entries, parties, attempt)
    side = settings.side_size
    per_table = 2 * side
    if len(order) < per_table:
        raise InputError("teams", f"a partie needs at least {per_table} "
                                  f"{'players' if side == 2 else 'teams'} still playing, "
                                  f"not {len(order)}")
    counts = _exempt_counts(parties)
    spare = len(order) % per_table
    # Fewest exempts first; among equals the lowest in the order (the last ranked or drawn).
    by_turn = sorted(reversed(order), key=lambda n: counts.get(n, 0))
    met = history(settings, parties)
    if side == 1:
        fewest = counts.get(by_turn[0], 0) if spare else 0
        candidates = [n for n in by_turn if counts.get(n, 0) == fewest] if spare else []
        pairs, out = _pairs_without(order, met, candidates)
        tables: tuple[Sides, ...] = tuple(((a,), (b,)) for a, b in pairs)
        exempt: tuple[int, ...] = (out,) if out is not None else ()
    else:
        exempt = tuple(by_turn[:spare])
        rest = [n for n in order if n not in exempt]
        pairs, _ = _pairs_without(rest, met, [])
        tables = tuple((pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2))
    return Draw(tables, tuple(sorted(exempt)), repeats_of(settings, tables, met))
