"""``rebelote deal`` without the command line framework: the deals played by bots and written as
records, and a light reading of the command's options.

The Typer command (:mod:`rebelote.commands.replay_deal`) and the start of the ``rebelote`` program
(:func:`rebelote.cli.main`) both write deals with :func:`run_deal`. The program answers
``rebelote deal`` with plain options (``--game belote``, ``--count=3000``) without importing
Typer and pydantic, which cost more than 3000 random deals (docs/engine.md); anything else
(``--help``, an unknown option, a number that is not plain digits) goes through Typer, which
reads it and explains the mistake as for every command.
"""

from __future__ import annotations

import json
import os
import random
import sys
from typing import TYPE_CHECKING, Any, Final, TextIO

from rebelote.actions import OVER, PLAY, Play
from rebelote.bots.external import EngineError, check_timeout, close_bots, tell_deal_end
from rebelote.cards import SEATS
from rebelote.deal import DealState
from rebelote.errors import RulesError
from rebelote.observation import observe
from rebelote.record import record_line, record_of
from rebelote.rules import Rules, parse_rules, seat_step

if TYPE_CHECKING:
    from rebelote.bots import Bot
    from rebelote.bots.explain import Explanation

#: The options of ``rebelote deal`` and their defaults (the Typer command declares the same;
#: a test holds the two equal). ``None``: no default.
DEAL_OPTIONS: Final[dict[str, str | int | float | bool | None]] = {
    "game": "coinche",
    "rules": None,
    "seed": 0,
    "count": 1,
    "bots": "random",
    "dealer": "N",
    "options": None,
    "engine_timeout": 10.0,
    "explain": False,
}
_NUMBERS: Final = frozenset({"seed", "count"})
#: Read by the command line framework only (a number of seconds, not plain digits).
_TYPER_ONLY: Final = frozenset({"engine_timeout", "explain"})

#: The seats' counts ``--bots`` names in words.
_COUNTS: Final = {3: "three", 4: "four"}


def seat_specs(text: str, seats: str = "N,E,S,W") -> list[str]:
    """The registry spec of each seat of ``--bots`` (``seats``: N, E, S, W for ``rebelote
    deal``; N, E, W for ``rebelote play``, whose South is the player): one bot or level for
    every seat, or one a seat in that order, each a level for people (``fort``) or a registry
    spec (:func:`rebelote.bots.spec_of`); :class:`ValueError` naming ``--bots`` otherwise. A
    single ``engine:<command>`` is one spec for every seat even when its command holds
    commas."""
    from rebelote.bots import is_engine_spec, parse_bot_spec, spec_of

    names = [t.strip() for t in text.split(",")]
    if len(names) > 1 and is_engine_spec(text) and not all(_is_spec(t, parse_bot_spec)
                                                           for t in names):
        names = [text.strip()]  # engine:COMMAND whose command holds commas
    count = len(seats.split(","))
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise ValueError(f"--bots: one bot name or {_COUNTS[count]} ({seats}), not "
                         f"{len(names)}")
    return [spec_of(n, "--bots") for n in names]


def parse_bots(text: str, engine_timeout: float | None = None) -> list[Bot]:
    """A bot for each seat of ``--bots`` (:func:`seat_specs`); :class:`ValueError` naming
    ``--bots`` otherwise. One bot a seat: ``engine:<command>`` for every seat is four
    programs."""
    from rebelote.bots import make_bot

    specs = seat_specs(text)
    try:
        return [make_bot(s, engine_timeout=engine_timeout) for s in specs]
    except ValueError as e:  # a known bot at a level it does not have
        raise ValueError(f"--bots: {e}") from None


def _is_spec(text: str, parse: Any) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True


def play_deal(state: DealState, bots: list[Bot], rng: random.Random) -> DealState:
    """Play a deal to its end, each seat's bot acting on that seat's observation. When every
    seat's bot plays uniformly random legal cards (``uniform_play``), the cards are played by
    :meth:`DealState.playout`, which draws the same cards from ``rng`` without building a
    state and an observation per card."""
    uniform = all(getattr(b, "uniform_play", False) for b in bots)
    while state.phase != OVER:
        if uniform and state.phase == PLAY:
            return state.playout(rng)
        seat = state.player
        state = state.apply(bots[seat].act(observe(state, seat), rng))
    tell_deal_end(bots, state)
    return state


#: A decision's place in its deal's actions and its explanation.
Decision = tuple[int, "Explanation"]


