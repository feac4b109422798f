"""A concours's settings: the game and its rules, the *partie*, the number of *parties*, the
format, the ranking with its tie-breaks, the *exempt* and withdrawal rules, the draw, the seed.

Every difference between real concours (docs/concours.md) is a setting here, announced before
the first *partie*; bad input raises :class:`~rebelote.errors.InputError` naming its field.

>>> s = Settings.from_json({"name": "Concours du comité", "game": "belote", "parties": 4,
...                         "deals": 12, "ranking": "points", "exempt": "half"}, seed="7f3a")
>>> s.rules.to_text(), s.half_partie, s.tiebreaks
('belote:official', 972, ('difference', 'best', 'against', 'draw'))
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from rebelote.errors import InputError
from rebelote.rules import Rules
from rebelote.summary import summary_rules

__all__ = [
    "DRAWS",
    "EXEMPTS",
    "MAX_PARTIES",
    "MODES",
    "RANKINGS",
    "RESERVES",
    "TIEBREAKS",
    "WITHDRAWALS",
    "Settings",
]

RANKINGS: Final = ("points", "wins")
EXEMPTS: Final = ("half", "average", "win", "none")
TIEBREAKS: Final = ("difference", "best", "against", "draw")
MODES: Final = ("doublettes", "melee")
DRAWS: Final = ("ranking", "random")
WITHDRAWALS: Final = ("kept", "last")
#: What becomes of the points a litige holds when the *partie* ends on it (no next deal to win
#: them): the team that did not take marks them (``defence``, the default: the takers did not
#: make more than the defence, the sheet's sum still holds), or nobody does (``void``).
RESERVES: Final = ("defence", "void")
MAX_PARTIES: Final = 30
MAX_DEALS: Final = 100
MAX_TARGET: Final = 100_000
#: A seed shown to all: up to 64 characters, no control character (a whole number is read as
#: its digits).
SEED_RE: Final = re.compile(r"^[^\x00-\x1f\x7f]{1,64}$")
_NAME_MAX: Final = 80
#: The points of one deal (cards and dix de der): half a *partie* of ``deals`` deals is
#: ``deals * DEAL_POINTS // 2`` (972 for 12 deals).
DEAL_POINTS: Final = 162
SETTING_KEYS: Final = frozenset({
    "name", "game", "rules", "options", "parties", "deals", "target", "mode", "ranking",
    "tiebreaks", "exempt", "exempt_score", "draw", "withdrawal", "seed", "reserve_at_end",
})


def _choice(obj: Mapping[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    raw = obj.get(key, default)
    if raw is None:
        raw = default
    if not isinstance(raw, str) or raw not in choices:
        raise InputError(key, f"{str(raw)[:40]!r} is not one of {', '.join(choices)}")
    return raw


def _count(obj: Mapping[str, Any], key: str, low: int, high: int) -> int | None:
    raw = obj.get(key)
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise InputError(key, f"must be a whole number from {low} to {high}, not "
                              f"{str(raw)[:20]!r}")
    return raw


def check_name(raw: Any, field: str, limit: int = _NAME_MAX) -> str:
    """A name of 1 to ``limit`` characters, its spaces trimmed."""
    if not isinstance(raw, str) or not raw.strip() or len(raw.strip()) > limit:
        raise InputError(field, f"must be a name of 1 to {limit} characters")
    if any(ord(c) < 32 for c in raw):
        raise InputError(field, "a name holds no control characters")
    return " ".join(raw.split())


@dataclass(frozen=True, slots=True)
class Settings:
    """What is announced before the first *partie*.

    ``deals`` and ``target``: a *partie* is a number of deals, or played to a target (reached or
    passed, the rules' ``target_rule``), or both: the target ends it early, the deals cap it.
    ``tiebreaks`` are tried in their order after the ranking's points (or wins, then points);
    ``draw`` (a seeded draw) always ends them. ``exempt``: what the team left without a table
    scores (``half`` a *partie*, the *partie*'s ``average``, a ``win`` with ``exempt_score``
    points, or ``none``). ``draw_mode``: *parties* after the first drawn in ranking order or at
    random. ``withdrawal``: a team that withdraws keeps its points (``kept``) or is ranked
    ``last``. ``seed`` decides every random choice and is shown to all. ``reserve_at_end``:
    who marks the points a litige still holds when the *partie* ends (:data:`RESERVES`).
    """

    name: str
    rules: Rules
    parties: int
    deals: int | None
    target: int | None
    seed: str
    mode: str = "doublettes"
    ranking: str = "points"
    tiebreaks: tuple[str, ...] = TIEBREAKS
    exempt: str = "half"
    exempt_score: int | None = None
    draw_mode: str = "ranking"
    withdrawal: str = "kept"
    reserve_at_end: str = "defence"

    @property
    def game(self) -> str:
        return self.rules.game

    @property
    def half_partie(self) -> int:
        """Half a *partie*: ``deals × 162 / 2`` with a number of deals (972 for 12), else half
        the target."""
        if self.deals is not None:
            return self.deals * DEAL_POINTS // 2
        return (self.target or 0) // 2

    @property
    def win_score(self) -> int:
        """The points of an *exempt* scored as a win (``exempt_score``, else half a *partie*)."""
        return self.half_partie if self.exempt_score is None else self.exempt_score

    @property
    def side_size(self) -> int:
        """Entries on one side of a table: a doublette, or two players drawn à la mêlée."""
        return 2 if self.mode == "melee" else 1

    def with_parties(self, parties: int) -> Settings:
        from dataclasses import replace

        if isinstance(parties, bool) or not isinstance(parties, int) \
                or not 1 <= parties <= MAX_PARTIES:
            raise InputError("parties", f"must be a whole number from 1 to {MAX_PARTIES}")
        return replace(self, parties=parties)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], seed: str | None = None) -> Settings:
        """Read the settings of ``POST /api/concours``; ``seed`` when the object names none."""
        if not isinstance(obj, Mapping):
            raise InputError("", "a concours is a JSON object")
        name = check_name(obj.get("name"), "name")
        if obj.get("game") is None and not (isinstance(obj.get("rules"), str)
                                            and ":" in obj["rules"]):
            raise InputError("game", "missing: belote, coinche or contree")
        rules = summary_rules(obj)
        parties = _count(obj, "parties", 1, MAX_PARTIES)
        if parties is None:
            raise InputError("parties", f"missing: the number of parties (1 to {MAX_PARTIES})")
        deals = _count(obj, "deals", 1, MAX_DEALS)
        target = _count(obj, "target", 1, MAX_TARGET)
        if deals is None and target is None:
            raise InputError("deals", "a partie is a number of deals, a target, or both "
                                      "(the target ends it, the deals cap it)")
        mode = _choice(obj, "mode", MODES, "doublettes")
        ranking = _choice(obj, "ranking", RANKINGS, "points")
        exempt = _choice(obj, "exempt", EXEMPTS, "half")
        draw_mode = _choice(obj, "draw", DRAWS, "ranking")
        withdrawal = _choice(obj, "withdrawal", WITHDRAWALS, "kept")
        reserve_at_end = _choice(obj, "reserve_at_end", RESERVES, "defence")
        tiebreaks: tuple[str, ...] = TIEBREAKS
        raw_tb = obj.get("tiebreaks")
        if raw_tb is not None:
            if not isinstance(raw_tb, list) or len(raw_tb) > len(TIEBREAKS):
                raise InputError("tiebreaks", f"must be a list of {', '.join(TIEBREAKS)} in "
                                              "the announced order")
            seen: list[str] = []
            for i, tb in enumerate(raw_tb):
                if not isinstance(tb, str) or tb not in TIEBREAKS:
                    raise InputError(f"tiebreaks[{i}]", f"{str(tb)[:30]!r} is not one of "
                                                        f"{', '.join(TIEBREAKS)}")
                if tb in seen:
                    raise InputError(f"tiebreaks[{i}]", f"{tb} is named twice")
                seen.append(tb)
            if "draw" not in seen:
                seen.append("draw")  # the seeded draw always ends the tie-breaks
            tiebreaks = tuple(seen)
        exempt_score = _count(obj, "exempt_score", 0, MAX_TARGET)
        raw_seed = obj.get("seed", seed)
        if raw_seed is None:
            raise InputError("seed", "missing: the seed of the draw, shown to all")
        if isinstance(raw_seed, int) and not isinstance(raw_seed, bool):
            raw_seed = str(raw_seed)
        if not isinstance(raw_seed, str) or not raw_seed.strip() or not SEED_RE.match(raw_seed):
            raise InputError("seed", "must be a text of 1 to 64 characters (or a whole number)")
        raw_seed = raw_seed.strip()
        return cls(name=name, rules=rules, parties=parties, deals=deals, target=target,
                   seed=raw_seed, mode=mode, ranking=ranking, tiebreaks=tiebreaks,
                   exempt=exempt, exempt_score=exempt_score, draw_mode=draw_mode,
                   withdrawal=withdrawal, reserve_at_end=reserve_at_end)

    def to_json(self) -> dict[str, Any]:
        """The settings as :meth:`from_json` reads them (the rules by their text form)."""
        out: dict[str, Any] = {
            "name": self.name, "game": self.game, "rules": self.rules.to_text(),
            "parties": self.parties, "deals": self.deals, "target": self.target,
            "mode": self.mode, "ranking": self.ranking, "tiebreaks": list(self.tiebreaks),
            "exempt": self.exempt, "exempt_score": self.exempt_score, "draw": self.draw_mode,
            "withdrawal": self.withdrawal, "seed": self.seed,
            "reserve_at_end": self.reserve_at_end,
        }
        return out
