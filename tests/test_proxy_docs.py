"""The reverse proxies of docs/ops-proxies.md, as the page writes them, in front of a real
``rebelote serve`` (issue 36, item 6). nginx's and Caddy's configurations are read from the
page; only the certificate (made here), the ports and the log's path change for loopback.
Through each proxy, on a port that is not 443 (the ``Host`` then carries a port, as a browser's
``Origin`` does): ``/healthz`` answers, HSTS says the app saw HTTPS (the proxy's
``X-Forwarded-Proto`` trusted), a play table's WebSocket opens and pushes the view after a
move, a live sheet's event stream shows a new deal at once (nothing buffered), and the app
counts the client the proxy names (a client on 127.0.0.2), not the proxy."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from web_fixtures import free_port, live_server

DOC = Path(__file__).resolve().parents[1] / "docs" / "ops-proxies.md"
SITE = "belote.example.org"
pytestmark = pytest.mark.xdist_group("proxies")


def _block(heading: str) -> str:
    """The first code block under ``heading`` in the page."""
    section = DOC.read_text(encoding="utf-8").split(f"\n## {heading}\n", 1)[1]
    found = re.search(r"```\w*\n(.*?)```", section, re.S)
    assert found is not None, heading
    return found.group(1)


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if not shutil.which("openssl"):
        pytest.skip("openssl is absent")
    folder = tmp_path_factory.mktemp("cert")
    key, crt = folder / "key.pem", folder / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
                    "-out", str(crt), "-days", "2", "-subj", f"/CN={SITE}",
                    "-addext", f"subjectAltName=DNS:{SITE}"], check=True, capture_output=True)
    return crt, key


@contextmanager
def _running(command: list[str], port: int, env: dict[str, str] | None = None,
             log: Path | None = None) -> Iterator[None]:
    """A proxy in the foreground until the block ends, once its port accepts connections."""
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with httpx.Client(verify=False) as c:
                    c.get(f"https://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.HTTPError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    out = proc.stdout.read().decode() if proc.stdout and proc.poll() else ""
                    extra = log.read_text() if log and log.exists() else ""
                    raise RuntimeError(f"the proxy did not start: {out}{extra}") from None
                time.sleep(0.1)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def _nginx(tmp: Path, cert: tuple[Path, Path], upstream: int, port: int) -> Iterator[None]:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                      else None)
    if nginx is None:
        pytest.skip("nginx is absent")
    site = _block("nginx")
    for before, after in [("listen 80;", f"listen 127.0.0.1:{free_port()};"),
                          ("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;"),
                          (f"/etc/letsencrypt/live/{SITE}/fullchain.pem", str(cert[0])),
                          (f"/etc/letsencrypt/live/{SITE}/privkey.pem", str(cert[1])),
                          ("/var/log/nginx/rebelote.log", str(tmp / "access.log")),
                          ("127.0.0.1:8000", f"127.0.0.1:{upstream}")]:
        assert before in site, before
        site = site.replace(before, after)
    (tmp / "rebelote.conf").write_text(site)
    temp = "\n".join(f"    {name}_temp_path {tmp / name};"
                     for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp / "nginx.conf").write_text(
        f"daemon off;\npid {tmp / 'nginx.pid'};\nerror_log {tmp / 'error.log'};\n"
        f"events {{}}\nhttp {{\n{temp}\n    include {tmp / 'rebelote.conf'};\n}}\n")
    with _running([nginx, "-p", str(tmp), "-c", str(tmp / "nginx.conf")], port,
                  log=tmp / "error.log"):
        yield


@contextmanager
def _caddy(tmp: Path, cert: tuple[Path, Path], upstream: int, port: int) -> Iterator[None]:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is absent")
    site = _block("Caddy")
    for before, after in [(f"{SITE} {{", f"https://{SITE}:{port} {{\n\ttls {cert[0]} {cert[1]}"),
                          ("127.0.0.1:8000", f"127.0.0.1:{upstream}")]:
        assert before in site, before
        site = site.replace(before, after)
    (tmp / "Caddyfile").write_text(
        "{\n\tadmin off\n\tauto_https disable_redirects\n\tdefault_sni " + SITE
        + f"\n\tstorage file_system {tmp / 'data'}\n}}\n" + site)
    env = {**os.environ, "HOME": str(tmp), "XDG_DATA_HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp)}
    with _running([caddy, "run", "--config", str(tmp / "Caddyfile"), "--adapter", "caddyfile"],
                  port, env=env):
        yield


def _through(port: int) -> None:
    """A table's socket, a live sheet's events and the proxy's headers, through ``port``."""
    import websockets

    origin = f"https://{SITE}:{port}"
    headers = {"Host": f"{SITE}:{port}", "Origin": origin}
    sni = {"sni_hostname": SITE}
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    base = f"https://127.0.0.1:{port}"

    async def check() -> None:
        # a client on 127.0.0.2: the app must see it, not the proxy's 127.0.0.1
        transport = httpx.AsyncHTTPTransport(verify=context, local_address="127.0.0.2")
        async with httpx.AsyncClient(base_url=base, transport=transport, headers=headers,
                                     timeout=20) as c:
            health = await c.get("/healthz", extensions=sni)
            assert health.status_code == 200 and health.json()["ok"] is True
            page = await c.get("/", extensions=sni)
            assert page.headers.get("strict-transport-security", "").startswith("max-age=")

            made = await c.post("/api/tables", json={"game": "coinche", "bots": "debutant"},
                                extensions=sni)
            assert made.status_code == 201, made.text
            table = made.json()
            async with websockets.connect(
                    f"wss://{SITE}:{port}/api/tables/{table['id']}/ws", host="127.0.0.1",
                    port=port, ssl=context, server_hostname=SITE, origin=origin,  # type: ignore[arg-type]
                    open_timeout=20) as ws:
                await ws.send(json.dumps({"token": table["token"]}))
                first = json.loads(await asyncio.wait_for(ws.recv(), 20))
                assert first["legal"], first
                moved = await c.post(f"/api/tables/{table['id']}/actions",
                                     json={"action": first["legal"][0]}, extensions=sni,
                                     headers={"Authorization": f"Bearer {table['token']}"})
                assert moved.status_code == 200, moved.text
                pushed = json.loads(await asyncio.wait_for(ws.recv(), 20))
                assert pushed["version"] > first["version"]

            game = (await c.post("/api/counter/games", json={"game": "belote", "rules": "official",
                                                              "target": 1000}, extensions=sni))
            assert game.status_code == 201, game.text
            g = game.json()
            added: list[float] = []

            async def listen(opened: asyncio.Event) -> float:
                async with c.stream("GET", f"/views/{g['view']}/events", extensions=sni) as s:
                    opened.set()
                    async for line in s.aiter_lines():
                        if line.startswith("event: update") and added:
                            return time.monotonic() - added[0]
                raise AssertionError("the stream ended")

            opened = asyncio.Event()
            task = asyncio.create_task(listen(opened))
            await asyncio.wait_for(opened.wait(), 20)
            await asyncio.sleep(0.5)  # the stream's first update (the game as it is) is past
            added.append(time.monotonic())
            deal = await c.post(f"/api/counter/games/{g['id']}/deals", extensions=sni,
                                json={"trump": "hearts", "taker": "NS", "points": {"NS": 98}},
                                headers={"Authorization": f"Bearer {g['token']}"})
            assert deal.status_code == 200, deal.text
            assert await asyncio.wait_for(task, 20) < 5  # not held in a buffer

            # the limits count the client the proxy names: 127.0.0.2 spends its failed joins
            # (2 a minute here), and 127.0.0.3, behind the same proxy, still has its own
            async def join(client: httpx.AsyncClient) -> int:
                answer = await client.post("/api/tables/join", json={"code": "ZZZZZZZZ"},
                                           extensions=sni)
                return answer.status_code

            assert [await join(c) for _ in range(3)] == [404, 404, 429]
            other = httpx.AsyncHTTPTransport(verify=context, local_address="127.0.0.3")
            async with httpx.AsyncClient(base_url=base, transport=other, headers=headers,
                                         timeout=20) as c3:
                assert await join(c3) == 404

    asyncio.run(check())


@pytest.mark.parametrize("proxy", ["nginx", "caddy"])
def test_the_proxy_of_the_docs_serves_sockets_events_and_the_clients_address(
        proxy: str, tmp_path: Path, cert: tuple[Path, Path]) -> None:
    start = _nginx if proxy == "nginx" else _caddy
    if not shutil.which(proxy) and not Path(f"/usr/sbin/{proxy}").exists():
        pytest.skip(f"{proxy} is absent")
    db = f"sqlite:///{tmp_path / 'proxy.db'}"
    # the site's name, and loopback's for the fixture's own /healthz on the server's port
    with live_server(db, None, "--allowed-hosts", f"{SITE},127.0.0.1",
                     "--forwarded-allow-ips", "127.0.0.1",
                     "--limits", "failed_joins_per_minute=2,burst_minutes=1") as url:
        upstream = int(url.rsplit(":", 1)[1])
        port = free_port()
        with start(tmp_path, cert, upstream, port):
            _through(port)
