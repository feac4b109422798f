"""The web layer's safety, shared by every route (the counter's and the play table's).

- **Secrets.** A game's, a table seat's or a concours's secret (made and checked by
  :mod:`rebelote.secret`) is presented as ``Authorization: Bearer <secret>``
  (:func:`bearer`); the pages keep the secrets of this browser in one ``HttpOnly``,
  ``SameSite=Lax`` cookie (``Secure`` behind HTTPS), read and written by :class:`KeyRing`.
- **No cross-site writes.** :class:`SecurityMiddleware` refuses an unsafe request (``POST``,
  ``PUT``, ``PATCH``, ``DELETE``) that a browser marks as coming from another site
  (``Sec-Fetch-Site: cross-site`` / ``same-site``, or an ``Origin`` that is not this host), and a
  ``Host`` outside ``allowed_hosts``. The JSON API also wants ``Content-Type:
  application/json`` (:func:`read_json`): a cross-site form or ``no-cors`` fetch cannot send it.
- **Bounded work.** Every request body is limited while it streams (``413`` past
  ``max_body``); :func:`read_json` refuses JSON nested deeper than :data:`MAX_DEPTH`, integers
  past :data:`MAX_INT`, numbers of thousands of digits and lone surrogates, naming the field.
- **Headers.** Every answer carries a Content-Security-Policy (scripts, styles and images from
  this origin only, no framing), ``X-Content-Type-Options: nosniff``, ``Referrer-Policy:
  same-origin``, ``X-Frame-Options: DENY`` and ``Cross-Origin-Opener-Policy: same-origin``.

>>> check_json({"teams": {"NS": "\\ud800"}})
Traceback (most recent call last):
...
rebelote.errors.InputError: teams.NS: not valid text (a lone surrogate \\ud800)
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import math
import re
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from rebelote.errors import InputError
from rebelote.numbers import is_digits
from rebelote.web.error_page import error_page
from rebelote.web.i18n import request_lang
from rebelote.web.limits import Limits, LimitStore, client_key

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The largest request body, in bytes (a 500-deal game exported as JSON is about 60 kB).
MAX_BODY: Final = 1_000_000
#: How deep a JSON body may nest (a game is 4 levels deep).
MAX_DEPTH: Final = 32
#: The largest integer magnitude a JSON body may carry (JavaScript's safe integers).
MAX_INT: Final = 2**53 - 1
#: The cookie keeping the secrets of the games this browser created or was handed.
KEYS_COOKIE: Final = "rebelote_keys"
#: How many games' secrets the cookie keeps (the most recent first; ~50 bytes each).
MAX_KEYS: Final = 60
UNSAFE_METHODS: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)


# -- secrets ---------------------------------------------------------------------------------
def bearer(conn: HTTPConnection, key: str | None = None) -> str | None:
    """The secret a request (or a socket) presents: its ``Authorization: Bearer <secret>``,
    else the one this browser's key ring holds for ``key`` (a game's, a table's or a
    concours's id), else ``None``."""
    scheme, _, token = conn.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return KeyRing.of(conn).get(key) if key is not None else None


def is_https(request: Request) -> bool:
    """The request came over HTTPS (then cookies are ``Secure``)."""
    return request.url.scheme in ("https", "wss")


