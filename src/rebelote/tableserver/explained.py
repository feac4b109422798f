"""The bots' explanations at the play table (*Pourquoi ce coup ?*): each bot move's
explanation, as its bot recorded it while deciding (:mod:`rebelote.bots.explain`), kept by
the table and the deal, and given out only once that deal is finished (the analysis page and
its API ask :meth:`Explained.of` for finished deals only: an explanation holds the bot's hand
and what it inferred of the others').

Kept in the memory of the worker whose bots played them while the deal is played, then
written to the store with the table once the deal is finished (``table_explanations``, one row
per decision: :meth:`Explained.finished` says which deals are to be written,
:meth:`Explained.written` that they were), never before: another worker, or this one started
again, reads them there (:meth:`Explained.load`). The memory stays a cache of the last
:data:`KEPT_DEALS` deals of the last :func:`kept_tables` tables. A decision's explanation longer
than :func:`explanation_bytes` is not stored (it stays in memory only). A deal whose
explanations were never stored (a worker stopped before its end) shows none, never one made
again.
"""

from __future__ import annotations

import json
import logging
import os
import random
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Final

from rebelote.bots.base import Bot
from rebelote.bots.explain import Explanation, explained_act
from rebelote.table.model import NEXT, Table

__all__ = ["EXPLANATION_BYTES", "EXPLANATION_BYTES_ENV", "KEPT_DEALS", "KEPT_TABLES",
           "KEPT_TABLES_ENV", "Explained", "explained_action", "explanation_bytes",
           "kept_tables"]

log = logging.getLogger("rebelote.tables")

#: The tables whose explanations a worker keeps (the most recent), by default, and the
#: environment variable that changes it (1 to 100,000).
KEPT_TABLES: Final = 500
KEPT_TABLES_ENV: Final = "REBELOTE_EXPLAINED_TABLES"
#: The deals kept a table: the one in play and the last finished ones.
KEPT_DEALS: Final = 4
#: The longest explanation (JSON bytes) stored with a deal, by default, and the environment
#: variable that changes it (1,024 to 1,048,576). A searched decision's is under 1 kB (its
#: candidates, what its bot inferred; 278 bytes on average in a deal of ``pimc:fast``); a
#: deal has at most about 40 bot decisions.
EXPLANATION_BYTES: Final = 16_384
EXPLANATION_BYTES_ENV: Final = "REBELOTE_EXPLANATION_BYTES"


def kept_tables() -> int:
    raw = os.environ.get(KEPT_TABLES_ENV, "")
    try:
        value = int(raw)
    except ValueError:
        return KEPT_TABLES
    return value if 1 <= value <= 100_000 else KEPT_TABLES


def explanation_bytes() -> int:
    raw = os.environ.get(EXPLANATION_BYTES_ENV, "")
    try:
        value = int(raw)
    except ValueError:
        return EXPLANATION_BYTES
    return value if 1_024 <= value <= 1_048_576 else EXPLANATION_BYTES


def explained_action(table: Table, bot: Bot, rng: random.Random) -> tuple[str, Explanation]:
    """What ``bot`` plays for the seat to act (:meth:`Table.bot_action`: the same move, the
    same draws) and its explanation."""
    seat = table.turn
    action, why = explained_act(bot, table.deal.observation(seat), rng,
                                table.seats[seat].bot)
    return str(action), why


