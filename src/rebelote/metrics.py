"""The server's Prometheus metrics (prometheus-client), defined once for every layer that
counts: the web (requests, sockets, counter writes), the table server (moves, bot decisions)
and the store (latency and errors). ``/metrics`` (:mod:`rebelote.web.metrics`) exposes them;
docs/ops-metrics.md names each one.

Several worker processes (``rebelote serve --workers N``) share their counts through
prometheus-client's multiprocess mode: ``$PROMETHEUS_MULTIPROC_DIR`` names a folder where each
process writes its values (``rebelote serve`` makes one when it starts several workers), and
``/metrics`` adds up every process's. One worker keeps them in memory.

Every label takes a bounded set of values (a route's template, never its path; a bot's level;
a status): no id, no secret, no card ever becomes a label.
"""

from __future__ import annotations

from typing import Final

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

# no ``_created`` series beside each counter (half the lines, and no use to a dashboard)
disable_created_metrics()  # type: ignore[no-untyped-call]

#: The environment variable of prometheus-client's multiprocess mode.
MULTIPROC_ENV: Final = "PROMETHEUS_MULTIPROC_DIR"

HTTP_REQUESTS: Final = Counter(
    "rebelote_http_requests", "HTTP requests answered, by route template, method and status",
    ["route", "method", "status"])
HTTP_SECONDS: Final = Histogram(
    "rebelote_http_request_seconds", "Seconds from a request's arrival to its answer's end, "
    "by route template", ["route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0))
OPEN_SOCKETS: Final = Gauge(
    "rebelote_open_sockets", "Connections held open: the tables' WebSockets (websocket) and "
    "the live sheets' and room screens' event streams (event_stream)", ["kind"],
    multiprocess_mode="livesum")
TABLE_ACTIONS: Final = Counter(
    "rebelote_table_actions", "Moves played at the tables (bids, cards, declarations), by "
    "who played them: a player or a bot", ["by"])
COUNTER_WRITES: Final = Counter(
    "rebelote_counter_writes", "Writes of the point counter's games: created, changed (a "
    "deal added, replaced or undone, settings), deleted", ["op"])
BOT_SECONDS: Final = Histogram(
    "rebelote_bot_decision_seconds", "Seconds from a bot's move being asked for to its "
    "answer (waiting for a worker included), by bot level", ["level"],
    buckets=(0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0))
BOT_WAIT_SECONDS: Final = Histogram(
    "rebelote_bot_wait_seconds", "Seconds a searching bot's decision waited for a worker of "
    "the bounded pool, by bot level", ["level"],
    buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0))
BOT_DECISIONS: Final = Counter(
    "rebelote_bot_decisions", "Bot decisions by level and outcome: answered (in its time), "
    "cut_short (a search answered from the worlds it had solved when its time was up), "
    "fallback_time (out of time: the heuristic played), fallback_failed (the bot failed: the "
    "heuristic played)", ["level", "outcome"])
STORE_SECONDS: Final = Histogram(
    "rebelote_store_seconds", "Seconds of the store's database calls, by backend and "
    "operation (an SQL statement's verb; tables_pg: one call of the play tables' PostgreSQL "
    "connections)", ["backend", "op"],
    buckets=(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
             0.5, 1.0, 2.5))
STORE_ERRORS: Final = Counter(
    "rebelote_store_errors", "Database calls that failed, by backend and fault: locked, "
    "down, damaged (docs/ops-metrics.md), other", ["backend", "fault"])

__all__ = ["BOT_DECISIONS", "BOT_SECONDS", "BOT_WAIT_SECONDS", "COUNTER_WRITES", "HTTP_REQUESTS",
           "HTTP_SECONDS", "MULTIPROC_ENV", "OPEN_SOCKETS", "STORE_ERRORS", "STORE_SECONDS",
           "TABLE_ACTIONS"]
