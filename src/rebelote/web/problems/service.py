"""The problems the pages serve: the set shipped with the package
(``rebelote/bots/data/problems.jsonl``, written by ``rebelote problems``), read once and kept
in memory; a problem by its id, the problems by difficulty, the problem of a day.

Nothing here runs a search: the answers were found when the set was made (and a test finds a
sample of them again from their seed).
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from importlib.resources import files
from typing import Any, Final

from rebelote.bots.problems import LEVELS

__all__ = ["ID_PATTERN", "ProblemSet", "shipped"]

#: A problem's id as the set writes it (``seed-deal-index``); anything else is no problem.
ID_PATTERN: Final = re.compile(r"[0-9]{1,9}-[0-9]{1,9}-[0-9]{1,3}")
#: The problem of the day changes each day, walking the set in a fixed shuffled order.
_STRIDE: Final = 7919


class ProblemSet:
    """Problems by id, in the set's order."""

    __slots__ = ("_by_id", "problems")

    def __init__(self, problems: tuple[Mapping[str, Any], ...]) -> None:
        self.problems = problems
        self._by_id = {p["id"]: p for p in problems}

    @staticmethod
    def from_lines(lines: Iterable[str]) -> ProblemSet:
        return ProblemSet(tuple(json.loads(line) for line in lines if line.strip()))

    def get(self, pid: str) -> Mapping[str, Any] | None:
        """The problem ``pid`` (``None``: no such problem, or not an id)."""
        if not isinstance(pid, str) or not ID_PATTERN.fullmatch(pid):
            return None
        return self._by_id.get(pid)

    def by_level(self) -> dict[str, list[Mapping[str, Any]]]:
        """The problems of each difficulty (:data:`rebelote.bots.problems.LEVELS`)."""
        out: dict[str, list[Mapping[str, Any]]] = {level: [] for level in LEVELS}
        for p in self.problems:
            out.setdefault(p["level"], []).append(p)
        return out

    def of_day(self, day: datetime.date) -> Mapping[str, Any] | None:
        """The problem of ``day``: the same all day for everyone, another the next day."""
        if not self.problems:
            return None
        return self.problems[day.toordinal() * _STRIDE % len(self.problems)]


@cache
def shipped() -> ProblemSet:
    """The set shipped with the package (empty if it is missing)."""
    path = files("rebelote.bots") / "data" / "problems.jsonl"
    if not path.is_file():
        return ProblemSet(())
    return ProblemSet.from_lines(path.read_text(encoding="utf-8").splitlines())