class KeyRing:
    """The ``{id: secret}`` of the games this browser holds, kept in :data:`KEYS_COOKIE` as
    ``id.secret~id.secret`` (ids are hex, secrets URL-safe base64: neither has ``.`` or
    ``~``), the most recently used first.

    >>> ring = KeyRing.parse("a1.s3cret~b2.other")
    >>> ring.get("b2"), ring.get("c3")
    ('other', None)
    >>> ring.add("c3", "new").dump()
    'c3.new~a1.s3cret~b2.other'
    >>> KeyRing.parse("bad;cookie~.~x.").keys
    {}
    """

    def __init__(self, keys: dict[str, str] | None = None) -> None:
        self.keys: dict[str, str] = dict(keys or {})

    @classmethod
    def parse(cls, value: str | None) -> KeyRing:
        """The ring in a cookie value (malformed entries are skipped)."""
        keys: dict[str, str] = {}
        for part in (value or "").split("~")[:MAX_KEYS]:
            game_id, dot, secret = part.partition(".")
            if dot and _token_like(game_id) and _token_like(secret):
                keys.setdefault(game_id, secret)
        return cls(keys)

    @classmethod
    def of(cls, conn: HTTPConnection) -> KeyRing:
        """The ring of the cookie of a request (or a socket)."""
        return cls.parse(conn.cookies.get(KEYS_COOKIE))

    def get(self, game_id: str) -> str | None:
        """The secret held for ``game_id``."""
        return self.keys.get(game_id)

    def add(self, game_id: str, secret: str) -> KeyRing:
        """A ring with ``game_id`` first (the oldest dropped past :data:`MAX_KEYS`)."""
        keys = {game_id: secret}
        keys.update((k, v) for k, v in self.keys.items() if k != game_id)
        return KeyRing(dict(list(keys.items())[:MAX_KEYS]))

    def remove(self, game_id: str) -> KeyRing:
        """A ring without ``game_id``."""
        return KeyRing({k: v for k, v in self.keys.items() if k != game_id})

    def dump(self) -> str:
        """The cookie value."""
        return "~".join(f"{k}.{v}" for k, v in self.keys.items())

    def store(self, request: Request, response: Response) -> None:
        """Set the cookie on ``response``: ``HttpOnly``, ``SameSite=Lax``, ``Secure`` behind
        HTTPS, for a year."""
        response.set_cookie(KEYS_COOKIE, self.dump(), max_age=365 * 24 * 3600, path="/",
                            httponly=True, samesite="lax", secure=is_https(request))


def _token_like(text: str) -> bool:
    return 0 < len(text) <= 64 and all(c.isascii() and (c.isalnum() or c in "-_") for c in text)


def presented_secrets(request: Request) -> list[str]:
    """Every secret the request presents, for listing games: the cookie's, and the bearer
    token (several may be given, separated by commas: ``Bearer s1,s2``), at most
    :data:`MAX_KEYS` in all."""
    found = list(KeyRing.of(request).keys.values())
    token = bearer(request)
    if token:
        found[:0] = [t.strip() for t in token.split(",") if t.strip()]
    return found[:MAX_KEYS]


# -- JSON bodies -----------------------------------------------------------------------------
class _NotANumber:
    """A number the body cannot carry, found while parsing and reported with its field by
    :func:`check_json`."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def message(self) -> str:
        if self.text in ("NaN", "Infinity", "-Infinity"):
            return f"{self.text} is not a number"
        shown = self.text if len(self.text) <= 24 else \
            f"{self.text[:12]}… ({len(self.text)} digits)"
        return f"{shown} is too large a number"


def _bounded_int(text: str) -> int | _NotANumber:
    if len(text.lstrip("-")) > 16:
        return _NotANumber(text)
    return int(text)


def _bounded_float(text: str) -> float | _NotANumber:
    if len(text) > 64:
        return _NotANumber(text)
    value = float(text)
    return value if math.isfinite(value) else _NotANumber(text)


def check_json(obj: Any, field: str = "") -> Any:
    """``obj`` itself if it nests at most :data:`MAX_DEPTH` deep, holds no integer past
    :data:`MAX_INT` and no text with a lone surrogate; an :class:`InputError` naming the field
    otherwise."""
    stack: list[tuple[Any, str, int]] = [(obj, field, 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InputError(where or "body", f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, _NotANumber):
            raise InputError(where or "body", value.message())
        if isinstance(value, int):
            if abs(value) > MAX_INT:
                raise InputError(where or "body", f"{value} is too large a number")
        elif isinstance(value, str):
            _check_text(value, where)
        elif isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, where)
                stack.append((item, f"{where}.{key}" if where else str(key), depth + 1))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                stack.append((item, f"{where}[{i}]", depth + 1))
    return obj


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        bad = text[e.start]
        raise InputError(where or "body",
                         f"not valid text (a lone surrogate \\u{ord(bad):04x})") from None


def parse_json(raw: bytes) -> Any:
    """JSON text parsed and checked by :func:`check_json`; an :class:`InputError` naming the
    field (or ``body``) otherwise."""
    if not raw.strip():
        raise InputError("body", "missing: send a JSON object")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("body", "not valid JSON: not UTF-8") from None
    if _depth_over(text, MAX_DEPTH + 1):
        raise InputError("body", f"nested more than {MAX_DEPTH} levels deep")
    try:
        obj = json.loads(text, parse_int=_bounded_int, parse_float=_bounded_float,
                         parse_constant=_NotANumber)
    except json.JSONDecodeError as e:
        raise InputError("body", f"not valid JSON: {e.msg} at line {e.lineno} column "
                                 f"{e.colno}") from None
    except (RecursionError, ValueError):
        raise InputError("body", "not valid JSON") from None
    return check_json(obj)


def _depth_over(text: str, limit: int) -> bool:
    """The brackets of ``text`` (outside strings) nest deeper than ``limit`` (a quick scan,
    before the parser would recurse)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > limit:
                return True
        elif c in "]}":
            depth -= 1
    return False


