"""Observations made by several threads at once (the bots' threads and the event loop's views
call :func:`rebelote.observation.observe` together): each thread sees its own deal, whatever
the interleaving of the caches the observation and the engine keep between calls.

The threads are made to switch between any two bytecodes of those modules (a trace function
that yields the interpreter on every opcode of their frames), so that one thread's read of a
cache falls between the stores of another's update as often as it can."""

from __future__ import annotations

import sys
import threading
import time
from types import FrameType
from typing import Any

import rebelote.deal
import rebelote.observation
from rebelote.actions import PLAY, Play
from rebelote.deal import DealState
from rebelote.observation import Observation, observe
from rebelote.rules import Rules

WATCHED = {rebelote.observation.__file__, rebelote.deal.__file__}


def declared_deals(count: int) -> list[DealState]:
    """``count`` belote deals after their first trick, each with declarations announced, all
    with the same trump and dealer (so that the caches' keys are equal but their deals are
    not) and each its own stock."""
    rules = Rules.preset("official", "belote")
    found: dict[int, list[DealState]] = {}
    for seed in range(2000):
        state = DealState.new(rules, dealer=0, seed=seed)
        state = state.apply("take")
        while state.phase == PLAY and not state.tricks:
            state = state.apply(next(a for a in state.legal_actions() if isinstance(a, Play)))
        if state.phase == PLAY and any(state.declared):
            group = found.setdefault(state.trump, [])
            group.append(state)
            if len(group) == count:
                return group
    raise AssertionError("not enough deals with declarations")


def switching_trace(frame: FrameType, event: str, arg: Any) -> Any:
    """Trace the frames of the watched modules opcode by opcode, yielding at each."""
    if frame.f_code.co_filename not in WATCHED:
        return None
    frame.f_trace_opcodes = True

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "opcode":
            time.sleep(0)
        return local

    return local


def test_threads_observing_at_once_each_see_their_own_deal() -> None:
    states = declared_deals(4)
    seats = [(s.player + 1) % 4 for s in states]  # not the player: no legal actions to list
    expected = [observe(s, seat) for s, seat in zip(states, seats, strict=True)]
    assert len({(o.announced, o.auction_hand) for o in expected}) == len(expected)
    wrong: list[tuple[int, Observation]] = []
    start = threading.Barrier(len(states))

    def run(i: int) -> None:
        sys.settrace(switching_trace)
        start.wait()
        for _ in range(150):
            got = observe(states[i], seats[i])
            if got != expected[i]:
                wrong.append((i, got))
        sys.settrace(None)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(states))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not wrong, f"{len(wrong)} observations of another thread's deal"
