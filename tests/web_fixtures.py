"""Shared helpers of the web tests: an app on a temporary SQLite file, a real server in a
subprocess, the seed games, and the worker's chromium (``tests/conftest.py``'s ``browser``)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

VECTORS = Path(__file__).parent / "vectors" / "seed-games.jsonl"
#: Debian's chromium, which the browser tests drive with Playwright (skipped without it).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def seed_games() -> list[dict[str, Any]]:
    """The game vectors of the source documents (``tests/vectors/seed-games.jsonl``)."""
    with VECTORS.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def seed_game(vector_id: str) -> dict[str, Any]:
    """One seed game vector by id."""
    return next(v for v in seed_games() if v["id"] == vector_id)


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(db_url: str, port: int, options: Sequence[str], env: dict[str, str] | None = None
           ) -> subprocess.Popen[bytes] | None:
    """``rebelote serve`` on ``port``, answering ``/healthz``; ``None`` when the port was
    taken meanwhile (a free port picked, then bound by another socket before the server:
    a client's own ephemeral port can be it). ``env``: variables added to the environment."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    proc = subprocess.Popen(
        [sys.executable, "-m", "rebelote.cli", "serve", "--port", str(port), "--db", db_url,
         "--log-level", "warning", *options],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 90  # a busy machine starts it slowly
    # one client for the polls (httpx.get makes a client, and its TLS context, on each call:
    # most of the CPU this loop took on a loaded machine)
    with httpx.Client(timeout=1) as http:
        while True:
            try:  # ours only while it runs: another server could hold the port
                if http.get(f"http://127.0.0.1:{port}/healthz").status_code == 200 \
                        and proc.poll() is None:
                    return proc
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                if proc.poll() is None:  # alive but silent: stop it, or its output never ends
                    proc.kill()
                out = proc.stdout.read().decode() if proc.stdout else ""
                if "address already in use" in out:
                    return None
                raise RuntimeError(f"the server did not start: {out}")
            time.sleep(0.05)


@contextmanager
def live_server(db_url: str, port: int | None = None, *options: str,
                env: dict[str, str] | None = None) -> Iterator[str]:
    """``rebelote serve`` in a subprocess on a free loopback port (with ``options`` more, and
    the variables of ``env`` in its environment); yields its base URL and stops it with
    SIGTERM (checking it exits cleanly). A free port taken before the server binds it is
    replaced by another (a given ``port`` is not)."""
    for _ in range(5):
        chosen = port or free_port()
        proc = _serve(db_url, chosen, options, env)
        if proc is not None or port:
            break
    if proc is None:
        raise RuntimeError(f"the server did not start: port {chosen} already in use")
    try:
        yield f"http://127.0.0.1:{chosen}"
    finally:
        proc.terminate()
        try:
            code = proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise AssertionError("the server did not stop on SIGTERM") from None
        assert code == 0, f"the server exited with {code} on SIGTERM"


class KeyedClient:
    """Mixin of the tests' ``TestClient``: it keeps the secret ``token`` of every game it
    creates (``POST /api/counter/games``, ``/import``) and sends it as ``Authorization: Bearer``
    on that game's routes, as a real API client would. ``keyless()`` requests carry none."""

    tokens: dict[str, str]

    def request(self, method: str, url: Any, *args: Any, **kwargs: Any) -> Any:
        path = str(url)
        headers = dict(kwargs.pop("headers", None) or {})
        if getattr(self, "_with_keys", True) and "Authorization" not in headers:
            parts = path.split("?")[0].split("/")
            if len(parts) > 4 and parts[1:4] == ["api", "counter", "games"]:
                token = self.tokens.get(parts[4])
                if token:
                    headers["Authorization"] = f"Bearer {token}"
        response = super().request(method, url, *args, headers=headers, **kwargs)  # type: ignore[misc]
        if method.upper() == "POST" and response.status_code == 201:
            try:
                body = response.json()
            except ValueError:
                body = {}
            if isinstance(body, dict) and "token" in body and "id" in body:
                self.tokens[body["id"]] = body["token"]
        return response


def keyed_client(app: Any, tokens: dict[str, str] | None = None) -> Any:
    """A ``TestClient`` on ``app`` that keeps and presents its games' secrets (in ``tokens``,
    which two clients may share)."""
    from fastapi.testclient import TestClient

    class _Client(KeyedClient, TestClient):
        pass

    client = _Client(app)
    client.tokens = {} if tokens is None else tokens
    return client


class Chromium:
    """The worker's one chromium, launched when a test first asks for it and closed when the
    next test needs none (``tests/conftest.py``): a launch costs a second of CPU, and the
    browser tests run one after another (the slow ones first, then the others). Playwright's
    synchronous API keeps an event loop marked running while it is open, so that a test that
    runs its own (``asyncio.run``) could not run beside it: it is closed before such tests."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None
        #: Contexts kept from one test to the next, by viewport (:meth:`kept_page`).
        self._kept: dict[tuple[int, int], Any] = {}
        #: Launches so far.
        self.launches = 0

    def get(self) -> Any:
        if self._browser is None or not self._browser.is_connected():
            from playwright.sync_api import sync_playwright

            self.close()
            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM,
                                                             args=CHROMIUM_ARGS)
            self.launches += 1
        return self._browser

    def close_contexts(self) -> None:
        """Close the contexts a test left open (their pages' sockets and timers would go on
        working through the next tests), except a module's kept pages' (:meth:`kept_page`),
        which are left on a blank page."""
        if self._browser is not None and self._browser.is_connected():
            for context in list(self._browser.contexts):
                if context in self._kept.values():
                    try:
                        for page in context.pages:
                            page.goto("about:blank")  # the test's table left: no socket open
                        continue
                    except Exception:  # a page that crashed or hung: closed, made anew
                        self._kept = {k: c for k, c in self._kept.items() if c is not context}
                context.close()

    def kept_page(self, viewport: dict[str, int]) -> Any:
        """A page of this size kept from one test to the next (a new context costs a renderer
        of its own, 0.26 s of CPU, and its first page's load as much again), for the tests of
        a module that need no fresh cookies nor storage: each starts its own table, and the
        key ring cookie of the tables before is no part of what it checks. The page is on
        ``about:blank`` after each test; its context is made again if chromium was closed
        meanwhile, and closed by :meth:`drop_kept` (the module's end)."""
        key = (viewport["width"], viewport["height"])
        context = self._kept.get(key)
        if context is None or not self._browser or context not in self._browser.contexts:
            context = self._kept[key] = self.get().new_context(viewport=viewport)
        return context.pages[0] if context.pages else context.new_page()

    def drop_kept(self) -> None:
        """Close the kept pages' contexts (:meth:`kept_page`)."""
        kept, self._kept = self._kept, {}
        if self._browser is not None and self._browser.is_connected():
            for context in kept.values():
                if context in self._browser.contexts:
                    context.close()

    def close(self) -> None:
        self._kept = {}
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        try:
            if browser is not None:
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()