async def read_json(request: Request) -> Any:
    """The request body as checked JSON (:func:`parse_json`); it must be sent as
    ``application/json`` (``415`` otherwise: a cross-site form cannot send that type)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json" and not (kind.startswith("application/")
                                           and kind.endswith("+json")):
        raise UnsupportedMediaError(kind)
    return parse_json(await request.body())


#: The largest first message of a socket, before it proves its seat (``{"token": ...}`` is
#: about 50 bytes): a bigger one closes the socket unread.
MAX_FIRST_MESSAGE: Final = 1024


def first_socket_token(message: Message) -> str | None:
    """The secret a socket's first message ``{"token": "..."}`` carries (an ASGI
    ``websocket.receive`` message), else ``None``: a binary frame, text past
    :data:`MAX_FIRST_MESSAGE` bytes, JSON that does not parse or nests too deep
    (:func:`parse_json`), or a token that is not text. Never raises.

    >>> first_socket_token({"type": "websocket.receive", "text": '{"token": "s3cret"}'})
    's3cret'
    >>> [first_socket_token({"type": "websocket.receive", **m}) for m in (
    ...     {"text": '{"token": 5}'}, {"text": "[" * 100_000}, {"bytes": b"{}"}, {})]
    [None, None, None, None]
    """
    text = message.get("text")
    if not isinstance(text, str) or len(text) > MAX_FIRST_MESSAGE:
        return None
    try:
        obj = parse_json(text.encode("utf-8", "surrogatepass"))
    except InputError:
        return None
    token = obj.get("token") if isinstance(obj, dict) else None
    return token if isinstance(token, str) and 0 < len(token) <= 128 else None


class UnsupportedMediaError(Exception):
    """A JSON route got a body of another type."""

    def __init__(self, kind: str) -> None:
        shown = kind or "none"
        super().__init__(f"Content-Type: send the body as application/json (not {shown})")


class BodyTooLargeError(Exception):
    """A request body past the limit (found while it streamed)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"body: too large (at most {limit:,} bytes)".replace(",", " "))


def inline_script_hashes(html: str) -> str:
    """The CSP sources (``'sha256-...'``) allowing exactly the inline scripts of ``html``
    (for a generated page such as the API docs)."""
    import base64
    import re

    found = re.findall(r"<script>(.*?)</script>", html, flags=re.DOTALL)
    return " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in found)


# -- the middleware --------------------------------------------------------------------------
def _host_of(value: str) -> str:
    """``example.org`` of ``example.org:8000`` or ``[::1]:8000``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].split("]")[0]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    """``host`` (a ``Host`` header) matches one of ``allowed`` (``*``, ``name`` or
    ``*.domain``)."""
    name = _host_of(host)
    for pattern in allowed:
        if pattern == "*" or pattern == name or (
                pattern.startswith("*.") and name.endswith(pattern[1:])):
            return True
    return False


def cross_site(method: str, headers: dict[str, str]) -> bool:
    """An unsafe request a browser marks as sent by a page of another site.

    >>> cross_site("POST", {"host": "a.org", "origin": "https://evil.org"})
    True
    >>> cross_site("POST", {"host": "a.org", "sec-fetch-site": "same-origin",
    ...                     "origin": "http://a.org"})
    False
    >>> cross_site("DELETE", {"host": "a.org", "sec-fetch-site": "cross-site"})
    True
    >>> cross_site("GET", {"host": "a.org", "origin": "https://evil.org"})
    False
    >>> cross_site("POST", {"host": "a.org"})  # curl, scripts: no browser headers
    False
    """
    if method not in UNSAFE_METHODS:
        return False
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return True
    origin = headers.get("origin")
    if origin is None:
        return False
    if origin == "null":
        return True
    return urlsplit(origin).netloc.lower() != headers.get("host", "").lower()


class BodyTimeoutError(Exception):
    """A request body that did not all come in time (a slow or stalled client)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"body: it did not all come within {seconds:g} s: send the request "
                         "again")


