"""The live table server: the play tables of this worker, played, watched and kept, with no
HTTP in it (the web's :mod:`rebelote.web.table` speaks HTTP and calls it).

Split by concern after lila's round module: :mod:`~rebelote.tableserver.service` (the actor
of each table, through which every write passes), :mod:`~rebelote.tableserver.repo` (the
tables in memory and in the store), :mod:`~rebelote.tableserver.bots` (the bot runner: a
bounded pool, a budget per decision), :mod:`~rebelote.tableserver.clock` (the turn clocks, and
the timers kept with each table) and :mod:`~rebelote.tableserver.presence` (who is at each
table). See docs/table.md, "The live table server".
"""

from rebelote.tableserver.repo import Loaded, LocalTables
from rebelote.tableserver.service import (
    MAX_TARGET,
    SeatForbiddenError,
    TableFullError,
    TableService,
    table_from_request,
)

__all__ = [
    "MAX_TARGET",
    "Loaded",
    "LocalTables",
    "SeatForbiddenError",
    "TableFullError",
    "TableService",
    "table_from_request",
]
