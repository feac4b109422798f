"""What the bots' decisions tell an operator (docs/ops-metrics.md): each decision the runner
makes (:class:`~rebelote.tableserver.bots.Decided`, through its listeners) counted in the
metrics (:mod:`rebelote.metrics`) and written as one JSON log line on the ``rebelote.bots``
logger. The line names the bot's level, the game, the phase, the times, the decisions of other
clients started ahead of it in the pool (fair bot time) and the client it was made for (an
address, as the request lines do): never the table, a seat's cards, or the move (a card still
in a hand when the decision is told)."""

from __future__ import annotations

import json
import logging
from typing import Final

from rebelote.actions import Phase
from rebelote.metrics import BOT_DECISIONS, BOT_SECONDS, BOT_WAIT_SECONDS, TABLE_ACTIONS
from rebelote.tableserver.bots import Decided

log: Final = logging.getLogger("rebelote.bots")


def outcome(decided: Decided) -> str:
    """``answered``, ``cut_short``, ``fallback_time`` or ``fallback_failed``."""
    if decided.fell_back is not None:
        return f"fallback_{decided.fell_back}"
    return "cut_short" if decided.cut else "answered"


def decision_told(decided: Decided) -> None:
    """One bot decision: its metrics and its log line."""
    level = decided.spec
    result = outcome(decided)
    BOT_SECONDS.labels(level).observe(decided.seconds)
    if decided.waited:
        BOT_WAIT_SECONDS.labels(level).observe(decided.waited)
    BOT_DECISIONS.labels(level, result).inc()
    TABLE_ACTIONS.labels("bot").inc()
    if log.isEnabledFor(logging.INFO):
        table = decided.table
        log.info(json.dumps({
            "event": "bot_decision", "bot": level, "game": table.rules.game,
            "deal": table.deal_number, "phase": Phase(table.deal.phase).name.lower(),
            "outcome": result, "ms": round(decided.seconds * 1000, 3),
            "waited_ms": round(decided.waited * 1000, 3), "ahead": decided.ahead,
            "client": decided.client}, separators=(",", ":")))


__all__ = ["decision_told", "outcome"]