_JOIN_PAGE: Final = re.compile(r"/t/[^/]+")
_TABLE_SOCKET: Final = re.compile(r"/api/tables/([^/]+)/(?:watch/)?ws")
_STREAM: Final = re.compile(r"/views/([^/]+)/events")
#: Answers of a join that failed (an unknown code, a kept seat without its invitation, a full
#: room): they count against the client's failed joins.
_FAILED_JOIN: Final = frozenset({403, 404, 409, 422})
#: The routes that create a counter game (an import is one) or a concours (whose organiser
#: then opens counter games for its tables): they count against ``games_per_minute``.
_GAME_CREATIONS: Final = frozenset({"/api/counter/games", "/games", "/api/counter/games/import",
                                    "/import", "/api/concours", "/concours"})


def request_kind(method: str, path: str) -> str | None:
    """The limit a request counts against: ``tables`` (a table created), ``games`` (a counter
    game created or imported, a concours created), ``joins`` (a room joined by its code),
    ``stream`` (a live sheet), or ``None``. A room's next game (``/again``, the page's and the
    API's) is counted by its route, and only by the call that starts it
    (:data:`rebelote.web.table.deps.TableStartDep`).

    >>> [request_kind(m, p) for m, p in (("POST", "/api/tables"), ("POST", "/tables/a1/again"),
    ...  ("POST", "/import"), ("POST", "/api/counter/games/import"), ("POST", "/api/concours"),
    ...  ("GET", "/t/K7XP3QAB"), ("GET", "/views/v1/events"), ("GET", "/api/tables"))]
    ['tables', None, 'games', 'games', 'games', 'joins', 'stream', None]
    """
    if method == "POST":
        if path in ("/api/tables", "/tables"):
            return "tables"
        if path in _GAME_CREATIONS:
            return "games"
        if path == "/api/tables/join":
            return "joins"
    if method in ("GET", "POST") and _JOIN_PAGE.fullmatch(path):
        return "joins"
    if method == "GET" and _STREAM.fullmatch(path):
        return "stream"
    return None


