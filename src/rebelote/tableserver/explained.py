"""The bots' explanations at the play table (*Pourquoi ce coup ?*): each bot move's
explanation, as its bot recorded it while deciding (:mod:`rebelote.bots.explain`), kept by
the table and the deal, and given out only once that deal is finished (the analysis page and
its API ask :meth:`Explained.of` for finished deals only: an explanation holds the bot's hand
and what it inferred of the others').

Kept in the memory of the worker whose bots played them, for the last
:data:`KEPT_DEALS` deals of the last :func:`kept_tables` tables that had a bot move: a deal
whose explanations were not kept (a worker started again, another worker's bots) shows
none, never one made again.
"""

from __future__ import annotations

import os
import random
from collections import OrderedDict
from typing import Any, Final

from rebelote.bots.base import Bot
from rebelote.bots.explain import Explanation, explained_act
from rebelote.table.model import NEXT, Table

__all__ = ["KEPT_DEALS", "KEPT_TABLES", "KEPT_TABLES_ENV", "Explained", "explained_action",
           "kept_tables"]

#: The tables whose explanations a worker keeps (the most recent), by default, and the
#: environment variable that changes it (1 to 100,000).
KEPT_TABLES: Final = 500
KEPT_TABLES_ENV: Final = "REBELOTE_EXPLAINED_TABLES"
#: The deals kept a table: the one in play and the last finished ones.
KEPT_DEALS: Final = 4


def kept_tables() -> int:
    raw = os.environ.get(KEPT_TABLES_ENV, "")
    try:
        value = int(raw)
    except ValueError:
        return KEPT_TABLES
    return value if 1 <= value <= 100_000 else KEPT_TABLES


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

    def add(self, table_id: str, table: Table, why: Explanation) -> None:
        """The explanation of the move about to be made at ``table`` (as its bot saw it)."""
        deals = self._kept.get(table_id)
        if deals is None:
            deals = self._kept[table_id] = {}
            while len(self._kept) > self.tables:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(table_id)
        n = table.deal_number
        index = sum(a != NEXT for a in table.current.actions)
        deals.setdefault(n, {})[index] = why.to_record()
        for old in [d for d in deals if d <= n - KEPT_DEALS]:
            del deals[old]

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
