"""Statistics across a browser's games: per team name, the games played and won, the contracts
taken and made, the average marks of a deal and the biggest deal.

Teams are counted by name (as typed, spaces trimmed): "Nous" in two games is one team. Every
figure is read from the core's scores (:class:`~rebelote.match.MatchResult`); corrections are
not deals, a deal nobody took is one (it marks nothing).

>>> from rebelote.match import Match
>>> from rebelote.rules import Rules
>>> game = Match.from_json({"game": "belote", "target": 501, "deals": [
...     {"taker": "NS", "points": {"NS": 100}}, {"taker": "EW", "points": {"EW": 40}},
...     {"void": True}]})
>>> stats = statistics([("g1", game, game.result())])
>>> [(t.name, t.taken, t.made, t.marks, t.deals) for t in stats.teams]
[('Eux', 1, 0, 62, 3), ('Nous', 1, 1, 262, 3)]
>>> stats.biggest
Biggest(mark=162, team='Nous', game_id='g1', deal=2, teams=('Nous', 'Eux'))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rebelote.cards import TEAMS
from rebelote.match import Match, MatchResult


@dataclass(slots=True)
class TeamStats:
    """One team name's figures across the games."""

    name: str
    games: int = 0
    won: int = 0
    taken: int = 0
    made: int = 0
    marks: int = 0
    deals: int = 0

    @property
    def average(self) -> float:
        """The average marks of a deal."""
        return self.marks / self.deals if self.deals else 0.0

    @property
    def made_share(self) -> float:
        """The share of its contracts the team made (0 to 1)."""
        return self.made / self.taken if self.taken else 0.0


@dataclass(frozen=True, slots=True)
class Biggest:
    """The biggest mark of one deal: its team, game and deal number."""

    mark: int
    team: str
    game_id: str
    deal: int
    teams: tuple[str, str]


@dataclass(slots=True)
class Statistics:
    """The figures of a set of games."""

    games: int = 0
    finished: int = 0
    teams: list[TeamStats] = field(default_factory=list)
    biggest: Biggest | None = None


def statistics(games: Iterable[tuple[str, Match, MatchResult]]) -> Statistics:
    """The statistics of ``games`` (id, game, its result); teams listed by games played, then
    games won, then name."""
    out = Statistics()
    by_name: dict[str, TeamStats] = {}
    for game_id, match, result in games:
        out.games += 1
        if result.winner is not None:
            out.finished += 1
        names = tuple(name.strip() or team for name, team in zip(match.teams, TEAMS,
                                                                  strict=True))
        teams = [by_name.setdefault(name, TeamStats(name)) for name in names]
        for i, team in enumerate(teams):
            team.games += 1
            if result.winner == TEAMS[i]:
                team.won += 1
        for n, (deal, score) in enumerate(zip(match.deals, result.deals, strict=True), 1):
            if deal.kind == "adjust":
                continue
            for i, team in enumerate(teams):
                team.deals += 1
                team.marks += score.score[i]
                if out.biggest is None or score.score[i] > out.biggest.mark:
                    out.biggest = Biggest(score.score[i], names[i], game_id, n,
                                          (names[0], names[1]))
            if deal.kind == "deal" and deal.taker is not None:
                taker = teams[TEAMS.index(deal.taker)]
                taker.taken += 1
                if score.outcome == "made":
                    taker.made += 1
    out.teams = sorted(by_name.values(), key=lambda t: (-t.games, -t.won, t.name))
    return out


__all__ = ["Biggest", "Statistics", "TeamStats", "statistics"]