def client_of(scope: Scope) -> str:
    """The client's address (the proxy's word for it when the proxy is trusted: uvicorn's
    ``--forwarded-allow-ips`` puts it in the scope)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


class SecurityMiddleware:
    """Host check, cross-site check, body limit and timeout (while streaming), rates and caps
    per client (:mod:`rebelote.web.limits`) and security headers, as one pure ASGI middleware
    (streaming answers such as server-sent events pass through).

    ``allowed_hosts``: the names the ``Host`` header may carry (``*`` for any), on every
    route and socket. ``max_body``: the largest request body in bytes. ``csp``: the
    Content-Security-Policy (``extra_csp`` maps a path to another one, e.g. the API docs
    page). ``limits``: the rates, caps and timeouts. On HTTPS (directly, or behind a proxy
    trusted with ``--forwarded-allow-ips``), every answer carries HSTS; every answer but the
    static files (and those that name their own, like a public QR code) carries
    ``Cache-Control: no-store``: a table's answers hold a hand, others a secret (a game's edit
    link, a seat's invitation, a concours's phone links).
    """

    def __init__(self, app: ASGIApp, *, allowed_hosts: Iterable[str] = ("*",),
                 max_body: int = MAX_BODY, csp: str = CSP,
                 extra_csp: dict[str, str] | None = None, limits: Limits | None = None,
                 store: LimitStore | None = None) -> None:
        self.app = app
        self.allowed_hosts = tuple(h.strip().lower() for h in allowed_hosts if h.strip())
        self.max_body = max_body
        self.csp = csp
        self.extra_csp = dict(extra_csp or {})
        self.limits = limits = store.limits if store is not None else (limits or Limits())
        #: the counts: this process's memory, or the database shared by every worker
        self.store = store or LimitStore(limits)

    def _host_ok(self, headers: dict[str, str]) -> bool:
        return "*" in self.allowed_hosts or host_allowed(headers.get("host", ""),
                                                          self.allowed_hosts)

    def client(self, scope: Scope) -> str:
        """The client a request counts against: its address, or its IPv6 network
        (:func:`~rebelote.web.limits.client_key`)."""
        return client_key(client_of(scope), self.limits.ipv6_prefix)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        if not self._host_ok(headers):  # a DNS-rebinding page opens no socket either
            await send({"type": "websocket.close", "code": 4400})
            return
        found = _TABLE_SOCKET.fullmatch(str(scope.get("path", "")))
        if found is None:
            await self.app(scope, receive, send)
            return
        client = self.client(scope)
        # a bounded number of sockets per table and client, and per client across every table
        per_client = f"socket {client}"
        per_table = f"socket {found.group(1)} {client}"
        if not await self.store.open(per_client, self.limits.sockets_per_client):
            await send({"type": "websocket.close", "code": 4429})
            return
        try:
            if not await self.store.open(per_table, self.limits.sockets_per_table):
                await send({"type": "websocket.close", "code": 4429})
                return
            try:
                await self._watched_socket(scope, receive, send)
            finally:
                await self.store.close(per_table)
        finally:
            await self.store.close(per_client)

    async def _watched_socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The socket served, closed once nothing passed either way for
        ``socket_idle_timeout`` seconds (an idle socket holds a descriptor and memory)."""
        idle = float(self.limits.socket_idle_timeout)
        if not idle:
            await self.app(scope, receive, send)
            return
        last = [time.monotonic()]
        closing = False

        async def seen_receive() -> Message:
            message = await receive()
            last[0] = time.monotonic()
            return message

        async def seen_send(message: Message) -> None:
            if closing:  # closed for idleness: the route's own close is not sent
                return
            last[0] = time.monotonic()
            await send(message)

        served = asyncio.ensure_future(self.app(scope, seen_receive, seen_send))
        try:
            while not served.done():
                left = last[0] + idle - time.monotonic()
                if left <= 0:
                    closing = True
                    served.cancel()
                    with contextlib.suppress(BaseException):
                        await served
                    with contextlib.suppress(Exception):
                        await send({"type": "websocket.close", "code": 4408,
                                    "reason": "idle"})
                    return
                await asyncio.wait({served}, timeout=min(left, 30.0))
            await served
        finally:
            if not served.done():
                served.cancel()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        path = str(scope.get("path", ""))
        csp = self.extra_csp.get(path, self.csp).encode()
        https = scope.get("scheme") == "https" and self.limits.hsts_seconds > 0
        # every answer but the static files and those that say otherwise (a public QR code)
        # is not stored: a view holds a hand, a page or an answer may hold a secret (a game's
        # edit link, a table's invitation, a concours's phones)
        private = not path.startswith(_PUBLIC_PREFIXES)

        async def send_secure(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = [(k, v) for k, v in message.get("headers", [])
                       if k.lower() not in _OWN_HEADERS]
                out.append((b"content-security-policy", csp))
                out.extend(SECURITY_HEADERS)
                if https:
                    out.append((b"strict-transport-security",
                                f"max-age={self.limits.hsts_seconds}".encode()))
                if private and not any(k.lower() == b"cache-control" for k, _ in out):
                    out.append((b"cache-control", b"no-store"))
                message["headers"] = out
            await send(message)

        if not self._host_ok(headers):
            await _refuse(scope, send_secure, 400,
                          "Host: this server does not answer for that name")
            return
        if cross_site(scope["method"], headers):
            await _refuse(scope, send_secure, 403,
                          "Origin: a page of another site cannot change games here")
            return
        length = headers.get("content-length")
        if length is not None and (not is_digits(length) or int(length) > self.max_body):
            await _refuse(scope, send_secure, 413, str(BodyTooLargeError(self.max_body)),
                          close=True)
            return
        client = self.client(scope)
        kind = request_kind(scope["method"], path)
        if kind in ("tables", "games", "joins"):
            # taken before the request (two at once never both take the last one); a join
            # that worked is given back after it
            wait = await self.store.take(str(kind), client)
            if wait:
                what = {"tables": "tables started", "games": "games started",
                        "joins": "joins that failed"}[str(kind)]
                await _refuse(scope, send_secure, 429,
                              f"rate: too many {what} from your address: try again in "
                              f"{wait:g} s", retry_after=wait)
                return
        streams: tuple[str, str] | None = None
        if kind == "stream":
            found = _STREAM.fullmatch(path)
            assert found is not None
            per_game, per_client = f"stream {found.group(1)}", f"stream {client}"
            if not await self.store.open(per_game, self.limits.streams_per_game):
                await _refuse(scope, send_secure, 429, "live: too many live sheets of this "
                              "game are open: try again later", retry_after=30)
                return
            if not await self.store.open(per_client, self.limits.streams_per_client):
                await self.store.close(per_game)
                await _refuse(scope, send_secure, 429, "live: too many live sheets are open "
                              "from your address: close some", retry_after=30)
                return
            streams = (per_game, per_client)
        seen = 0
        started = False
        status: list[Any] = [0, ""]
        body_done = False
        # the whole body within body_timeout of the request's head: a body that trickles in
        # (a byte every few seconds, slowloris) is cut off like one that stops
        timeout = float(self.limits.body_timeout)
        deadline = time.monotonic() + timeout

        async def limited_receive() -> Message:
            nonlocal seen, body_done
            if body_done:
                return await receive()
            try:
                message: Message = await asyncio.wait_for(
                    receive(), max(deadline - time.monotonic(), 0.0) if timeout else None)
            except TimeoutError:
                raise BodyTimeoutError(self.limits.body_timeout) from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                body_done = not message.get("more_body", False)
                if seen > self.max_body:
                    raise BodyTooLargeError(self.max_body)
            else:
                body_done = True
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                status[0] = int(message["status"])
                status[1] = next((v.decode("latin-1") for k, v in message.get("headers", [])
                                  if k.lower() == b"location"), "")
            await send_secure(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLargeError:
            if started:
                raise
            await _refuse(scope, send_secure, 413, str(BodyTooLargeError(self.max_body)),
                          close=True)
        except BodyTimeoutError as e:
            if started:
                raise
            await _refuse(scope, send_secure, 408, str(e), close=True)
        finally:
            if streams is not None:
                await self.store.close(streams[0])
                await self.store.close(streams[1])
            if kind == "joins" and not (status[0] in _FAILED_JOIN or (
                    status[0] == 303 and str(status[1]).startswith("/t/"))):
                await self.store.give_back("joins", client)


#: Answers that hold nothing private (stored by browsers and proxies as they say).
_PUBLIC_PREFIXES: Final = ("/static/",)
_OWN_HEADERS: Final = frozenset({b"content-security-policy", *(k for k, _ in SECURITY_HEADERS)})


def wants_html(scope: Scope) -> bool:
    """A request from a page (not the JSON API): errors are then an HTML page."""
    path = str(scope.get("path", ""))
    return not (path.startswith(("/api/", "/sheets/"))
                or path in ("/openapi.json", "/healthz"))


async def _refuse(scope: Scope, send: Send, status: int, message: str, *,
                  close: bool = False, retry_after: float | None = None) -> None:
    if wants_html(scope):  # the error map's page, in the request's language
        body = bytes(error_page(status, message, lang=request_lang(Request(scope))).body)
        kind = b"text/html; charset=utf-8"
    else:
        body = json.dumps({"error": message}).encode()
        kind = b"application/json"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    if retry_after is not None:
        headers.append((b"retry-after", str(math.ceil(retry_after)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


_VERSION: Final = re.compile(r'^\s*(?:W/)?"?(\d{1,15})"?\s*$', re.ASCII)


def parse_if_match(value: str | None) -> int | None:
    """The version named by an ``If-Match`` header (``3``, ``"3"``, ``W/"3"``; ``*`` is any)."""
    if value is None or value.strip() in ("", "*"):
        return None
    found = _VERSION.match(value)
    if not found:
        raise InputError("If-Match", f"{value[:40]!r} is not a game version: a whole number "
                                     "like \"3\"")
    return int(found.group(1))


__all__ = [
    "CSP",
    "KEYS_COOKIE",
    "MAX_BODY",
    "MAX_DEPTH",
    "MAX_FIRST_MESSAGE",
    "MAX_INT",
    "BodyTimeoutError",
    "BodyTooLargeError",
    "KeyRing",
    "SecurityMiddleware",
    "UnsupportedMediaError",
    "bearer",
    "check_json",
    "client_of",
    "cross_site",
    "first_socket_token",
    "host_allowed",
    "inline_script_hashes",
    "is_https",
    "parse_if_match",
    "parse_json",
    "presented_secrets",
    "read_json",
    "request_kind",
    "wants_html",
]