def explained_deal(state: DealState, bots: list[Any], specs: list[str], rng: random.Random
                   ) -> tuple[DealState, list[Decision]]:
    """Play ``state`` to its end as :func:`rebelote.commands._deal.play_deal` does (the same
    actions and draws from ``rng``) with each decision's explanation and its place in the
    deal's actions. Bots that play uniformly at random play their cards as it does
    (:meth:`DealState.playout`), each card then explained as a draw."""
    from rebelote.bots.explain import Explanation, explained_act, plain_explanation

    uniform = all(getattr(b, "uniform_play", False) for b in bots)
    out: list[Decision] = []
    index = 0
    while state.phase != OVER:
        if uniform and state.phase == PLAY:
            final = state.playout(rng)
            cards = [c for _, t in final.tricks for c in t][len(state.tricks) * 4
                                                            + len(state.trick):]
            for card in cards:
                obs = observe(state, state.player)
                why = plain_explanation(bots[obs.seat].name, obs, Play(card))
                out.append((index, Explanation(why.seat, why.action, why.why, specs[obs.seat],
                                               why.candidates, why.facts)))
                state = state.apply(Play(card))
                index += 1
            break
        seat = state.player
        action, why = explained_act(bots[seat], observe(state, seat), rng, specs[seat])
        out.append((index, why))
        state = state.apply(action)
        index += 1
    tell_deal_end(bots, state)
    return state, out


def deal_records(rules: Rules, seed: int, count: int, bots: list[Bot], dealer: int = 0
                 ) -> list[dict[str, Any]]:
    """``count`` deals played by ``bots`` from ``seed``, the dealer moving every deal."""
    rng = random.Random(seed)
    out = []
    step = seat_step(rules)
    for _ in range(count):
        state = play_deal(DealState.new(rules, dealer, rng=rng), bots, rng)
        out.append(record_of(state))
        dealer = (dealer + step) % 4
    return out


def deal_setup(game: str, rules: str | None, bots: str, dealer: str, options: str | None,
               engine_timeout: float = 10.0) -> tuple[Rules, list[Bot], int]:
    """The rule set, the four bots and the first dealer of ``rebelote deal``'s options
    (``rebelote explain`` reads the same); :class:`ValueError` naming the bad option."""
    try:
        opts = json.loads(options) if options else None
    except json.JSONDecodeError as e:
        raise ValueError(f"--options: not JSON: {e.msg}") from None
    if rules is not None and ":" in rules:
        chosen = parse_rules(rules)
        chosen = chosen.replace(**opts) if opts else chosen
    else:
        chosen = Rules.from_options(rules, game, opts)
    check_timeout(engine_timeout, "--engine-timeout")
    players = parse_bots(bots, engine_timeout)
    if dealer.strip().upper() not in SEATS:
        raise ValueError(f"--dealer: {dealer!r} is not a seat (N, E, S, W)")
    return chosen, players, SEATS.index(dealer.strip().upper())


def run_deal(game: str = "coinche", rules: str | None = None, seed: int = 0, count: int = 1,
             bots: str = "random", dealer: str = "N", options: str | None = None,
             engine_timeout: float = 10.0, explain: bool = False,
             out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Play ``count`` deals and write their records to ``out`` (standard output), one JSON line
    each; the exit status: 0, 2 after a message on ``err`` naming the bad option, or 1 when
    the reader of ``out`` stops reading before the last record (a broken pipe) or an outside
    bot broke the protocol (its message on ``err``)."""
    out = out or sys.stdout
    try:
        chosen, players, first = deal_setup(game, rules, bots, dealer, options, engine_timeout)
        if count < 0:
            raise ValueError("--count: must be 0 or more")
    except (ValueError, RulesError) as e:
        print(f"rebelote: {e}", file=err or sys.stderr, flush=True)
        return 2
    rng = random.Random(seed)
    step = seat_step(chosen)
    write = out.write
    try:
        specs = seat_specs(bots)
        for _ in range(count):
            if explain:  # the same deals, each bot's decision with its explanation
                state, why = explained_deal(DealState.new(chosen, first, rng=rng), players,
                                            specs, rng)
                rec = record_of(state)
                rec["explanations"] = [{"index": i, **e.to_record()} for i, e in why]
                write(json.dumps(rec, ensure_ascii=False) + "\n")
            else:
                state = play_deal(DealState.new(chosen, first, rng=rng), players, rng)
                write(record_line(state) + "\n")
            first = (first + step) % 4
        out.flush()
    except EngineError as e:
        out.flush()
        print(f"rebelote: {e}", file=err or sys.stderr, flush=True)
        return 1
    except BrokenPipeError:
        # The reader stopped reading (``rebelote deal ... | head``): stop without a traceback,
        # standard output sent to /dev/null so that Python's last flush cannot fail again.
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        close_bots(players)
    return 0


def read_deal_options(args: list[str]) -> dict[str, Any] | None:
    """The options of ``rebelote deal ARGS`` when they are all plain (``--name value`` or
    ``--name=value`` of :data:`DEAL_OPTIONS`, no value starting with ``-``, numbers in plain
    digits), else ``None``: the command line framework reads them and explains any mistake."""
    got: dict[str, Any] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--"):
            return None
        name, eq, value = arg[2:].partition("=")
        if name not in DEAL_OPTIONS or name in _TYPER_ONLY:
            return None
        if not eq:
            if i + 1 >= len(args):
                return None
            value = args[i + 1]
            i += 1
        i += 1
        if value.startswith("-"):  # a negative number, or an option where a value should be
            return None
        if name in _NUMBERS:
            if not (value.isascii() and value.isdigit() and len(value) <= 18):
                return None
            got[name] = int(value)
        else:
            got[name] = value
    return got
