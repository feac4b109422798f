"""A game to a target: deals added, undone and replaced, totals, the litige reserve and the
winner (docs/rules.md section 7).

A :class:`Match` is immutable: :meth:`Match.add`, :meth:`Match.undo` and :meth:`Match.replace`
return a new one, and :meth:`Match.result` scores every deal through :func:`score_deal`.

>>> m = Match(Rules.preset("official", "belote"), target=1000)
>>> m = m.add(DealSummary(game="belote", taker="NS", points=(98, 64), belote=(1, 0)))
>>> r = m.result()
>>> r.totals, r.winner
((118, 64), None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from rebelote.cards import TEAMS, Team
from rebelote.errors import InputError
from rebelote.rules import BELOTE_POINTS, Rules
from rebelote.scoring import DealScore, LineKey, ResultLine
from rebelote.summary import DealSummary, summaries_from_json, summary_rules

__all__ = [
    "DEFAULT_TEAMS",
    "TARGETS",
    "Match",
    "MatchResult",
    "score_match",
]


DEFAULT_TEAMS: Final = ("Nous", "Eux")
TARGETS: Final = (501, 1000, 1500, 2000)
_GAME_KEYS: Final = frozenset({"game", "rules", "options", "target", "teams", "start", "deals",
                               "id", "note"})


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A game's scores: each deal's, the running totals, the winner and the reserve."""

    deals: tuple[DealScore, ...]
    totals: tuple[int, int]
    running: tuple[tuple[int, int], ...]
    winner: Team | None
    won_after_deal: int | None
    reserve: int
    pending: tuple[bool, bool] = (False, False)

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        return {
            "deals": [d.to_json(explain) for d in self.deals],
            "totals": {"NS": self.totals[0], "EW": self.totals[1]},
            "winner": self.winner,
            "won_after_deal": self.won_after_deal,
            "held_over": self.reserve,
        }


@dataclass(frozen=True, slots=True)
class Match:
    """A game of belote, coinche or contrée to a target."""

    rules: Rules
    target: int = 1000
    teams: tuple[str, str] = DEFAULT_TEAMS
    start: tuple[int, int] = (0, 0)
    deals: tuple[DealSummary, ...] = ()

    @property
    def game(self) -> str:
        return self.rules.game

    def add(self, deal: DealSummary) -> Match:
        """This game with one more deal."""
        self._check(deal)
        return replace(self, deals=(*self.deals, deal))

    def undo(self) -> Match:
        """This game without its last deal."""
        if not self.deals:
            raise InputError("deals", "there is no deal to undo")
        return replace(self, deals=self.deals[:-1])

    def replace(self, n: int, deal: DealSummary) -> Match:
        """This game with deal ``n`` (counted from 1) replaced; the deals after it follow."""
        if not 1 <= n <= len(self.deals):
            raise InputError("n", f"there is no deal {n} (the game has {len(self.deals)})")
        self._check(deal)
        return replace(self, deals=(*self.deals[: n - 1], deal, *self.deals[n:]))

    def _check(self, deal: DealSummary) -> None:
        if deal.game != self.rules.game:
            raise InputError("game", f"this game is {self.rules.game}, not {deal.game}")

    def result(self) -> MatchResult:
        """Score every deal in order, carrying the litige reserve, and find the winner."""
        return score_match(self.rules, self.deals, self.target, self.start)

    @property
    def is_over(self) -> bool:
        return self.result().winner is not None

    # -- JSON --------------------------------------------------------------------------------
    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Match:
        """Read the game input of ``rebelote score``; errors name the field."""
        if not isinstance(obj, Mapping):
            raise InputError("", "a game is a JSON object with deals")
        unknown = sorted(k for k in obj if k not in _GAME_KEYS and not str(k).startswith("_"))
        if unknown:
            raise InputError(unknown[0], "unknown field of a game (known: deals, game, "
                                         "options, rules, start, target, teams)")
        rules = summary_rules(obj)
        target = rules.target
        if obj.get("target") is not None:
            raw = obj["target"]
            if isinstance(raw, bool) or not isinstance(raw, int) or raw <= 0:
                raise InputError("target", f"must be a positive whole number, not {raw!r}")
            target = raw
        teams = DEFAULT_TEAMS
        if obj.get("teams") is not None:
            raw_teams = obj["teams"]
            if not isinstance(raw_teams, Mapping):
                raise InputError("teams", "must be an object like {\"NS\": \"Nous\", "
                                          "\"EW\": \"Eux\"}")
            names = []
            for team, default in zip(TEAMS, DEFAULT_TEAMS, strict=True):
                name = raw_teams.get(team, default)
                if not isinstance(name, str) or not name.strip() or len(name) > 40:
                    raise InputError(f"teams.{team}", "must be a name of 1 to 40 characters")
                names.append(name.strip())
            extra = sorted(set(raw_teams) - set(TEAMS))
            if extra:
                raise InputError(f"teams.{extra[0]}", "not a team: NS or EW")
            teams = (names[0], names[1])
        start = (0, 0)
        if obj.get("start") is not None:
            raw_start = obj["start"]
            if not isinstance(raw_start, Mapping):
                raise InputError("start", "must be an object like {\"NS\": 0, \"EW\": 0}")
            vals = []
            for team in TEAMS:
                v = raw_start.get(team, 0)
                if isinstance(v, bool) or not isinstance(v, int):
                    raise InputError(f"start.{team}", f"must be a whole number, not {v!r}")
                vals.append(v)
            start = (vals[0], vals[1])
        raw_deals = obj.get("deals")
        if not isinstance(raw_deals, list):
            raise InputError("deals", "must be a list of deal summaries")
        deals = summaries_from_json(raw_deals, rules)
        return cls(rules=rules, target=target, teams=teams, start=start, deals=tuple(deals))

    def to_json(self) -> dict[str, Any]:
        """The game input of ``rebelote score``; :meth:`from_json` reads it back."""
        out: dict[str, Any] = {"game": self.rules.game, "rules": self.rules.name}
        changed = self.rules.changed_options()
        changed.pop("target", None)
        if changed:
            out["options"] = changed
        out["target"] = self.target
        out["teams"] = {"NS": self.teams[0], "EW": self.teams[1]}
        if self.start != (0, 0):
            out["start"] = {"NS": self.start[0], "EW": self.start[1]}
        out["deals"] = [d.to_json() for d in self.deals]
        return out


