"""What ``rebelote serve`` adds to uvicorn (issue 17, item 9).

- :class:`HeaderDeadlineProtocol`: uvicorn's HTTP protocol with a deadline on a request's
  headers: a connection that has not sent a whole request head within ``header_timeout``
  seconds of its opening (or of its last answer) is closed, so slow-header connections
  (slowloris) do not pile up. Bodies have their deadline in
  :class:`~rebelote.web.security.SecurityMiddleware`.
- :func:`install_access_log_filter`: the access log never shows a secret of a link
  (``/join/{id}?key=...``, ``/t/{code}?invite=...``).
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import re
from datetime import UTC, datetime
from typing import Any, Final

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from rebelote.web.limits import LIMITS_ENV, Limits

_SECRET_IN_QUERY: Final = re.compile(r"([?&](?:key|invite|token)=)[^&\s\"]*")


def redact(text: str) -> str:
    """``text`` with the secrets of its query strings replaced by ``…``.

    >>> redact("GET /join/a3ec?key=55IbJp7U&x=1 HTTP/1.1")
    'GET /join/a3ec?key=…&x=1 HTTP/1.1'
    >>> redact("/t/K7XP3QAB?invite=s3cret")
    '/t/K7XP3QAB?invite=…'
    """
    return _SECRET_IN_QUERY.sub(r"\1…", text)


class RedactSecrets(logging.Filter):
    """Takes the secrets out of uvicorn's access log lines (their path is an argument)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install_access_log_filter() -> None:
    """Add :class:`RedactSecrets` to uvicorn's access log (once)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactSecrets) for f in access.filters):
        access.addFilter(RedactSecrets())


class JsonLines(logging.Formatter):
    """One JSON object a line: the time, the level, the logger, and the message's own fields
    when it is a JSON object (the request and bot decision lines), else the message as
    ``message``.

    >>> record = logging.LogRecord("rebelote.bots", logging.INFO, "", 1, '{"ms":3.5}', None,
    ...                            None)
    >>> record.created = 0.0
    >>> JsonLines().format(record)
    '{"time":"1970-01-01T00:00:00.000Z","level":"info","logger":"rebelote.bots","ms":3.5}'
    """

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        out: dict[str, Any] = {
            "time": moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z",
            "level": record.levelname.lower(), "logger": record.name}
        text = record.getMessage()
        fields = None
        if text.startswith("{"):
            try:
                fields = json.loads(text)
            except ValueError:
                fields = None
        if isinstance(fields, dict):
            out.update(fields)
        else:
            out["message"] = redact(text)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, separators=(",", ":"))


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging configuration, with rebelote's loggers (``rebelote.requests``: a line
    per request, ``rebelote.bots``: a line per bot decision, the others' warnings) written to
    standard error as :class:`JsonLines` at ``level``."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["json_lines"] = {"()": f"{__name__}.JsonLines"}
    config["handlers"]["json_lines"] = {"formatter": "json_lines",
                                        "class": "logging.StreamHandler",
                                        "stream": "ext://sys.stderr"}
    config["loggers"]["rebelote"] = {"handlers": ["json_lines"], "level": level.upper(),
                                     "propagate": False}
    return dict(config)


class HeaderDeadlineProtocol(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
    """uvicorn's HTTP protocol, closing a connection whose request head has not come within
    ``header_timeout`` seconds (``--limits header_timeout=...``, 0: none)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = float(Limits.parse(os.environ.get(LIMITS_ENV)).header_timeout)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        if self.header_timeout > 0:
            self._deadline = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        transport = self.transport
        if transport is None or transport.is_closing() or transport.get_protocol() is not self:
            return  # closed already, or a WebSocket now
        cycle = self.cycle
        if cycle is None or cycle.response_complete:  # still waiting for a request's head
            transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


__all__ = ["HeaderDeadlineProtocol", "JsonLines", "RedactSecrets", "install_access_log_filter",
           "log_config", "redact"]
