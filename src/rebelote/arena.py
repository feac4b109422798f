"""The duplicate arena: two bots play the same deals both ways, and the difference is measured.

Each deal is dealt from the arena's seed and its number, then played twice with the same
cards: bot A on N-S and B on E-W, then B on N-S and A on E-W. A deal's result is A's mark
minus B's, averaged over its two plays, so the luck of the cards cancels; the mean over the
deals comes with its 95% confidence interval (Student's t on the per-deal results, which are
independent). Whole games to the target are played the same way (each game twice, seats
swapped) and counted. Decision times are measured per bot.

The work is cut into tasks of a fixed size that depend only on the configuration, and each
deal's cards and each seat's random draws come from the seed, the deal's number, the play and
the seat: the results are the same on one process, a local process pool or a Dask cluster,
whatever the number of workers (decision times apart).

>>> config = ArenaConfig(a="heuristic", b="random", game="belote", deals=4, games=0, seed=1)
>>> result = run_arena(config)
>>> len(result.deals), result.summary()["deals"]
(4, 4)
"""

from __future__ import annotations

import functools
import importlib
import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from rebelote.actions import NO_DECLARATION
from rebelote.bots import Bot, is_engine_spec, make_bot, parse_bot_spec
from rebelote.bots.external import DEFAULT_TIMEOUT, check_timeout, close_bots, tell_deal_end
from rebelote.deal import DealState
from rebelote.errors import RulesError
from rebelote.game import Game
from rebelote.rules import GAMES, Rules

#: Deals per task: fixed, so that results do not depend on the number of workers.
DEALS_PER_TASK: Final = 10
T = TypeVar("T")
R = TypeVar("R")

#: Student's t quantiles at 97.5% for 1..30 degrees of freedom.
_T975: Final = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
                2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074,
                2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
_Z975: Final = 1.959964