def score_match(rules: Rules, deals: tuple[DealSummary, ...], target: int,
                start: tuple[int, int] = (0, 0)) -> MatchResult:
    """Score a game's deals in order (docs/rules.md section 7).

    The litige reserve goes to the next played deal. After each deal the team with the higher
    total wins if it has reached the target (equal totals: one more deal), unless it reached it
    only through its belote after failing or while capot: then it must first win a trick in a
    later deal (option ``belote_alone_wins`` lifts this).
    """
    from rebelote.scoring import score_deal, score_deal_exact

    totals = list(start)
    reserve = 0
    pending = [False, False]
    scores: list[DealScore] = []
    running: list[tuple[int, int]] = []
    winner: Team | None = None
    won_after: int | None = None
    exact_last = rules.last_deal_exact and rules.rounding != "none"
    for n, deal in enumerate(deals, start=1):
        if deal.kind == "deal" and deal.held_over and reserve and deal.held_over != reserve:
            raise InputError(f"deals[{n}].held_over", f"the game carries a reserve of {reserve}"
                             f", not {deal.held_over}")
        incoming = reserve or deal.held_over
        if deal.kind == "deal" and incoming != deal.held_over:
            deal = replace(deal, held_over=incoming)
        score = score_deal(deal, rules)
        if deal.kind == "void":
            score = replace(score, held_over=incoming)
        elif deal.kind == "adjust":
            score = replace(score, held_over=reserve)
        else:
            reserve = score.held_over
        after = _after(deal, score, totals, pending, target, rules)
        if exact_last and winner is None and deal.kind == "deal":
            # The deal that ends the game is counted exactly: rounding never decides a game.
            exact = score_deal_exact(deal, rules)
            after_exact = _after(deal, exact, totals, pending, target, rules)
            if after[2] is not None or after_exact[2] is not None:
                score, after = _last_exact(exact), after_exact
        totals, pending, new_winner = after
        scores.append(score)
        running.append((totals[0], totals[1]))
        if winner is None and new_winner is not None:
            winner, won_after = new_winner, n
    return MatchResult(tuple(scores), (totals[0], totals[1]), tuple(running), winner, won_after,
                       reserve, (pending[0], pending[1]))


def _last_exact(score: DealScore) -> DealScore:
    """An exact deal score, its card saying that the last deal of a game is not rounded."""
    lines = list(score.lines)
    note = ResultLine(LineKey.LAST_DEAL_EXACT, score.score[0], score.score[1],
                      "The last deal of the game is counted exactly (no rounding).")
    lines.insert(len(lines) - 1, note)  # just before the marks (a played deal has its lines)
    return replace(score, lines=tuple(lines))


def _after(deal: DealSummary, score: DealScore, totals: list[int], pending: list[bool],
           target: int, rules: Rules) -> tuple[list[int], list[bool], Team | None]:
    """The totals, the belote-alone blocks and the winner (if any) once ``score`` is marked."""
    before = tuple(totals)
    new_totals = [totals[0] + score.score[0], totals[1] + score.score[1]]
    new_pending = list(pending)
    if deal.kind == "void":
        return new_totals, new_pending, None
    if deal.kind == "deal" and not rules.belote_alone_wins:
        _update_pending(deal, score, before, new_totals, target, new_pending)
    hi = 0 if new_totals[0] > new_totals[1] else 1 if new_totals[1] > new_totals[0] else None
    if hi is None or new_pending[hi]:
        return new_totals, new_pending, None
    reached = (new_totals[hi] > target if rules.target_rule == "exceed"
               else new_totals[hi] >= target)
    return new_totals, new_pending, TEAMS[hi] if reached else None


def _update_pending(deal: DealSummary, score: DealScore, before: tuple[int, ...],
                    totals: list[int], target: int, pending: list[bool]) -> None:
    """The belote-alone rule: who must still win a trick before the game can be theirs."""
    for i, team in enumerate(TEAMS):
        capoted = deal.capot is not None and deal.capot != team
        if not capoted:
            pending[i] = False  # won a trick in this deal
        failed = deal.taker == team and score.outcome == "failed"
        if not (failed or capoted):
            continue
        belote = deal.belote[i] * BELOTE_POINTS
        if belote and totals[i] >= target and totals[i] - belote < target <= totals[i] \
                and before[i] < target:
            pending[i] = True
