"""Le robot à votre place: a finished deal played again with the table's level in a human's
seat (issue 34, item 2), and what the two deals say side by side.

The replay starts from the same cards (the deal's seed and dealer, the game's score before
it) and follows the real deal as long as it stays the same: the other seats play the moves
they played (the same bots in the same position), and at each of the human's decisions the
level chooses. Its first choice that differs from the human's is *the first difference*; from
there on every seat is played by its bot (the human's seat by the level, the others by the
table's own bots), each decision drawing from a seed made of the deal's seed, the seat and
the decision's index (:func:`decision_seed`): the replay is the same each time it is run.
A level limited in time plays its counted equivalent (the same budget with ``seconds`` and
``bid_seconds`` ``None``: :func:`counted_spec_bot`), so that a busy machine replays as an idle
one.

The comparison (:meth:`RobotReplay.result`) holds the human's team's mark in both deals and,
at the first difference, the two actions, each with its double-dummy cost when it is a card
(:func:`rebelote.table.analysis.analyse` of each deal: the position is the same in both up to
that card). It holds the deal's hidden cards: given out only once the deal is finished.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field, replace
from typing import Any

from rebelote.actions import Play, parse_action
from rebelote.auction import Bid
from rebelote.bots import Bot, PimcBot, make_bot
from rebelote.cards import SEATS
from rebelote.deal import DealState
from rebelote.errors import InputError
from rebelote.scoring import score_deal
from rebelote.table.analysis import analyse
from rebelote.table.model import NEXT, DealLog, Table

__all__ = ["RobotReplay", "counted_spec_bot", "deal_start", "decision_seed", "team_mark"]


def counted_spec_bot(spec: str) -> Bot:
    """The bot ``spec`` with its time limits taken out (a search level's counted equivalent:
    its worlds, counted, whatever the machine's load): the same bot for any other spec."""
    bot: Any = make_bot(spec)
    if isinstance(bot, PimcBot) and (bot.budget.seconds is not None
                                     or bot.budget.bid_seconds is not None):
        return PimcBot(budget=replace(bot.budget, seconds=None, bid_seconds=None))
    return bot  # type: ignore[no-any-return]


def decision_seed(deal_seed: str, seat: int, index: int) -> int:
    """The seed of the replay's decision ``index`` (its place among the deal's actions) at
    ``seat``, made of the deal's secret seed: reproducible, and unknown to the players until
    the deal is over (its record then gives the seed)."""
    text = f"robot:{deal_seed}:{seat}:{index}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def deal_start(table: Table, n: int, playing: bool = False) -> DealState:
    """Deal ``n`` (from 1, finished; ``playing``: or the deal in play) of ``table`` as it was
    dealt: its cards, its dealer and the game's score before it."""
    last = len(table.deals) if playing else len(table.replay.finished)
    if not 1 <= n <= last:
        raise InputError("n", f"deal {n} of this table is not finished")
    log = table.deals[n - 1]
    before = replace(table, deals=(*table.deals[:n - 1], DealLog(log.seed, log.salt,
                                                                   log.dealer)))
    return before.deal


def team_mark(state: DealState, team: int) -> int:
    """What ``team`` (0 NS, 1 EW) marks in finished deal ``state``."""
    return score_deal(state.summary(), state.rules).score[team]


def _kind(text: str) -> str:
    """``card``, ``call`` (a bid, a pass, a double) or ``declaration`` (declaring or not)."""
    action = parse_action(text)
    return "card" if isinstance(action, Play) else "call" if isinstance(action, Bid) \
        else "declaration"


@dataclass
class RobotReplay:
    """Deal ``n`` of ``table`` played again with ``spec`` at ``seat``: one decision a
    :meth:`step` (so that a caller can run each in its turn), then :meth:`result`.

    The deal may still be in play (the table server starts its replay *ahead*, while the
    human thinks): the replay then goes as far as the real deal allows (:meth:`can_step`), its
    level's choice at the human's turn made before the human's move (:attr:`ahead`, the same
    choice as afterwards: the same seed, the same counted search) and, once it differs, to
    its end; :meth:`follow` gives it the real deal's later moves, and :meth:`result` waits for
    the deal's end (:attr:`finished`)."""

    table: Table
    n: int
    seat: int
    spec: str
    bots: dict[int, Bot] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.state = deal_start(self.table, self.n, playing=True)
        self.seed = self.table.deals[self.n - 1].seed
        #: the real deal's actions (text) as far as they are known
        self.played = [a for a in self.table.deals[self.n - 1].actions if a != NEXT]
        #: the real deal once finished (None: still in play)
        self.real: DealState | None = None
        if len(self.table.replay.finished) >= self.n:
            self.real = self.table.replay.finished[self.n - 1]
        #: the replay's actions (text), and the index of the first that differs (None: none)
        self.actions: list[str] = []
        self.differs: int | None = None
        #: the seat of each action of the replay, and the spec that chose it (None: the real
        #: deal's move followed)
        self.seats: list[int] = []
        self.chosen_by: list[str | None] = []
        #: the level's choice at the human's turn of the deal in play, made before the
        #: human's move: (the action's index, the choice)
        self.ahead: tuple[int, str] | None = None

    def _bot(self, seat: int) -> tuple[Bot, str]:
        spec = self.spec if seat == self.seat else self.table.seats[seat].bot
        if seat not in self.bots:
            self.bots[seat] = counted_spec_bot(spec)
        return self.bots[seat], spec

    def _choose(self, seat: int, i: int) -> tuple[str, str]:
        bot, by = self._bot(seat)
        rng = random.Random(decision_seed(self.seed, seat, i))
        return str(bot.act(self.state.observation(seat), rng)), by

    @property
    def done(self) -> bool:
        return self.state.is_terminal

    @property
    def finished(self) -> bool:
        """The real deal is over (:meth:`result` can be given once the replay is done)."""
        return self.real is not None

    def follow(self, table: Table) -> bool:
        """The real deal as ``table`` holds it now (more of its moves, its end); ``False``
        (nothing changed) when it is not the deal followed so far."""
        if len(table.deals) < self.n or table.deals[self.n - 1].seed != self.seed:
            return False
        played = [a for a in table.deals[self.n - 1].actions if a != NEXT]
        if played[:len(self.played)] != self.played:
            return False
        self.table, self.played = table, played
        if len(table.replay.finished) >= self.n:
            self.real = table.replay.finished[self.n - 1]
        return True

    def can_step(self) -> bool:
        """:meth:`step` has work: the replay is not over, and it has differed, or the real
        deal's next move is known, or the human is to move in it and the level's choice
        there is not made yet (:attr:`ahead`)."""
        if self.state.is_terminal:
            return False
        i = len(self.actions)
        if self.differs is not None or i < len(self.played):
            return True
        return self.state.current_player == self.seat and self.ahead is None

    def step(self) -> bool:
        """One action of the replay (or, the human to move in the deal in play, the level's
        choice there, :attr:`ahead`); ``True`` once the deal is over."""
        if self.state.is_terminal:
            return True
        played = self.played  # (one read: :meth:`follow` may give a longer one meanwhile)
        i = len(self.actions)
        seat = self.state.current_player
        same = self.differs is None
        if same and i >= len(played):  # the deal in play is not there yet
            if seat == self.seat and self.ahead is None:
                self.ahead = (i, self._choose(seat, i)[0])
            return False
        if same and seat != self.seat:
            text, by = played[i], None
        else:
            if self.ahead is not None and self.ahead[0] == i:
                text, by = self.ahead[1], self.spec
            else:
                text, by = self._choose(seat, i)
            if same and text != played[i]:
                self.differs = i
        self.state = self.state.apply(parse_action(text))
        self.actions.append(text)
        self.seats.append(seat)
        self.chosen_by.append(by)
        return self.state.is_terminal

    def advance(self) -> bool:
        """Every :meth:`step` it can make now (:meth:`can_step`); ``True`` once the replay is
        over. (One job of the bots' pool: a replay goes on to its end, or to the real deal's
        next move, before another of the same rank starts.)"""
        while self.can_step():
            self.step()
        return self.state.is_terminal

    def run(self) -> dict[str, Any]:
        """Every step, then :meth:`result` (one go, of a finished deal: the tests, the command
        line)."""
        if self.real is None:
            raise InputError("n", f"deal {self.n} of this table is not finished")
        while not self.step():
            pass
        return self.result()

    def result(self) -> dict[str, Any]:
        """``{"deal", "seat", "level", "real", "robot", "gain", "difference"}``: the seat's
        team's mark in the real deal and the replay, the real minus the replay's (``gain``),
        and the first difference ``{"index", "kind" ("card", "call" or "declaration"),
        "number" (its number among the deal's actions of its kind, from 1), "you", "robot",
        "you_cost", "robot_cost", "you_mark_cost", "robot_mark_cost"}`` (costs of a card only,
        from the solver; ``None`` when no solver) or ``None`` when the level played the
        human's every choice."""
        if self.real is None:
            raise InputError("n", f"deal {self.n} of this table is not finished")
        team = self.seat & 1
        real, robot = team_mark(self.real, team), team_mark(self.state, team)
        out: dict[str, Any] = {"deal": self.n, "seat": SEATS[self.seat], "level": self.spec,
                               "real": real, "robot": robot, "gain": real - robot,
                               "difference": None}
        i = self.differs
        if i is None:
            return out
        you, bot = self.played[i], self.actions[i]
        kinds = [_kind(a) for a in self.played[:i]]
        kind = _kind(bot)
        card = kind == "card"
        diff: dict[str, Any] = {"index": i, "kind": kind, "number": kinds.count(kind) + 1,
                                "you": you, "robot": bot, "you_cost": None,
                                "robot_cost": None, "you_mark_cost": None,
                                "robot_mark_cost": None}
        if card:
            k = kinds.count("card")
            try:
                costs: tuple[dict[str, Any], dict[str, Any]] | None = (
                    analyse(self.real)[k], analyse(self.state)[k])
            except ImportError:  # no solver in this build: the two cards without costs
                costs = None
            if costs is not None:
                mine, its = costs
                diff |= {"you_cost": mine["cost"], "robot_cost": its["cost"],
                         "you_mark_cost": mine["mark_cost"],
                         "robot_mark_cost": its["mark_cost"]}
        out["difference"] = diff
        return out