def t975(df: int) -> float:
    """Student's t quantile at 97.5% for ``df`` degrees of freedom (the two-sided 95% factor):
    a table to 30, the Cornish-Fisher expansion beyond (error under 1e-4).

    >>> t975(1), t975(30), round(t975(1000), 3)
    (12.706, 2.042, 1.962)
    """
    if df < 1:
        raise ValueError("t975: at least one degree of freedom")
    if df <= 30:
        return _T975[df - 1]
    z = _Z975
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% confidence interval ``(mean, low, high)``; for one
    value the interval is the value itself widened to infinity.

    >>> [round(x, 3) for x in mean_ci([1.0, 2.0, 3.0, 4.0])]  # sd 1.291, t(3) 3.182
    [2.5, 0.446, 4.554]
    """
    n = len(values)
    if n == 0:
        raise ValueError("mean_ci: no values")
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, -math.inf, math.inf)
    half = t975(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest rank of sorted values."""
    if not sorted_values:
        return 0.0
    k = max(0, min(len(sorted_values) - 1, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[k]


# -- configuration and results -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """A match: bot specs ``a`` and ``b``, the game and rule set (``options`` change single
    rules), ``deals`` duplicate deals, ``games`` duplicate games to ``target`` (the rules'
    own target when ``None``), all drawn from ``seed``. ``engine_timeout``: the seconds an
    outside bot (``engine:<command>``) may take for each answer."""

    a: str
    b: str
    game: str = "coinche"
    rules: str = "official"
    deals: int = 200
    games: int = 0
    seed: int = 0
    target: int | None = None
    options: Mapping[str, Any] | None = None
    engine_timeout: float = DEFAULT_TIMEOUT

    def check(self) -> Rules:
        """The rule set, after checking every field; :class:`ValueError` naming the field."""
        for key in ("a", "b"):
            try:
                parse_bot_spec(getattr(self, key))
            except ValueError as e:
                raise ValueError(f"{key}: {e}") from None
        if self.game not in GAMES:
            raise ValueError(f"game: {self.game!r} is not a game ({', '.join(GAMES)})")
        for key in ("deals", "games"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{key}: must be a whole number, 0 or more, not {value!r}")
        if self.deals + self.games == 0:
            raise ValueError("deals: nothing to play (deals and games are both 0)")
        check_timeout(self.engine_timeout, "engine_timeout")
        if self.target is not None and (isinstance(self.target, bool)
                                        or not isinstance(self.target, int) or self.target <= 0):
            raise ValueError(f"target: must be a positive whole number, not {self.target!r}")
        try:
            return Rules.from_options(self.rules, self.game, dict(self.options or {}))
        except RulesError as e:
            raise ValueError(str(e)) from None


@dataclass(frozen=True, slots=True)
class DealResult:
    """One duplicate deal: A's mark minus B's in each play (A on N-S, then A on E-W), and for
    each play which bot took (``"a"``, ``"b"`` or ``None`` for a deal passed out) and whether
    its contract was made."""

    index: int
    diffs: tuple[int, int]
    takers: tuple[str | None, str | None]
    made: tuple[bool | None, bool | None]

    @property
    def diff(self) -> float:
        """The deal's result: A's mark minus B's, averaged over its two plays."""
        return (self.diffs[0] + self.diffs[1]) / 2


@dataclass(frozen=True, slots=True)
class GameResult:
    """One duplicate game: the winner (``"a"`` or ``"b"``) with A on N-S, then on E-W, and the
    number of deals each play took."""

    index: int
    winners: tuple[str, str]
    lengths: tuple[int, int]


@dataclass(slots=True)
class _TaskResult:
    deals: list[DealResult] = field(default_factory=list)
    games: list[GameResult] = field(default_factory=list)
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """Everything a match gave: per deal, per game, and every decision time (seconds) of a
    bot that had a choice."""

    config: ArenaConfig
    deals: tuple[DealResult, ...]
    games: tuple[GameResult, ...]
    times_a: tuple[float, ...]
    times_b: tuple[float, ...]
    workers: int
    scheduler: str | None
    elapsed: float

    def summary(self) -> dict[str, Any]:
        """The JSON answer of ``rebelote arena --json`` (docs/bots.md)."""
        c = self.config
        out: dict[str, Any] = {
            "a": c.a, "b": c.b, "game": c.game, "rules": c.rules, "seed": c.seed,
            "deals": len(self.deals),
        }
        if self.deals:
            mean, low, high = mean_ci([d.diff for d in self.deals])
            takes = [t for d in self.deals for t in d.takers]
            made = [(t, m) for d in self.deals for t, m in zip(d.takers, d.made, strict=True)]

            def share(bot: str) -> dict[str, Any]:
                taken = [m for t, m in made if t == bot]
                return {"took": taken.__len__(),
                        "made": sum(1 for m in taken if m)}

            out["mark_diff"] = {
                "mean": round(mean, 2),
                "ci95": [_finite(low), _finite(high)],
                "stdev": round(statistics.stdev([d.diff for d in self.deals]), 2)
                if len(self.deals) > 1 else None,
            }
            out["contracts"] = {"a": share("a"), "b": share("b"),
                                "passed_out": sum(1 for t in takes if t is None)}
        if self.games:
            won = sum(w == "a" for g in self.games for w in g.winners)
            played = 2 * len(self.games)
            out["games"] = {
                "played": played, "a_won": won, "b_won": played - won,
                "a_rate": round(won / played, 4),
                "target": c.target,
                "mean_deals": round(sum(sum(g.lengths) for g in self.games) / played, 2),
            }
        out["decision_ms"] = {"a": _times(self.times_a), "b": _times(self.times_b)}
        out["workers"] = self.workers
        out["scheduler"] = self.scheduler
        out["seconds"] = round(self.elapsed, 2)
        return out


def _finite(x: float) -> float | None:
    return round(x, 2) if math.isfinite(x) else None


def _times(times: Sequence[float]) -> dict[str, Any]:
    s = sorted(times)
    return {"decisions": len(s), "mean": round(math.fsum(s) / len(s) * 1000, 3) if s else 0.0,
            "median": round(percentile(s, 0.5) * 1000, 3),
            "p99": round(percentile(s, 0.99) * 1000, 3),
            "max": round(s[-1] * 1000, 3) if s else 0.0}


# -- playing -----------------------------------------------------------------------------------
def _play(state: DealState | Game, bots: Sequence[Bot], rngs: Sequence[random.Random],
          is_a: Sequence[bool], times: tuple[list[float], list[float]]) -> Any:
    """Play ``state`` (a deal or a game) to its end, timing each decision with a choice."""
    clock = time.perf_counter
    tell = any(getattr(b, "end_deal", None) is not None for b in bots)
    while not state.is_terminal:
        seat = state.current_player
        obs = state.observation(seat)
        t0 = clock()
        action = bots[seat].act(obs, rngs[seat])
        dt = clock() - t0
        if len(obs.legal) > 1 and not (len(obs.legal) == 2 and NO_DECLARATION in obs.legal):
            times[0 if is_a[seat] else 1].append(dt)
        before = state
        state = state.apply(action)
        if tell and isinstance(state, Game) and isinstance(before, Game) \
                and len(state.finished) > len(before.finished):
            tell_deal_end(bots, state.finished[-1])
    if tell and isinstance(state, DealState):
        tell_deal_end(bots, state)
    return state


#: The outside bots of the match this process plays, by (role, spec, seat): one program a seat
#: for the whole match (a worker of a pool keeps its own), closed when the match ends.
_ENGINES: dict[tuple[str, str, int], Bot] = {}
_ENGINES_OF: list[ArenaConfig | None] = [None]


def _seat_bot(config: ArenaConfig, role: str, seat: int) -> Bot:
    spec = config.a if role == "a" else config.b
    if not is_engine_spec(spec):
        return make_bot(spec)
    if _ENGINES_OF[0] != config:
        close_engines()
        _ENGINES_OF[0] = config
    key = (role, spec, seat)
    bot = _ENGINES.get(key)
    if bot is None:
        bot = _ENGINES[key] = make_bot(spec, engine_timeout=config.engine_timeout)
    return bot


def close_engines() -> None:
    """Stop the outside bots this process started for a match."""
    bots = list(_ENGINES.values())
    _ENGINES.clear()
    _ENGINES_OF[0] = None
    close_bots(bots)


def _seat_bots(config: ArenaConfig, a_side: int) -> tuple[list[Bot], list[bool]]:
    """The four seats' bots: A on the seats of parity ``a_side`` (0 N-S, 1 E-W)."""
    bots = [_seat_bot(config, "a" if s % 2 == a_side else "b", s) for s in range(4)]
    return bots, [s % 2 == a_side for s in range(4)]


def play_duplicate_deal(config: ArenaConfig, rules: Rules, index: int,
                        times: tuple[list[float], list[float]] | None = None, *,
                        seat_bots: Callable[[int], Sequence[Bot]] | None = None
                        ) -> tuple[DealResult, tuple[DealState, DealState]]:
    """Deal number ``index`` played both ways; also the two finished deals (same cards).

    ``seat_bots(a_side)``, when given, seats bots already made instead of the config's specs:
    the four seats' bots of the play where A sits on the seats of parity ``a_side`` (a tuning
    that tries bots no spec names, on the arena's very deals and seeds)."""
    times = times if times is not None else ([], [])
    deck_rng = random.Random(f"arena:{config.seed}:deal:{index}")
    dealer = index % 4
    start = DealState.new(rules, dealer, rng=deck_rng)
    finals: list[DealState] = []
    diffs: list[int] = []
    takers: list[str | None] = []
    made: list[bool | None] = []
    for a_side in (0, 1):
        if seat_bots is None:
            bots, is_a = _seat_bots(config, a_side)
        else:
            bots, is_a = list(seat_bots(a_side)), [s % 2 == a_side for s in range(4)]
        rngs = [random.Random(f"arena:{config.seed}:deal:{index}:{a_side}:{s}")
                for s in range(4)]
        end: DealState = _play(start, bots, rngs, is_a, times)
        finals.append(end)
        diffs.append(end.returns()[a_side])
        if end.is_void:
            takers.append(None)
            made.append(None)
        else:
            takers.append("a" if end.taker % 2 == a_side else "b")
            made.append(end.score().outcome == "made")
    result = DealResult(index, (diffs[0], diffs[1]), (takers[0], takers[1]), (made[0], made[1]))
    return result, (finals[0], finals[1])


def play_duplicate_game(config: ArenaConfig, rules: Rules, index: int,
                        times: tuple[list[float], list[float]] | None = None) -> GameResult:
    """Game number ``index`` to the target, played both ways from the same deal sequence."""
    times = times if times is not None else ([], [])
    winners: list[str] = []
    lengths: list[int] = []
    for a_side in (0, 1):
        game = Game.new(rules, seed=config.seed * 1_000_003 + index, target=config.target,
                        dealer=index % 4)
        bots, is_a = _seat_bots(config, a_side)
        rngs = [random.Random(f"arena:{config.seed}:game:{index}:{a_side}:{s}")
                for s in range(4)]
        end: Game = _play(game, bots, rngs, is_a, times)
        winner = end.winner
        winners.append("a" if winner == ("NS", "EW")[a_side] else "b")
        lengths.append(len(end.finished))
    return GameResult(index, (winners[0], winners[1]), (lengths[0], lengths[1]))


Task = tuple[ArenaConfig, str, tuple[int, ...]]


def run_task(task: Task) -> _TaskResult:
    """Play one task (``"deals"`` or ``"games"`` and their numbers): what a worker runs."""
    config, kind, indices = task
    rules = config.check()
    out = _TaskResult()
    times = (out.times_a, out.times_b)
    for i in indices:
        if kind == "deals":
            out.deals.append(play_duplicate_deal(config, rules, i, times)[0])
        else:
            out.games.append(play_duplicate_game(config, rules, i, times))
    return out


def tasks_of(config: ArenaConfig) -> list[Task]:
    """The match cut into tasks of :data:`DEALS_PER_TASK` deals and single games (games
    first: they are the longest)."""
    tasks: list[Task] = [(config, "games", (j,)) for j in range(config.games)]
    for start in range(0, config.deals, DEALS_PER_TASK):
        stop = min(config.deals, start + DEALS_PER_TASK)
        tasks.append((config, "deals", tuple(range(start, stop))))
    return tasks


def run_arena(config: ArenaConfig, workers: int = 1, scheduler: str | None = None,
              progress: Callable[[int, int], None] | None = None) -> ArenaResult:
    """Play the match: in this process (``workers`` 1), on a local process pool, or on the Dask
    cluster whose scheduler is at ``scheduler`` (``tcp://host:port``; the workers need
    rebelote installed). ``progress(done, total)`` is called as tasks finish."""
    config.check()
    tasks = tasks_of(config)
    t0 = time.perf_counter()
    results: list[_TaskResult] = []
    try:
        for done, result in enumerate(parallel_map(run_task, tasks, workers, scheduler,
                                                   closing=scheduler is not None), start=1):
            results.append(result)
            if progress:
                progress(done, len(tasks))
    finally:
        close_engines()
    merged = _TaskResult()
    for r in results:
        merged.deals.extend(r.deals)
        merged.games.extend(r.games)
        merged.times_a.extend(r.times_a)
        merged.times_b.extend(r.times_b)
    return ArenaResult(
        config=config,
        deals=tuple(sorted(merged.deals, key=lambda d: d.index)),
        games=tuple(sorted(merged.games, key=lambda g: g.index)),
        times_a=tuple(merged.times_a),
        times_b=tuple(merged.times_b),
        workers=workers,
        scheduler=scheduler,
        elapsed=time.perf_counter() - t0,
    )


def parallel_map(fn: Callable[[T], R], items: Sequence[T], workers: int = 1,
                 scheduler: str | None = None, closing: bool = False) -> Iterator[R]:
    """``fn`` over ``items``, each result yielded in the items' order as soon as it and those
    before it are done: in this process (``workers`` 1), on a local pool of ``workers``
    processes, or on the Dask cluster whose scheduler is at ``scheduler`` (``tcp://host:port``;
    its workers need rebelote installed, and what ``fn`` imports). ``fn`` must be picklable
    (a module's function) for a pool or a cluster. ``closing``: each item's outside bots are
    stopped after it (a Dask worker outlives the match; a pool's worker stops its own when it
    exits). A failure stops the rest (not started) and is raised."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers: must be 1 or more, not {workers!r}")
    if scheduler is not None:
        yield from _dask_map(fn, items, scheduler, closing)
    elif workers == 1:
        for item in items:
            yield fn(item)
    else:
        from concurrent.futures import ProcessPoolExecutor  # here: `rebelote deal` starts faster

        _check_picklable(fn)
        with ProcessPoolExecutor(max_workers=workers, initializer=_worker_start) as pool:
            try:
                yield from pool.map(fn, items)
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)  # a broken bot: the rest not played
                raise


def _check_picklable(fn: Callable[..., object]) -> None:
    """Refuse ``fn`` before a pool starts when it cannot be sent to one: an unpicklable function
    fails in the pool's feeder thread, and the pool's shutdown can then wait for ever on a
    worker that never gets its task (seen with a module loaded twice under one name)."""
    import pickle

    try:
        pickle.dumps(fn)
    except (pickle.PicklingError, TypeError, AttributeError) as e:
        raise TypeError(f"fn: a process pool runs only a picklable function (a module's own, "
                        f"importable by its name), not {fn!r}: {e}") from e


def _worker_start() -> None:
    """A pool worker closes its outside bots when it exits (multiprocessing skips atexit)."""
    from multiprocessing import util

    util.Finalize(None, close_engines, exitpriority=10)


def _closing(fn: Callable[[T], R], item: T) -> R:
    """``fn(item)``, then the outside bots it started stopped."""
    try:
        return fn(item)
    finally:
        close_engines()


def _dask_map(fn: Callable[[T], R], items: Sequence[T], scheduler: str, closing: bool
              ) -> Iterator[R]:
    try:
        dist: Any = importlib.import_module("distributed")
    except ImportError:
        raise ValueError("scheduler: Dask is not installed (pip install 'rebelote[arena]')"
                         ) from None
    try:
        client = dist.Client(scheduler, timeout="10s", set_as_default=False)
    except OSError as e:
        raise ValueError(f"scheduler: cannot reach the Dask scheduler at {scheduler}: {e}"
                         ) from None
    try:
        if closing:
            futures = client.map(functools.partial(_closing, fn), items, pure=False)
        else:
            futures = client.map(fn, items, pure=False)
        for future in futures:  # in order: a later item may be done first, and waits
            yield future.result()
    finally:
        client.close()


__all__ = [
    "ArenaConfig",
    "ArenaResult",
    "DealResult",
    "GameResult",
    "mean_ci",
    "parallel_map",
    "play_duplicate_deal",
    "play_duplicate_game",
    "run_arena",
    "t975",
]
