"""What the web server tells its operator (issue 36, item 5; docs/ops-metrics.md):

- ``GET /metrics``: the Prometheus metrics of :mod:`rebelote.metrics` (every worker's, added
  up, in prometheus-client's multiprocess mode), for the addresses allowed to read them
  (:class:`MetricsAccess`: loopback only by default; ``--metrics-allow`` or
  ``$REBELOTE_METRICS_ALLOW``);
- :class:`ObserveMiddleware`: each HTTP request counted and timed by its route's template and
  status, the open WebSockets and event streams gauged, and **one JSON log line per request**
  on the ``rebelote.requests`` logger: method, route template, status, milliseconds, bytes,
  client address. Never the path itself nor its query (ids of views and invitations, keys),
  never a header (secrets travel in ``Authorization`` and cookies), never a body.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rebelote.errors import InputError
from rebelote.metrics import HTTP_REQUESTS, HTTP_SECONDS, MULTIPROC_ENV, OPEN_SOCKETS
from rebelote.web.security import client_of

#: The environment variable of who may read ``/metrics`` (``rebelote serve --metrics-allow``).
ALLOW_ENV: Final = "REBELOTE_METRICS_ALLOW"
#: Who may by default: this machine only.
LOOPBACK: Final = "127.0.0.0/8,::1"

log: Final = logging.getLogger("rebelote.requests")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class MetricsAccess:
    """The networks whose clients may read ``/metrics`` (none: ``/metrics`` answers 404)."""

    networks: tuple[Network, ...]

    @staticmethod
    def parse(text: str | None) -> MetricsAccess:
        """``"127.0.0.0/8,::1"`` (the default when ``None``), addresses or networks separated
        by commas; ``"none"``: nobody. :class:`InputError` on ``metrics_allow`` otherwise.

        >>> MetricsAccess.parse("10.0.0.0/8, 192.168.1.7").allows("10.1.2.3")
        True
        >>> MetricsAccess.parse(None).allows("192.168.1.7")
        False
        """
        raw = LOOPBACK if text is None or not text.strip() else text
        if raw.strip().lower() == "none":
            return MetricsAccess(())
        networks = []
        for part in (p.strip() for p in raw.split(",")):
            try:
                networks.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise InputError("metrics_allow", f"{part!r} is not an address or a network "
                                                  "(like 127.0.0.1, 10.0.0.0/8 or ::1), nor "
                                                  "none") from None
        return MetricsAccess(tuple(networks))

    @staticmethod
    def from_env() -> MetricsAccess:
        return MetricsAccess.parse(os.environ.get(ALLOW_ENV))

    def allows(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address.strip().strip("[]"))
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip.version == n.version and ip in n for n in self.networks)

    def allows_request(self, scope: Scope, forwarded: Iterable[str]) -> bool:
        """The client may read, and so may every address a proxy named on its way
        (``X-Forwarded-For``): behind a proxy on loopback not trusted with
        ``--forwarded-allow-ips``, every request comes from loopback, and only the header
        tells an outside client from this machine."""
        return self.allows(client_of(scope)) and all(self.allows(a) for a in forwarded)


def forwarded_for(request: Request) -> list[str]:
    """Every address ``X-Forwarded-For`` and ``Forwarded`` name (``["?"]`` for a part that
    is not one: it allows nothing)."""
    out = [a.strip() for v in request.headers.getlist("x-forwarded-for") for a in v.split(",")]
    for value in request.headers.getlist("forwarded"):
        for element in value.split(","):
            for pair in element.split(";"):
                key, _, val = pair.strip().partition("=")
                if key.lower() == "for":
                    host = val.strip('"')
                    if host.startswith("["):
                        host = host[1:host.find("]")] if "]" in host else "?"
                    elif host.count(":") == 1:
                        host = host.partition(":")[0]
                    out.append(host or "?")
    return [a if a else "?" for a in out]


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus' text format: every worker's in multiprocess mode."""
    from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import CollectorRegistry, multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


router = APIRouter(include_in_schema=False)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    access: MetricsAccess = request.app.state.metrics_access
    if not access.networks:
        return PlainTextResponse("Not Found\n", status_code=404)
    if not access.allows_request(request.scope, forwarded_for(request)):
        return PlainTextResponse(
            "Forbidden: /metrics answers the addresses of --metrics-allow "
            "(REBELOTE_METRICS_ALLOW; this machine only by default)\n", status_code=403)
    body, content_type = exposition()
    return Response(body, media_type=content_type, headers={"Cache-Control": "no-store"})


def route_of(scope: Scope) -> str:
    """The template of the route that answered (``/api/tables/{table_id}``), never the path:
    ``/static`` for the static files, ``unmatched`` for a path no route has."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    if str(scope.get("path", "")).startswith("/static/"):
        return "/static"
    return "unmatched"


class ObserveMiddleware:
    """Counts, times and logs every request (the outermost middleware: the refusals of the
    security middleware are counted too), and gauges the sockets held open."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 0
        size = 0
        held: str | None = None

        async def observed(message: Message) -> None:
            nonlocal status, size, held
            what = message["type"]
            if what == "http.response.start":
                status = int(message["status"])
                for key, value in message.get("headers", []):
                    if key.lower() == b"content-type" and value.startswith(b"text/event-stream"):
                        held = "event_stream"
                        OPEN_SOCKETS.labels(held).inc()
            elif what == "http.response.body":
                size += len(message.get("body", b""))
            elif what == "websocket.accept":
                status = 101
                held = "websocket"
                OPEN_SOCKETS.labels(held).inc()
            elif what == "websocket.close" and not status:
                status = 403  # refused before it was accepted
            await send(message)

        try:
            await self.app(scope, receive, observed)
        except BaseException:
            status = status or 500
            raise
        finally:
            if held is not None:
                OPEN_SOCKETS.labels(held).dec()
            seconds = time.perf_counter() - start
            route = route_of(scope)
            method = str(scope.get("method", "WS"))
            HTTP_REQUESTS.labels(route, method, str(status)).inc()
            if kind == "http" and held is None:
                HTTP_SECONDS.labels(route).observe(seconds)
            if log.isEnabledFor(logging.INFO):
                log.info(json.dumps({
                    "event": "request", "method": method, "route": route, "status": status,
                    "ms": round(seconds * 1000, 3), "bytes": size,
                    "client": client_of(scope)}, separators=(",", ":")))


__all__ = ["ALLOW_ENV", "LOOPBACK", "MetricsAccess", "ObserveMiddleware", "exposition",
           "forwarded_for", "route_of", "router"]