class Explained:
    """The explanations of this worker's tables: table id -> deal number (from 1) -> the
    deal's action index -> the stored explanation (:meth:`Explanation.to_record`)."""

    def __init__(self, tables: int | None = None) -> None:
        self.tables = tables or kept_tables()
        self._kept: OrderedDict[str, dict[int, dict[int, dict[str, Any]]]] = OrderedDict()
        #: by table id, the deals whose explanations this worker holds and has not written
        self._unwritten: dict[str, set[int]] = {}
        #: the deals read back from the store (whole: every worker had written its part)
        self._read: dict[str, set[int]] = {}

    def add(self, table_id: str, table: Table, why: Explanation) -> None:
        """The explanation of the move about to be made at ``table`` (as its bot saw it)."""
        n = table.deal_number
        index = sum(a != NEXT for a in table.current.actions)
        self._deals(table_id, n).setdefault(n, {})[index] = why.to_record()
        self._unwritten.setdefault(table_id, set()).add(n)

    def _deals(self, table_id: str, n: int) -> dict[int, dict[int, dict[str, Any]]]:
        """The deals kept of ``table_id`` (made the most recent), the ones before ``n`` that
        are too old dropped."""
        deals = self._kept.get(table_id)
        if deals is None:
            deals = self._kept[table_id] = {}
            while len(self._kept) > self.tables:
                gone, _ = self._kept.popitem(last=False)
                self._forget(gone, None)
        else:
            self._kept.move_to_end(table_id)
        for old in [d for d in deals if d <= n - KEPT_DEALS]:
            del deals[old]
            self._forget(table_id, old)
        return deals

    def _forget(self, table_id: str, n: int | None) -> None:
        for marks in (self._unwritten, self._read):
            self._forget_mark(marks, table_id, n)

    @staticmethod
    def _forget_mark(marks: dict[str, set[int]], table_id: str, n: int | None) -> None:
        held = marks.get(table_id)
        if held is not None:
            if n is None:
                held.clear()
            else:
                held.discard(n)
            if not held:
                del marks[table_id]

    def finished(self, table_id: str, deals_over: int) -> list[int]:
        """The deals of ``table_id`` whose explanations this worker holds unwritten and that
        are finished now (``deals_over``: how many of the table's deals are)."""
        return sorted(n for n in self._unwritten.get(table_id, ()) if n <= deals_over)

    def unwritten(self, table_id: str) -> bool:
        """This worker holds explanations of ``table_id`` not written yet."""
        return bool(self._unwritten.get(table_id))

    def rows(self, table_id: str, n: int) -> list[tuple[int, str]]:
        """What the store keeps of deal ``n``: ``(index, JSON text)`` of each explanation held,
        those longer than :func:`explanation_bytes` left out (and logged)."""
        limit = explanation_bytes()
        out = []
        for i, record in sorted(self._kept.get(table_id, {}).get(n, {}).items()):
            text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
            if len(text.encode()) > limit:
                log.warning("table %s deal %d: the explanation of action %d is %d bytes, over "
                            "%s=%d: not stored", table_id, n, i, len(text.encode()),
                            EXPLANATION_BYTES_ENV, limit)
                continue
            out.append((i, text))
        return out

    def written(self, table_id: str, n: int, done: bool = True) -> None:
        """Deal ``n``'s explanations were written (``done``), or are to be written again."""
        if done:
            self._forget_mark(self._unwritten, table_id, n)
        elif n in self._kept.get(table_id, {}):
            self._unwritten.setdefault(table_id, set()).add(n)

    def is_read(self, table_id: str, n: int) -> bool:
        """Deal ``n``'s explanations were read back from the store (the cache is whole)."""
        return n in self._read.get(table_id, ()) and n in self._kept.get(table_id, {})

    def load(self, table_id: str, n: int, rows: Sequence[tuple[int, str]]) -> None:
        """The stored explanations of the finished deal ``n`` (``(index, JSON text)``), kept
        with those held (a malformed row is left out)."""
        deal = self._deals(table_id, n).setdefault(n, {})
        for i, text in rows:
            try:
                record = json.loads(text)
                Explanation.from_record(record)
            except (ValueError, TypeError, KeyError):
                log.warning("table %s deal %d: stored explanation %d unreadable", table_id, n, i)
                continue
            deal.setdefault(i, record)
        self._read.setdefault(table_id, set()).add(n)

    def stored(self, table_id: str, n: int) -> list[dict[str, Any]]:
        """The explanations kept of deal ``n`` (which the caller knows finished) as a deal's
        record holds them (``{"index", ...}`` of :meth:`Explanation.to_record`, in order):
        ``rebelote explain`` reads them."""
        deal = self._kept.get(table_id, {}).get(n, {})
        return [{"index": i, **deal[i]} for i in sorted(deal)]

    def of(self, table_id: str, n: int, lang: str = "fr") -> list[dict[str, Any]]:
        """The explanations kept of deal ``n`` (which the caller knows finished), in the order
        of the deal's actions, each ``{"index", "seat", "action", "level", "candidates",
        "why", "knew"}`` written in ``lang``."""
        deal = self._kept.get(table_id, {}).get(n, {})
        return [{"index": i, **Explanation.from_record(deal[i]).to_json(lang)}
                for i in sorted(deal)]
