"""A whole game: deal after deal to the target (docs/rules.md section 7), on the engine API.

A :class:`Game` holds the deal in play and a :class:`~rebelote.match.Match` that keeps the
score (the litige reserve and the winner rules live there: one rule, one place). The dealer
moves one seat in the direction of play every deal, void deals included. Each deal is shuffled
from the game's seed and its number, so a game is a pure function of its seed and actions.

>>> from rebelote.rules import Rules
>>> game = Game.new(Rules.preset("official", "coinche"), seed=1, target=501)
>>> import random
>>> rng = random.Random(2)
>>> while not game.is_terminal:
...     game = game.apply(rng.choice(game.legal_actions()))
>>> game.winner in ("NS", "EW"), max(game.result().totals) >= 501
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import NamedTuple

from rebelote.actions import Action
from rebelote.cards import TEAMS, Team
from rebelote.deal import DealState
from rebelote.errors import IllegalActionError
from rebelote.match import DEFAULT_TEAMS, Match, MatchResult
from rebelote.observation import Observation
from rebelote.rules import Rules

__all__ = [
    "DealEnd",
    "Game",
    "end_deal",
]


class DealEnd(NamedTuple):
    """What a finished deal does to a game: the match with it added, the match's result,
    and the next deal's dealer (-1 when the game is won)."""

    match: Match
    result: MatchResult
    dealer: int


def end_deal(match: Match, deal: DealState) -> DealEnd:
    """``deal`` (finished) added to ``match``: the result and, unless the game is won, the
    next deal's dealer, one seat on in the direction of play (after a void deal too). The next
    deal brings in the result's litige reserve and totals (``result.reserve``,
    ``result.totals``). The one home of the loop from a deal to the next: :meth:`Game.apply`
    and the play table (:mod:`rebelote.table.model`) both call it."""
    match = match.add(deal.summary())
    result = match.result()
    dealer = -1 if result.winner is not None else (deal.dealer + deal.step) % 4
    return DealEnd(match, result, dealer)


@dataclass(frozen=True, slots=True)
class Game:
    """A game to ``match.target``: the finished deals, the deal in play and the score."""

    rules: Rules
    seed: int
    match: Match
    deal: DealState
    finished: tuple[DealState, ...] = ()

    @staticmethod
    def new(rules: Rules, seed: int = 0, target: int | None = None, dealer: int = 0,
            teams: tuple[str, str] = DEFAULT_TEAMS) -> Game:
        """A new game: the first deal dealt by ``dealer``."""
        match = Match(rules, target=target or rules.target, teams=teams)
        return Game(rules, seed, match, _deal(rules, seed, 0, dealer, 0, (0, 0)))

    # -- the engine API -----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if self.is_terminal else self.deal.current_player

    @property
    def is_terminal(self) -> bool:
        """The game is won (the deal in play is then the last one, finished)."""
        return self.deal.is_terminal

    def legal_actions(self) -> list[Action]:
        return self.deal.legal_actions()

    def apply(self, action: Action | str) -> Game:
        """The game after the current player's ``action``; a finished deal is scored and the
        next one dealt, unless the game is won."""
        if self.is_terminal:
            raise IllegalActionError(f"{action}", "the game is over")
        deal = self.deal.apply(action)
        if not deal.is_terminal:
            return replace(self, deal=deal)
        end = end_deal(self.match, deal)
        finished = (*self.finished, deal)
        if end.dealer < 0:
            return replace(self, match=end.match, deal=deal, finished=finished)
        nxt = _deal(self.rules, self.seed, len(finished), end.dealer, end.result.reserve,
                    end.result.totals)
        return replace(self, match=end.match, deal=nxt, finished=finished)

    def returns(self) -> tuple[int, int, int, int]:
        """+1 for the seats of the winning team, -1 for the others (0 before the end)."""
        winner = self.winner
        if winner is None:
            return (0, 0, 0, 0)
        w = TEAMS.index(winner)
        return tuple(1 if s & 1 == w else -1 for s in range(4))  # type: ignore[return-value]

    def observation(self, seat: int) -> Observation:
        """The deal in play as ``seat`` sees it (scores and reserve included)."""
        return self.deal.observation(seat)

    def determinize(self, seat: int, rng: random.Random) -> Game:
        """This game with the deal in play's hidden cards dealt at random (see
        :meth:`DealState.determinize`)."""
        return replace(self, deal=self.deal.determinize(seat, rng))

    # -- score --------------------------------------------------------------------------------
    def result(self) -> MatchResult:
        return self.match.result()

    @property
    def winner(self) -> Team | None:
        return self.match.result().winner if self.finished else None


def _deal(rules: Rules, seed: int, n: int, dealer: int, reserve: int,
          scores: tuple[int, int]) -> DealState:
    rng = random.Random(f"rebelote:{seed}:{n}")
    return DealState.new(rules, dealer, rng=rng, held_over=reserve, scores=scores)
